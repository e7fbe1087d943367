import { realpath } from 'node:fs/promises';
import { extractEdits, pathsNeeded } from './extract/extract.js';
import type { PatchPolicy } from './patch-policy.js';
import { problem } from './problems.js';
import { readProjectFile } from './read-files.js';
import { resolveEdits } from './resolve/resolve.js';
import type { ChangeSet, PatchProblem, ProposedEdit } from './types.js';
import { checkPathOnDisk, checkPathsOnDisk } from './validate/disk-paths.js';
import { pathProblem } from './validate/path-rules.js';
import { validateChangeSet } from './validate/validate.js';

export type { ChangeSet, ChangeType, FileChange, PatchProblem, ProposedEdit, ProposedHunk } from './types.js';
export { extractEdits, pathsNeeded, type ExtractedEdits } from './extract/extract.js';
export { jsonEditListSchema, jsonEditListJsonSchema, type JsonEditList } from './extract/json-edits.js';
export { resolveEdits, type FileLookup, type PlacementOptions } from './resolve/resolve.js';
export { validateChangeSet } from './validate/validate.js';
export { checkPathsOnDisk } from './validate/disk-paths.js';
export { pathProblem } from './validate/path-rules.js';
export { classify, classifyFile, pathKind, countChangedLines, changedLineTexts } from './classify.js';
export { toUnifiedDiff, toUnifiedDiffBytes } from './unified-diff.js';
export { fingerprintChangeSet, fingerprintProposedEdits, fingerprintText } from './fingerprint.js';
export { applyChangeSet, PatchApplyError, type PatchApplyErrorCode } from './apply.js';
export { PATCH_PROBLEM_CODES, isPlacementProblem, type PatchProblemCode } from './problems.js';
export { DEFAULT_PATCH_POLICY, type PatchPolicy } from './patch-policy.js';

export interface ModelTextResult {
  /** Set only when every edit placed and every rule passed: ready to apply. */
  changeSet?: ChangeSet;
  problems: PatchProblem[];
  edits: ProposedEdit[];
  summary?: string;
}

/**
 * Model reply to a checked change set for the tree at `root`. Paths are checked before
 * anything is read, so a reply naming `../../etc/passwd` or a symlink out of the project
 * never gets its target read.
 */
export interface ModelTextOptions {
  /**
   * Contents that stand in for the files on disk (null: deleted), e.g. a fix that made
   * progress and is the base of the next attempt. Paths are still checked against `root`.
   */
  overlay?: ReadonlyMap<string, string | null>;
}

export async function changeSetFromModelText(
  text: string,
  root: string,
  policy: PatchPolicy,
  options: ModelTextOptions = {},
): Promise<ModelTextResult> {
  const extracted = extractEdits(text);
  const problems: PatchProblem[] = [...extracted.problems];
  const result: ModelTextResult = { problems, edits: extracted.edits };
  if (extracted.summary !== undefined) result.summary = extracted.summary;
  if (extracted.edits.length === 0) return result;

  const rootReal = await realpath(root);
  const contents = new Map<string, string | undefined>();
  const encodings = new Map<string, 'utf8' | 'latin1'>();
  for (const path of pathsNeeded(extracted.edits)) {
    const refused = pathProblem(path) ?? (await checkPathOnDisk(rootReal, path));
    if (refused) {
      problems.push(refused);
      continue;
    }
    if (options.overlay?.has(path)) {
      const content = options.overlay.get(path);
      if (content !== null && content !== undefined) contents.set(path, content);
      continue;
    }
    const read = await readProjectFile(root, path, policy.allowNonUtf8);
    if (read.kind === 'non-utf8') {
      problems.push(problem('non-utf8', `${path} is not valid UTF-8, and policy does not allow editing such files.`, { file: path }));
    } else if (read.kind === 'text') {
      contents.set(path, read.content);
      encodings.set(path, read.encoding);
    }
  }
  if (problems.length > 0) return result;

  const resolved = resolveEdits(extracted.edits, contents, policy);
  problems.push(...resolved.problems);
  for (const change of resolved.changeSet.files) {
    const encoding = encodings.get(change.oldPath ?? change.path);
    if (encoding === 'latin1') change.encoding = encoding;
  }
  if (problems.length > 0) return result;
  problems.push(...validateChangeSet(resolved.changeSet, policy));
  problems.push(...(await checkPathsOnDisk(root, resolved.changeSet)));
  if (problems.length === 0) result.changeSet = resolved.changeSet;
  return result;
}
