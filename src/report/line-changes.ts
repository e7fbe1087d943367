/**
 * A verified fix as line ranges of the file it was made against: what SARIF `fixes` and
 * review suggestions both need ("replace lines 12-13 with these lines"). Pure.
 */
import { diffArrays } from 'diff';
import type { ChangeSet } from '../patch/types.js';

export interface LineChange {
  path: string;
  /** First line (1-based) of the old file that the change replaces; for a pure insertion, the line it goes before. */
  startLine: number;
  /** Last replaced line; startLine - 1 for a pure insertion. */
  endLine: number;
  removed: string[];
  added: string[];
}

export interface FileLines {
  lines: string[];
  /** The line terminator the file uses. */
  eol: '\n' | '\r\n';
  /** Whether the last line ends with a terminator. */
  finalEol: boolean;
}

export function splitLines(text: string): FileLines {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const finalEol = text.endsWith('\n');
  if (finalEol) lines.pop();
  return { lines, eol, finalEol };
}

/** The changes between two texts, each a run of removed and added lines at one place. */
export function lineChangesOf(path: string, before: string, after: string): LineChange[] {
  const changes: LineChange[] = [];
  let oldLine = 1;
  let current: LineChange | undefined;
  for (const part of diffArrays(splitLines(before).lines, splitLines(after).lines)) {
    if (!part.added && !part.removed) {
      if (current) changes.push(current);
      current = undefined;
      oldLine += part.count ?? part.value.length;
      continue;
    }
    current ??= { path, startLine: oldLine, endLine: oldLine - 1, removed: [], added: [] };
    if (part.removed) {
      current.removed.push(...part.value);
      current.endLine += part.value.length;
      oldLine += part.value.length;
    } else {
      current.added.push(...part.value);
    }
  }
  if (current) changes.push(current);
  return changes;
}

/** Line changes of every text file the fix edits in place (not created, deleted, renamed or binary files). */
export function lineChangesOfFix(fix: ChangeSet): { changes: LineChange[]; wholeFiles: string[] } {
  const changes: LineChange[] = [];
  const wholeFiles: string[] = [];
  for (const file of fix.files) {
    if (file.before === null || file.after === null || file.binary || (file.oldPath && file.oldPath !== file.path)) {
      wholeFiles.push(file.path);
      continue;
    }
    changes.push(...lineChangesOf(file.path, file.before, file.after));
  }
  return { changes, wholeFiles };
}
