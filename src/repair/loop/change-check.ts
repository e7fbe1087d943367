import {
  changeSetFromModelText,
  checkPathsOnDisk,
  fingerprintProposedEdits,
  fingerprintText,
  validateChangeSet,
} from '../../patch/index.js';
import type { PatchPolicy } from '../../patch/index.js';
import type { ChangeSet, PatchProblem } from '../../patch/types.js';

export interface ChangeChecker {
  /** The real project root: symlinks and containment are checked against it. */
  root: string;
  policy: PatchPolicy;
}

export interface CheckedChange {
  changeSet?: ChangeSet;
  problems: PatchProblem[];
  summary?: string;
  /** What the reply proposed, applied or not: its normalised edits, or its text when it held none. */
  proposalFingerprint: string;
}

/** Model text -> placed, validated change set against the original tree plus `base`. */
export async function checkProposedChange(
  text: string,
  base: ChangeSet,
  checker: ChangeChecker,
): Promise<CheckedChange> {
  const overlay = new Map<string, string | null>();
  for (const change of base.files) {
    if (change.oldPath) overlay.set(change.oldPath, null);
    overlay.set(change.path, change.after);
  }
  const result = await changeSetFromModelText(text, checker.root, checker.policy, { overlay });
  const problems: PatchProblem[] =
    result.edits.length === 0 && result.problems.length === 0
      ? [{ code: 'no-edits', message: 'the reply contained no edit in the requested format' }]
      : result.problems;
  return {
    problems,
    proposalFingerprint: result.edits.length > 0 ? fingerprintProposedEdits(result.edits) : fingerprintText(text),
    ...(result.changeSet ? { changeSet: result.changeSet } : {}),
    ...(result.summary ? { summary: result.summary } : {}),
  };
}

/** The same rules for every change set, whoever made it. */
export async function checkChangeSet(changeSet: ChangeSet, checker: ChangeChecker): Promise<PatchProblem[]> {
  const pure = validateChangeSet(changeSet, checker.policy);
  if (pure.length > 0) return pure;
  return checkPathsOnDisk(checker.root, changeSet);
}
