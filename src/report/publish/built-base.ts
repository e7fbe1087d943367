/**
 * The commit a published fix is built on: exactly the one the run built (the record's `built`), never whatever HEAD
 * is at publish time. Publication refuses, in one line, when that commit cannot be the base of an honest request:
 * the record does not name it, the build ran on uncommitted changes, this clone lacks it, or it is not on the target
 * branch, as with GitHub's `pull_request` checkout (refs/pull/N/merge, a merge of the head into the base that no
 * branch holds: a request from it would carry the base's commits into the head branch).
 */
import type { RunRecord } from '../run-record.js';
import type { ForgeTarget } from './forge.js';
import { hasCommit, isAncestor, parentsOf, type GitPlace } from './git-branch.js';

const short = (id: string) => id.slice(0, 12);

export async function builtBase(
  place: GitPlace,
  record: RunRecord,
  target: ForgeTarget & { targetBranch: string },
  targetTip: string | undefined,
): Promise<{ parent: string } | { refusal: string }> {
  const built = record.built;
  if (!built)
    return {
      refusal: `run ${record.runId} does not name the commit it built (a record from before mvnx kept it, or not in git); run mvnx again on the commit to publish`,
    };
  if (built.uncommitted)
    return {
      refusal: `run ${record.runId} built uncommitted changes on ${short(built.commit)} (tree ${short(built.tree)}): no commit holds what was verified; commit them and run mvnx again`,
    };
  if (!(await hasCommit(place, built.commit)))
    return {
      refusal: `commit ${short(built.commit)} that run ${record.runId} built is not in this repository; publish from a clone that has it`,
    };
  if (!targetTip) return { refusal: `branch ${target.targetBranch} is not on the remote` };
  if (built.commit === targetTip || (await isAncestor(place, built.commit, targetTip))) return { parent: built.commit };
  if (target.mergeCheckout && (await parentsOf(place, built.commit)).length > 1) {
    const how =
      target.forge === 'github'
        ? "the pull request's head (actions/checkout with ref: ${{ github.event.pull_request.head.sha }})"
        : 'the source branch (a branch pipeline, not merged results)';
    return {
      refusal: `the build ran on ${target.mergeCheckout} (${short(built.commit)}, ${target.targetBranch} merged with its base), which no branch holds: a request from it would bring the base's commits into ${target.targetBranch}; build ${how} to publish`,
    };
  }
  return {
    refusal: `commit ${short(built.commit)} that run ${record.runId} built is not on the remote's ${target.targetBranch} (at ${short(targetTip)}); push it first`,
  };
}
