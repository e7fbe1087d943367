/**
 * A verified fix of a dependency bot's pull request, put where it belongs (issue 43): under `commit`, one commit on
 * top of the head that was built, pushed to the bot's branch as a fast-forward (never a force-push; refused in one
 * line when the branch moved since the build); under `pull-request`, the same commit on `mvnx/fix-<fingerprint>` and a
 * request into the bot's branch. Before either, the fix is checked again (revalidate.ts): a fix that touches the test
 * side or adds build-time code is never pushed. Idempotent: a branch whose tip is already this fix on the built head
 * gets nothing. One comment on the bot's pull request says what changed and why, edited by later runs.
 * Never throws: every problem is one line.
 */
import path from 'node:path';
import { findGitRoot } from '../../maven/project.js';
import { redact } from '../../model/redact.js';
import type { PathPolicy } from '../../policy/paths.js';
import type { UpdateBranchMode } from '../../policy/update-branch-mode.js';
import type { RunPublication, RunRecord, UpdateBranchPublication } from '../run-record.js';
import { botCommentBody, githubBotComments, rebaseNote, type BotComments } from './bot-comment.js';
import type { BotPullRequest } from './bot-pull-request.js';
import type { ForgeTarget } from './forge.js';
import { gitlabBotNotes } from './gitlab-bot-notes.js';
import {
  commitFix,
  containsFix,
  fetchBranch,
  GitPublishError,
  parentOf,
  pushBranch,
  pushFastForward,
  resolveCommit,
  type GitPlace,
} from './git-branch.js';
import { forgeClient } from './publish.js';
import { branchFor, commitMessage, fixFingerprint, requestDescription, requestTitle } from './publish-text.js';
import type { RateLimitOptions } from './rate-limit.js';
import { revalidateFix } from './revalidate.js';

export interface UpdateBranchInput {
  projectRoot: string;
  record: RunRecord;
  patch: Buffer;
  target: ForgeTarget;
  bot: BotPullRequest;
  mode: Exclude<UpdateBranchMode, 'off'>;
  /** The fix's modules as this checkout's POMs say (fix-modules.ts), for module-scoped protection. */
  modules: readonly string[];
  policy: PathPolicy;
  userAgent: string;
  rateLimit?: RateLimitOptions;
  /** The comment side; default: GitHub's issue comments, GitLab's merge request notes. */
  comments?: BotComments;
}

export interface UpdateBranchOutcome {
  /** Something new reached the forge (a commit on the bot's branch, or the request's branch). */
  pushed: boolean;
  /** The fix is on the bot's branch or in a request into it (now, or from an earlier run). */
  placed: boolean;
  message: string;
  publication?: RunPublication;
  /** The commit that carries the fix. */
  commit?: string;
  /** For the run record's `publications`: where the fix is now, and whether this run pushed it. */
  entry?: UpdateBranchPublication;
}

async function placeOf(projectRoot: string): Promise<GitPlace> {
  const root = await findGitRoot(projectRoot);
  if (!root) throw new GitPublishError(`${projectRoot} is not in a git repository`);
  return { root, prefix: path.relative(root, projectRoot).split(path.sep).join('/') };
}

/** The tip holds exactly this fix on top of the built head: an earlier run (or a re-run) already put it there. */
async function alreadyPlaced(place: GitPlace, tip: string | undefined, built: string, patch: Buffer) {
  return tip !== undefined && tip !== built && (await parentOf(place, tip)) === built && containsFix(place, tip, patch);
}

export function updateCommitMessage(record: RunRecord, patchText: string, bot: BotPullRequest, email: string): string {
  const message = commitMessage(record, patchText);
  const line = rebaseNote(bot.bot, email).commitLine;
  if (!line) return message;
  // Before the trailers, which git reads from the last paragraph.
  const at = message.lastIndexOf('\n\nMvnx-Run:');
  return at < 0 ? `${message}\n${line}\n` : `${message.slice(0, at)}\n\n${line}${message.slice(at)}`;
}

