/**
 * What publishing needs from a forge, the same for GitHub and GitLab, and where the forge
 * is: detected from the CI environment (GitHub Actions, GitLab CI) or set in config
 * (`publish.forge`, `publish.baseUrl`, `publish.pushUrl`, `publish.tokenEnv`). Pure.
 */
import type { PublishConfig } from '../../policy/publish.js';
import type { GitAuth } from './git-branch.js';

export type ForgeName = 'github' | 'gitlab';
export type RequestState = 'open' | 'closed' | 'merged';

export interface ChangeRequest {
  number: number;
  url: string;
  state: RequestState;
  /** GitHub's GraphQL id of the pull request. */
  nodeId?: string;
  body?: string;
}

export type AutoMergeResult = { enabled: true; method?: string } | { enabled: false; reason: string };

export interface ForgeClient {
  forge: ForgeName;
  /** The open mvnx request from this branch, when there is one. */
  findOpen(branch: string): Promise<ChangeRequest | undefined>;
  create(input: { branch: string; target: string; title: string; body: string }): Promise<ChangeRequest>;
  update(request: ChangeRequest, input: { title: string; body: string }): Promise<void>;
  close(request: ChangeRequest, comment: string): Promise<void>;
  /** Whether the target branch has checks that must pass before a merge, and which. */
  requiredChecks(target: string): Promise<{ required: boolean; detail: string }>;
  enableAutoMerge(request: ChangeRequest, headSha: string): Promise<AutoMergeResult>;
  state(number: number): Promise<RequestState>;
}

export interface ForgeTarget {
  forge: ForgeName;
  apiUrl: string;
  /** `owner/name` on GitHub; the project id or path on GitLab. */
  project: string;
  token: string;
  pushUrl: string;
  auth: GitAuth;
  /** The branch the request merges into: the branch that was built. */
  targetBranch?: string;
  /** The CI run's page, named in the description. */
  runUrl?: string;
  /** Commit e-mail for the fix's commit. */
  email: string;
  /** The job checked out a merge the forge made, not a branch: `GitHub's merge commit refs/pull/3/merge`. */
  mergeCheckout?: string;
}

export type TargetLookup = { target: ForgeTarget } | { reason: string };

const trim = (url: string) => url.replace(/\/+$/, '');

export function detectForge(env: NodeJS.ProcessEnv, config: Pick<PublishConfig, 'forge'>): ForgeName | undefined {
  if (config.forge !== 'detect') return config.forge;
  if (env.GITHUB_ACTIONS === 'true') return 'github';
  if (env.GITLAB_CI === 'true') return 'gitlab';
  return undefined;
}

/** Where and how to publish, from the CI variables and the config; the reason when something is missing. */
export function findForgeTarget(env: NodeJS.ProcessEnv, config: PublishConfig): TargetLookup {
  const forge = detectForge(env, config);
  if (!forge) return { reason: 'not a GitHub Actions or GitLab CI job, and publish.forge is detect' };
  const tokenEnv = config.tokenEnv ?? (forge === 'github' ? 'GITHUB_TOKEN' : 'MVNX_GITLAB_TOKEN');
  const token = env[tokenEnv];
  if (!token)
    return {
      reason: `no ${tokenEnv} in the environment (publish.tokenEnv names the variable holding a token that may push and open ${forge === 'github' ? 'pull' : 'merge'} requests)`,
    };
  if (forge === 'github') {
    const project = env.GITHUB_REPOSITORY ?? '';
    if (!/^[^/\s]+\/[^/\s]+$/.test(project)) return { reason: 'GITHUB_REPOSITORY is not set (owner/name)' };
    const server = trim(env.GITHUB_SERVER_URL ?? 'https://github.com');
    const targetBranch = env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME;
    return {
      target: {
        forge,
        apiUrl: trim(config.baseUrl ?? env.GITHUB_API_URL ?? 'https://api.github.com'),
        project,
        token,
        pushUrl: config.pushUrl ?? `${server}/${project}.git`,
        auth: { username: 'x-access-token', token },
        ...(targetBranch ? { targetBranch } : {}),
        ...(env.GITHUB_RUN_ID ? { runUrl: `${server}/${project}/actions/runs/${env.GITHUB_RUN_ID}` } : {}),
        email: 'mvnx@users.noreply.github.com',
        ...(/^refs\/pull\/\d+\/merge$/.test(env.GITHUB_REF ?? '')
          ? { mergeCheckout: `GitHub's merge commit ${env.GITHUB_REF}` }
          : {}),
      },
    };
  }
  const project = env.CI_PROJECT_ID ?? env.CI_PROJECT_PATH;
  const apiUrl = config.baseUrl ?? env.CI_API_V4_URL;
  if (!project || !apiUrl) return { reason: 'CI_PROJECT_ID or CI_API_V4_URL is not set (or publish.baseUrl)' };
  const server = trim(env.CI_SERVER_URL ?? new URL(apiUrl).origin);
  const targetBranch = env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME || env.CI_COMMIT_BRANCH || env.CI_COMMIT_REF_NAME;
  return {
    target: {
      forge,
      apiUrl: trim(apiUrl),
      project,
      token,
      pushUrl: config.pushUrl ?? `${server}/${env.CI_PROJECT_PATH ?? project}.git`,
      auth: { username: 'oauth2', token },
      ...(targetBranch ? { targetBranch } : {}),
      ...(env.CI_JOB_URL ? { runUrl: env.CI_JOB_URL } : {}),
      email: `mvnx@${env.CI_SERVER_HOST ?? 'gitlab.invalid'}`,
      ...(env.CI_MERGE_REQUEST_EVENT_TYPE === 'merged_result' || env.CI_MERGE_REQUEST_EVENT_TYPE === 'merge_train'
        ? { mergeCheckout: `GitLab's merged result of merge request !${env.CI_MERGE_REQUEST_IID ?? '?'}` }
        : {}),
    },
  };
}
