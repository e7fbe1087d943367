import type { PatchProblem, ProposedEdit } from '../types.js';
import { aliasCollisions, canonicalPath } from '../canonical-path.js';
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
  if (json && json.edits.length > 0) return canonical(json);

  const lines = normalised.split('\n');
  // Stryker disable next-line ArrayDeclaration: an empty array filled stays empty, and consumed[i] of it is undefined,
  // read as false like the false it holds
  const consumed: boolean[] = new Array<boolean>(lines.length).fill(false);
  const blocks = extractSearchReplace(lines, consumed);
  const diffs = extractUnifiedDiffs(lines, consumed);
  const edits: ProposedEdit[] = [...blocks.edits, ...diffs.edits];
  const problems = [...(json?.problems ?? []), ...blocks.problems, ...diffs.problems];
  if (edits.length === 0 && problems.length === 0) {
    problems.push(problem('no-edits', 'The reply holds no unified diff, SEARCH/REPLACE block or JSON edit list.'));
  }
  return canonical({ edits, problems });
}

/**
 * Every path in canonical form, once, here: the rules after this see one spelling per
 * file. An edit naming a path that cannot be made canonical is dropped with its reason,
 * and paths that are one file on macOS or Windows are refused.
 */
function canonical(extracted: ExtractedEdits): ExtractedEdits {
  const problems = [...extracted.problems];
  const edits: ProposedEdit[] = [];
  const fix = (path: string | null): string | null | PatchProblem => {
    if (path === null) return null;
    const result = canonicalPath(path);
    return 'problem' in result ? result.problem : result.path;
  };
  for (const edit of extracted.edits) {
    if (edit.type === 'unified') {
      const oldPath = fix(edit.oldPath);
      const newPath = fix(edit.newPath);
      const refused = [oldPath, newPath].filter((p): p is PatchProblem => typeof p === 'object' && p !== null);
      if (refused.length > 0) {
        problems.push(...dedupe(refused));
        continue;
      }
      edits.push({ ...edit, oldPath: oldPath as string | null, newPath: newPath as string | null });
    } else {
      const path = fix(edit.path);
      if (typeof path === 'object' && path !== null) {
        problems.push(path);
        continue;
      }
      edits.push({ ...edit, path: path as string });
    }
  }
  problems.push(...aliasCollisions(pathsNeeded(edits)));
  const out: ExtractedEdits = { edits, problems };
  if (extracted.summary !== undefined) out.summary = extracted.summary;
  return out;
}

function dedupe(problems: PatchProblem[]): PatchProblem[] {
  return problems.filter((p, i) => problems.findIndex((q) => q.message === p.message) === i);
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
