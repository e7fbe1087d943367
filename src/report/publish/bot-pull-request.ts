/**
 * Whether this CI job runs for a dependency bot's pull/merge request, and which: the bot's branch (by
 * `publish.botBranches`), the request's number and the head commit that was built. Read from the CI variables and,
 * on GitHub Actions, the event file (`GITHUB_EVENT_PATH`: `pull_request` events, and the `workflow_run` event of the
 * template's second workflow, which publishes what the first one verified).
 */
import { readFile } from 'node:fs/promises';
import type { PublishConfig } from '../../policy/publish.js';
import { botOfBranch, type BotName } from '../../policy/update-branch-mode.js';
import type { ForgeName } from './forge.js';

export interface BotPullRequest {
  forge: ForgeName;
  bot: BotName;
  /** The bot's branch: where `commit` pushes and what `pull-request` targets. */
  branch: string;
  /** The pull request's number (GitHub) or merge request's iid (GitLab), when the CI says it. */
  number?: number;
  /** The head commit of the bot's branch that was built; the push is refused when the branch moved past it. */
  builtHead?: string;
}

interface GithubEvent {
  pull_request?: { number?: number; head?: { ref?: string; sha?: string } };
  workflow_run?: { head_branch?: string; head_sha?: string; pull_requests?: { number?: number }[] };
}

async function githubEvent(env: NodeJS.ProcessEnv): Promise<GithubEvent> {
  if (!env.GITHUB_EVENT_PATH) return {};
  try {
    return JSON.parse(await readFile(env.GITHUB_EVENT_PATH, 'utf8')) as GithubEvent;
  } catch {
    return {};
  }
}

const numberOf = (text: string | undefined) => (text && /^\d+$/.test(text) ? Number(text) : undefined);

export async function findBotPullRequest(
  env: NodeJS.ProcessEnv,
  forge: ForgeName,
  config: Pick<PublishConfig, 'botBranches'>,
): Promise<BotPullRequest | undefined> {
  let branch: string | undefined;
  let number: number | undefined;
  let builtHead: string | undefined;
  if (forge === 'github') {
    const event = await githubEvent(env);
    if (env.GITHUB_EVENT_NAME === 'workflow_run' && event.workflow_run) {
      branch = event.workflow_run.head_branch;
      builtHead = event.workflow_run.head_sha;
      number = event.workflow_run.pull_requests?.[0]?.number;
    } else if (env.GITHUB_EVENT_NAME === 'pull_request' || env.GITHUB_EVENT_NAME === 'pull_request_target') {
      branch = env.GITHUB_HEAD_REF || event.pull_request?.head?.ref;
      builtHead = event.pull_request?.head?.sha;
      number = event.pull_request?.number ?? numberOf(/^refs\/pull\/(\d+)\//.exec(env.GITHUB_REF ?? '')?.[1]);
    }
  } else if (env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME) {
    branch = env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME;
    number = numberOf(env.CI_MERGE_REQUEST_IID);
    builtHead = env.CI_MERGE_REQUEST_SOURCE_BRANCH_SHA || env.CI_COMMIT_SHA;
  }
  if (!branch) return undefined;
  const bot = botOfBranch(branch, config.botBranches);
  if (!bot) return undefined;
  return { forge, bot, branch, ...(number ? { number } : {}), ...(builtHead ? { builtHead } : {}) };
}
