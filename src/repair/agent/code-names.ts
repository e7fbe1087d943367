/**
 * How a model names code, read before the project is asked: small models copy names from
 * the stack trace and the test in front of them, so a tool that asks for a file gets a
 * simple class name (`OrderService`), a qualified one (`com.acme.OrderService`), a member
 * (`OrderService.total`, `OrderService#total`, `total()`), a file name with no folder, a
 * source path from a stack frame (`com/acme/OrderService.java`), a path of the CI machine
 * (`/home/runner/work/x/x/src/...`, `C:\build\...`) or a whole frame
 * (`at com.acme.OrderService.total(OrderService.java:42)`). Lines come as `14`, `"10-20"`,
 * `[10, 20]`, `"L10-L20"`, `{from, to}` or after the file (`OrderService.java:10-20`).
 * Pure functions of text; code-index.ts looks the names up in the project.
 */
import { editDistance } from '../../shared/similar.js';

/** A designation read from one string: a path, or Java names to try in order. */
export type CodeName = { kind: 'path'; path: string; member?: string } | { kind: 'java'; readings: JavaReading[] };

/** One reading of a Java name: a type (simple, qualified or nested), a member of it, or a member of any type. */
export interface JavaReading {
  type?: string;
  member?: string;
}

export interface LineSpan {
  start: number;
  end?: number;
}

