/** Surefire's console summary: the lines that say tests failed, and its `Failures:`/`Errors:` rows. */
import { truncate } from './text.js';
import type { ConsoleTestFailure } from './types.js';

/** "There are test failures", a failing "Tests run:" line, or a `<<< FAILURE!` marker. No `.*`: linear on any line. */
export function isTestMarker(text: string): boolean {
  if (text.includes('There are test failures') || text.includes('There are test errors')) return true;
  if (
    (text.includes('<<< FAILURE!') || text.includes('<<< ERROR!')) &&
    /Tests run: \d+, Failures: \d+, Errors: \d+/.test(text)
  )
    return true;
  return /^Tests run: \d+, Failures: (?:[1-9]\d*, Errors: \d+|\d+, Errors: [1-9])/.test(text);
}

export interface ConsoleRow {
  className: string;
  method: string;
  line?: number;
  message: string;
}

/** `  AccountTest.withdraw:25 expected: <70> but was: <69>`, read without backtracking patterns. */
export function consoleTestRow(text: string): ConsoleRow | undefined {
  if (!text.startsWith('  ') || text[2] === ' ') return undefined;
  const space = text.indexOf(' ', 2);
  const head = space === -1 ? text.slice(2) : text.slice(2, space);
  const message = space === -1 ? '' : text.slice(space + 1).replace(/^» /, '');
  const m = /^([\w$.]+?)(?::(\d+))?$/.exec(head.replace(/\([^)]*\)|\[\d+\]/g, ''));
  if (!m) return undefined;
  const name = m[1]!;
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return undefined;
  return {
    className: name.slice(0, dot),
    method: name.slice(dot + 1),
    ...(m[2] ? { line: Number(m[2]) } : {}),
    message,
  };
}

/**
 * The rows of the `Failures:` and `Errors:` sections of the console summary, each test
 * once, at most `maxRows` of them. A section runs from its header to the first line that
 * is not a row of it.
 */
export class ConsoleTestCollector {
  private readonly rows = new Map<string, ConsoleTestFailure>();
  private section: 'failure' | 'error' | undefined;
  capped = false;

  constructor(
    private readonly maxRows: number,
    private readonly maxMessage: number,
  ) {}

  /** An `[ERROR]` line; true when it was a section header or one of its rows. */
  error(text: string, module: string | undefined): boolean {
    if (this.section) {
      const row = consoleTestRow(text);
      if (row) {
        this.add(row, this.section, module);
        return true;
      }
    }
    const header = text.trim();
    this.section = header === 'Failures:' ? 'failure' : header === 'Errors:' ? 'error' : undefined;
    return this.section !== undefined;
  }

  /** A line of another level ends the section. */
  endSection(): void {
    this.section = undefined;
  }

  values(): ConsoleTestFailure[] {
    return [...this.rows.values()];
  }

  private add(row: ConsoleRow, outcome: 'failure' | 'error', module: string | undefined): void {
    const key = `${row.className}#${row.method}`;
    if (this.rows.has(key)) return;
    if (this.rows.size >= this.maxRows) {
      this.capped = true;
      return;
    }
    this.rows.set(key, {
      className: row.className,
      method: row.method,
      ...(row.line !== undefined ? { line: row.line } : {}),
      message: truncate(row.message.trim(), this.maxMessage),
      outcome,
      ...(module ? { module } : {}),
    });
  }
}
