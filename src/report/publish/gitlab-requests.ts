/**
 * GitLab: merge requests for published fixes (docs.gitlab.com/api/merge_requests, notes,
 * projects), whether the project makes pipelines succeed before a merge
 * (`only_allow_merge_if_pipeline_succeeds`), and GitLab's own auto-merge ("merge when
 * pipeline succeeds": PUT .../merge with `auto_merge`, and the older name
 * `merge_when_pipeline_succeeds` for servers before 17.11). Plain fetch, as review/gitlab.ts.
 */
import { fetchWithTimeout } from '../review/plan.js';
import type { AutoMergeResult, ChangeRequest, ForgeClient, ForgeTarget, RequestState } from './forge.js';
import { rateLimitedFetch, type RateLimitOptions } from './rate-limit.js';

interface MergeRequest {
  iid: number;
  web_url: string;
  state: string;
  description?: string | null;
}

export class ForgeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ForgeApiError';
  }
}

const toRequest = (mr: MergeRequest): ChangeRequest => ({
  number: mr.iid,
  url: mr.web_url,
  state: mr.state === 'merged' ? 'merged' : mr.state === 'opened' || mr.state === 'locked' ? 'open' : 'closed',
  ...(mr.description ? { body: mr.description } : {}),
});

export type GitlabCall = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** One JSON call under the project (`path` after /projects/:id); a non-2xx answer is a ForgeApiError. */
export function gitlabProjectApi(
  target: ForgeTarget,
  options: { timeoutMs?: number; rateLimit?: RateLimitOptions } = {},
): GitlabCall {
  const request = rateLimitedFetch(fetchWithTimeout(options.timeoutMs ?? 20_000), options.rateLimit);
  const project = `${target.apiUrl}/projects/${encodeURIComponent(target.project)}`;
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await request(`${project}${path}`, {
      method,
      headers: {
        'PRIVATE-TOKEN': target.token,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) {
      const detail = /"(?:message|error)"\s*:\s*"?([^"}\]]*)/.exec(text)?.[1] ?? response.statusText;
      throw new ForgeApiError(
        response.status,
        `GitLab answered ${response.status} to ${method} ${path.split('?')[0]}: ${detail}`,
      );
    }
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

export function gitlabClient(
  target: ForgeTarget,
  options: { timeoutMs?: number; rateLimit?: RateLimitOptions } = {},
): ForgeClient {
  const call = gitlabProjectApi(target, options);
  const mr = (iid: number) => `/merge_requests/${iid}`;
  const findOpen = async (branch: string) => {
    const found = await call<MergeRequest[]>(
      'GET',
      `/merge_requests?state=opened&source_branch=${encodeURIComponent(branch)}`,
    );
    return found[0] ? toRequest(found[0]) : undefined;
  };

  return {
    forge: 'gitlab',
    findOpen,
    async create({ branch, target: base, title, body }) {
      try {
        return toRequest(
          await call<MergeRequest>('POST', '/merge_requests', {
            source_branch: branch,
            target_branch: base,
            title,
            description: body,
            remove_source_branch: true,
          }),
        );
      } catch (error) {
        // 409 "Another open merge request already exists for this source branch": that one is updated.
        const existing =
          error instanceof ForgeApiError && (error.status === 409 || error.status === 422)
            ? await findOpen(branch)
            : undefined;
        if (!existing) throw error;
        await call('PUT', mr(existing.number), { title, description: body });
        return existing;
      }
    },
    async update(existing, { title, body }) {
      await call('PUT', mr(existing.number), { title, description: body });
    },
    async close(existing, comment) {
      await call('POST', `${mr(existing.number)}/notes`, { body: comment });
      await call('PUT', mr(existing.number), { state_event: 'close' });
    },
    async requiredChecks() {
      const settings = await call<{ only_allow_merge_if_pipeline_succeeds?: boolean }>('GET', '');
      return settings.only_allow_merge_if_pipeline_succeeds
        ? { required: true, detail: 'the project requires a successful pipeline before a merge' }
        : {
            required: false,
            detail:
              'the project does not require a successful pipeline (Settings > Merge requests > Pipelines must succeed), so GitLab would merge at once',
          };
    },
    async enableAutoMerge(existing, headSha): Promise<AutoMergeResult> {
      try {
        await call('PUT', `${mr(existing.number)}/merge`, {
          sha: headSha,
          auto_merge: true,
          merge_when_pipeline_succeeds: true,
          should_remove_source_branch: true,
        });
      } catch (error) {
        if (error instanceof ForgeApiError && [405, 406, 409, 422].includes(error.status))
          return { enabled: false, reason: `GitLab refused auto-merge: ${error.message}` };
        throw error;
      }
      return { enabled: true };
    },
    async state(number): Promise<RequestState> {
      return toRequest(await call<MergeRequest>('GET', mr(number))).state;
    },
  };
}