export interface ReadCodeName {
  name: CodeName;
  /** The name as written, without the lines after it: `Utils.java` of `Utils.java line 50`. */
  written: string;
  lines?: LineSpan;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** Extensions of files a model names in a repair; `OrderService.total` ends in a member, not an extension. */
const FILE_EXTENSIONS = new Set([
  'java',
  'kt',
  'kts',
  'groovy',
  'scala',
  'xml',
  'properties',
  'yml',
  'yaml',
  'json',
  'txt',
  'md',
  'sql',
  'gradle',
  'html',
  'js',
  'ts',
  'csv',
  'conf',
  'cfg',
  'sh',
  'bat',
  'mf',
  'jsp',
  'vm',
  'ftl',
  'proto',
]);
const NUMBER = String.raw`L?(\d+)`;
const RANGE = String.raw`${NUMBER}(?:\s*(?:-|–|\.\.\.?|\bto\b|,)\s*${NUMBER})?`;
/**
 * A line or a range after a file or a name: `:12`, `:12:5` (a column), `#L10-L20`, ` line 12`, `, lines 10-20`, `
 * (10-20)`.
 */
const WITH_LINES = new RegExp(
  String.raw`^(.+?)(?:\s*[:#@,(]\s*|\s+)(?:at\s+)?(?:lines?\s*)?${RANGE}(?::\d+)?\)?\s*$`,
  'i',
);
/** A member after a file: `OrderService.java#total`, `OrderService.java::total()`. */
const PATH_WITH_MEMBER = /^(.+?\.[A-Za-z]\w*)\s*(?:#|::)\s*([A-Za-z_$][\w$]*)\s*(?:\([^)]*\))?$/;
/** A stack frame: `at com.acme.OrderService.total(OrderService.java:42)`. */
const STACK_FRAME = /^(?:at\s+)?((?:[\w$]+\.)*[\w$]+)\.([\w$<>]+)\(\s*[\w$]+\.java(?::(\d+))?\s*\)$/;

/** What a string names, or undefined when it names nothing a tool could look up. */
export function readCodeName(raw: string): ReadCodeName | undefined {
  const text = raw
    .trim()
    .replace(/^[`'"]+|[`'"]+$/g, '')
    .trim();
  if (text === '') return undefined;
  const frame = STACK_FRAME.exec(text);
  if (frame) {
    const member = frame[2] === '<init>' || frame[2] === '<clinit>' ? undefined : frame[2];
    return {
      name: { kind: 'java', readings: [{ type: frame[1]!, ...(member ? { member } : {}) }] },
      written: text,
      ...(frame[3] ? { lines: { start: Number(frame[3]) } } : {}),
    };
  }
  const withLines = WITH_LINES.exec(text);
  const located = withLines ? readCodeName(withLines[1]!) : undefined;
  if (withLines && located) {
    const lines = spanOf(Number(withLines[2]), withLines[3] === undefined ? undefined : Number(withLines[3]));
    return lines ? { ...located, lines } : located;
  }
  const withMember = PATH_WITH_MEMBER.exec(text);
  if (withMember && isPathLike(withMember[1]!))
    return { name: { kind: 'path', path: cleanPath(withMember[1]!), member: withMember[2]! }, written: text };
  if (isPathLike(text)) return { name: { kind: 'path', path: cleanPath(text) }, written: text };
  const readings = javaReadings(text);
  return readings.length > 0 ? { name: { kind: 'java', readings }, written: text } : undefined;
}

/** A path rather than a Java name: it has a folder, or ends in a file extension. */
function isPathLike(text: string): boolean {
  if (/[\\/]/.test(text)) return true;
  const extension = /\.([A-Za-z]\w*)$/.exec(text)?.[1];
  return extension !== undefined && FILE_EXTENSIONS.has(extension.toLowerCase());
}

/** Forward slashes, no `file://`, no drive letter, no `./`: `C:\build\x\A.java` -> `/build/x/A.java`. */
export function cleanPath(raw: string): string {
  return raw
    .trim()
    .replace(/^file:\/\//i, '')
    .replace(/\\+/g, '/')
    .replace(/^\/?[A-Za-z]:\//, '/')
    .replace(/^(?:\.\/)+/, '')
    .replace(/\/{2,}/g, '/');
}

/**
 * The readings of a Java name, most likely first: `OrderService.total` is the member
 * total of OrderService, or else a nested type; `total()` and `total` a member of any
 * type (or a type); `com.acme.OrderService` a qualified type.
 */
export function javaReadings(raw: string): JavaReading[] {
  let text = raw.trim().replace(/^new\s+/, '');
  const called = /\([^()]*\)\s*$/.test(text);
  // Generic arguments and parameter lists name nothing to look up: `List<String>`, `total(int, int)`.
  text = text
    .replace(/\([^()]*\)\s*$/, '')
    .replace(/<[^<>]*>/g, '')
    .replace(/\s*(#|::|\.)\s*/g, '$1')
    .trim();
  if (/\s/.test(text)) return [];
  const hash = /^(.*?)(?:#|::)([^#:]+)$/.exec(text);
  if (hash) {
    const type = typeName(hash[1]!);
    const member = hash[2]!;
    if (!IDENTIFIER.test(member)) return [];
    return type ? [{ type, member }] : hash[1] === '' ? [{ member }] : [];
  }
  const parts = text.split('.');
  if (!parts.every((part) => IDENTIFIER.test(part))) return [];
  const last = parts.at(-1)!;
  if (parts.length === 1) {
    if (last.includes('$')) return [{ type: typeName(last)! }];
    return called || !/^[A-Z]/.test(last) ? [{ member: last }, { type: last }] : [{ type: last }, { member: last }];
  }
  const owner = parts.slice(0, -1).join('.');
  const ownerIsType = parts.slice(0, -1).some((part) => /^[A-Z]/.test(part));
  const asMember: JavaReading = { type: typeName(owner)!, member: last };
  const asType: JavaReading = { type: typeName(text)! };
  if (called) return ownerIsType ? [asMember] : [];
  if (/^[A-Z]/.test(last)) return ownerIsType ? [asType, asMember] : [asType];
  return ownerIsType ? [asMember, asType] : [asType];
}

/** `Outer$Inner` is written `Outer.Inner` in source; undefined for text that is no type name. */
function typeName(text: string): string | undefined {
  const name = text.replace(/\$/g, '.');
  return name !== '' && name.split('.').every((part) => IDENTIFIER.test(part)) ? name : undefined;
}

/** The member a method argument names: `OrderService#total()` -> type OrderService and member total. */
export function readMember(raw: string): JavaReading | undefined {
  const frame = STACK_FRAME.exec(raw.trim());
  if (frame) return { type: frame[1]!, member: frame[2]! };
  const readings = javaReadings(raw);
  return (
    readings.find((reading) => reading.member !== undefined) ??
    (readings[0]?.type && !readings[0].type.includes('.') ? { member: readings[0].type } : undefined)
  );
}

function spanOf(start: number, end: number | undefined): LineSpan | undefined {
  if (!Number.isSafeInteger(start) || start < 1) return undefined;
  if (end === undefined || !Number.isSafeInteger(end)) return { start };
  return end >= start ? { start, end } : { start: end, end: start };
}

/**
 * Lines in any of the forms models write them, or undefined: 14, "14", "10-20", "10..20",
 * "10 to 20", "L10-L20", "lines 10-20", "10:20", [10, 20], [14], {start, end}, {from, to}.
 */
export function readLineSpan(value: unknown): LineSpan | undefined {
  if (typeof value === 'number') return spanOf(value, undefined);
  if (Array.isArray(value)) {
    const numbers = value.map((item) =>
      typeof item === 'number'
        ? item
        : typeof item === 'string' && /^\s*L?\d+\s*$/i.test(item)
          ? Number(item.trim().replace(/^L/i, ''))
          : NaN,
    );
    if (numbers.length === 0 || numbers.length > 2 || numbers.some((number) => Number.isNaN(number))) return undefined;
    return spanOf(numbers[0]!, numbers[1]);
  }
  if (value && typeof value === 'object') {
    const entry = value as Record<string, unknown>;
    const start = readLineSpan(entry.start ?? entry.from ?? entry.begin ?? entry.start_line ?? entry.first);
    const end = readLineSpan(entry.end ?? entry.to ?? entry.end_line ?? entry.last);
    return start ? spanOf(start.start, end?.start) : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim().replace(/^lines?\s*/i, '');
  const match = /^L?(\d+)$/i.exec(text) ?? /^L?(\d+)\s*(?:-|–|\.\.\.?|\bto\b|,|:)\s*L?(\d+)$/i.exec(text);
  return match ? spanOf(Number(match[1]), match[2] === undefined ? undefined : Number(match[2])) : undefined;
}

/** The identifier words of a name, lower case: OrderService -> order, service. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.toLowerCase())
    .filter((word) => word.length > 1);
}

/**
 * The names nearest to `wanted`, best first: a small typo, one holding the other
 * (`Order` in `OrderService`), or most of the same words. For the "none" answers.
 */
export function nearestNames(wanted: string, names: Iterable<string>, limit = 5): string[] {
  const target = wanted.toLowerCase();
  const targetWords = new Set(words(wanted));
  const scored: { name: string; score: number }[] = [];
  for (const name of new Set(names)) {
    const lower = name.toLowerCase();
    if (lower === target) {
      scored.push({ name, score: 0 });
      continue;
    }
    const edits = editDistance(lower, target);
    const shared = words(name).filter((word) => targetWords.has(word)).length;
    const contains = target.length >= 3 && (lower.includes(target) || target.includes(lower));
    if (edits <= Math.max(1, Math.floor(target.length / 3)))
      scored.push({ name, score: edits / Math.max(target.length, 1) });
    else if (contains) scored.push({ name, score: 0.5 + edits / 100 });
    else if (shared > 0 && shared >= Math.ceil(targetWords.size / 2))
      scored.push({ name, score: 1 - shared / 10 + edits / 100 });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((entry) => entry.name);
}

/** Paths whose file name is nearest to `fileName`'s (same extension, compared without it), at most two per name. */
export function nearestFiles(fileName: string, paths: readonly string[], limit = 5): string[] {
  const dot = fileName.lastIndexOf('.');
  const extension = dot > 0 ? fileName.slice(dot) : '';
  const stem = (name: string) => (extension && name.endsWith(extension) ? name.slice(0, -extension.length) : name);
  const byStem = new Map<string, string[]>();
  for (const path of paths) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (extension && !name.endsWith(extension)) continue;
    byStem.set(stem(name), [...(byStem.get(stem(name)) ?? []), path]);
  }
  return nearestNames(stem(fileName), byStem.keys(), limit).flatMap((name) => byStem.get(name)!.slice(0, 2));
}
