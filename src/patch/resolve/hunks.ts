import type { PatchProblem, ProposedHunk } from '../types.js';
import { problem } from '../problems.js';
import type { FileLines } from './file-lines.js';
import {
  leadingWhitespace,
  strictComparer,
  whitespaceInsensitiveComparer,
  type HunkOp,
  type MatchOptions,
} from './line-match.js';
import { describeMismatch, placeOldLines } from './place-hunk.js';

export interface ParsedHunk {
  ops: HunkOp[];
  /** 0-based index where the hunk's old side starts, from the writer's header; a hint. */
  hintIndex?: number;
  /** `\ No newline at end of file` after the old side's / new side's last line. */
  oldNoNewline: boolean;
  newNoNewline: boolean;
}

/**
 * Hunk body lines to operations. Counts are never read: the body is the truth. A line
 * with no diff prefix is context whose ' ' was lost; a ' ' context line may also be an
 * indented line whose ' ' was lost, so it remembers how it was written.
 */
export function parseHunk(hunk: ProposedHunk): ParsedHunk {
  const ops: HunkOp[] = [];
  let oldNoNewline = false;
  let newNoNewline = false;
  for (const line of hunk.lines) {
    const first = line[0];
    if (first === '\\') {
      const previous = ops.at(-1);
      // Stryker disable next-line StringLiteral: kind is never '', so this is the always-true mutant: a marker after an
      // added line sets newNoNewline too, which wins
      if (previous?.kind !== 'add') oldNoNewline = true;
      if (previous?.kind !== 'del') newNoNewline = true;
    } else if (first === '-' || first === '+') {
      ops.push({ kind: first === '-' ? 'del' : 'add', text: line.slice(1) });
    } else if (first === ' ') {
      ops.push({ kind: 'ctx', text: line.slice(1), asWritten: line });
    } else {
      ops.push({ kind: 'ctx', text: line });
    }
  }
  const parsed: ParsedHunk = { ops, oldNoNewline, newNoNewline };
  if (hunk.oldStartHint !== undefined) {
    const isPureInsertion = ops.every((op) => op.kind === 'add');
    // `@@ -5,0 +6,2 @@` inserts after line 5; otherwise the number is the first old line.
    parsed.hintIndex = isPureInsertion ? hunk.oldStartHint : Math.max(hunk.oldStartHint - 1, 0);
  }
  return parsed;
}

/**
 * Aider-style relative indentation: the replacement keeps its own shape, shifted from the
 * writer's indentation to the file's actual indentation of the matched lines.
 */
function reindent(added: string, writerLead: string, fileLead: string): string {
  if (added.trim() === '') return added;
  const lead = leadingWhitespace(added);
  if (lead.startsWith(writerLead)) return fileLead + added.slice(writerLead.length);
  const shortBy = writerLead.length - lead.length;
  return fileLead.slice(0, Math.max(fileLead.length - shortBy, 0)) + added.slice(lead.length);
}

interface PlacedHunk {
  number: number;
  start: number;
  parsed: ParsedHunk;
  oldLength: number;
  loose: boolean;
}

function replacementFor(file: FileLines, placed: PlacedHunk): { lines: string[]; eols: string[] } {
  const lines: string[] = [];
  const eols: string[] = [];
  let fileIndex = placed.start;
  let writerLead: string | undefined;
  // Stryker disable next-line StringLiteral: fileLead is read only when writerLead is set, and both are set together
  let fileLead = '';
  if (placed.loose) {
    // The shift comes from the lines being replaced (the removed ones), else from the context.
    for (const kind of ['del', 'ctx'] as const) {
      let probe = placed.start;
      for (const op of placed.parsed.ops) {
        if (op.kind === 'add') continue;
        if (op.kind === kind && op.text.trim() !== '') {
          writerLead = leadingWhitespace(op.text);
          fileLead = leadingWhitespace(file.lines[probe] as string);
          break;
        }
        probe++;
      }
      if (writerLead !== undefined) break;
    }
  }
  for (const op of placed.parsed.ops) {
    if (op.kind === 'ctx') {
      lines.push(file.lines[fileIndex] as string);
      eols.push(file.eols[fileIndex] as string);
      fileIndex++;
    } else if (op.kind === 'del') {
      fileIndex++;
    } else {
      lines.push(writerLead === undefined ? op.text : reindent(op.text, writerLead, fileLead));
      eols.push(file.eol);
    }
  }
  return { lines, eols };
}

/**
 * All hunks of one diff, each placed against the file as it was before this diff, then
 * spliced in file order. A later hunk's hint is shifted by the offset the previous one
 * was found at, as GNU patch does, so a diff that is off by N stays off by N.
 */
