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
import { builtBase } from './built-base.js';
import {
  commitFix,
  containsFix,
  GitPublishError,
  fetchBranch,
  holdsSameFix,
  pushBranch,
  type GitPlace,
} from './git-branch.js';
import { gitlabClient } from './gitlab-requests.js';
import type { RateLimitOptions } from './rate-limit.js';
import { branchFor, commitMessage, fixFingerprint, requestDescription, requestTitle } from './publish-text.js';

export type Publication = RunPublication;

export type PublishOutcome =
  | { published: true; publication: Publication; message: string }
  /** refused: mvnx would not publish this run at all (the built commit cannot be had); nothing was pushed or opened. */
  | { published: false; message: string; status?: number; refused?: boolean };

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

    const targetTip = await fetchBranch(place, target.pushUrl, targetBranch, target.auth);
    if (targetTip && (await containsFix(place, targetTip, input.patch))) {
      const existing = await client.findOpen(branch);
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

    const base = await builtBase(place, record, { ...target, targetBranch }, targetTip);
    if ('refusal' in base) return { published: false, refused: true, message: `not published: ${base.refusal}` };
    const parent = base.parent;
    const made = await commitFix(place, {
      parent,
      patch: input.patch,
      message: commitMessage(record, input.patch.toString('utf8')),
      email: target.email,
    });
    // The same fix on the same base is on the branch already: pushing a new commit would only change its date.
    const branchTip = await fetchBranch(place, target.pushUrl, branch, target.auth);
    const unchanged = branchTip !== undefined && (await holdsSameFix(place, branchTip, { tree: made.tree, parent }));
    const commit = unchanged ? branchTip : made.commit;
    if (!unchanged) await pushBranch(place, target.pushUrl, commit, branch, target.auth);

    const existing = await client.findOpen(branch);
    const title = requestTitle(record);
    const describe = (note?: string) =>
      requestDescription(record, input.patch.toString('utf8'), {
        ...(target.runUrl ? { runUrl: target.runUrl } : {}),
        ...(note ? { autoMergeNote: note } : {}),
      });
    const opened = existing ?? (await client.create({ branch, target: targetBranch, title, body: describe() }));
    // From here the request exists: a later step's failure is said as what it is, never as "not published".
    const merge = await autoMerge(client, input, opened, commit, targetBranch).catch(
      (error: unknown): Pick<Publication, 'autoMerge' | 'reason'> => ({
        autoMerge: 'refused',
        reason: `not enabled: ${failureLine(error, target)}`,
      }),
    );
    const note =
      merge.autoMerge === 'enabled'
        ? `enabled: ${merge.reason}`
        : merge.reason?.startsWith('not enabled: ')
          ? merge.reason
          : `${merge.autoMerge}${merge.reason ? `: ${merge.reason}` : ''}`;
    // The description says what the forge will do, so a reader of the request knows without the record.
    const described = await client.update(opened, { title, body: describe(note) }).then(
      () => '',
      (error: unknown) => `; description not updated: ${failureLine(error, target)}`,
    );
    const publication: Publication = {
      forge: target.forge,
      url: opened.url,
      number: opened.number,
      branch,
      ...merge,
      commit,
    };
    const verb = existing ? 'updated' : 'opened';
    const pushed = unchanged ? ' (nothing pushed: the branch already holds this fix on this base)' : '';
    return {
      published: true,
      publication,
      message: `${verb} ${label(target.forge, opened)} ${opened.url} from ${branch}${pushed}; auto-merge ${note}${described}`,
    };
  } catch (error) {
    const status = (error as { status?: number }).status;
    const line = `not published: ${failureLine(error, target)}`;
    return { published: false, message: line, ...(status ? { status } : {}) };
  }
}

/** One line for a failed git or forge call: a rate limit, a failed connection, missing rights, or what was said. */
export function failureLine(error: unknown, target: ForgeTarget): string {
  const status = (error as { status?: number }).status;
  const forgeName = target.forge === 'github' ? 'GitHub' : 'GitLab';
  const first = String((error as Error).message ?? error).split('\n')[0]!;
  const clean = (text: string) => redact(text).split(target.token).join('[REDACTED]');
  const connection = connectionFailure(error);
  if (connection) return clean(`cannot reach ${forgeName} at ${target.apiUrl}: ${connection}`);
  const headers = (error as { response?: { headers?: Record<string, string | undefined> } }).response?.headers ?? {};
  if (status === 429 || (status === 403 && (headers['x-ratelimit-remaining'] === '0' || /rate limit/i.test(first)))) {
    const reset = Number(headers['x-ratelimit-reset']);
    const when = Number.isFinite(reset) && reset > 0 ? `; it resets at ${new Date(reset * 1000).toISOString()}` : '';
    return clean(`rate limited: ${forgeName} answered ${status} (${first})${when}`);
  }
  const said =
    status && !first.includes(String(status)) && !(error instanceof GitPublishError)
      ? `${forgeName} answered ${status}: ${first}`
      : first;
  const rights = status === 401 || status === 403 ? ' (the token may not push or open requests here)' : '';
  return clean(`${said}${rights}`);
}

const CONNECTION_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/** The connection failure under a fetch error (Octokit reports it as status 500), in words; undefined otherwise. */
function connectionFailure(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_CODES[code]) return CONNECTION_CODES[code];
  }
  return undefined;
}
