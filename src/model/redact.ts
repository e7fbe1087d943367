/**
 * What must not leave the machine: anything that looks like a credential, the literal
 * values of the secrets this run knows (secret-values.ts), and absolute home paths (they
 * name the user). One Redactor per run serves every channel: the model (at the provider
 * boundary), the console, the run record and its prompt/response files, and reporters.
 *
 * Source code passes through this too, so the rules redact literal values, never
 * identifiers: `this.password = password;` stays intact. A redacted value becomes a
 * numbered placeholder (`[REDACTED-1]`, the same number for the same value all run), so
 * a model that copies the placeholder into a diff's context line still produces a hunk
 * that applies: `restore()` maps placeholders back before the patch layer reads the
 * reply. Redact what is shown, map back what is applied.
 *
 * Why patterns of our own rather than secretlint (evaluated: @secretlint/core 11.7.1 with
 * its recommended preset): its API is asynchronous only, and console lines are written
 * synchronously; and its preset missed AWS access key ids, GitLab tokens, JWTs and Azure
 * connection strings, which the issue names, so we would need these patterns anyway.
 */
import { homedir } from 'node:os';
import type { ChatMessage, ChatRequest, ChatResult, ModelProvider } from './types.js';
import { usableSecret, valueForms } from './secret-values.js';

export const REDACTED = '[REDACTED]';
const PLACEHOLDER = /\[REDACTED(?:-\d+)?\]/g;
const ONLY_PLACEHOLDERS = /^(?:\[REDACTED(?:-\d+)?\])+$/;

export interface RedactionOptions {
  /** Home folders to replace with `~`, besides the current user's and the usual /home/x, /Users/x, C:\Users\x. */
  homeDirs?: string[];
  /** Absolute project root, replaced with `.` so paths read as project-relative. */
  projectRoot?: string;
  /** Extra regular expressions (sources or RegExp) whose matches are redacted. */
  extraPatterns?: (string | RegExp)[];
  /** Literal secret values (environment, settings.xml): found in any of their usual spellings. */
  knownSecrets?: string[];
  /** False turns redaction off (config redact.enabled: false). */
  enabled?: boolean;
}

const KEY = String.raw`[\w.-]*(?:password|passwd|pwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?)`;

/** Whole matches replaced: each is a secret in its own right. */
const SECRET_TOKENS: RegExp[] = [
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g,
  // AWS access key ids; GCP API keys and OAuth access tokens.
  /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\bya29\.[0-9A-Za-z_-]{20,}/g,
  // GitHub, GitLab, npm, Slack, Stripe, SendGrid, OpenAI/Anthropic-style keys.
  /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{22,}\b/g,
  /\bgl(?:pat|dt|rt|cbt|ptt|ft|imt|oas|soat)-[A-Za-z0-9_-]{20,}/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]+/g,
  /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}\b/g,
  /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g,
  /\bsk-(?:proj-|ant-(?:api\d\d-)?)?[A-Za-z0-9_-]{20,}/g,
  // JWTs.
  /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g,
];

const CONNECTION_KEYS = String.raw`(?:password|pwd|user\s*password|accountkey|sharedaccesskey|sig|_auth|_authToken|_password)`;

type Keep = (mask: (secret: string) => string, match: string, ...groups: string[]) => string;