export function applyHunks(
  file: FileLines,
  hunks: readonly ProposedHunk[],
  options: MatchOptions,
  path: string,
): { file: FileLines } | { problem: PatchProblem } {
  const strict = strictComparer(options);
  const loose = whitespaceInsensitiveComparer(options);
  const placed: PlacedHunk[] = [];
  let offset = 0;
  for (let h = 0; h < hunks.length; h++) {
    const parsed = parseHunk(hunks[h] as ProposedHunk);
    const number = h + 1;
    const old = parsed.ops.filter((op) => op.kind !== 'add');
    const hint = parsed.hintIndex === undefined ? undefined : parsed.hintIndex + offset;
    if (old.length === 0) {
      // Nothing in the file says where added lines go, unless the file is empty.
      if (file.lines.length > 0) {
        return {
          problem: problem(
            'hunk-ambiguous',
            `${path} hunk ${number} only adds lines and has no context line, so nothing confirms where they go; include the lines around the insertion as context.`,
            { file: path, hunk: number },
          ),
        };
      }
      // Stryker disable next-line BooleanLiteral: a pure insertion has no removed or context line to take an
      // indentation from
      placed.push({ number, start: 0, parsed, oldLength: 0, loose: false });
      continue;
    }
    // Without context a hunk is placed only where its removed lines are, exactly at its line.
    const exactOnly = hint !== undefined && !old.some((op) => op.kind === 'ctx');
    let placement = placeOldLines(file.lines, old, hint, strict, exactOnly);
    let isLoose = false;
    if (placement.kind === 'none' && options.ignoreWhitespace) {
      placement = placeOldLines(file.lines, old, hint, loose, exactOnly);
      isLoose = true;
    }
    if (placement.kind === 'ambiguous') {
      const [a, b] = placement.indexes;
      const where =
        hint === undefined ? 'and the hunk gives no line number' : `and its line number (${hint + 1}) is on neither`;
      return {
        problem: problem(
          'hunk-ambiguous',
          `${path} hunk ${number} matches at lines ${a + 1} and ${b + 1}, ${where}; refusing to guess.`,
          { file: path, hunk: number },
        ),
      };
    }
    if (placement.kind === 'none') {
      const at = hint ?? 0;
      const there =
        at < file.lines.length
          ? `file line ${at + 1} is ${JSON.stringify((file.lines[at] as string).slice(0, 120))}`
          : `the file has ${file.lines.length} lines`;
      const why = exactOnly
        ? `it has no context lines, so its removed lines must be exactly at its line ${at + 1}, and ${there}; include context lines so it can be found`
        : describeMismatch(file.lines, old, hint, strict);
      return {
        problem: problem('hunk-not-found', `${path} hunk ${number} does not apply: ${why}.`, {
          file: path,
          hunk: number,
        }),
      };
    }
    if (parsed.hintIndex !== undefined) offset = placement.index - parsed.hintIndex;
    placed.push({ number, start: placement.index, parsed, oldLength: old.length, loose: isLoose });
  }

  placed.sort((a, b) => a.start - b.start || a.number - b.number);
  for (let k = 1; k < placed.length; k++) {
    const previous = placed[k - 1] as PlacedHunk;
    const current = placed[k] as PlacedHunk;
    if (current.start < previous.start + previous.oldLength) {
      return {
        problem: problem(
          'hunk-overlap',
          `${path} hunks ${previous.number} and ${current.number} change overlapping lines.`,
          { file: path, hunk: current.number },
        ),
      };
    }
  }

  const lines: string[] = [];
  const eols: string[] = [];
  let cursor = 0;
  let finalNewline = file.finalNewline;
  for (const hunk of placed) {
    for (; cursor < hunk.start; cursor++) {
      lines.push(file.lines[cursor] as string);
      eols.push(file.eols[cursor] as string);
    }
    const replacement = replacementFor(file, hunk);
    lines.push(...replacement.lines);
    eols.push(...replacement.eols);
    cursor = hunk.start + hunk.oldLength;
    if (cursor === file.lines.length) {
      // Only an explicit marker changes whether the file ends with a newline.
      if (hunk.parsed.newNoNewline) finalNewline = false;
      else if (hunk.parsed.oldNoNewline) finalNewline = true;
    }
  }
  for (; cursor < file.lines.length; cursor++) {
    lines.push(file.lines[cursor] as string);
    eols.push(file.eols[cursor] as string);
  }
  return { file: { lines, eols, eol: file.eol, finalNewline } };
}
