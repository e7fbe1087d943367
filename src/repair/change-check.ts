import { checkPathsOnDisk, extractEdits, pathsNeeded, resolveEdits, validateChangeSet } from '../patch/index.js';
import type { PatchPolicy } from '../patch/index.js';
import type { ChangeSet, PatchProblem } from '../patch/types.js';

export interface ChangeChecker {
  /** The real project root: symlinks and containment are checked against it. */
  root: string;
  policy: PatchPolicy;
}

export interface CheckedChange {
  changeSet?: ChangeSet;
  problems: PatchProblem[];
  summary?: string;
}

/** Model text -> placed, validated change set, or the precise reasons it is not one. */
export async function checkProposedChange(
  text: string,
  read: (file: string) => Promise<string | undefined>,
  checker: ChangeChecker,
): Promise<CheckedChange> {
  const extracted = extractEdits(text);
  const summary = extracted.summary;
  if (extracted.edits.length === 0) {
    const problems = extracted.problems.length > 0 ? extracted.problems : [{ code: 'no-edits', message: 'the reply contained no edit in the requested format' }];
    return { problems, ...(summary ? { summary } : {}) };
  }
  const files = new Map<string, string | undefined>();
  for (const file of pathsNeeded(extracted.edits)) {
    files.set(file, await read(file).catch(() => undefined));
  }
  const resolved = resolveEdits(extracted.edits, files, {
    ignoreWhitespace: checker.policy.ignoreWhitespace,
    allowTabSpaceContext: checker.policy.allowTabSpaceContext,
  });
  const problems = [...extracted.problems, ...resolved.problems];
  if (problems.length > 0) return { problems, ...(summary ? { summary } : {}) };
  const invalid = await checkChangeSet(resolved.changeSet, checker);
  if (invalid.length > 0) return { problems: invalid, ...(summary ? { summary } : {}) };
  return { changeSet: resolved.changeSet, problems: [], ...(summary ? { summary } : {}) };
}

/** The same rules for every change set, whoever made it. */
export async function checkChangeSet(changeSet: ChangeSet, checker: ChangeChecker): Promise<PatchProblem[]> {
  const pure = validateChangeSet(changeSet, checker.policy);
  if (pure.length > 0) return pure;
  return checkPathsOnDisk(checker.root, changeSet);
}
