/**
 * The SARIF 2.1.0 JSON schema (the OASIS standard's, rtm.5, as shipped by Microsoft's
 * @microsoft/jest-sarif) compiled with ajv. It is a draft-04 schema, hence ajv-draft-04.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AjvDraft04 from 'ajv-draft-04';

const require = createRequire(import.meta.url);
const schemaFile = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as Record<string, unknown>;

// The schema's `language` pattern is not valid with the u flag (a stray ]), so patterns are compiled without it.
// A CommonJS module seen from ESM: its class is the default export's `default`.
const Ajv = ((AjvDraft04 as unknown as { default?: unknown }).default ?? AjvDraft04) as new (
  options: Record<string, unknown>,
) => {
  compile(
    schema: object,
  ): ((data: unknown) => boolean) & { errors?: { instancePath?: string; message?: string; params?: unknown }[] | null };
};
// The schema's three formats, checked on purpose: without them ajv warns `unknown format "uri" ignored` once per
// use (76 lines in a test log) and checks nothing. RFC 3986 in outline: a URI has a scheme, a reference no blanks.
const formats = {
  'date-time': (text: string) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i.test(text) &&
    !Number.isNaN(Date.parse(text)),
  uri: /^[a-z][a-z0-9+.-]*:\S*$/i,
  'uri-reference': /^\S*$/,
};
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false, formats });
const validate = ajv.compile(schema);

/** Schema errors of a SARIF log, as readable lines; empty when it is valid. */
export function sarifSchemaErrors(log: unknown): string[] {
  if (validate(log)) return [];
  return (validate.errors ?? []).map(
    (error: { instancePath?: string; message?: string; params?: unknown }) =>
      `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
  );
}

export const SARIF_SCHEMA_TITLE = String(schema.title);
