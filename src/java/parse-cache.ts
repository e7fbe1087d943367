/**
 * Parse results by content: a file's model and the answers its readers asked of it
 * (fields, supertypes, calls, header, ...), kept in memory for the process and, when a
 * store is set (the project's `.mvnx/cache/java-parse/`, codebase/parse-store.ts),
 * across runs. A model read back from the store has no syntax tree: the answers asked
 * before are served from the entry, and only a new question parses the file (once), so a
 * second failure of the same project parses nothing and does not even load java-parser.
 * The store is the disk edge; this module is data in, data out.
 */
import { createHash } from 'node:crypto';
import { onTreeNeeded, originOf, registerNode, registerSource, sourceOf } from './cst.js';
import { parseJava, parseStats, type JavaParseStats } from './parse.js';
import type { JavaMethod, JavaParseResult, JavaSourceFile, JavaType, SourceRange } from './types.js';

/**
 * Part of every key: a new model or answer shape, or another java-parser, makes older entries foreign (ignored,
 * rewritten).
 */
export const PARSE_CACHE_FORMAT = 'mvnx-java-parse/1 java-parser@3.0.1';

/**
 * Where entries live across runs. Never throws: a missing or unreadable entry is `undefined`, a failed write is
 * dropped.
 */
export interface ParseStore {
  get(key: string): Promise<string | undefined>;
  put(key: string, entry: string): Promise<void>;
}

interface Entry {
  key: string;
  text: string;
  parsed: JavaParseResult;
  /** `query place args` -> the answer, as the query returned it. */
  answers: Map<string, unknown>;
  /** Read back from the store: no tree until a question needs one. */
  treeless: boolean;
  dirty: boolean;
}

/** Model part (file, type, method, body, statement) -> its entry and its place in the file (`t0.m3.b.s1`). */
const places = new WeakMap<object, { entry: Entry; at: string }>();
/** Entries by key, most recently used last: a syntax tree takes many times its file's size. */
const entries = new Map<string, Entry>();
const KEPT_ENTRIES = 256;
const loading = new Map<string, Promise<Entry>>();
let store: ParseStore | undefined;
const counts = { cacheHits: 0, answerHits: 0 };

export interface JavaParseCacheStats extends JavaParseStats {
  /** Files whose model came from the store (no parse). */
  cacheHits: number;
  /** Questions answered from an entry instead of the tree. */
  answerHits: number;
}

export const javaParseStats = (): JavaParseCacheStats => ({ ...parseStats(), ...counts });

/** Sets (or with undefined, removes) the store entries are read from and written to. */
export function useJavaParseCache(next: ParseStore | undefined): void {
  store = next;
}

/** Forgets every entry kept in memory: what a new process starts with. */
export function forgetJavaParses(): void {
  entries.clear();
  loading.clear();
}

export function parseKey(text: string): string {
  return createHash('sha256').update(PARSE_CACHE_FORMAT).update('\n').update(text).digest('hex');
}

/** The parse of `text`: from memory, else from the store, else parsed (and stored at the next flush). */
export async function parseByContent(text: string): Promise<JavaParseResult> {
  const key = parseKey(text);
  const known = entries.get(key);
  if (known) return keep(known).parsed;
  let pending = loading.get(key);
  if (!pending) {
    pending = (async () => {
      const raw = store ? await store.get(key).catch(() => undefined) : undefined;
      const stored = raw === undefined ? undefined : revive(raw, key, text);
      if (stored) counts.cacheHits += 1;
      return keep(stored ?? fresh(key, text));
    })().finally(() => loading.delete(key));
    loading.set(key, pending);
  }
  return (await pending).parsed;
}

/**
 * The parse of `text` for a synchronous reader (the integrity checks, the skeleton of a
 * changed file): the entry kept in memory, else parsed now and kept, so the test class the
 * prompt parsed is not parsed again to judge the candidate (jsoup, six failing tests in
 * three large test classes: 2 s of parsing between the re-check and the verification
 * build). The store is not read here (it is asynchronous); new entries reach it at the
 * next flush like any other.
 */
export function parseKept(text: string): JavaParseResult {
  const key = parseKey(text);
  return keep(entries.get(key) ?? fresh(key, text)).parsed;
}

/** Writes every entry that is new or learnt an answer since it was read. */
export async function flushJavaParses(): Promise<void> {
  const target = store;
  if (!target) return;
  for (const entry of entries.values()) {
    if (!entry.dirty) continue;
    entry.dirty = false;
    await target.put(entry.key, serialise(entry)).catch(() => undefined);
  }
}

/**
 * `compute()` for a question about a part of a kept file, asked once per file content:
 * later asks (this process or, through the store, the next) get the answer kept. Parts of
 * files parsed directly with parseJava are not kept; their question is computed each time.
 * Answers are plain data, shared by every asker: never changed by them.
 */
export function remembered<T>(query: string, part: object, compute: () => T, args = ''): T {
  const place = places.get(part);
  if (!place) return compute();
  const key = `${query} ${place.at}${args === '' ? '' : ` ${args}`}`;
  const answers = place.entry.answers;
  if (answers.has(key)) {
    counts.answerHits += 1;
    return answers.get(key) as T;
  }
  const value = compute();
  answers.set(key, value);
  place.entry.dirty = true;
  return value;
}

function keep(entry: Entry): Entry {
  entries.delete(entry.key);
  entries.set(entry.key, entry);
  if (entries.size > KEPT_ENTRIES) entries.delete(entries.keys().next().value!);
  return entry;
}

function fresh(key: string, text: string): Entry {
  const entry: Entry = { key, text, parsed: parseJava(text), answers: new Map(), treeless: false, dirty: true };
  index(entry);
  return entry;
}

