/**
 * GitHub: pull requests for published fixes (REST, docs.github.com/rest/pulls), the
 * target branch's required checks (branch protection and rulesets), and the repository's
 * own auto-merge through GraphQL `enablePullRequestAutoMerge` with a merge method the
 * repository allows.
 */
import { newOctokit, type Octokit } from '../octokit.js';
import { fetchWithTimeout } from '../review/plan.js';
import type { AutoMergeResult, ChangeRequest, ForgeClient, ForgeTarget, RequestState } from './forge.js';
import { rateLimitedFetch, type RateLimitOptions } from './rate-limit.js';

interface Pull {
  number: number;
  html_url: string;
  node_id: string;
  state: string;
  merged?: boolean;
  merged_at?: string | null;
  body?: string | null;
}

const toRequest = (pull: Pull): ChangeRequest => ({
  number: pull.number,
  url: pull.html_url,
  nodeId: pull.node_id,
  state: pull.merged || pull.merged_at ? 'merged' : pull.state === 'open' ? 'open' : 'closed',
  ...(pull.body ? { body: pull.body } : {}),
});

const statusOf = (error: unknown) => (error as { status?: number }).status;

// expectedHeadOid: GitHub refuses when the branch moved since mvnx pushed, so nobody's later push is merged unseen.
const ENABLE_AUTO_MERGE = `mutation($pullRequestId: ID!, $mergeMethod: PullRequestMergeMethod!, $expectedHeadOid: GitObjectID) {
  enablePullRequestAutoMerge(
    input: {pullRequestId: $pullRequestId, mergeMethod: $mergeMethod, expectedHeadOid: $expectedHeadOid}
  ) {
    pullRequest { number autoMergeRequest { enabledAt mergeMethod } }
  }
}`;

/** Octokit for the forge target: its token and API, mvnx's user agent, a timeout and the rate limit; quiet. */
export async function githubOctokit(
  target: ForgeTarget,
  options: { userAgent: string; timeoutMs?: number; rateLimit?: RateLimitOptions },
): Promise<Octokit> {
  // Octokit logs failed requests itself; mvnx says it once, in its own line.
  const quiet = () => undefined;
  return newOctokit({
    auth: target.token,
    baseUrl: target.apiUrl,
    userAgent: options.userAgent,
    log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    request: { fetch: rateLimitedFetch(fetchWithTimeout(options.timeoutMs ?? 20_000), options.rateLimit) },
  });
}

export async function githubClient(
  target: ForgeTarget,
  options: { userAgent: string; timeoutMs?: number; rateLimit?: RateLimitOptions },
): Promise<ForgeClient> {
  const octokit = await githubOctokit(target, options);
  const [owner, repo] = target.project.split('/') as [string, string];
  const at = { owner, repo };

  const findOpen = async (branch: string) => {
    const pulls = (await octokit.rest.pulls.list({ ...at, head: `${owner}:${branch}`, state: 'open', per_page: 10 }))
      .data as Pull[];
    return pulls[0] ? toRequest(pulls[0]) : undefined;
  };

  return {
    forge: 'github',
    findOpen,
    async create({ branch, target: base, title, body }) {
      try {
        return toRequest(
          (await octokit.rest.pulls.create({ ...at, head: branch, base, title, body, maintainer_can_modify: false }))
            .data,
        );
      } catch (error) {
        // 422 "A pull request already exists": another run got there first; that one is updated.
        const existing = statusOf(error) === 422 ? await findOpen(branch) : undefined;
        if (!existing) throw error;
        await octokit.rest.pulls.update({ ...at, pull_number: existing.number, title, body });
        return existing;
      }
    },
    async update(request, { title, body }) {
      await octokit.rest.pulls.update({ ...at, pull_number: request.number, title, body });
    },
    async close(request, comment) {
      await octokit.rest.issues.createComment({ ...at, issue_number: request.number, body: comment });
      await octokit.rest.pulls.update({ ...at, pull_number: request.number, state: 'closed' });
    },
    async requiredChecks(branch) {
      const found: string[] = [];
      try {
        const protection = (await octokit.rest.repos.getBranch({ ...at, branch })).data.protection;
        const checks = protection?.required_status_checks;
        const names = [...(checks?.contexts ?? []), ...(checks?.checks ?? []).map((check) => check.context)];
        if (protection?.enabled !== false && names.length > 0)
          found.push(`branch protection requires ${[...new Set(names)].join(', ')}`);
      } catch (error) {
        if (statusOf(error) !== 404) throw error;
      }
      // GitHub Enterprise Server before 3.9 has no rulesets endpoint (404): no rulesets there.
      const rules = (await octokit.rest.repos.getBranchRules({ ...at, branch, per_page: 100 }).then(
        (answer) => answer.data,
        (error: unknown) => {
          if (statusOf(error) === 404) return [];
          throw error;
        },
      )) as { type: string; parameters?: { required_status_checks?: { context: string }[] } }[];
      const ruleChecks = rules
        .filter((rule) => rule.type === 'required_status_checks')
        .flatMap((rule) => rule.parameters?.required_status_checks ?? [])
        .map((check) => check.context);
      if (ruleChecks.length > 0) found.push(`a ruleset requires ${[...new Set(ruleChecks)].join(', ')}`);
      return found.length > 0
        ? { required: true, detail: found.join('; ') }
        : {
            required: false,
            detail: `branch ${branch} has no required status checks (branch protection or rulesets), so GitHub would merge at once`,
          };
    },
    async enableAutoMerge(request, headSha): Promise<AutoMergeResult> {
      const repository = (await octokit.rest.repos.get(at)).data;
      if (!repository.allow_auto_merge)
        return {
          enabled: false,
          reason: `auto-merge is not allowed on ${target.project} (Settings > General > Allow auto-merge)`,
        };
      const method =
        repository.allow_squash_merge !== false
          ? 'SQUASH'
          : repository.allow_merge_commit !== false
            ? 'MERGE'
            : repository.allow_rebase_merge !== false
              ? 'REBASE'
              : undefined;
      if (!method) return { enabled: false, reason: `${target.project} allows no merge method` };
      try {
        await octokit.graphql(ENABLE_AUTO_MERGE, {
          pullRequestId: request.nodeId,
          mergeMethod: method,
          expectedHeadOid: headSha,
        });
      } catch (error) {
        const errors = (error as { errors?: { message: string }[] }).errors;
        if (!errors?.length) throw error;
        return { enabled: false, reason: `GitHub refused auto-merge: ${errors[0]!.message}` };
      }
      return { enabled: true, method: method.toLowerCase() };
    },
    async state(number): Promise<RequestState> {
      return toRequest((await octokit.rest.pulls.get({ ...at, pull_number: number })).data).state;
    },
  };
}
