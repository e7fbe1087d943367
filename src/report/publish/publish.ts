/**
 * Publishing a verified fix: one branch `mvnx/fix-<fingerprint>`, one commit with the
 * trailers, one pull/merge request whose description is the run's summary, and, when the
 * policy and the target branch allow it, the forge's own auto-merge. Idempotent: the open
 * request of the same fix is updated (force-pushed branch, edited description), a request
 * whose fix the target branch already holds is closed with a comment. Never throws: every
 * problem is the one line that says what was not done (the fix stays in the run record).
 */
import path from 'node:path';
import { findGitRoot } from '../../maven/project.js';
import { redact } from '../../model/redact.js';
import type { MergeMode } from '../../policy/publish.js';
import type { RunPublication, RunRecord } from '../run-record.js';
import type { ChangeRequest, ForgeClient, ForgeName, ForgeTarget } from './forge.js';
import {
  commitFix,
  containsFix,
  GitPublishError,
  fetchBranch,
  pushBranch,
  resolveCommit,
  type GitPlace,
} from './git-branch.js';
import { gitlabClient } from './gitlab-requests.js';
import type { RateLimitOptions } from './rate-limit.js';
import { branchFor, commitMessage, fixFingerprint, requestDescription, requestTitle } from './publish-text.js';

export type Publication = RunPublication;

export type PublishOutcome =
  | { published: true; publication: Publication; message: string }
  | { published: false; message: string; status?: number };

export interface PublishInput {
  projectRoot: string;
  record: RunRecord;
  /** fix.patch as bytes. */
  patch: Buffer;
  target: ForgeTarget;
  merge: MergeMode;
  /** Why merge is off, when the policy said so. */
  mergeOffReason?: string;
  userAgent: string;
  rateLimit?: RateLimitOptions;
}

/**
 * The GitHub client (Octokit, about 18 MB installed) is imported only when a run publishes to
 * GitHub: every other run, and every GitLab one, never loads it.
 */
export async function forgeClient(
  target: ForgeTarget,
  options: { userAgent: string; rateLimit?: RateLimitOptions },
): Promise<ForgeClient> {
  if (target.forge === 'github') return (await import('./github-requests.js')).githubClient(target, options);
  return gitlabClient(target, options.rateLimit ? { rateLimit: options.rateLimit } : {});
}

const kind = (forge: ForgeName) => (forge === 'github' ? 'pull request' : 'merge request');
const label = (forge: ForgeName, request: ChangeRequest) =>
  `${kind(forge)} ${forge === 'github' ? '#' : '!'}${request.number}`;

async function placeOf(projectRoot: string): Promise<GitPlace> {
  const root = await findGitRoot(projectRoot);
  if (!root) throw new Error(`${projectRoot} is not in a git repository`);
  return { root, prefix: path.relative(root, projectRoot).split(path.sep).join('/') };
}

/** Whether the forge may merge on its own: the policy's mode, then the target's required checks, then the forge. */
async function autoMerge(
  client: ForgeClient,
  input: PublishInput,
  request: ChangeRequest,
  commit: string,
  target: string,
): Promise<Pick<Publication, 'autoMerge' | 'reason'>> {
  if (input.merge === 'off')
    return { autoMerge: 'off', ...(input.mergeOffReason ? { reason: input.mergeOffReason } : {}) };
  const checks = await client.requiredChecks(target);
  if (!checks.required) return { autoMerge: 'refused', reason: checks.detail };
  const result = await client.enableAutoMerge(request, commit);
  return result.enabled
    ? { autoMerge: 'enabled', reason: `merges when the required checks pass (${checks.detail})` }
    : { autoMerge: 'refused', reason: result.reason };
}

export async function publishFix(input: PublishInput): Promise<PublishOutcome> {
  const { record, target } = input;
  const fingerprint = fixFingerprint(record);
  if (record.status !== 'fixed' || !fingerprint)
    return { published: false, message: `not published: run ${record.runId} has no verified fix` };
  const branch = branchFor(fingerprint);
  try {
    const place = await placeOf(input.projectRoot);
    const targetBranch = target.targetBranch;
    if (!targetBranch)
      return {
        published: false,
        message: 'not published: the branch that was built is unknown (detached HEAD outside CI)',
      };
    const client = await forgeClient(target, {
      userAgent: input.userAgent,
      ...(input.rateLimit ? { rateLimit: input.rateLimit } : {}),
    });
    const existing = await client.findOpen(branch);

    const targetTip = await fetchBranch(place, target.pushUrl, targetBranch, target.auth);
    if (targetTip && (await containsFix(place, targetTip, input.patch))) {
      if (!existing) return { published: false, message: `not published: ${targetBranch} already contains this fix` };
      await client.close(
        existing,
        `Closed by mvnx run ${record.runId}: \`${targetBranch}\` already contains this fix (at ${targetTip.slice(0, 12)}).`,
      );
      return {
        published: false,
        message: `closed ${label(target.forge, existing)}: ${targetBranch} already contains this fix`,
      };
    }

    const parent = await resolveCommit(place, 'HEAD');
    const commit = await commitFix(place, {
      parent,
      patch: input.patch,
      message: commitMessage(record, input.patch.toString('utf8')),
      email: target.email,
    });
    await pushBranch(place, target.pushUrl, commit, branch, target.auth);

    const title = requestTitle(record);
    const describe = (note?: string) =>
      requestDescription(record, input.patch.toString('utf8'), {
        ...(target.runUrl ? { runUrl: target.runUrl } : {}),
        ...(note ? { autoMergeNote: note } : {}),
      });
    const request = existing ?? (await client.create({ branch, target: targetBranch, title, body: describe() }));
    const merge = await autoMerge(client, input, request, commit, targetBranch);
    const note =
      merge.autoMerge === 'enabled'
        ? `enabled: ${merge.reason}`
        : `${merge.autoMerge}${merge.reason ? `: ${merge.reason}` : ''}`;
    // The description says what the forge will do, so a reader of the request knows without the record.
    await client.update(request, { title, body: describe(note) });
    const publication: Publication = {
      forge: target.forge,
      url: request.url,
      number: request.number,
      branch,
      ...merge,
    };
    const verb = existing ? 'updated' : 'opened';
    return {
      published: true,
      publication,
      message: `${verb} ${label(target.forge, request)} ${request.url} from ${branch}; auto-merge ${note}`,
    };
  } catch (error) {
    const status = (error as { status?: number }).status;
    const forgeName = target.forge === 'github' ? 'GitHub' : 'GitLab';
    const first = String((error as Error).message ?? error).split('\n')[0]!;
    const said =
      status && !first.includes(String(status)) && !(error instanceof GitPublishError)
        ? `${forgeName} answered ${status}: ${first}`
        : first;
    const rights = status === 401 || status === 403 ? ' (the token may not push or open requests here)' : '';
    const line = redact(`not published: ${said}${rights}`).split(target.token).join('[REDACTED]');
    return { published: false, message: line, ...(status ? { status } : {}) };
  }
}