/** Matches whose value group is replaced, keeping the key so the text still reads. */
const SECRET_VALUES: { pattern: RegExp; keep: Keep }[] = [
  // password = "hunter2", "token": "abc" (JSON), apiKey: 'x' — the quoted literal. No
  // whitespace inside, so `"Invalid token: " + name` (code, not a secret) is left alone.
  {
    pattern: new RegExp(String.raw`(${KEY}["']?\s*[:=]\s*)(["'])((?:(?!\2)[^\\\s]|\\.)+)\2`, 'gi'),
    keep: (mask, _m, prefix, quote, value) => `${prefix}${quote}${mask(value)}${quote}`,
  },
  // properties/YAML/env lines and -Dkey=value flags: an unquoted value that ends the line or the flag.
  {
    pattern: new RegExp(
      String.raw`(^[ \t]*(?:export[ \t]+)?${KEY}[ \t]*[:=][ \t]*)(?!\$\{)([^\s"'][^\s;(){}]*)[ \t]*$`,
      'gim',
    ),
    keep: (mask, _m, prefix, value) => `${prefix}${mask(value)}`,
  },
  {
    pattern: new RegExp(String.raw`((?:^|\s)--?D?${KEY}=)(?!\$\{)([^\s"']+)`, 'gi'),
    keep: (mask, _m, prefix, value) => `${prefix}${mask(value)}`,
  },
  // <password>x</password>, <passphrase>, <privateKey> in settings.xml and friends.
  {
    pattern: /(<(password|passphrase|secret|token|apiKey|accessKey|secretKey)>)(?!\s*\$\{)([^<]+)(<\/\2>)/gi,
    keep: (mask, _m, open, _tag, value, close) => `${open}${mask(value)}${close}`,
  },
  { pattern: /(\bBearer\s+)([A-Za-z0-9._~+/-]{16,}=*)/g, keep: (mask, _m, prefix, value) => `${prefix}${mask(value)}` },
  { pattern: /(\bBasic\s+)([A-Za-z0-9+/]{12,}={0,2})/g, keep: (mask, _m, prefix, value) => `${prefix}${mask(value)}` },
  // https://user:secret@host, jdbc:postgresql://user:secret@host, mongodb+srv://...
  {
    pattern: /(\b[a-z][a-z0-9+.:-]*:\/\/[^\s:/@]+:)([^\s@/]+)(@)/gi,
    keep: (mask, _m, prefix, value, at) => `${prefix}${mask(value)}${at}`,
  },
  // Connection strings: ;Password=x; ?password=x& AccountKey=x; SharedAccessKey=x; sig=x (Azure SAS), npm _authToken=x.
  {
    pattern: new RegExp(String.raw`((?:^|[?&;])[ \t]*${CONNECTION_KEYS}[ \t]*=[ \t]*)(?!\$\{)([^;&\s"'<>()]+)`, 'gim'),
    keep: (mask, _m, prefix, value) => `${prefix}${mask(value)}`,
  },
  // The same keys written `key=value` after a space or quote (a command line, a JDBC URL in a string).
  {
    pattern: new RegExp(String.raw`((?:[\s"'/:])${CONNECTION_KEYS}=)(?!\$\{)([^;&\s"'<>()=]+)`, 'gi'),
    keep: (mask, _m, prefix, value) => `${prefix}${mask(value)}`,
  },
];

/** Generic home folders of any user, in POSIX and Windows spelling. */
const HOME_PATTERNS: RegExp[] = [
  /(?<![\w.~-])\/(?:home|Users)\/[^/\s'"`:;]+(?=[/\\\s'"`:;)\]]|$)/g,
  /(?<![\w])[A-Za-z]:[\\/]Users[\\/][^\\/\s'"`:;]+(?=[\\/\s'"`:;)\]]|$)/gi,
];

/** One run's redaction: placeholders are numbered consistently, and map back with restore(). */
export class Redactor {
  private readonly originals: string[] = [];
  private readonly numbers = new Map<string, number>();
  private readonly extra: RegExp[];
  private readonly known: RegExp | undefined;

  constructor(private readonly options: RedactionOptions = {}) {
    // Compile once: a bad extra pattern fails when the redactor is built, not mid-repair.
    // Stryker disable next-line ArrayDeclaration: a default pattern naming Stryker's marker differs only for text
    // containing that marker
    this.extra = compileExtraPatterns(options.extraPatterns ?? []);
    const forms = [...new Set((options.knownSecrets ?? []).filter(usableSecret).flatMap(valueForms))].sort(
      (a, b) => b.length - a.length,
    );
    this.known = forms.length > 0 ? new RegExp(forms.map(escapeRegExp).join('|'), 'g') : undefined;
  }

  get enabled(): boolean {
    return this.options.enabled !== false;
  }

  /** For the model: every secret replaced by its placeholder, the project root and home folders shortened. */
  redact(text: string): string {
    return this.shortenPaths(this.redactSecrets(text));
  }

  /**
   * For what stays on this machine (console, run record, reporters): secrets only. Paths
   * stay as they are there, because a local reader needs them ("not found from /srv/app").
   */
  redactSecrets(text: string): string {
    if (!this.enabled || typeof text !== 'string') return text;
    // Stryker disable next-line StringLiteral,ConditionalExpression: an empty text has nothing to redact; the shortcut
    // only saves the work
    if (text === '') return text;
    const mask = (secret: string) => this.placeholder(secret);
    let result = text;
    // Known values first: a known password inside `password=...` should keep its own number.
    if (this.known) result = result.replace(this.known, mask);
    for (const pattern of SECRET_TOKENS) result = result.replace(pattern, mask);
    for (const { pattern, keep } of SECRET_VALUES) {
      // replace() passes the match, the groups, then the offset (the first number).
      result = result.replace(pattern, (...args: unknown[]) =>
        keep(
          mask,
          ...(args.slice(
            0,
            args.findIndex((a) => typeof a === 'number'),
          ) as [string, ...string[]]),
        ),
      );
    }
    for (const pattern of this.extra) result = result.replace(pattern, mask);
    return result;
  }

  private shortenPaths(text: string): string {
    if (!this.enabled || typeof text !== 'string') return text;
    // Stryker disable next-line StringLiteral,ConditionalExpression: an empty text has no path to shorten; the shortcut
    // only saves the work
    if (text === '') return text;
    let result = text;
    // The project root first: it usually lies inside a home folder and should read as `.`.
    if (this.options.projectRoot) result = replacePathPrefix(result, this.options.projectRoot, '.');
    // Stryker disable next-line all: replacePathPrefix itself skips a prefix shorter than 2 characters; this filter
    // only keeps out an undefined homedir(), which no test can cause without replacing node:os
    const homes = [...(this.options.homeDirs ?? []), safeHomedir()].filter(
      (dir): dir is string => !!dir && dir.replace(/[\\/]+$/, '').length > 1,
    );
    for (const home of homes.sort((a, b) => b.length - a.length)) result = replacePathPrefix(result, home, '~');
    for (const pattern of HOME_PATTERNS) result = result.replace(pattern, '~');
    return result;
  }

  /** Every string inside a JSON-like value, secrets redacted (for the run record and reporters). */
  redactDeep<T>(value: T): T {
    if (!this.enabled) return value;
    if (typeof value === 'string') return this.redactSecrets(value) as T;
    if (Array.isArray(value)) return (value as unknown[]).map((item) => this.redactDeep(item)) as T;
    if (
      value &&
      // Stryker disable next-line ConditionalExpression: a truthy value that is not an object (string handled above,
      // number, function) never has Object.prototype as its prototype
      typeof value === 'object' &&
      Object.getPrototypeOf(value) === Object.prototype
    ) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.redactDeep(item)])) as T;
    }
    return value;
  }

  /** The view the run recorder and the console use: secrets only. */
  forLocalOutput(): { redact(text: string): string; redactDeep<T>(value: T): T } {
    return { redact: (text) => this.redactSecrets(text), redactDeep: (value) => this.redactDeep(value) };
  }

  /** Placeholders back to the text they stand for: what the model wrote is applied to the real files. */
  restore(text: string): string {
    return text.replace(PLACEHOLDER, (placeholder) => {
      const n = /-(\d+)\]$/.exec(placeholder)?.[1];
      const original = n === undefined ? undefined : this.originals[Number(n) - 1];
      return original ?? placeholder;
    });
  }

  private placeholder(secret: string): string {
    // Already redacted (a record written twice): keep it, do not number the placeholder.
    if (ONLY_PLACEHOLDERS.test(secret)) return secret;
    let n = this.numbers.get(secret);
    if (n === undefined) {
      this.originals.push(secret);
      n = this.originals.length;
      this.numbers.set(secret, n);
    }
    return `[REDACTED-${n}]`;
  }
}

