/**
 * When a streamed repair answer is whole, so the provider can close the stream and the
 * server stops writing what mvnx would not read (issue 42: at 5–15 output tokens a second,
 * the chatter after a diff costs seconds). A pure function of the text so far.
 *
 * - diff: the format asks for one unified diff in one fence, but small models often give a fence
 *   per file, so the answer is whole when a fence holding a diff has closed, a line of prose
 *   follows it (not another fence) and its edits extract without a problem.
 * - search-replace: the format allows several blocks, each in its own fence, so the answer
 *   is whole only once a line of prose follows the last closed fence (not a path line, a
 *   fence or a marker that would start another block) and the blocks extract cleanly.
 * - json: the server's grammar (`format`) already ends the answer with the object.
 *
 * An answer that never becomes whole (no fence, a broken diff) is read to its end, as
 * before: stopping early only ever saves the tail of a good answer.
 */
import { extractEdits } from '../../patch/index.js';
import type { EditFormat } from '../../model/prompts/index.js';

const FENCE = /^\s*(`{3,}|~{3,})(.*)$/;
const BLOCK_START = /^\s*(?:<{5,9}\s*SEARCH\b|={5,9}\s*$|>{5,9}\s*REPLACE\b|---\s|\+\+\+\s|@@|diff\s)/i;

interface ClosedFence {
  /** Lines of the fence's body. */
  body: string[];
  /** Index of its closing line. */
  end: number;
}

/** The predicate for `ChatRequest.isComplete` in this edit format, or undefined when none is needed. */
export function answerCompleteFor(format: EditFormat): ((text: string) => boolean) | undefined {
  if (format === 'diff') return diffAnswerComplete;
  if (format === 'search-replace') return searchReplaceAnswerComplete;
  return undefined;
}

/** A fence holding a unified diff has closed, and what came up to it extracts without a problem. */
export function diffAnswerComplete(text: string): boolean {
  const lines = completeLines(text);
  const last = closedFences(lines).at(-1);
  if (!last) return false;
  if (!last.body.some((line) => line.startsWith('@@')) || !last.body.some((line) => line.startsWith('+++ ')))
    return false;
  // Small models put one file's diff in each fence despite the format; a fence followed by another is not the end.
  if (!proseFollows(lines, last.end)) return false;
  return extractsCleanly(lines.slice(0, last.end + 1));
}

/** Blocks in closed fences, then a line of prose that cannot start another block, and the blocks extract cleanly. */
export function searchReplaceAnswerComplete(text: string): boolean {
  const lines = completeLines(text);
  const fences = closedFences(lines);
  const last = fences.at(-1);
  if (!last || !fences.some((fence) => fence.body.some((line) => /^\s*>{5,9}\s*REPLACE\b/i.test(line)))) return false;
  if (!proseFollows(lines, last.end)) return false;
  return extractsCleanly(lines.slice(0, last.end + 1));
}

/** The first non-blank line after the fence that ends at `end` is prose that cannot start another block. */
function proseFollows(lines: readonly string[], end: number): boolean {
  const after = lines.slice(end + 1).find((line) => line.trim() !== '');
  return after !== undefined && isProse(after);
}

/** A line that ends a block answer: words, not a path on its own, not a heading that names the next file. */
function isProse(line: string): boolean {
  const text = line.trim();
  if (FENCE.test(text) || BLOCK_START.test(text)) return false;
  // "In `src/Foo.java`:", "### src/Foo.java", "Also change this file:" introduce another block.
  if (/:\s*$/.test(text) || text.startsWith('#') || /`[^`\s]*[./][^`\s]*`\s*:?\s*$/.test(text)) return false;
  return /\s/.test(text);
}

/** The lines that have ended (the last piece of text may stop mid-line). */
function completeLines(text: string): string[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  lines.pop();
  return lines;
}

/** Fences in order; a fence closes at a bare line of its own marker (at least as long). */
function closedFences(lines: readonly string[]): ClosedFence[] {
  const fences: ClosedFence[] = [];
  let open: { marker: string; start: number } | undefined;
  lines.forEach((line, index) => {
    const match = FENCE.exec(line);
    if (!match) return;
    const marker = match[1]!;
    if (!open) {
      open = { marker, start: index };
      return;
    }
    if (match[2]!.trim() === '' && marker[0] === open.marker[0] && marker.length >= open.marker.length) {
      fences.push({ body: lines.slice(open.start + 1, index), end: index });
      open = undefined;
    }
  });
  return fences;
}

function extractsCleanly(lines: readonly string[]): boolean {
  const extracted = extractEdits(lines.join('\n'));
  return extracted.edits.length > 0 && extracted.problems.length === 0;
}
