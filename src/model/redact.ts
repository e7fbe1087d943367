/**
 * What must not leave the machine: absolute home paths (they name the user) and
 * anything that looks like a credential. Applied to every message by withRedaction, so
 * every provider gets it. Source code passes through this too, so the rules redact
 * literal values, never identifiers: `this.password = password;` stays intact.
 */
import { homedir } from 'node:os';
import type { ChatRequest, ModelProvider } from './types.js';

export const REDACTED = '[REDACTED]';

export interface RedactionOptions {
  /** Home folders to replace with `~`, besides the current user's and the usual /home/x, /Users/x, C:\Users\x. */
  homeDirs?: string[];
  /** Absolute project root, replaced with `.` so paths read as project-relative. */
  projectRoot?: string;
  /** Extra regular expressions (sources or RegExp) whose matches become [REDACTED]. */
  extraPatterns?: (string | RegExp)[];
  /** False turns redaction off (config redact.enabled: false). */
  enabled?: boolean;
}

const KEY = String.raw`[\w.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?)`;

/** Whole matches replaced: each is a secret in its own right. */
const SECRET_TOKENS: RegExp[] = [
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{22,}\b/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g,
];

/** Matches whose value group is replaced, keeping the key so the text still reads. */
const SECRET_VALUES: { pattern: RegExp; keep: (match: string, ...groups: string[]) => string }[] = [
  // password = "hunter2", "token": "abc" (JSON), apiKey: 'x' — the quoted literal. No
  // whitespace inside, so `"Invalid token: " + name` (code, not a secret) is left alone.
  {
    pattern: new RegExp(String.raw`(${KEY}["']?\s*[:=]\s*)(["'])((?:(?!\2)[^\\\s]|\\.)+)\2`, 'gi'),
    keep: (_m, prefix, quote) => `${prefix}${quote}${REDACTED}${quote}`,
  },
  // properties/YAML/env lines and -Dkey=value flags: an unquoted value that ends the line or the flag.
  {
    pattern: new RegExp(String.raw`(^[ \t]*(?:export[ \t]+)?${KEY}[ \t]*[:=][ \t]*)(?!\$\{)([^\s"'][^\s;(){}]*)[ \t]*$`, 'gim'),
    keep: (_m, prefix) => `${prefix}${REDACTED}`,
  },
  { pattern: new RegExp(String.raw`((?:^|\s)--?D?${KEY}=)(?!\$\{)([^\s"']+)`, 'gi'), keep: (_m, prefix) => `${prefix}${REDACTED}` },
  { pattern: /(\bBearer\s+)[A-Za-z0-9._~+/-]{16,}=*/g, keep: (_m, prefix) => `${prefix}${REDACTED}` },
  // https://user:secret@host
  { pattern: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+(@)/gi, keep: (_m, prefix, at) => `${prefix}${REDACTED}${at}` },
];

/** Generic home folders of any user, in POSIX and Windows spelling. */
const HOME_PATTERNS: RegExp[] = [/(?<![\w.~-])\/(?:home|Users)\/[^/\s'"`:;]+(?=[/\\\s'"`:;)\]]|$)/g, /(?<![\w])[A-Za-z]:[\\/]Users[\\/][^\\/\s'"`:;]+(?=[\\/\s'"`:;)\]]|$)/gi];

export function redact(text: string, options: RedactionOptions = {}): string {
  if (options.enabled === false) return text;
  let result = text;
  for (const pattern of SECRET_TOKENS) result = result.replace(pattern, REDACTED);
  for (const { pattern, keep } of SECRET_VALUES) result = result.replace(pattern, keep as (match: string, ...rest: string[]) => string);
  for (const pattern of compileExtraPatterns(options.extraPatterns ?? [])) result = result.replace(pattern, REDACTED);
  // The project root first: it usually lies inside a home folder and should read as `.`.
  if (options.projectRoot) result = replacePathPrefix(result, options.projectRoot, '.');
  const homes = [...(options.homeDirs ?? []), safeHomedir()].filter((dir): dir is string => !!dir && dir.replace(/[\\/]+$/, '').length > 1);
  for (const home of homes.sort((a, b) => b.length - a.length)) result = replacePathPrefix(result, home, '~');
  for (const pattern of HOME_PATTERNS) result = result.replace(pattern, '~');
  return result;
}

/** A provider whose every outgoing message is redacted first. */
export function withRedaction(provider: ModelProvider, options: RedactionOptions = {}): ModelProvider {
  if (options.enabled === false) return provider;
  // Compile once: a bad extra pattern should fail when the provider is built, not mid-repair.
  compileExtraPatterns(options.extraPatterns ?? []);
  return {
    kind: provider.kind,
    model: provider.model,
    host: provider.host,
    healthCheck: (signal) => provider.healthCheck(signal),
    chat: (request: ChatRequest) =>
      provider.chat({
        ...request,
        messages: request.messages.map((message) => ({
          ...message,
          content: redact(message.content, options),
          // Native tool calls echo the model's arguments back to it: text values are redacted like any message.
          ...(message.toolCalls ? { toolCalls: message.toolCalls.map((call) => ({ ...call, arguments: redactValues(call.arguments, options) as Record<string, unknown> })) } : {}),
        })),
      }),
    ...(provider.toolCalling ? { toolCalling: (signal?: AbortSignal) => provider.toolCalling!(signal) } : {}),
  };
}

function redactValues(value: unknown, options: RedactionOptions): unknown {
  if (typeof value === 'string') return redact(value, options);
  if (Array.isArray(value)) return value.map((item) => redactValues(item, options));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactValues(item, options)]));
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

/** Replaces `prefix` where it starts a path (not inside a longer name), in either slash style. */
function replacePathPrefix(text: string, prefix: string, replacement: string): string {
  const trimmed = prefix.replace(/[\\/]+$/, '');
  if (trimmed.length < 2) return text;
  const variants = new Set([trimmed, trimmed.replace(/\\/g, '/'), trimmed.replace(/\//g, '\\')]);
  let result = text;
  for (const variant of variants) {
    const escaped = variant.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    result = result.replace(new RegExp(`(?<![\\w.-])${escaped}(?=[\\\\/\\s'"\`:;)\\]]|$)`, 'gm'), replacement);
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
