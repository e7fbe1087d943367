import type { HunkOp, LineComparer } from './line-match.js';

export type Placement =
  { kind: 'found'; index: number } | { kind: 'ambiguous'; indexes: [number, number] } | { kind: 'none' };

function matchesAt(lines: readonly string[], index: number, old: readonly HunkOp[], compare: LineComparer): boolean {
  for (let j = 0; j < old.length; j++) {
    if (!compare(old[j] as HunkOp, lines[index + j] as string)) return false;
  }
  return true;
}

/**
 * Where the old side of a hunk sits in the file. Never a guess: the hunk's own line
 * (hint) wins when the old side is exactly there; otherwise it must occur once in the
 * whole file. Two occurrences and a line number on neither are `ambiguous`, however near
 * one of them the number is. `exactOnly` (a hunk with no context) takes the line or nothing.
 */
export function placeOldLines(
  lines: readonly string[],
  old: readonly HunkOp[],
  hintIndex: number | undefined,
  compare: LineComparer,
  exactOnly = false,
): Placement {
  const last = lines.length - old.length;
  if (last < 0) return { kind: 'none' };
  if (hintIndex !== undefined && hintIndex >= 0 && hintIndex <= last && matchesAt(lines, hintIndex, old, compare)) {
    return { kind: 'found', index: hintIndex };
  }
  if (exactOnly) return { kind: 'none' };
  let found = -1;
  for (let i = 0; i <= last; i++) {
    if (!matchesAt(lines, i, old, compare)) continue;
    if (found >= 0) return { kind: 'ambiguous', indexes: [found, i] };
    found = i;
  }
  return found >= 0 ? { kind: 'found', index: found } : { kind: 'none' };
}

function quote(text: string): string {
  return JSON.stringify(text.length > 120 ? text.slice(0, 117) + '...' : text);
}

/**
 * Why a hunk did not fit, from the spot that matches the longest prefix of its old side
 * (nearest the hint on ties): "line 3 of the hunk ... does not match file line 42 ...".
 */
export function describeMismatch(
  lines: readonly string[],
  old: readonly HunkOp[],
  hintIndex: number | undefined,
  compare: LineComparer,
): string {
  // Stryker disable next-line UnaryOperator: the first spot always replaces best, since bestLength starts at -1
  let best = -1;
  let bestLength = -1;
  let bestDistance = Infinity;
  for (let i = 0; i < Math.max(lines.length, 1); i++) {
    let length = 0;
    while (
      length < old.length &&
      i + length < lines.length &&
      compare(old[length] as HunkOp, lines[i + length] as string)
    )
      length++;
    const distance = hintIndex === undefined ? i : Math.abs(i - hintIndex);
    if (length > bestLength || (length === bestLength && distance < bestDistance)) {
      best = i;
      bestLength = length;
      bestDistance = distance;
    }
  }
  const wanted = old[bestLength];
  if (!wanted) return 'its lines run past the end of the file';
  const prefix = wanted.kind === 'del' ? '-' : ' ';
  const fileIndex = best + bestLength;
  const actual =
    fileIndex < lines.length
      ? `file line ${fileIndex + 1} is ${quote(lines[fileIndex] as string)}`
      : 'the file ends there';
  const hunkLine = old.slice(0, bestLength + 1).length;
  return `${wanted.kind === 'del' ? 'removed' : 'context'} line ${hunkLine} of the hunk ${quote(prefix + wanted.text)} is not in the file (best match: ${actual})`;
}
