/**
 * Parsers that plugins contribute (docs/plugins.md): each sees every log line, after the
 * same normalisation as the built-in parser, and the report files it asks for, and
 * returns diagnostics in the contract's shape. Those go through the same classification
 * as the built-in ones: compile, test and quality findings with a place are fixable;
 * `other` is not, with a category and a reason. A parser that throws or returns
 * something malformed is reported once as a warning and stops; the others go on.
 */
import { CATEGORY_REASONS, type NonCodeCategory } from './categories.js';
import { diagnosticFingerprint } from './fingerprint.js';
import type { LogLine } from './log-parser.js';
import { relativeToRoot, toForwardSlashes } from './log-paths.js';
import { truncate } from './text.js';
import type { Diagnostic, DiagnosticKind } from './types.js';

/** What a plugin parser returns: the contract's diagnostic fields. */
export interface ParsedDiagnostic {
  kind: DiagnosticKind;
  message: string;
  /** Absolute (as the log names it) or project-relative. */
  file?: string;
  line?: number;
  column?: number;
  module?: string;
  test?: string;
  tool?: string;
  rule?: string;
  /** For `other`: why no code patch helps (one of the built-in categories; default `unknown`). */
  category?: string;
  reason?: string;
}

export interface ParserReportFile {
  /** Project-relative path of the report. */
  path: string;
  module?: string;
  text: string;
}

type Returned = ParsedDiagnostic | ParsedDiagnostic[] | undefined | void;

/** One diagnosis' worth of state: `start()` is called once per build that is diagnosed. */
export interface DiagnosticParserRun {
  line?(line: LogLine): Returned;
  report?(file: ParserReportFile): Returned;
  finish?(): Returned;
}

export interface DiagnosticParser {
  name: string;
  /** Report file names to hand to `report()` when a module's target/ (or `--reports DIR`) has them. */
  reports?: string[];
  start(context: { projectRoot: string }): DiagnosticParserRun;
}

const KINDS: readonly DiagnosticKind[] = ['compile', 'test', 'quality', 'other'];
const NON_CODE = new Set(Object.keys(CATEGORY_REASONS));

function problemOf(p: ParsedDiagnostic): string | undefined {
  if (!p || typeof p !== 'object') return 'a diagnostic must be an object';
  if (!KINDS.includes(p.kind)) return `kind must be one of ${KINDS.join(', ')}, got ${JSON.stringify(p.kind)}`;
  if (typeof p.message !== 'string' || p.message.trim() === '') return 'message must be a non-empty string';
  for (const key of ['line', 'column'] as const) {
    if (p[key] !== undefined && !(Number.isInteger(p[key]) && p[key] > 0))
      return `${key} must be a positive whole number`;
  }
  for (const key of ['file', 'module', 'test', 'tool', 'rule', 'category', 'reason'] as const) {
    if (p[key] !== undefined && typeof p[key] !== 'string') return `${key} must be a string`;
  }
  if (p.file !== undefined && toForwardSlashes(p.file).split('/').includes('..'))
    return `file must be inside the project, got ${JSON.stringify(p.file)}`;
  return undefined;
}

