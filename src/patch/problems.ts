/**
 * Stable reason codes. Callers switch on these, so never rename one; add new ones.
 * Placement codes mean "the edit does not fit this tree" (attempt outcome not-applicable);
 * the others mean "the edit is refused" (attempt outcome rejected).
 */
export const PATCH_PROBLEM_CODES = [
  'parse-error',
  'no-edits',
  'invalid-path',
  'absolute-path',
  'path-traversal',
  'control-char',
  'forbidden-dir',
  'symlink-escape',
  'protected-path',
  'change-type-not-allowed',
  'too-many-files',
  'too-many-lines',
  'empty-change',
  'non-utf8',
  'file-not-found',
  'file-exists',
  'hunk-not-found',
  'hunk-ambiguous',
  'hunk-overlap',
  'line-out-of-range',
  // Canonical paths, symlinks and the file system (issue 13).
  'path-alias',
  'path-too-long',
  'beyond-symlink',
  'symlink-file',
  'not-a-file',
  'not-a-folder',
  'io-error',
  // Modes, sizes and content.
  'invalid-mode',
  'mode-mismatch',
  'file-too-large',
  'change-too-large',
  'line-too-long',
  'reply-too-large',
  // Set by the repair stage on the same PatchProblem shape.
  'model-error',
  // An agent's candidate fix that weakens, skips, disables or deletes tests (refused before its build).
  'test-weakening',
  // Issue 25: a pom change that adds or changes a plugin that runs code at build time, whatever the policy.
  'build-time-code',
  // Issue 25: a JSON line operation that does not state the lines it replaces or deletes (or states other ones).
  'unchecked-line-edit',
] as const;

export type PatchProblemCode = (typeof PATCH_PROBLEM_CODES)[number];

/** A machine-readable reason with a sentence for humans. */
export interface PatchProblem {
  code: PatchProblemCode;
  message: string;
  file?: string;
  hunk?: number;
}

const PLACEMENT_CODES: ReadonlySet<PatchProblemCode> = new Set<PatchProblemCode>([
  'parse-error',
  'no-edits',
  'file-not-found',
  'file-exists',
  'hunk-not-found',
  'hunk-ambiguous',
  'hunk-overlap',
  'line-out-of-range',
]);

/** True when the problem means the edit could not be placed, rather than that it was refused. */
export function isPlacementProblem(problem: PatchProblem): boolean {
  return PLACEMENT_CODES.has(problem.code);
}

export function problem(
  code: PatchProblemCode,
  message: string,
  where: { file?: string; hunk?: number } = {},
): PatchProblem {
  const result: PatchProblem = { code, message };
  if (where.file !== undefined) result.file = where.file;
  if (where.hunk !== undefined) result.hunk = where.hunk;
  return result;
}
