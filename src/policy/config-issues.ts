/**
 * Turns zod issues into the one-line message the contract asks for: file, line, field
 * path, the value found, what was expected and, for typos, a "did you mean".
 */
import type { z } from 'zod';
import { MvnxError } from '../shared/errors.js';
import { configSchema } from './schema.js';
import type { FieldPath } from './locate.js';
import { closestMatch } from '../shared/similar.js';

/** Where a layer of config came from, to name it in an error. */
export interface LayerOrigin {
  /** `/abs/.mvnxrc.yaml`, `env MVNX_TIER`, `flag --mvnx-tier`, `preset auto`. */
  label: string;
  lineOf?: (path: FieldPath, key?: string) => number | undefined;
}

/** Validates one raw layer (a file, env or flags) on its own; throws MvnxError on the first problem. */
export function validateLayer(raw: unknown, origin: LayerOrigin): void {
  const result = configSchema.safeParse(raw);
  if (!result.success) throw new MvnxError(describeIssues(result.error.issues, raw, origin), 2);
}

export function describeIssues(issues: readonly z.core.$ZodIssue[], raw: unknown, origin: LayerOrigin): string {
  const issue = issues[0]!;
  return `${where(origin, issue.path, issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined)} ${describeFields(configSchema, issues, raw)}`;
}

/**
 * The first issue as `field.path: found X, expected Y` (or `field: unknown key "k" (did you
 * mean ...)`, from the keys `schema` accepts there), plus how many more there are. The
 * config errors put where the layer came from in front; the plugin loader, the plugin.
 */
export function describeFields(schema: z.core.$ZodType, issues: readonly z.core.$ZodIssue[], raw: unknown): string {
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  return describeField(schema, issues[0]!, raw) + more;
}

function describeField(schema: z.core.$ZodType, issue: z.core.$ZodIssue, raw: unknown): string {
  const path = issue.path;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    const known = knownKeysAt(schema, path);
    const guess = closestMatch(key, known);
    const hint = guess ? `did you mean "${guess}"?` : `expected one of: ${known.join(', ')}`;
    return `${formatPath([...path, key])}: unknown key "${key}" (${hint})`;
  }
  const found = valueAt(raw, path);
  return `${formatPath(path) || '(top level)'}: found ${showValue(found)}, expected ${expectation(issue, found)}`;
}

function where(origin: LayerOrigin, path: FieldPath, key?: string): string {
  const line = origin.lineOf?.(path, key);
  return `Invalid ${/^(env|flag) /.test(origin.label) ? '' : 'config '}${origin.label}${line === undefined ? '' : `:${line}`}:`;
}

function expectation(issue: z.core.$ZodIssue, found: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected === 'object' || issue.expected === 'record'
        ? 'a mapping (object)'
        : issue.expected === 'array'
          ? 'a list'
          : `a ${issue.expected}`;
    case 'invalid_value': {
      const values = issue.values.map((v) => JSON.stringify(v));
      const guess = typeof found === 'string' ? closestMatch(found, issue.values.map(String)) : undefined;
      return `one of ${values.join(', ')}${guess ? ` (did you mean "${guess}"?)` : ''}`;
    }
    case 'too_small':
      return issue.origin === 'array'
        ? `a list of at least ${String(issue.minimum)} item(s)`
        : issue.origin === 'string'
          ? 'a non-empty string'
          : `a number ${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}`;
    case 'too_big':
      return `a number ${issue.inclusive ? '<=' : '<'} ${String(issue.maximum)}`;
    case 'invalid_union': {
      const kinds = new Set(
        issue.errors.flatMap((branch) =>
          branch.map((inner) => (inner.code === 'invalid_type' ? inner.expected : inner.message)),
        ),
      );
      return [...kinds].join(' or ');
    }
    case 'not_multiple_of':
      return `a multiple of ${String(issue.divisor)}`;
    default:
      return issue.message;
  }
}

export function formatPath(path: FieldPath): string {
  return path.reduce<string>(
    (acc, step) => (typeof step === 'number' ? `${acc}[${step}]` : acc ? `${acc}.${String(step)}` : String(step)),
    '',
  );
}

function valueAt(raw: unknown, path: FieldPath): unknown {
  let value = raw;
  for (const step of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[step];
  }
  return value;
}

function showValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  // A plugin's fields are code: JSON has no text for a function, a symbol or a bigint.
  if (typeof value === 'function') return 'a function';
  const text = typeof value === 'bigint' || typeof value === 'symbol' ? String(value) : JSON.stringify(value);
  return `${text.length > 60 ? `${text.slice(0, 57)}...` : text} (${typeof value})`;
}

/** Keys an object schema accepts at `path`, looking through optional/default/array/union wrappers. */
export function knownKeysAt(schema: z.core.$ZodType, path: FieldPath): string[] {
  let candidates: z.core.$ZodType[] = [schema];
  for (const step of path) {
    candidates = candidates
      .flatMap((candidate) => unwrap(candidate))
      .flatMap((candidate) => {
        const def = candidate._zod.def as unknown as Record<string, unknown>;
        if (def.type === 'object' && typeof step === 'string') {
          const child = (def.shape as Record<string, z.core.$ZodType>)[step];
          return child ? [child] : [];
        }
        if (def.type === 'array' && typeof step === 'number') return [def.element as z.core.$ZodType];
        return [];
      });
  }
  const keys = candidates.flatMap(unwrap).flatMap((candidate) => {
    const def = candidate._zod.def as unknown as Record<string, unknown>;
    return def.type === 'object' ? Object.keys(def.shape as object) : [];
  });
  return [...new Set(keys)];
}

function unwrap(schema: z.core.$ZodType): z.core.$ZodType[] {
  const def = schema._zod.def as unknown as Record<string, unknown>;
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nullable':
      return unwrap(def.innerType as z.core.$ZodType);
    case 'union':
      return (def.options as z.core.$ZodType[]).flatMap(unwrap);
    default:
      return [schema];
  }
}
