import type { PatchProblem, ProposedEdit, ProposedHunk } from '../types.js';
import { problem } from '../problems.js';
import { cleanHeaderPath, parseDiffGitPaths, pathFromMentionLine } from './path-text.js';

type UnifiedEdit = Extract<ProposedEdit, { type: 'unified' }>;

const FENCE = /^\s*(?:```|~~~)/;
/** `@@ -3,7 +3,8 @@`, and what models make of it: `@@ -3 +3 @@`, `@@ ... @@`, `@@ @@`. */
const HUNK_HEADER = /^@@+([^@]*)@@+/;
const HUNK_OLD_RANGE = /-(\d+)(?:,(\d+))?/;
const HUNK_NEW_RANGE = /\+(\d+)(?:,(\d+))?/;
const DIFF_GIT = /^diff --git\s+(.*)$/;
const OLD_HEADER = /^---\s+(.+)$/;
const NEW_HEADER = /^\+\+\+\s+(.+)$/;
const EXTENDED_HEADER =
  /^(old mode|new mode|new file mode|deleted file mode|rename from|rename to|copy from|copy to|similarity index|dissimilarity index|index)\s+(.*?)\s*$/;
const BINARY = /^(?:Binary files .* differ|GIT binary patch)\s*$/;

interface FileInProgress {
  edit: UnifiedEdit;
  /** Paths from `diff --git`, used when no ---/+++ pair follows. */
  gitPaths?: { oldPath: string; newPath: string };
  sawHeaders: boolean;
  createdByMode: boolean;
  deletedByMode: boolean;
  /** `copy from`/`copy to`: the source stays. */
  copy?: boolean;
  /** A hunk whose end could not be told: the file's edit is dropped (its problem is reported). */
  ambiguous?: boolean;
}

interface HunkInProgress {
  hunk: ProposedHunk;
  claimedOld?: number;
  claimedNew?: number;
}

function isFileHeaderPair(lines: readonly string[], i: number): boolean {
  return OLD_HEADER.test(lines[i] ?? '') && NEW_HEADER.test(lines[i + 1] ?? '');
}

function isPrefixed(line: string): boolean {
  const first = line[0];
  return first === ' ' || first === '-' || first === '+' || first === '\\';
}

/**
 * Where the hunk body really ends. Trailing lines with no diff prefix are prose (or blank
 * separators), never context worth keeping. When the header's counts are met exactly
 * (consistent with the body) and what follows starts with a blank line or prose, the
 * counts were right and the hunk ends there, as git reads it: a markdown bullet such as
 * `+ uses addExact` after the diff is never absorbed. When only `+` lines follow, nothing
 * tells an added line the counts forgot from a bullet, so the hunk is refused (`ambiguous`).
 * When context or removed lines follow, the counts were wrong and the body decides (those
 * lines are checked against the file anyway).
 */
function trimHunkBody(
  body: string[],
  claimedOld?: number,
  claimedNew?: number,
): { lines: string[]; ambiguous?: string[] } {
  let end = body.length;
  while (end > 0 && !isPrefixed(body[end - 1] as string)) end--;
  const lines = body.slice(0, end);
  // Stryker disable next-line LogicalOperator: both counts are set together or neither (oldRange && newRange below)
  if (claimedOld === undefined || claimedNew === undefined) return { lines };
  let oldCount = 0;
  let newCount = 0;
  for (let k = 0; k < lines.length; k++) {
    const first = (lines[k] as string)[0];
    if (first === '-') oldCount++;
    else if (first === '+') newCount++;
    else if (first !== '\\') {
      oldCount++;
      newCount++;
    }
    if (oldCount > claimedOld || newCount > claimedNew) break;
    if (oldCount !== claimedOld || newCount !== claimedNew) continue;
    let stop = k + 1;
    while (lines[stop]?.startsWith('\\')) stop++;
    const rest = lines.slice(stop);
    if (rest.length === 0) break;
    // Stryker disable next-line StringLiteral: an empty line is not prefixed, so !isPrefixed already takes it
    const separator = rest.findIndex((line) => line === '' || !isPrefixed(line));
    const head = separator < 0 ? rest : rest.slice(0, separator);
    if (head.length === 0) return { lines: lines.slice(0, stop) };
    if (head.every((line) => line.startsWith('+'))) return { lines: lines.slice(0, stop), ambiguous: head };
    break;
  }
  return { lines };
}

/**
 * Unified diffs anywhere in the text: fenced or not, with or without `diff --git`, with
 * or without `a/`/`b/`, several per reply. Header counts are kept only as a hint for where
 * the body ends; the body itself decides the counts. Lines marked in `consumed` belong to
 * another format and end any hunk.
 */
export function extractUnifiedDiffs(
  lines: readonly string[],
  consumed: readonly boolean[],
): { edits: UnifiedEdit[]; problems: PatchProblem[] } {
  const edits: UnifiedEdit[] = [];
  const problems: PatchProblem[] = [];
  let file: FileInProgress | undefined;
  let hunk: HunkInProgress | undefined;
  let lastMention: string | undefined;

  const closeHunk = (): void => {
    if (!hunk || !file) return;
    const body = hunk.hunk.lines;
    const trimmed = trimHunkBody(body, hunk.claimedOld, hunk.claimedNew);
    const kept = trimmed.lines;
    hunk.hunk.lines = kept;
    if (trimmed.ambiguous) {
      const name = file.edit.newPath ?? file.edit.oldPath ?? '(unnamed)';
      const shown = trimmed.ambiguous
        .slice(0, 2)
        .map((line) => JSON.stringify(line))
        .join(', ');
      problems.push(
        problem(
          'parse-error',
          `${name} hunk ${file.edit.hunks.length + 1}: its header counts end before ${trimmed.ambiguous.length} more added line(s) (${shown}); fix the counts, or put prose after the diff apart from it.`,
          { file: name, hunk: file.edit.hunks.length + 1 },
        ),
      );
      file.ambiguous = true;
    }
    if (kept.length > 0) file.edit.hunks.push(hunk.hunk);
    hunk = undefined;
    // Prose after the hunk may name the next file ("Then in src/B.java:").
    const mentions = body
      .slice(kept.length)
      .map(pathFromMentionLine)
      .filter((m) => m !== undefined);
    if (mentions.length > 0) {
      lastMention = mentions.at(-1);
      closeFile();
    }
  };
  const closeFile = (): void => {
    closeHunk();
    if (!file) return;
    const done = file;
    file = undefined;
    if (!done.sawHeaders && done.gitPaths) {
      done.edit.oldPath = done.createdByMode ? null : done.gitPaths.oldPath;
      done.edit.newPath = done.deletedByMode ? null : done.gitPaths.newPath;
    }
    if (done.createdByMode) done.edit.oldPath = null;
    if (done.deletedByMode) done.edit.newPath = null;
    const last = done.edit.hunks.at(-1)?.lines;
    if (last) {
      const markerAt = last.findIndex((line) => line.startsWith('\\'));
      if (markerAt > 0 && !(last[markerAt - 1] as string).startsWith('-')) done.edit.noNewlineAtEnd = true;
    }
    const meaningful =
      done.edit.hunks.length > 0 ||
      done.edit.binary ||
      done.edit.oldMode !== undefined ||
      done.edit.newMode !== undefined ||
      done.edit.oldPath !== done.edit.newPath ||
      done.createdByMode ||
      done.deletedByMode;
    if (
      done.copy &&
      done.edit.oldPath !== null &&
      done.edit.newPath !== null &&
      done.edit.oldPath !== done.edit.newPath
    )
      done.edit.copy = true;
    if (done.ambiguous) return;
    if (done.edit.oldPath === null && done.edit.newPath === null) {
      problems.push(problem('parse-error', 'A diff names /dev/null on both sides, so it says which file to change.'));
    } else if (meaningful) {
      edits.push(done.edit);
    }
  };
  const openFile = (oldPath: string | null, newPath: string | null): FileInProgress => {
    closeFile();
    file = {
      edit: { type: 'unified', oldPath, newPath, hunks: [] },
      sawHeaders: false,
      createdByMode: false,
      deletedByMode: false,
    };
    return file;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (consumed[i] || FENCE.test(line)) {
      closeHunk();
      continue;
    }
    const gitMatch = DIFF_GIT.exec(line);
    if (gitMatch) {
      const paths = parseDiffGitPaths(gitMatch[1] as string);
      const opened = openFile(paths?.oldPath ?? null, paths?.newPath ?? null);
      if (paths) opened.gitPaths = paths;
      continue;
    }
    if (isFileHeaderPair(lines, i)) {
      const oldPath = cleanHeaderPath((OLD_HEADER.exec(line) as RegExpExecArray)[1] as string);
      const newPath = cleanHeaderPath((NEW_HEADER.exec(lines[i + 1] as string) as RegExpExecArray)[1] as string);
      const reuse = file && !file.sawHeaders && file.edit.hunks.length === 0 && !hunk && file.gitPaths;
      const target = reuse && file ? file : openFile(oldPath, newPath);
      target.edit.oldPath = oldPath;
      target.edit.newPath = newPath;
      target.sawHeaders = true;
      i++;
      continue;
    }
    const hunkMatch = HUNK_HEADER.exec(line);
    if (hunkMatch) {
      closeHunk();
      if (!file) {
        if (lastMention === undefined) {
          problems.push(
            problem('parse-error', `Hunk "${line.trim()}" has no file header (---/+++) and no file named before it.`),
          );
          continue;
        }
        openFile(lastMention, lastMention).sawHeaders = true;
      }
      const next: HunkInProgress = { hunk: { lines: [] } };
      const ranges = hunkMatch[1] as string;
      const oldRange = HUNK_OLD_RANGE.exec(ranges);
      const newRange = HUNK_NEW_RANGE.exec(ranges);
      if (oldRange) next.hunk.oldStartHint = Number(oldRange[1]);
      if (oldRange && newRange) {
        next.claimedOld = oldRange[2] === undefined ? 1 : Number(oldRange[2]);
        next.claimedNew = newRange[2] === undefined ? 1 : Number(newRange[2]);
      }
      hunk = next;
      continue;
    }
    if (hunk) {
      if (/^Index:\s/.test(line) || /^={20,}\s*$/.test(line)) {
        closeFile();
        continue;
      }
      hunk.hunk.lines.push(line);
      continue;
    }
    if (file && file.edit.hunks.length === 0) {
      const ext = EXTENDED_HEADER.exec(line);
      if (ext) {
        const [, key, value] = ext as unknown as [string, string, string];
        if (key === 'old mode') file.edit.oldMode = value;
        else if (key === 'new mode') file.edit.newMode = value;
        else if (key === 'new file mode') {
          file.createdByMode = true;
          file.edit.newMode = value;
        } else if (key === 'deleted file mode') {
          file.deletedByMode = true;
          file.edit.oldMode = value;
        } else if ((key === 'rename from' || key === 'copy from') && file.gitPaths)
          file.gitPaths.oldPath = cleanHeaderPath(value) ?? file.gitPaths.oldPath;
        else if ((key === 'rename to' || key === 'copy to') && file.gitPaths)
          file.gitPaths.newPath = cleanHeaderPath(value) ?? file.gitPaths.newPath;
        if (key === 'copy from' || key === 'copy to') file.copy = true;
        // `index abc..def 100644`: the mode of both sides, unless a mode line says otherwise.
        const indexMode = key === 'index' ? /^\S+\.\.\S+\s+(\S+)$/.exec(value)?.[1] : undefined;
        if (indexMode !== undefined) {
          file.edit.oldMode ??= indexMode;
          file.edit.newMode ??= indexMode;
        }
        continue;
      }
      if (BINARY.test(line)) {
        file.edit.binary = true;
        continue;
      }
    }
    const mention = pathFromMentionLine(line);
    if (mention !== undefined) {
      lastMention = mention;
      if (file && (file.edit.hunks.length > 0 || file.sawHeaders)) closeFile();
    }
  }
  closeFile();
  return { edits, problems };
}