function index(entry: Entry): void {
  if (entry.parsed.ok) for (const [at, part] of partsOf(entry.parsed.file)) places.set(part, { entry, at });
}

/** Every part a question can be asked about, with its place; the same order for a parse and its copy. */
function partsOf(file: JavaSourceFile): [string, object][] {
  const out: [string, object][] = [['f', file]];
  const method = (at: string, declared: JavaMethod) => {
    out.push([at, declared]);
    if (!declared.body) return;
    out.push([`${at}.b`, declared.body]);
    declared.body.statements.forEach((statement, n) => out.push([`${at}.b.s${n}`, statement]));
  };
  const type = (at: string, declared: JavaType) => {
    out.push([at, declared]);
    declared.methods.forEach((member, n) => method(`${at}.m${n}`, member));
    declared.types.forEach((nested, n) => type(`${at}.t${n}`, nested));
  };
  file.types.forEach((declared, n) => type(`t${n}`, declared));
  return out;
}

// A treeless model's first question that needs the tree: parse its file once and give every part its node.
onTreeNeeded((part) => {
  const entry = places.get(part)?.entry;
  if (!entry?.treeless || !entry.parsed.ok) return;
  entry.treeless = false;
  const parsed = parseJava(entry.text);
  if (!parsed.ok) return;
  const copies = new Map(partsOf(entry.parsed.file));
  for (const [at, original] of partsOf(parsed.file)) {
    const copy = copies.get(at);
    if (!copy) continue;
    if (at === 'f') registerSource(copy as JavaSourceFile, sourceOf(original as JavaSourceFile));
    else registerNode(copy, originOf(original).node, originOf(original).source);
  }
});

interface StoredEntry {
  format: string;
  key: string;
  parsed: { ok: true; file: unknown } | { ok: false; error: unknown };
  answers: Record<string, { v?: unknown }>;
}

function serialise(entry: Entry): string {
  const { text } = entry;
  const parsed = entry.parsed.ok
    ? { ok: true, file: compact({ ...entry.parsed.file, text: undefined }, text) }
    : entry.parsed;
  const answers: StoredEntry['answers'] = {};
  for (const [key, value] of entry.answers) answers[key] = { v: compact(value, text) };
  return JSON.stringify({ format: PARSE_CACHE_FORMAT, key: entry.key, parsed, answers });
}

/**
 * The entry, or undefined for anything that is not one of this format for this text (corrupt, foreign, another file).
 */
function revive(raw: string, key: string, text: string): Entry | undefined {
  try {
    const stored = JSON.parse(raw) as StoredEntry;
    if (
      stored?.format !== PARSE_CACHE_FORMAT ||
      stored.key !== key ||
      typeof stored.answers !== 'object' ||
      stored.answers === null
    )
      return undefined;
    let parsed: JavaParseResult;
    if (stored.parsed?.ok === true) {
      const file = expand(stored.parsed.file, text) as JavaSourceFile;
      if (!Array.isArray(file?.types) || !Array.isArray(file.imports) || !Array.isArray(file.comments))
        return undefined;
      file.text = text;
      parsed = { ok: true, file };
    } else if (
      stored.parsed?.ok === false &&
      typeof (stored.parsed.error as { message?: unknown })?.message === 'string'
    ) {
      parsed = { ok: false, error: stored.parsed.error as { message: string } };
    } else return undefined;
    const answers = new Map<string, unknown>();
    for (const [question, answer] of Object.entries(stored.answers)) answers.set(question, expand(answer?.v, text));
    const entry: Entry = { key, text, parsed, answers, treeless: true, dirty: false };
    index(entry);
    return entry;
  } catch {
    return undefined;
  }
}

/**
 * A copy without the texts that are the file's own slice at their range (`$s` marks them): a method's text is most of
 * an entry otherwise.
 */
function compact(value: unknown, text: string): unknown {
  if (Array.isArray(value)) return value.map((item) => compact(item, text));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  const record = value as Record<string, unknown>;
  const range = record.range;
  const sliced =
    typeof record.text === 'string' && isRange(range) && text.slice(range.start, range.end) === record.text;
  for (const [name, item] of Object.entries(record)) {
    if (sliced && name === 'text') out.$s = 1;
    else if (name === 'range' && isRange(item)) out.range = [item.start, item.end, item.startLine, item.endLine];
    else if (item !== undefined) out[name] = compact(item, text);
  }
  return out;
}

/** Ranges are in every part and answer: kept as `[start, end, startLine, endLine]`, a third of an entry's size. */
function isRange(value: unknown): value is SourceRange {
  const range = value as SourceRange | undefined;
  return (
    typeof range?.start === 'number' &&
    typeof range.end === 'number' &&
    typeof range.startLine === 'number' &&
    typeof range.endLine === 'number' &&
    Object.keys(range).length === 4
  );
}

function rangeFrom(value: unknown): SourceRange {
  if (!Array.isArray(value) || value.length !== 4 || !value.every((n) => typeof n === 'number'))
    throw new TypeError('not a stored range');
  const [start, end, startLine, endLine] = value;
  return { start: start!, end: end!, startLine: startLine!, endLine: endLine! };
}

function expand(value: unknown, text: string): unknown {
  if (Array.isArray(value)) return value.map((item) => expand(item, text));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
    if (name === '$s') {
      const range = rangeFrom((value as { range?: unknown }).range);
      out.text = text.slice(range.start, range.end);
    } else if (name === 'range' && Array.isArray(item)) out.range = rangeFrom(item);
    else out[name] = expand(item, text);
  }
  return out;
}
