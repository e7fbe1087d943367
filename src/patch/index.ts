import { realpath } from 'node:fs/promises';
import { extractEdits, pathsNeeded } from './extract/extract.js';
import type { PatchPolicy } from './patch-policy.js';
import { problem } from './problems.js';
import { readProjectFile } from './read-files.js';
import { resolveEdits } from './resolve/resolve-edits.js';
import type { ChangeSet, FileChange, PatchProblem, ProposedEdit } from './types.js';
import { checkPathOnDisk, checkPathsOnDisk, diskModeOf } from './validate/disk-paths.js';
import { pathProblem, protectedProblem } from './validate/path-rules.js';
import { modeProblem, validateChangeSet } from './validate/validate.js';

export type { ChangeSet, ChangeType, FileChange, PatchProblem, ProposedEdit, ProposedHunk } from './types.js';
export { extractEdits, pathsNeeded, type ExtractedEdits } from './extract/extract.js';
export { jsonEditListSchema, jsonEditListJsonSchema, type JsonEditList } from './extract/json-edits.js';
export { resolveEdits, type FileLookup, type PlacementOptions } from './resolve/resolve-edits.js';
export { validateChangeSet } from './validate/validate.js';
export { checkPathOnDisk, checkPathsOnDisk } from './validate/disk-paths.js';
export { pathProblem, protectedProblem } from './validate/path-rules.js';
export {
  canonicalPath,
  foldName,
  foldPath,
  matchPathGlob,
  aliasCollisions,
  type CanonicalPath,
} from './canonical-path.js';
export { classify, classifyFile, pathKind, countChangedLines, changedLineTexts } from './classify.js';
export { toUnifiedDiff, toUnifiedDiffBytes } from './unified-diff.js';
export { fingerprintChangeSet, fingerprintProposedEdits, fingerprintText } from './fingerprint.js';
export { applyChangeSet, PatchApplyError, type PatchApplyErrorCode } from './apply.js';
export { PATCH_PROBLEM_CODES, isPlacementProblem, type PatchProblemCode } from './problems.js';
export {
  DEFAULT_PATCH_POLICY,
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_CHANGE_SET_BYTES,
  DEFAULT_MAX_LINE_LENGTH,
  type PatchPolicy,
} from './patch-policy.js';

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
  try {
    return await fromModelText(text, root, policy, options);
  } catch (error) {
    // Nothing a model writes may crash the repair: an unforeseen failure is a refusal too.
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return {
      problems: [problem('io-error', `The patch could not be checked against the project: ${reason}.`)],
      edits: [],
    };
  }
}

/** A reply longer than this many characters per byte of patch.maxChangeSetBytes is not read. */
const REPLY_FACTOR = 2;

async function fromModelText(
  text: string,
  root: string,
  policy: PatchPolicy,
  options: ModelTextOptions,
): Promise<ModelTextResult> {
  if (text.length > REPLY_FACTOR * policy.maxChangeSetBytes) {
    const refused = problem(
      'reply-too-large',
      `The reply is ${text.length} characters long; a reply over ${REPLY_FACTOR * policy.maxChangeSetBytes} (twice patch.maxChangeSetBytes) is not read.`,
    );
    return { problems: [refused], edits: [] };
  }
  const extracted = extractEdits(text);
  const problems: PatchProblem[] = [...extracted.problems];
  const result: ModelTextResult = { problems, edits: extracted.edits };
  if (extracted.summary !== undefined) result.summary = extracted.summary;
  if (extracted.edits.length === 0) return result;
  problems.push(...extracted.edits.flatMap(declaredModeProblems));

  const rootReal = await realpath(root);
  const contents = new Map<string, string | undefined>();
  const encodings = new Map<string, 'utf8' | 'latin1'>();
  for (const path of pathsNeeded(extracted.edits)) {
    // Lexical rules, protection and the file system, before anything is read.
    const refused =
      pathProblem(path) ?? protectedProblem(path, policy.protectedPaths) ?? (await checkPathOnDisk(rootReal, path));
    if (refused) {
      problems.push(refused);
      continue;
    }
    if (options.overlay?.has(path)) {
      const content = options.overlay.get(path);
      if (content !== null && content !== undefined) contents.set(path, content);
      continue;
    }
    const read = await readProjectFile(root, path, policy.allowNonUtf8).catch((error: NodeJS.ErrnoException) =>
      problem('io-error', `${path} cannot be read (${error.code ?? error.message}).`, { file: path }),
    );
    if ('code' in read) problems.push(read);
    else if (read.kind === 'non-utf8') {
      problems.push(
        problem('non-utf8', `${path} is not valid UTF-8, and policy does not allow editing such files.`, {
          file: path,
        }),
      );
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
    // `new mode` alone: the old mode is the file's own, so a mode change is seen as one.
    if (change.newMode !== undefined && change.oldMode === undefined && change.before !== null) {
      const mode = await diskModeOf(rootReal, change.oldPath ?? change.path);
      if (mode !== undefined) change.oldMode = mode;
    }
  }
  if (problems.length > 0) return result;
  problems.push(...validateChangeSet(resolved.changeSet, policy));
  problems.push(...(await checkPathsOnDisk(root, resolved.changeSet)));
  if (problems.length === 0) {
    for (const change of resolved.changeSet.files) dropUnchangedModes(change);
    result.changeSet = resolved.changeSet;
  }
  return result;
}

function declaredModeProblems(edit: ProposedEdit): PatchProblem[] {
  if (edit.type !== 'unified') return [];
  const path = edit.newPath ?? edit.oldPath ?? '(unnamed)';
  return [modeProblem(path, edit.oldMode, 'old mode'), modeProblem(path, edit.newMode, 'new mode')].filter(
    (p) => p !== undefined,
  );
}

/**
 * Once checked, a mode that does not change says nothing: dropping it gives two replies
 * making the same change (one with `index ... 100644`, one without) one fingerprint.
 */
function dropUnchangedModes(change: FileChange): void {
  if (change.before === null) {
    if (change.newMode === '100644') delete change.newMode;
    delete change.oldMode;
  } else if (change.after !== null && change.newMode === change.oldMode) {
    delete change.newMode;
    delete change.oldMode;
  }
}
