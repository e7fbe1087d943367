/**
 * Line-level view of a FileChange for risk assessment. The patch stage's
 * `changedLineTexts` gives added and removed lines apart; telling "only a string literal
 * changed" needs each removed line next to the line that replaced it, so this pairs them.
 */
import { diffLines } from 'diff';
import type { FileChange } from '../patch/types.js';
// The lexical layer alone: java/index.js would load java-parser (a second or so) wherever the policy is read.
import { maskCommentsAndLiterals } from '../java/lexical.js';

export interface LineChanges {
  /** Lines only on the new side. */
  added: string[];
  /** Lines only on the old side. */
  removed: string[];
  /** A removed line and the added line that took its place, paired in order. */
  replaced: { before: string; after: string }[];
}

export function lineChangesOf(change: FileChange): LineChanges {
  const result: LineChanges = { added: [], removed: [], replaced: [] };
  if (change.binary) return result;
  const parts = diffLines(change.before ?? '', change.after ?? '');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const next = parts[i + 1];
    if (part.removed && next?.added) {
      const before = splitLines(part.value);
      const after = splitLines(next.value);
      const paired = Math.min(before.length, after.length);
      for (let j = 0; j < paired; j++) result.replaced.push({ before: before[j]!, after: after[j]! });
      result.removed.push(...before.slice(paired));
      result.added.push(...after.slice(paired));
      i++;
    } else if (part.removed) {
      result.removed.push(...splitLines(part.value));
    } else if (part.added) {
      result.added.push(...splitLines(part.value));
    }
  }
  return result;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => line.replace(/\r$/, ''));
}

/**
 * A line's code: comments and the contents of string, char and text-block literals
 * blanked (src/java's masking). Read line by line, so a line starting with `*` (inside a
 * block comment) is comment up to its `*\/`.
 */
export function codeOf(line: string): string {
  let text = line;
  const continuation = /^\s*\*(?!\/)/.exec(text);
  if (continuation) {
    const close = text.indexOf('*/');
    if (close < 0) return '';
    text = text.slice(close + 2);
  } else if (/^\s*\*\//.test(text)) {
    text = text.replace(/^\s*\*\//, '');
  }
  return maskCommentsAndLiterals(text);
}

const PROPERTIES_COMMENT = /^\s*#/;
const IMPORT = /^\s*import\s+(static\s+)?[\w.]+(\.\*)?\s*;?\s*$/;
const LOG_CALL =
  /^\s*(this\.)?(log|logger|LOG|LOGGER|Log|Logger)\s*\.\s*(trace|debug|info|warn|warning|error|fatal|fine|finer|finest|severe|config|atDebug|atInfo|atWarn|atError)\s*\(/;
const PRINT_CALL = /^\s*System\s*\.\s*(out|err)\s*\.\s*print(ln|f)?\s*\(/;
const STRING_LITERAL = /"(?:[^"\\\n]|\\.)*"/g;

/**
 * A line whose change cannot alter control flow: blank, comment, import or a log/print
 * call. A comment counts only when nothing but comments is on the line:
 * `/* log *\/ Runtime.getRuntime().halt(0);` is code.
 */
export function isTrivialLine(line: string): boolean {
  if (line.trim() === '' || PROPERTIES_COMMENT.test(line)) return true;
  const code = codeOf(line).trim();
  return code === '' || IMPORT.test(code) || LOG_CALL.test(code) || PRINT_CALL.test(code);
}

/** True when two lines differ only inside string literals. */
export function differsOnlyInStrings(before: string, after: string): boolean {
  return before !== after && before.replace(STRING_LITERAL, '""') === after.replace(STRING_LITERAL, '""');
}

/** The changed lines that are not trivial (see isTrivialLine and differsOnlyInStrings). */
export function nonTrivialChanges(changes: LineChanges): string[] {
  const lines = [...changes.added, ...changes.removed].filter((line) => !isTrivialLine(line));
  for (const { before, after } of changes.replaced) {
    if (differsOnlyInStrings(before, after) || (isTrivialLine(before) && isTrivialLine(after))) continue;
    lines.push(after);
  }
  return lines;
}
