/**
 * The door of publishing: a recorded run's verified fix to a pull/merge request (after a
 * run under tier auto in CI, and `mvnx publish RUN_ID`), and the request state that
 * `mvnx runs --reconcile` turns into the outcomes `merged` and `closed`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decidePublication, type PublishDecision, type PublishPolicy } from '../../policy/publish.js';
import { runsDir, type RunRecord } from '../run-record.js';
import { findForgeTarget, type ForgeClient } from './forge.js';
import { forgeClient, publishFix, type PublishOutcome } from './publish.js';
import { removeFixBranch } from './fix-branch-cleanup.js';
import type { RateLimitOptions } from './rate-limit.js';
import { verifiedAttempt } from './publish-text.js';

export type { PublishOutcome } from './publish.js';
export { builtSource } from './built-source.js';

/**
 * Why `mvnx publish` will not publish this run whoever asks: the policy did not let the fix be taken (action
 * `record`: a rule's allowedChanges or protected paths, or tier off/monitor). The line names the rule as the run
 * recorded it. Undefined when the policy allowed it (apply, or suggest: a request is a suggestion a person merges).
 */
export function policyRefusal(record: RunRecord): string | undefined {
  if (record.status !== 'fixed' || record.action === 'apply' || record.action === 'suggest') return undefined;
  const decisions = record.decisions ?? [];
  const rule =
    decisions.find((line) => /not allowed by rules\[\d+\]|protected/.test(line)) ??
    decisions.find((line) => /^recorded only|^tier (off|monitor): the fix is recorded/.test(line));
  const said = rule ?? `the run records action ${record.action ?? 'none'}`;
  return `the policy did not allow run ${record.runId}'s fix to be taken: ${said}`;
}

export { recordPublication } from './record-publication.js';
export { publishUpdateBranchRun, type UpdateBranchRunResult } from './update-branch-run.js';
export { publishFromDir } from './from-dir.js';

export interface PublishRunInput {
  projectRoot: string;
  record: RunRecord;
  policy: PublishPolicy;
  env: NodeJS.ProcessEnv;
  userAgent: string;
  /**
   * A person asked (`mvnx publish`): publish whatever the verdict; auto-merge still only where the policy allows it.
   */
  asked: boolean;
  rateLimit?: RateLimitOptions;
}

export type PublishRunResult = { decision: PublishDecision; outcome?: PublishOutcome; skipped?: string };

export function publicationDecision(record: RunRecord, policy: PublishPolicy): PublishDecision {
  const verified = verifiedAttempt(record);
  return decidePublication(
    {
      tier: record.tier,
      status: record.status,
      ...(record.action ? { action: record.action } : {}),
      ...(record.risk ? { risk: record.risk } : {}),
      failingTestEdits:
        verified?.failingTestEdits ?? (record as { failingTestEdits?: string[] }).failingTestEdits ?? [],
      files: verified?.filesChanged ?? [],
      modules: record.fixModules ?? [],
    },
    policy,
  );
}

export async function publishRun(input: PublishRunInput): Promise<PublishRunResult> {
  const { record, policy } = input;
  const decision = publicationDecision(record, policy);
  if (!input.asked && !decision.publishAutomatically)
    return { decision, skipped: `not published as a request: ${decision.reasons.join('; ')}` };
  const refusal = policyRefusal(record);
  if (refusal) return { decision, outcome: { published: false, refused: true, message: `not published: ${refusal}` } };
  const lookup = findForgeTarget(input.env, policy.publish);
  if ('reason' in lookup)
    return { decision, outcome: { published: false, message: `not published: ${lookup.reason}` } };
  let patch: Buffer;
  try {
    patch = await readFile(path.join(runsDir(input.projectRoot), record.runId, 'fix.patch'));
  } catch {
    return { decision, outcome: { published: false, message: `not published: run ${record.runId} has no fix.patch` } };
  }
  const mergeOffReason = decision.merge === 'off' ? decision.reasons.join('; ') || 'publish.merge is off' : undefined;
  const outcome = await publishFix({
    projectRoot: input.projectRoot,
    record,
    patch,
    target: lookup.target,
    merge: decision.merge,
    ...(mergeOffReason ? { mergeOffReason } : {}),
    userAgent: input.userAgent,
    ...(input.rateLimit ? { rateLimit: input.rateLimit } : {}),
  });
  return { decision, outcome };
}

/**
 * What reconcile asks the forge, or the reason it cannot (outside CI, no token). With `projectRoot`, a request found
 * merged or closed has its `mvnx/fix-*` branch deleted when the forge left it, and only while the branch is still the
 * commit mvnx pushed (a person's later push is never deleted).
 */
export function requestStateReader(
  env: NodeJS.ProcessEnv,
  policy: Pick<PublishPolicy, 'publish'>,
  userAgent: string,
  projectRoot?: string,
) {
  const lookup = findForgeTarget(env, policy.publish);
  if ('reason' in lookup) return { note: `request states not read: ${lookup.reason}` };
  const target = lookup.target;
  // Made at the first publication to read: a listing with none never loads a forge client.
  let client: Promise<ForgeClient> | undefined;
  return {
    read: async (publication: NonNullable<RunRecord['publication']>) => {
      if (publication.forge !== target.forge) return undefined;
      client ??= forgeClient(target, { userAgent });
      const state = await (await client).state(publication.number);
      if (state !== 'open' && projectRoot && publication.commit)
        await removeFixBranch(projectRoot, target, publication).catch(() => undefined);
      return state;
    },
  };
}
