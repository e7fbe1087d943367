/** Surefire's console summary: the lines that say tests failed, and its `Failures:`/`Errors:` rows. */

/** "There are test failures", a failing "Tests run:" line, or a `<<< FAILURE!` marker. No `.*`: linear on any line. */
export function isTestMarker(text: string): boolean {
  if (text.includes('There are test failures') || text.includes('There are test errors')) return true;
  if ((text.includes('<<< FAILURE!') || text.includes('<<< ERROR!')) && /Tests run: \d+, Failures: \d+, Errors: \d+/.test(text)) return true;
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
  return { className: name.slice(0, dot), method: name.slice(dot + 1), ...(m[2] ? { line: Number(m[2]) } : {}), message };
}
