import type { PatchProblem, ProposedEdit } from '../types.js';
import { problem } from '../problems.js';
import { extractJsonEdits } from './json-edits.js';
import { extractSearchReplace } from './search-replace.js';
import { extractUnifiedDiffs } from './unified.js';

export interface ExtractedEdits {
  edits: ProposedEdit[];
  problems: PatchProblem[];
  /** The model's own summary, when the JSON form carried one. Context only. */
  summary?: string;
}

/**
 * Every edit in a model reply, in reply order per format. Line endings are normalised to
 * LF here; the resolver gives each file its own endings back. A reply in JSON form is
 * taken as JSON only; otherwise SEARCH/REPLACE blocks and unified diffs may be mixed.
 */
export function extractEdits(text: string): ExtractedEdits {
  const normalised = text.replace(/\r\n/g, '\n').replace(/\r(?=\n|$)/g, '');
  const json = extractJsonEdits(normalised);
  if (json && json.edits.length > 0) return json;

  const lines = normalised.split('\n');
  const consumed: boolean[] = new Array<boolean>(lines.length).fill(false);
  const blocks = extractSearchReplace(lines, consumed);
  const diffs = extractUnifiedDiffs(lines, consumed);
  const edits: ProposedEdit[] = [...blocks.edits, ...diffs.edits];
  const problems = [...(json?.problems ?? []), ...blocks.problems, ...diffs.problems];
  if (edits.length === 0 && problems.length === 0) {
    problems.push(problem('no-edits', 'The reply holds no unified diff, SEARCH/REPLACE block or JSON edit list.'));
  }
  return { edits, problems };
}

/** Root-relative paths the resolver will look up, each once, in first-use order. */
export function pathsNeeded(edits: readonly ProposedEdit[]): string[] {
  const paths = new Set<string>();
  for (const edit of edits) {
    if (edit.type === 'unified') {
      if (edit.oldPath !== null) paths.add(edit.oldPath);
      if (edit.newPath !== null) paths.add(edit.newPath);
    } else {
      paths.add(edit.path);
    }
  }
  return [...paths];
}