/** Stateless redaction with the plain `[REDACTED]` marker (a one-off text). */
export function redact(text: string, options: RedactionOptions = {}): string {
  return new Redactor(options).redact(text).replace(PLACEHOLDER, REDACTED);
}

/**
 * A provider whose every outgoing message is redacted first, and whose replies have the
 * placeholders mapped back. `request.onSend` sees the messages exactly as sent.
 */
export function withRedaction(provider: ModelProvider, redactor: Redactor | RedactionOptions = {}): ModelProvider {
  const active = redactor instanceof Redactor ? redactor : new Redactor(redactor);
  if (!active.enabled) return provider;
  return {
    kind: provider.kind,
    model: provider.model,
    host: provider.host,
    ...(provider.preload ? { preload: (signal?: AbortSignal) => provider.preload!(signal) } : {}),
    healthCheck: (signal) => provider.healthCheck(signal),
    chat: async (request: ChatRequest): Promise<ChatResult> => {
      const messages: ChatMessage[] = request.messages.map((message) => ({
        ...message,
        content: active.redact(message.content),
        // Native tool calls echo the model's arguments back to it: their text is redacted like any message.
        ...(message.toolCalls
          ? {
              toolCalls: message.toolCalls.map((call) => ({
                ...call,
                arguments: mapStrings(call.arguments, (text) => active.redact(text)),
              })),
            }
          : {}),
      }));
      const { onSend, isComplete, ...rest } = request;
      onSend?.(messages);
      const result = await provider.chat({
        ...rest,
        messages,
        // The answer is judged as it will be read: with the placeholders mapped back.
        ...(isComplete ? { isComplete: (text: string) => isComplete(active.restore(text)) } : {}),
      });
      return {
        ...result,
        shown: result.shown ?? result.text,
        text: active.restore(result.text),
        // A placeholder in a tool call's arguments stands for the real text, as in the answer's text.
        ...(result.toolCalls
          ? {
              toolCalls: result.toolCalls.map((call) => ({
                ...call,
                arguments: mapStrings(call.arguments, (text) => active.restore(text)),
              })),
            }
          : {}),
      };
    },
    ...(provider.toolCalling ? { toolCalling: (signal?: AbortSignal) => provider.toolCalling!(signal) } : {}),
    ...(provider.modelContextTokens ? { modelContextTokens: () => provider.modelContextTokens!() } : {}),
  };
}

