/**
 * Where a suggestion can be posted: the pull/merge request this CI job builds, the API to
 * reach it and the token, read from the CI's standard variables. Pure: the event file is
 * read by the caller.
 */

export interface GithubTarget {
  platform: 'github';
  apiUrl: string;
  owner: string;
  repo: string;
  pullNumber: number;
  /** The pull request's head commit: line numbers of a review refer to it. */
  headSha: string;
  token: string;
  /** The workflow run's page, where the run record artifact is. */
  runUrl?: string;
}

export interface GitlabTarget {
  platform: 'gitlab';
  apiUrl: string;
  projectId: string;
  mergeRequestIid: number;
  token: string;
  /** The job's page; its artifacts hold the run record. */
  jobUrl?: string;
}

export type ReviewTarget = GithubTarget | GitlabTarget;

export type TargetLookup = { target: ReviewTarget } | { reason: string };

interface GithubEvent {
  pull_request?: { number?: number; head?: { sha?: string } };
}

export function findReviewTarget(
  env: NodeJS.ProcessEnv,
  readEvent: (file: string) => string | undefined,
  gitlabTokenEnv: string,
): TargetLookup {
  if (env.GITHUB_ACTIONS === 'true') return githubTarget(env, readEvent);
  if (env.GITLAB_CI === 'true') return gitlabTarget(env, gitlabTokenEnv);
  return { reason: 'not a GitHub Actions or GitLab CI job' };
}

function githubTarget(env: NodeJS.ProcessEnv, readEvent: (file: string) => string | undefined): TargetLookup {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  if (!owner || !repo) return { reason: 'GITHUB_REPOSITORY is not set' };
  const text = env.GITHUB_EVENT_PATH ? readEvent(env.GITHUB_EVENT_PATH) : undefined;
  let event: GithubEvent | undefined;
  try {
    event = text === undefined ? undefined : (JSON.parse(text) as GithubEvent);
  } catch {
    return { reason: `the event file GITHUB_EVENT_PATH (${env.GITHUB_EVENT_PATH}) is not JSON` };
  }
  const pull = event?.pull_request;
  if (!pull?.number || !pull.head?.sha)
    return { reason: `not a pull request build (event ${env.GITHUB_EVENT_NAME ?? 'unknown'} has no pull_request)` };
  if (!env.GITHUB_TOKEN)
    return {
      reason:
        'no GITHUB_TOKEN in the environment (add `GITHUB_TOKEN: ${{ github.token }}` to the step, with permission pull-requests: write)',
    };
  const server = env.GITHUB_SERVER_URL ?? 'https://github.com';
  return {
    target: {
      platform: 'github',
      apiUrl: (env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/+$/, ''),
      owner,
      repo,
      pullNumber: pull.number,
      headSha: pull.head.sha,
      token: env.GITHUB_TOKEN,
      ...(env.GITHUB_RUN_ID ? { runUrl: `${server}/${owner}/${repo}/actions/runs/${env.GITHUB_RUN_ID}` } : {}),
    },
  };
}

function gitlabTarget(env: NodeJS.ProcessEnv, tokenEnv: string): TargetLookup {
  const iid = Number(env.CI_MERGE_REQUEST_IID);
  if (!env.CI_MERGE_REQUEST_IID || !Number.isInteger(iid) || iid <= 0)
    return { reason: 'not a merge request pipeline (CI_MERGE_REQUEST_IID is not set)' };
  if (!env.CI_PROJECT_ID || !env.CI_API_V4_URL) return { reason: 'CI_PROJECT_ID or CI_API_V4_URL is not set' };
  const token = env[tokenEnv];
  if (!token)
    return {
      reason: `no ${tokenEnv} in the environment (a project access token with scope api, named by review.gitlabTokenEnv)`,
    };
  return {
    target: {
      platform: 'gitlab',
      apiUrl: env.CI_API_V4_URL.replace(/\/+$/, ''),
      projectId: env.CI_PROJECT_ID,
      mergeRequestIid: iid,
      token,
      ...(env.CI_JOB_URL ? { jobUrl: env.CI_JOB_URL } : {}),
    },
  };
}
