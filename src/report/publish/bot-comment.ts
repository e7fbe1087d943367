/**
 * The one comment mvnx keeps on a dependency bot's pull request: what changed and why (the API difference lines of
 * the run record), found again by a marker and edited, never posted twice. GitHub REST:
 * GET/POST /repos/{o}/{r}/issues/{n}/comments, PATCH /repos/{o}/{r}/issues/comments/{id}
 * (docs.github.com/rest/issues/comments); the pull request found by GET /repos/{o}/{r}/pulls?head=owner:branch.
 */
import { githubOctokit } from './github-requests.js';
import { redact } from '../../model/redact.js';
import type { RunRecord } from '../run-record.js';
import type { BotPullRequest } from './bot-pull-request.js';
import type { ForgeTarget } from './forge.js';
import type { RateLimitOptions } from './rate-limit.js';
import { diffStats } from './publish-text.js';

export const BOT_COMMENT_MARKER = '<!-- mvnx:update-branch -->';
const MAX_DIFFERENCE_LINES = 20;

export interface BotComments {
  /** The bot's pull request: its number and page, by number or by its head branch. */
  pull(bot: BotPullRequest): Promise<{ number: number; url: string } | undefined>;
  /** Edits mvnx's comment when there is one, else posts it; says which. */
  upsert(number: number, body: string): Promise<'posted' | 'updated'>;
}

export async function githubBotComments(
  target: ForgeTarget,
  options: { userAgent: string; rateLimit?: RateLimitOptions },
): Promise<BotComments> {
  const octokit = await githubOctokit(target, options);
  const [owner, repo] = target.project.split('/') as [string, string];
  return {
    async pull(bot) {
      if (bot.number) {
        const found = (await octokit.rest.pulls.get({ owner, repo, pull_number: bot.number })).data;
        return { number: found.number, url: found.html_url };
      }
      const open = (await octokit.rest.pulls.list({ owner, repo, head: `${owner}:${bot.branch}`, state: 'open' })).data;
      return open[0] ? { number: open[0].number, url: open[0].html_url } : undefined;
    },
    async upsert(number, body) {
      const comments = await octokit.paginate(octokit.rest.issues.listComments, {
        owner,
        repo,
        issue_number: number,
        per_page: 100,
      });
      const mine = comments.find((comment) => comment.body?.includes(BOT_COMMENT_MARKER));
      if (mine) {
        await octokit.rest.issues.updateComment({ owner, repo, comment_id: mine.id, body });
        return 'updated';
      }
      await octokit.rest.issues.createComment({ owner, repo, issue_number: number, body });
      return 'posted';
    },
  };
}

/** What lets each bot keep rebasing its pull request after mvnx's commit, in the commit and in the comment. */
export function rebaseNote(bot: BotPullRequest['bot'], email: string): { commitLine?: string; comment: string } {
  if (bot === 'dependabot')
    return {
      commitLine: '[dependabot skip]',
      comment:
        "The commit's message holds `[dependabot skip]`, so Dependabot still rebases this pull request; a rebased bump is repaired again by the next CI run.",
    };
  if (bot === 'renovate')
    return {
      comment: `Renovate keeps rebasing this branch when \`${email}\` is in its \`gitIgnoredAuthors\`; a rebased bump is repaired again by the next CI run.`,
    };
  return { comment: 'A rebased branch is repaired again by the next CI run.' };
}

/** The comment: the update, where the fix went, the files and the API difference that explains it. */
export function botCommentBody(
  record: RunRecord,
  patchText: string,
  input: { where: string; bot: BotPullRequest['bot']; email: string; runUrl?: string },
): string {
  const update = record.dependencyUpdate;
  const bumps = update?.updates && update.updates.length > 1 ? update.updates : update ? [update] : [];
  const bump = (entry: (typeof bumps)[number]) =>
    `\`${entry.groupId}:${entry.artifactId}\` ${entry.from} -> ${entry.to}${entry.via ? ` (via ${entry.via})` : ''}`;
  const heading =
    bumps.length === 0
      ? '**mvnx** repaired the build of this update.'
      : bumps.length === 1
        ? `**mvnx** repaired the build after ${bump(bumps[0]!)}.`
        : `**mvnx** repaired the build after ${bumps.length} updates: ${bumps.map(bump).join(', ')}.`;
  const grouped = bumps.length > 1;
  const lines = (update?.differences ?? [])
    .flatMap((difference) => [
      // A grouped update: each error says whose API it uses.
      `${difference.site}: ${difference.message}${grouped && difference.dependency ? ` [${difference.dependency}]` : ''}`,
      ...difference.lines.map((line) => `  ${line}`),
      ...(difference.quickFix ? [`  => ${difference.quickFix}`] : []),
    ])
    .slice(0, MAX_DIFFERENCE_LINES);
  const body = [
    BOT_COMMENT_MARKER,
    heading,
    '',
    input.where,
    '',
    `Changed: ${diffStats(patchText)
      .map((stat) => `\`${stat.path}\` (+${stat.added} -${stat.removed})`)
      .join(', ')}.`,
    ...(lines.length > 0 ? ['', 'Why, from the API difference of the two jars:', '', '```', ...lines, '```'] : []),
    '',
    rebaseNote(input.bot, input.email).comment,
    '',
    `Run \`${record.runId}\`${input.runUrl ? ` (${input.runUrl})` : ''}.`,
  ];
  return redact(body.join('\n'));
}
