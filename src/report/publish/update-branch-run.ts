/**
 * Whether a run's fix goes to the dependency bot's branch rather than to a request against the built branch, and
 * doing it: in CI, on a bot's pull request (publish.botBranches), a failure the record attributes to the dependency
 * update, and `publish.updateBranch` (or a rule's) not off for the fix's files. `handled: false` leaves the run to the
 * usual publication.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PublishPolicy } from '../../policy/publish.js';
import { updateBranchModeFor } from '../../policy/update-branch-mode.js';
import { runsDir, type RunRecord } from '../run-record.js';
import { findBotPullRequest } from './bot-pull-request.js';
import { fixModulesFromPoms } from './fix-modules.js';
import { findForgeTarget } from './forge.js';
import type { RateLimitOptions } from './rate-limit.js';
import { verifiedAttempt } from './publish-text.js';
import { publishToUpdateBranch, type UpdateBranchOutcome } from './update-branch.js';

export type UpdateBranchRunResult = { handled: false; why: string } | { handled: true; outcome: UpdateBranchOutcome };

export async function publishUpdateBranchRun(input: {
  projectRoot: string;
  record: RunRecord;
  policy: PublishPolicy;
  env: NodeJS.ProcessEnv;
  userAgent: string;
  /** Where fix.patch is: the run's folder by default; `mvnx publish --from DIR` names another. */
  patchFile?: string;
  rateLimit?: RateLimitOptions;
}): Promise<UpdateBranchRunResult> {
  const { record, policy } = input;
  if (!record.dependencyUpdate) return { handled: false, why: 'the failure is not a dependency update' };
  const files = verifiedAttempt(record)?.filesChanged ?? [];
  // From this checkout's POMs, not the record's fixModules: a record from another job could name other modules.
  const found = await fixModulesFromPoms(input.projectRoot, files);
  if ('problem' in found)
    return { handled: true, outcome: { pushed: false, placed: false, message: `not pushed: ${found.problem}` } };
  const { mode, setBy } = updateBranchModeFor(files, found.modules, policy);
  if (mode === 'off') return { handled: false, why: `publish.updateBranch is off${setBy ? ` (${setBy})` : ''}` };
  const lookup = findForgeTarget(input.env, policy.publish);
  if ('reason' in lookup)
    return { handled: true, outcome: { pushed: false, placed: false, message: `not pushed: ${lookup.reason}` } };
  const bot = await findBotPullRequest(input.env, lookup.target.forge, policy.publish);
  if (!bot) return { handled: false, why: "not a dependency bot's pull request (publish.botBranches)" };
  let patch: Buffer;
  const patchFile = input.patchFile ?? path.join(runsDir(input.projectRoot), record.runId, 'fix.patch');
  try {
    patch = await readFile(patchFile);
  } catch {
    return { handled: true, outcome: { pushed: false, placed: false, message: `not pushed: no ${patchFile}` } };
  }
  const outcome = await publishToUpdateBranch({
    projectRoot: input.projectRoot,
    record,
    patch,
    target: lookup.target,
    bot,
    mode,
    modules: found.modules,
    policy,
    userAgent: input.userAgent,
    ...(input.rateLimit ? { rateLimit: input.rateLimit } : {}),
  });
  return { handled: true, outcome };
}
