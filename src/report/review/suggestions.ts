/**
 * A verified fix as review suggestions: which lines of the pull request each one replaces,
 * whether the platform lets us comment there, and the comment bodies. Pure.
 */
import type { LineChange } from '../line-changes.js';

export const REVIEW_MARKER = '<!-- mvnx:review -->';
export const SUGGESTION_MARKER = '<!-- mvnx:suggestion -->';

/** One suggestion: replace lines startLine..endLine of the head version of `path` with `lines`. */
export interface Suggestion {
  path: string;
  startLine: number;
  endLine: number;
  lines: string[];
}

/** The lines of one file that a pull request's diff shows on its new side. */
export interface DiffLines {
  /** New-side line -> index of the hunk that shows it. */
  hunkOf: Map<number, number>;
  /** New-side line -> old-side line for unchanged (context) lines; absent for added lines. */
  oldOf: Map<number, number>;
}

/** Reads a unified diff of one file (a pull request file's `patch`, a merge request diff's `diff`). */
export function readDiffLines(patch: string): DiffLines {
  const hunkOf = new Map<number, number>();
  const oldOf = new Map<number, number>();
  let hunk = -1;
  let oldLine = 0;
  let newLine = 0;
  for (const line of patch.split('\n')) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (header) {
      hunk += 1;
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      continue;
    }
    if (hunk < 0 || line.startsWith('\\')) continue;
    if (line.startsWith('+')) {
      hunkOf.set(newLine, hunk);
      newLine += 1;
    } else if (line.startsWith('-')) {
      oldLine += 1;
    } else {
      hunkOf.set(newLine, hunk);
      oldOf.set(newLine, oldLine);
      newLine += 1;
      oldLine += 1;
    }
  }
  return { hunkOf, oldOf };
}

/**
 * A suggestion replaces existing lines, so a pure insertion is anchored on the line
 * before it (or, at the top of a file, the line after) and suggests that line plus the
 * new ones; a pure deletion suggests nothing in place of its lines.
 */
export function suggestionsOf(
  changes: readonly LineChange[],
  fileLines: ReadonlyMap<string, readonly string[]>,
): Suggestion[] {
  const suggestions: Suggestion[] = [];
  for (const change of changes) {
    const lines = fileLines.get(change.path) ?? [];
    if (change.removed.length > 0) {
      suggestions.push({
        path: change.path,
        startLine: change.startLine,
        endLine: change.endLine,
        lines: change.added,
      });
    } else if (change.startLine > 1) {
      const anchor = change.startLine - 1;
      suggestions.push({
        path: change.path,
        startLine: anchor,
        endLine: anchor,
        lines: [lines[anchor - 1] ?? '', ...change.added],
      });
    } else if (lines.length > 0) {
      suggestions.push({ path: change.path, startLine: 1, endLine: 1, lines: [...change.added, lines[0]!] });
    }
  }
  return suggestions;
}

/** A suggestion can go on the diff only when all its lines are in one hunk of the new side. */
export function fitsDiff(suggestion: Suggestion, diff: DiffLines | undefined): boolean {
  if (!diff) return false;
  const hunk = diff.hunkOf.get(suggestion.startLine);
  if (hunk === undefined) return false;
  for (let line = suggestion.startLine; line <= suggestion.endLine; line += 1)
    if (diff.hunkOf.get(line) !== hunk) return false;
  return true;
}

function fence(lines: readonly string[]): string {
  const longest = Math.max(2, ...lines.map((line) => /^\s*(`{3,})/.exec(line)?.[1]?.length ?? 0));
  return '`'.repeat(longest + 1);
}

/** A line comment: GitHub's ```suggestion block, or GitLab's ```suggestion:-N+0 anchored on the range's last line. */
export function suggestionBody(suggestion: Suggestion, platform: 'github' | 'gitlab', note: string): string {
  const ticks = fence(suggestion.lines);
  const range = suggestion.endLine - suggestion.startLine;
  const opener = platform === 'gitlab' ? `${ticks}suggestion:-${range}+0` : `${ticks}suggestion`;
  return [SUGGESTION_MARKER, note, '', opener, ...suggestion.lines, ticks].join('\n');
}

/** Same place: the next run updates this comment instead of adding one. */
export const samePlace = (
  a: { path: string; startLine: number; endLine: number },
  b: { path: string; startLine: number; endLine: number },
) => a.path === b.path && a.startLine === b.startLine && a.endLine === b.endLine;

export interface ReviewText {
  why: string;
  /** The whole fix as a unified diff, shown when some of it cannot be a suggestion. */
  diff?: string;
  /** Why some changes are not suggestions on the diff. */
  notInline: string[];
  inline: number;
  runLink?: string;
}

/** The review's own body: the verdict, the why, where the run record is, and anything not suggested inline. */
export function reviewBody(text: ReviewText): string {
  const lines = [
    REVIEW_MARKER,
    `**mvnx: verified fix** (${text.inline} suggestion${text.inline === 1 ? '' : 's'} on the changed lines)`,
    '',
    text.why,
  ];
  if (text.runLink) lines.push('', `Run record: ${text.runLink}`);
  if (text.notInline.length > 0 && text.diff) {
    lines.push(
      '',
      `Not placed as a suggestion (${text.notInline.join('; ')}); the whole verified patch:`,
      '',
      fence(text.diff.split('\n')) + 'diff',
      text.diff.trimEnd(),
      fence(text.diff.split('\n')),
    );
  }
  lines.push(
    '',
    '_Apply with "Commit suggestion", or locally with `mvnx apply` on the run. This comment is updated by the next mvnx run._',
  );
  return lines.join('\n');
}

/** When the latest run has no verified fix, the earlier review says so instead of standing as current. */
export function noFixBody(runId: string, reason: string, runLink?: string): string {
  return [
    REVIEW_MARKER,
    `**mvnx:** the latest run (${runId}) found no verified fix (${reason}); the earlier suggestions were removed.`,
    ...(runLink ? ['', `Run record: ${runLink}`] : []),
  ].join('\n');
}