export async function publishToUpdateBranch(input: UpdateBranchInput): Promise<UpdateBranchOutcome> {
  const { record, target, bot } = input;
  const fingerprint = fixFingerprint(record);
  if (record.status !== 'fixed' || !fingerprint)
    return { pushed: false, placed: false, message: `not pushed: run ${record.runId} has no verified fix` };
  try {
    const place = await placeOf(input.projectRoot);
    const tip = await fetchBranch(place, target.pushUrl, bot.branch, target.auth);
    if (!tip) return { pushed: false, placed: false, message: `not pushed: ${bot.branch} is gone from the remote` };
    const built = bot.builtHead ?? (await resolveCommit(place, 'HEAD'));
    const moved = `not pushed: ${bot.branch} moved since the build (built ${built.slice(0, 12)}, now ${tip.slice(0, 12)}); the next CI run repairs the new head`;
    // A moved head is said before anything else: the built commit may not even be here then (another job's artifact).
    const placedOnBot = input.mode === 'commit' && (await alreadyPlaced(place, tip, built, input.patch));
    if (tip !== built && !placedOnBot) return { pushed: false, placed: false, message: moved };
    const checked = await revalidateFix({
      place,
      base: built,
      patch: input.patch,
      record,
      modules: input.modules,
      policy: input.policy,
    });
    if (!checked.ok) return { pushed: false, placed: false, message: `not pushed: ${checked.reasons.join('; ')}` };

    const patchText = input.patch.toString('utf8');
    const comments =
      input.comments ??
      (target.forge === 'github' ? await githubBotComments(target, input) : gitlabBotNotes(target, input));
    let outcome: UpdateBranchOutcome;
    if (input.mode === 'commit') {
      if (placedOnBot)
        outcome = {
          pushed: false,
          placed: true,
          commit: tip,
          message: `nothing pushed: ${bot.branch} already holds this fix on ${built.slice(0, 12)} (${tip.slice(0, 12)})`,
        };
      else {
        const { commit } = await commitFix(place, {
          parent: built,
          patch: input.patch,
          message: updateCommitMessage(record, patchText, bot, target.email),
          email: target.email,
        });
        try {
          await pushFastForward(place, target.pushUrl, commit, bot.branch, target.auth);
        } catch (error) {
          // The branch moved between the fetch and the push: git refused the fast-forward, as it should.
          if (/rejected|non-fast-forward|fetch first/i.test((error as Error).message))
            return { pushed: false, placed: false, message: moved };
          throw error;
        }
        outcome = {
          pushed: true,
          placed: true,
          commit,
          message: `pushed ${commit.slice(0, 12)} onto ${bot.branch} (on top of ${built.slice(0, 12)}, no force-push)`,
        };
      }
      // No `publication`: the contract's publication.branch is an mvnx branch; the commit is said in `decisions`
      // (a record field for it is a contract addition, issue 43's note).
    } else {
      const branch = branchFor(fingerprint);
      const client = await forgeClient(target, input);
      const fixTip = await fetchBranch(place, target.pushUrl, branch, target.auth);
      const existing = await client.findOpen(branch);
      let commit = fixTip;
      let pushed = false;
      if (!(await alreadyPlaced(place, fixTip, built, input.patch))) {
        ({ commit } = await commitFix(place, {
          parent: built,
          patch: input.patch,
          message: updateCommitMessage(record, patchText, bot, target.email),
          email: target.email,
        }));
        await pushBranch(place, target.pushUrl, commit, branch, target.auth);
        pushed = true;
      }
      const title = requestTitle(record);
      const body = requestDescription(record, patchText, target.runUrl ? { runUrl: target.runUrl } : {});
      const request = existing ?? (await client.create({ branch, target: bot.branch, title, body }));
      outcome = {
        pushed,
        placed: true,
        ...(commit ? { commit } : {}),
        message: `${existing ? (pushed ? 'updated' : 'kept') : 'opened'} request ${request.url} from ${branch} into ${bot.branch}`,
        publication: {
          forge: target.forge,
          url: request.url,
          number: request.number,
          branch,
          autoMerge: 'off',
          reason: `a request into the bot's branch ${bot.branch}`,
          ...(commit ? { commit } : {}),
        },
      };
    }
    const entryOf = (request?: { url: string; number: number }): UpdateBranchPublication => ({
      target: 'update-branch',
      forge: target.forge,
      mode: input.mode,
      branch: bot.branch,
      commit: outcome.commit!,
      onTopOf: built,
      pushed: outcome.pushed,
      ...(request ? { url: request.url, number: request.number } : {}),
    });
    const pull = await comments?.pull(bot);
    if (!pull || !comments)
      return {
        ...outcome,
        entry: entryOf(outcome.publication),
        message: `${outcome.message}; no comment (the bot's request was not found)`,
      };
    outcome.entry = entryOf(input.mode === 'commit' ? pull : outcome.publication);
    const where =
      input.mode === 'commit'
        ? `The fix is commit ${outcome.commit?.slice(0, 12)} on this branch, on top of ${built.slice(0, 12)}.`
        : `The fix waits in ${outcome.publication!.url}, a request into this branch.`;
    const said = await comments.upsert(
      pull.number,
      botCommentBody(record, patchText, {
        where,
        bot: bot.bot,
        email: target.email,
        ...(target.runUrl ? { runUrl: target.runUrl } : {}),
      }),
    );
    return { ...outcome, message: `${outcome.message}; comment ${said} on ${pull.url}` };
  } catch (error) {
    const first = String((error as Error).message ?? error).split('\n')[0]!;
    const status = (error as { status?: number }).status;
    const rights = status === 401 || status === 403 ? ' (the token may not push or comment here)' : '';
    const line = redact(`not pushed: ${first}${rights}`).split(target.token).join('[REDACTED]');
    return { pushed: false, placed: false, message: line };
  }
}