function mapStrings<T>(value: T, map: (text: string) => string): T {
  if (typeof value === 'string') return map(value) as T;
  if (Array.isArray(value)) return (value as unknown[]).map((item) => mapStrings(item, map)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)])) as T;
  return value;
}

function compileExtraPatterns(patterns: (string | RegExp)[]): RegExp[] {
  return patterns.map((pattern, index) => {
    if (pattern instanceof RegExp) return pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`);
    if (pattern === '') throw new Error(`redact.patterns[${index}] is empty; it would match everywhere`);
    try {
      return new RegExp(pattern, 'g');
    } catch (error) {
      throw new Error(`redact.patterns[${index}] is not a valid regular expression: ${(error as Error).message}`);
    }
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces `prefix` where it starts a path (not inside a longer name), in either slash style. */
function replacePathPrefix(text: string, prefix: string, replacement: string): string {
  const trimmed = prefix.replace(/[\\/]+$/, '');
  if (trimmed.length < 2) return text;
  const variants = new Set([trimmed, trimmed.replace(/\\/g, '/'), trimmed.replace(/\//g, '\\')]);
  let result = text;
  for (const variant of variants) {
    result = result.replace(
      new RegExp(`(?<![\\w.-])${escapeRegExp(variant)}(?=[\\\\/\\s'"\`:;)\\]]|$)`, 'gm'),
      replacement,
    );
  }
  return result;
}

function safeHomedir(): string | undefined {
  try {
    return homedir();
  } catch {
    return undefined;
  }
}
