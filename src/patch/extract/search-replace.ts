import type { PatchProblem, ProposedEdit } from '../types.js';
import { problem } from '../problems.js';
import { pathFromMentionLine } from './path-text.js';

type SearchReplaceEdit = Extract<ProposedEdit, { type: 'search-replace' }>;

const SEARCH_MARK = /^\s*<{5,9}\s*SEARCH\b.*$/i;
const DIVIDER_MARK = /^\s*={5,9}\s*$/;
const REPLACE_MARK = /^\s*>{5,9}\s*REPLACE\b.*$/i;
const FENCE = /^\s*(?:```|~~~)/;

/** The file a block belongs to: the path line above it, skipping its opening fence and blanks. */
function pathAbove(lines: readonly string[], index: number): string | undefined {
  for (let i = index - 1, seen = 0; i >= 0 && seen < 3; i--) {
    const line = lines[i] as string;
    if (line.trim() === '') continue;
    seen++;
    if (FENCE.test(line)) {
      // Stryker disable next-line Regex: the line is trimmed and FENCE matched, so the fence is at the start and the
      // first match is the same without ^
      const info = line
        .trim()
        .replace(/^(?:```|~~~)/, '')
        .trim();
      const fromInfo = info.includes('/') ? pathFromMentionLine(info) : undefined;
      if (fromInfo) return fromInfo;
      continue;
    }
    return pathFromMentionLine(line);
  }
  return undefined;
}

/**
 * Aider-style SEARCH/REPLACE blocks. A block without its own path line reuses the previous
 * block's file, as Aider does. Marks the lines it took in `consumed`.
 */
export function extractSearchReplace(
  lines: readonly string[],
  consumed: boolean[],
): { edits: SearchReplaceEdit[]; problems: PatchProblem[] } {
  const edits: SearchReplaceEdit[] = [];
  const problems: PatchProblem[] = [];
  let lastPath: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (!SEARCH_MARK.test(lines[i] as string)) continue;
    const start = i;
    const path = pathAbove(lines, i) ?? lastPath;
    let divider = -1;
    let end = -1;
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j] as string;
      if (divider < 0 && DIVIDER_MARK.test(line)) divider = j;
      else if (divider >= 0 && REPLACE_MARK.test(line)) {
        end = j;
        break;
      } else if (SEARCH_MARK.test(line)) break;
    }
    if (divider < 0 || end < 0) {
      problems.push(
        problem(
          'parse-error',
          `SEARCH block at reply line ${start + 1} has no ${divider < 0 ? '=======' : '>>>>>>> REPLACE'} marker.`,
        ),
      );
      consumed[start] = true;
      continue;
    }
    for (let k = start; k <= end; k++) consumed[k] = true;
    i = end;
    if (path === undefined) {
      problems.push(
        problem('parse-error', `SEARCH/REPLACE block at reply line ${start + 1} does not say which file it edits.`),
      );
      continue;
    }
    lastPath = path;
    const search = lines.slice(start + 1, divider);
    const replace = lines.slice(divider + 1, end);
    edits.push({
      type: 'search-replace',
      path,
      search: search.length > 0 ? search.join('\n') + '\n' : '',
      replace: replace.length > 0 ? replace.join('\n') + '\n' : '',
    });
  }
  return { edits, problems };
}
