/**
 * Value-based redaction: the literal values of this process's secret-looking environment
 * variables and of settings.xml passwords, found wherever they appear, also in the forms
 * a leak usually takes (base64 at any byte offset, JSON- or XML-escaped, URL-encoded).
 * A shape pattern cannot know that `Tr0ub4dor-x9` is a password; this can. Pure.
 */

/** Environment variable names whose values are secrets. */
const SECRET_ENV_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|KEY|CREDENTIAL|PRIVATE|(?:^|_)AUTH(?:$|_)/i;
/** Names that match the pattern but hold no secret (and whose values would redact ordinary text). */
const NOT_SECRET_ENV = new Set([
  'SSH_AUTH_SOCK',
  'GPG_KEY_ID',
  'KEYMAP',
  'KEYTIMEOUT',
  // Stryker disable next-line StringLiteral: XAUTHORITY does not match SECRET_ENV_NAME (its AUTH is not delimited by
  // _), so this entry is a note for the reader
  'XAUTHORITY',
]);

/** Shorter values would redact ordinary words; a real secret is longer. */
export const MIN_SECRET_LENGTH = 6;
const COMMON_VALUES = new Set([
  // Stryker disable next-line StringLiteral: these three are shorter than MIN_SECRET_LENGTH, so the length test refuses
  // them first; listed for the reader
  'true',
  'false',
  'null',
  'undefined',
  'changeit',
  'password',
]);

export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name) && !NOT_SECRET_ENV.has(name);
}

/** The values of secret-looking variables, plus those named explicitly (model.apiKeyEnv). */
// Stryker disable next-line ArrayDeclaration: a default naming Stryker's marker differs only for an environment
// variable of that name
export function secretEnvValues(env: NodeJS.ProcessEnv, alsoNamed: readonly string[] = []): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (isSecretEnvName(name) || alsoNamed.includes(name)) values.push(value);
  }
  return values;
}

export function usableSecret(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.length >= MIN_SECRET_LENGTH && !COMMON_VALUES.has(trimmed.toLowerCase()) && !/^\d{1,8}$/.test(trimmed);
}

/**
 * The base64 text that a value encodes to at byte offset 0, 1 and 2 of a longer input,
 * without the characters that depend on the neighbouring bytes: any base64 of a text
 * containing the value contains one of these.
 */
export function base64Forms(value: string): string[] {
  // Stryker disable next-line StringLiteral: Buffer.from with an empty encoding name is UTF-8, the default
  const bytes = Buffer.from(value, 'utf8');
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const start = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    const core = encoded.slice(start, end);
    // Too short a core would match by chance.
    if (core.length >= 8) forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

function xmlEscape(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Every spelling of the value to look for, longest first so that a longer form wins over its part. */
export function valueForms(value: string): string[] {
  const forms = new Set<string>([
    value,
    JSON.stringify(value).slice(1, -1),
    xmlEscape(value),
    encodeURIComponent(value),
    ...base64Forms(value),
  ]);
  return [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}
