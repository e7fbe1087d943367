/**
 * One log line as Maven printed it, recovered from what a CI system made of it. A saved
 * CI log puts text before Maven's `[ERROR]`: a timestamp (GitHub Actions and Azure
 * `2026-12-02T14:36:46.1234567Z `, Jenkins' timestamper `[2026-12-02T14:36:46.334Z] ` or
 * `14:36:46 `), a step label (`[Pipeline] `, a parallel branch `[ParallelStep] `), a
 * workflow command (`##[error]`), or GitHub's web view, which shows `[ERROR] x` as
 * `Error:  x`. Those prefixes are removed and the level is put back in Maven's form.
 *
 * Linear by construction: every token is a sticky, bounded pattern tried at one
 * position, at most MAX_TOKENS times; nothing scans the rest of the line.
 */
import { stripAnsi } from './text.js';

const MAX_TOKENS = 6;
const LEVEL = /\[(?:INFO|WARNING|WARN|ERROR|FATAL|DEBUG)\]/y;
/** Whitespace is a token only right before a level: `  [ERROR]` from an indenting tool. */
const SPACE_BEFORE_LEVEL = /[ \t]{1,16}(?=\[(?:INFO|WARNING|WARN|ERROR|FATAL|DEBUG)\])/y;
const WORKFLOW_LEVEL = /##\[(error|warning)\] ?/y;
/** GitHub's web view: `Error:  ` / `Warning:  ` (the level word, a colon and the original space). */
const WEB_VIEW_LEVEL = /(Error|Warning): {2}/y;
/** Each eats one following space at most: the rest of the indentation is the line's own (continuation lines). */
const SKIPPED_TOKENS: readonly RegExp[] = [
  /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})? ?/y,
  /\d{1,2}:\d{2}:\d{2}(?:[.,]\d{1,9})? /y,
  /##\[(?:group|endgroup|section|command|debug|info|notice)\]/y,
  // A bracketed label: a timestamp, a pipeline step or a parallel branch name.
  /\[[^[\]\r\n]{1,120}\] ?/y,
];

function matchAt(pattern: RegExp, line: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(line);
}

/** The line without ANSI codes and CI prefixes; `[LEVEL] ` restored where a CI rewrote it. */
export function normaliseLogLine(raw: string): string {
  const line = stripAnsi(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
  let at = 0;
  for (let tokens = 0; tokens < MAX_TOKENS && at < line.length; tokens++) {
    if (matchAt(LEVEL, line, at)) return at === 0 ? line : line.slice(at);
    const workflow = matchAt(WORKFLOW_LEVEL, line, at);
    if (workflow) return withLevel(workflow[1] === 'error' ? 'ERROR' : 'WARNING', line, at + workflow[0].length);
    const web = matchAt(WEB_VIEW_LEVEL, line, at);
    if (web) return withLevel(web[1] === 'Error' ? 'ERROR' : 'WARNING', line, at + web[0].length - 1);
    const space = matchAt(SPACE_BEFORE_LEVEL, line, at);
    if (space) {
      at += space[0].length;
      continue;
    }
    const skipped = SKIPPED_TOKENS.map((pattern) => matchAt(pattern, line, at)).find(
      (m) => m !== null && m[0].length > 0,
    );
    if (!skipped) break;
    at += skipped[0].length;
  }
  return at === 0 ? line : line.slice(at);
}

/** `##[error]` may itself be followed by Maven's own `[ERROR]`: keep one. */
function withLevel(level: 'ERROR' | 'WARNING', line: string, textStart: number): string {
  if (matchAt(LEVEL, line, textStart)) return line.slice(textStart);
  const text = line.slice(textStart);
  return `[${level}]${text.startsWith(' ') ? '' : ' '}${text}`;
}