/** The built-in classification applied to a parser's finding. */
export function classifyParsed(p: ParsedDiagnostic, logRoot: string, parser: string): Diagnostic {
  const absolute = p.file !== undefined && /^(?:[A-Za-z]:[\\/]|[\\/])/.test(p.file);
  const file =
    p.file === undefined
      ? undefined
      : absolute
        ? logRoot
          ? relativeToRoot(p.file, logRoot)
          : toForwardSlashes(p.file)
        : toForwardSlashes(p.file).replace(/^\.\//, '');
  const base = {
    message: truncate(p.message.trim(), 500),
    ...(file ? { file } : {}),
    ...(p.line ? { line: p.line } : {}),
    ...(p.column ? { column: p.column } : {}),
    ...(p.module ? { module: p.module } : {}),
    ...(p.test ? { test: p.test } : {}),
    ...(p.rule ? { rule: p.rule } : {}),
  };
  let d: Omit<Diagnostic, 'fingerprint'>;
  if (p.kind === 'other') {
    const category = (p.category && NON_CODE.has(p.category) ? p.category : 'unknown') as NonCodeCategory;
    d = {
      kind: 'other',
      category,
      fixable: false,
      ...base,
      ...(p.tool ? { tool: p.tool } : {}),
      reason: p.reason?.trim() || CATEGORY_REASONS[category],
    };
  } else {
    const placed = p.kind === 'test' ? Boolean(p.test || file) : Boolean(file);
    d = {
      kind: p.kind,
      category: p.kind,
      fixable: placed,
      ...base,
      ...(p.kind === 'quality' ? { tool: p.tool ?? parser } : p.tool ? { tool: p.tool } : {}),
      ...(placed ? {} : { reason: `parser ${parser} named no ${p.kind === 'test' ? 'test or file' : 'file'} to fix` }),
    };
  }
  return { ...d, fingerprint: diagnosticFingerprint(d) };
}

/** Runs every parser over one diagnosis; collects what they return. */
export class PluginParserRuns {
  private readonly runs: { parser: DiagnosticParser; run: DiagnosticParserRun }[] = [];
  private readonly found: { parser: string; parsed: ParsedDiagnostic }[] = [];
  readonly warnings: string[] = [];

  constructor(parsers: readonly DiagnosticParser[], context: { projectRoot: string }) {
    for (const parser of parsers) {
      try {
        this.runs.push({ parser, run: parser.start(context) ?? {} });
      } catch (error) {
        this.fail(parser.name, 'start()', error);
      }
    }
  }

  get reportNames(): string[] {
    return [...new Set(this.runs.flatMap(({ parser }) => parser.reports ?? []))];
  }

  line(line: LogLine): void {
    for (const entry of this.runs) if (entry.run.line) this.call(entry, 'line()', () => entry.run.line!(line));
  }

  report(file: ParserReportFile): void {
    const name = file.path.split('/').pop() ?? file.path;
    for (const entry of this.runs) {
      if (entry.run.report && (entry.parser.reports ?? []).includes(name))
        this.call(entry, 'report()', () => entry.run.report!(file));
    }
  }

  /** Ends every run and returns the classified diagnostics, in the order found. */
  finish(logRoot: string): Diagnostic[] {
    for (const entry of [...this.runs]) if (entry.run.finish) this.call(entry, 'finish()', () => entry.run.finish!());
    return this.found.map(({ parser, parsed }) => classifyParsed(parsed, logRoot, parser));
  }

  private call(entry: { parser: DiagnosticParser; run: DiagnosticParserRun }, what: string, fn: () => Returned): void {
    let returned: Returned;
    try {
      returned = fn();
    } catch (error) {
      this.fail(entry.parser.name, what, error);
      return;
    }
    if (returned === undefined || returned === null) return;
    if (returned && typeof (returned as unknown as Promise<unknown>).then === 'function') {
      this.fail(entry.parser.name, what, new Error('returned a promise; parser functions are synchronous'));
      return;
    }
    for (const parsed of Array.isArray(returned) ? returned : [returned]) {
      const problem = problemOf(parsed);
      if (problem) {
        this.fail(entry.parser.name, what, new Error(`returned an invalid diagnostic: ${problem}`));
        return;
      }
      if (this.found.length < 5_000) this.found.push({ parser: entry.parser.name, parsed });
    }
  }

  private fail(name: string, what: string, error: unknown): void {
    const index = this.runs.findIndex((entry) => entry.parser.name === name);
    if (index !== -1) this.runs.splice(index, 1);
    this.warnings.push(
      `parser ${name}: ${what} failed: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}; it was stopped (what it found before is kept)`,
    );
  }
}
