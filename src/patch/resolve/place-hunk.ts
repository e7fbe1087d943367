import type { HunkOp, LineComparer } from './line-match.js';

export type Placement =
  | { kind: 'found'; index: number }
  | { kind: 'ambiguous'; indexes: [number, number] }
  | { kind: 'none' };

function matchesAt(lines: readonly string[], index: number, old: readonly HunkOp[], compare: LineComparer): boolean {
  for (let j = 0; j < old.length; j++) {
    if (!compare(old[j] as HunkOp, lines[index + j] as string)) return false;
  }
  return true;
}

/**
 * Where the old side of a hunk sits in the file. With a hint, search outward from it (as
 * GNU patch does) and take the nearest occurrence, refusing two equally near; without a
 * hint, the occurrence must be unique.
 */
export function placeOldLines(
  lines: readonly string[],
  old: readonly HunkOp[],
  hintIndex: number | undefined,
  compare: LineComparer,
): Placement {
  const last = lines.length - old.length;
  if (last < 0) return { kind: 'none' };
  if (hintIndex === undefined) {
    let found = -1;
    for (let i = 0; i <= last; i++) {
      if (!matchesAt(lines, i, old, compare)) continue;
      if (found >= 0) return { kind: 'ambiguous', indexes: [found, i] };
      found = i;
    }
    return found >= 0 ? { kind: 'found', index: found } : { kind: 'none' };
  }
  const start = Math.min(Math.max(hintIndex, 0), last);
  const reach = Math.max(start, last - start);
  for (let d = 0; d <= reach; d++) {
    const before = start - d;
    const after = start + d;
    const hitBefore = before >= 0 && matchesAt(lines, before, old, compare);
    const hitAfter = d > 0 && after <= last && matchesAt(lines, after, old, compare);
    if (hitBefore && hitAfter) return { kind: 'ambiguous', indexes: [before, after] };
    if (hitBefore) return { kind: 'found', index: before };
    if (hitAfter) return { kind: 'found', index: after };
  }
  return { kind: 'none' };
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
  let best = -1;
  let bestLength = -1;
  let bestDistance = Infinity;
  for (let i = 0; i < Math.max(lines.length, 1); i++) {
    let length = 0;
    while (length < old.length && i + length < lines.length && compare(old[length] as HunkOp, lines[i + length] as string)) length++;
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
  const actual = fileIndex < lines.length ? `file line ${fileIndex + 1} is ${quote(lines[fileIndex] as string)}` : 'the file ends there';
  const hunkLine = old.slice(0, bestLength + 1).length;
  return `${wanted.kind === 'del' ? 'removed' : 'context'} line ${hunkLine} of the hunk ${quote(prefix + wanted.text)} is not in the file (best match: ${actual})`;
}
