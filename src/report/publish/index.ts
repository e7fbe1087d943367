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
import type { RateLimitOptions } from './rate-limit.js';
import { verifiedAttempt } from './publish-text.js';

export type { PublishOutcome } from './publish.js';

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

/** What reconcile asks the forge, or the reason it cannot (outside CI, no token). */
export function requestStateReader(env: NodeJS.ProcessEnv, policy: Pick<PublishPolicy, 'publish'>, userAgent: string) {
  const lookup = findForgeTarget(env, policy.publish);
  if ('reason' in lookup) return { note: `request states not read: ${lookup.reason}` };
  const target = lookup.target;
  // Made at the first publication to read: a listing with none never loads a forge client.
  let client: Promise<ForgeClient> | undefined;
  return {
    read: async (publication: NonNullable<RunRecord['publication']>) => {
      if (publication.forge !== target.forge) return undefined;
      client ??= forgeClient(target, { userAgent });
      return (await client).state(publication.number);
    },
  };
}
