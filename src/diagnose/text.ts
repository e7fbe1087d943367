/** Line-level normalisation shared by the log parser and the report reader. */

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

export function stripAnsi(line: string): string {
  return line.includes('\x1b') ? line.replace(ANSI, '') : line;
}

export type LogLevel = 'INFO' | 'WARNING' | 'ERROR' | 'FATAL' | 'DEBUG';

export interface LeveledLine {
  level?: LogLevel;
  /** The text after the `[LEVEL] ` prefix (or the whole line without one). */
  text: string;
}

const LEVEL_PREFIX = /^\[(INFO|WARNING|WARN|ERROR|FATAL|DEBUG)\] ?/;

export function splitLevel(line: string): LeveledLine {
  const m = LEVEL_PREFIX.exec(line);
  if (!m) return { text: line };
  const level = (m[1] === 'WARN' ? 'WARNING' : m[1]) as LogLevel;
  return { level, text: line.slice(m[0].length) };
}

/**
 * True for text that is not plausibly a log line: NULs and other C0 controls (ESC is
 * gone with the ANSI codes by now). A U+FFFD is not binary: a log another tool already
 * decoded lossily still names its errors around the replaced letter.
 */
export function looksBinary(line: string): boolean {
  return /[\x00-\x08\x0e-\x1a\x1c-\x1f]/.test(line);
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}
