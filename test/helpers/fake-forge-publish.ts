/**
 * Loopback GitHub and GitLab APIs for publishing fixes, checking each request against the
 * documented endpoint and payload (as fake-forge.ts does for reviews):
 * GitHub (docs.github.com/rest): GET/POST /repos/{o}/{r}/pulls (head=owner:branch), GET/PATCH
 * .../pulls/{n}, GET/POST .../issues/{n}/comments, PATCH .../issues/comments/{id}, GET /repos/{o}/{r}, GET .../branches/{b}
 * (protection.required_status_checks), GET .../rules/branches/{b} (rulesets), POST /graphql
 * with `enablePullRequestAutoMerge` (ID and PullRequestMergeMethod variables).
 * GitLab (docs.gitlab.com/api): GET /projects/:id, GET/POST .../merge_requests, GET/PUT
 * .../merge_requests/:iid, GET (paged: per_page capped at 100, page) /POST .../notes, PUT .../notes/:note_id,
 * PUT .../merge (auto_merge / merge_when_pipeline_succeeds, sha).
 * Both can answer the next requests with 429 and Retry-After, as a rate-limited forge does.
 */
import { need, serve, type FakeForge, type Route, type SeenRequest } from './fake-forge.js';

const esc = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface GithubPull {
  number: number;
  node_id: string;
  head: { ref: string };
  base: { ref: string };
  title: string;
  body: string;
  state: 'open' | 'closed';
  merged: boolean;
  html_url: string;
  autoMerge?: string;
}

export interface GithubPublishState {
  owner: string;
  repo: string;
  token: string;
  pulls: GithubPull[];
  comments: { issue_number: number; body: string }[];
  settings: {
    allow_auto_merge: boolean;
    allow_squash_merge: boolean;
    allow_merge_commit: boolean;
    allow_rebase_merge: boolean;
  };
  /** Required status checks of branch protection, per branch. */
  protection: Record<string, string[]>;
  /** Required status checks from rulesets, per branch. */
  rulesets: Record<string, string[]>;
  /** Answer this many next requests 429 with this Retry-After. */
  rateLimit?: { count: number; retryAfter: string };
  /** Answer every request with this status (a token without rights). */
  forbid?: number;
  /** The head branch's tip as the remote has it: expectedHeadOid must be it. */
  branchHead?: (branch: string) => string | undefined;
  /** Answer GraphQL with this status (a 502 from GitHub's edge). */
  graphqlStatus?: number;
  graphqlCalls?: number;
  /** No rulesets endpoint (GitHub Enterprise Server before 3.9): 404. */
  noRulesets?: boolean;
  /** Answer every request 403 with x-ratelimit-remaining: 0 and this reset (epoch seconds): a primary rate limit. */
  rateLimited403?: number;
}

function limiter(
  state: { rateLimit?: { count: number; retryAfter: string }; forbid?: number; rateLimited403?: number },
  message: string,
): Route[] {
  const handle = (): ReturnType<Route['handle']> => {
    if (state.rateLimited403)
      return {
        status: 403,
        body: { message: 'API rate limit exceeded for installation ID 1.' },
        headers: {
          'x-ratelimit-limit': '5000',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(state.rateLimited403),
        },
      };
    if (state.forbid)
      return {
        status: state.forbid,
        body: { message: state.forbid === 403 ? 'Resource not accessible by integration' : '401 Unauthorized' },
      };
    if (!state.rateLimit || state.rateLimit.count <= 0) return undefined;
    state.rateLimit.count -= 1;
    return { status: 429, body: { message }, headers: { 'retry-after': state.rateLimit.retryAfter } };
  };
  return ['GET', 'POST', 'PATCH', 'PUT'].map((method) => ({ method, pattern: /.*/, handle }));
}

export async function startGithubPublishApi(state: GithubPublishState): Promise<FakeForge> {
  const base = `^${esc(`/repos/${state.owner}/${state.repo}`)}`;
  const pull = (number: string) => state.pulls.find((candidate) => candidate.number === Number(number));
  const requiredChecks = (branch: string) => [...(state.protection[branch] ?? []), ...(state.rulesets[branch] ?? [])];
  const routes: Route[] = [
    ...limiter(state, 'API rate limit exceeded'),
    {
      method: 'GET',
      pattern: new RegExp(`${base}/pulls$`),
      handle: (request) => {
        const head = request.query.get('head') ?? '';
        if (head && !head.startsWith(`${state.owner}:`))
          return { status: 422, body: { message: `head must be owner:branch, got ${head}` } };
        const branch = head.slice(state.owner.length + 1);
        const wanted = request.query.get('state') ?? 'open';
        return {
          status: 200,
          body: state.pulls.filter(
            (p) => (!branch || p.head.ref === branch) && (wanted === 'all' || p.state === wanted),
          ),
        };
      },
    },
    {
      method: 'POST',
      pattern: new RegExp(`${base}/pulls$`),
      handle: (request) => {
        const problem = need(request.body, { head: 'string', base: 'string', title: 'string', body: 'string' });
        if (problem) return { status: 422, body: { message: problem } };
        const body = request.body!;
        if (state.pulls.some((p) => p.state === 'open' && p.head.ref === body.head))
          return {
            status: 422,
            body: {
              message: 'Validation Failed',
              errors: [
                {
                  resource: 'PullRequest',
                  code: 'custom',
                  message: `A pull request already exists for ${state.owner}:${String(body.head)}.`,
                },
              ],
            },
          };
        const number = state.pulls.length + 1;
        const created: GithubPull = {
          number,
          node_id: `PR_kw${number}`,
          head: { ref: body.head as string },
          base: { ref: body.base as string },
          title: body.title as string,
          body: body.body as string,
          state: 'open',
          merged: false,
          html_url: `https://github.example/${state.owner}/${state.repo}/pull/${number}`,
        };
        state.pulls.push(created);
        return { status: 201, body: created };
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`${base}/pulls/(\\d+)$`),
      handle: (_r, [n]) =>
        pull(n!) ? { status: 200, body: pull(n!) } : { status: 404, body: { message: 'Not Found' } },
    },
    {
      method: 'PATCH',
      pattern: new RegExp(`${base}/pulls/(\\d+)$`),
      handle: (request, [n]) => {
        const found = pull(n!);
        if (!found) return { status: 404, body: { message: 'Not Found' } };
        const body = request.body ?? {};
        for (const field of ['title', 'body', 'state'] as const)
          if (body[field] !== undefined && typeof body[field] !== 'string')
            return { status: 422, body: { message: `${field} must be a string` } };
        if (body.state !== undefined && body.state !== 'open' && body.state !== 'closed')
          return { status: 422, body: { message: `state ${String(body.state)}` } };
        Object.assign(found, body);
        return { status: 200, body: found };
      },
    },
    {
      method: 'POST',
      pattern: new RegExp(`${base}/issues/(\\d+)/comments$`),
      handle: (request, [n]) => {
        const problem = !pull(n!) ? `no issue ${n}` : need(request.body, { body: 'string' });
        if (problem) return { status: 422, body: { message: problem } };
        state.comments.push({ issue_number: Number(n), body: request.body!.body as string });
        return { status: 201, body: { id: state.comments.length } };
      },
    },
    {
      // A comment's id is its place in state.comments (1-based), as the POST above answers.
      method: 'GET',
      pattern: new RegExp(`${base}/issues/(\\d+)/comments$`),
      handle: (_r, [n]) =>
        pull(n!)
          ? {
              status: 200,
              body: state.comments
                .map((comment, index) => ({ id: index + 1, ...comment }))
                .filter((comment) => comment.issue_number === Number(n))
                .map(({ id, body }) => ({ id, body, html_url: `https://github.example/c/${id}` })),
            }
          : { status: 404, body: { message: 'Not Found' } },
    },
    {
      method: 'PATCH',
      pattern: new RegExp(`${base}/issues/comments/(\\d+)$`),
      handle: (request, [id]) => {
        const comment = state.comments[Number(id) - 1];
        if (!comment) return { status: 404, body: { message: 'Not Found' } };
        const problem = need(request.body, { body: 'string' });
        if (problem) return { status: 422, body: { message: problem } };
        comment.body = request.body!.body as string;
        return { status: 200, body: { id: Number(id), body: comment.body } };
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`${base}$`),
      handle: () => ({ status: 200, body: { full_name: `${state.owner}/${state.repo}`, ...state.settings } }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`${base}/branches/([^/]+)$`),
      handle: (_r, [branch]) => {
        const contexts = state.protection[branch!];
        return {
          status: 200,
          body: {
            name: branch,
            protected: Boolean(contexts),
            ...(contexts
              ? {
                  protection: {
                    enabled: true,
                    required_status_checks: {
                      enforcement_level: 'non_admins',
                      contexts,
                      checks: contexts.map((context) => ({ context, app_id: null })),
                    },
                  },
                }
              : {}),
          },
        };
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`${base}/rules/branches/([^/]+)$`),
      handle: (_r, [branch]) =>
        state.noRulesets
          ? { status: 404, body: { message: 'Not Found' } }
          : {
              status: 200,
              body:
                (state.rulesets[branch!] ?? []).length > 0
                  ? [
                      {
                        type: 'required_status_checks',
                        ruleset_id: 7,
                        parameters: {
                          strict_required_status_checks_policy: false,
                          required_status_checks: state.rulesets[branch!]!.map((context) => ({ context })),
                        },
                      },
                    ]
                  : [],
            },
    },
    {
      method: 'POST',
      pattern: /^\/graphql$/,
      handle: (request) => {
        const problem = need(request.body, { query: 'string', variables: 'object' });
        if (problem) return { status: 400, body: { message: problem } };
        const { query, variables } = request.body as { query: string; variables: Record<string, unknown> };
        // EnablePullRequestAutoMergeInput (docs.github.com/graphql/reference/input-objects): pullRequestId,
        // mergeMethod and expectedHeadOid, each passed as a declared variable.
        const flat = query.replace(/\s+/g, ' ');
        if (
          !/mutation ?\(\$pullRequestId: ID!, \$mergeMethod: PullRequestMergeMethod!, \$expectedHeadOid: GitObjectID!?\)/.test(
            flat,
          ) ||
          !/enablePullRequestAutoMerge\( ?input: \{ ?pullRequestId: \$pullRequestId, mergeMethod: \$mergeMethod, expectedHeadOid: \$expectedHeadOid ?\} ?\)/.test(
            flat,
          )
        )
          return { status: 200, body: { errors: [{ message: 'unexpected query' }] } };
        state.graphqlCalls = (state.graphqlCalls ?? 0) + 1;
        if (state.graphqlStatus) return { status: state.graphqlStatus, body: { message: 'Server Error' } };
        const target = state.pulls.find((p) => p.node_id === variables.pullRequestId);
        const method = String(variables.mergeMethod);
        if (typeof variables.expectedHeadOid !== 'string' || !/^[0-9a-f]{40}$/.test(variables.expectedHeadOid))
          return {
            status: 200,
            body: { data: null, errors: [{ type: 'INVALID', message: 'expectedHeadOid must be a GitObjectID' }] },
          };
        const head = target && state.branchHead?.(target.head.ref);
        if (head !== undefined && head !== variables.expectedHeadOid)
          return {
            status: 200,
            body: {
              data: null,
              errors: [{ type: 'UNPROCESSABLE', message: `Head sha didn't match expected head sha` }],
            },
          };
        if (!target)
          return {
            status: 200,
            body: {
              data: null,
              errors: [
                {
                  type: 'NOT_FOUND',
                  message: `Could not resolve to a node with the global id of '${String(variables.pullRequestId)}'`,
                },
              ],
            },
          };
        if (!state.settings.allow_auto_merge)
          return {
            status: 200,
            body: {
              data: null,
              errors: [
                { type: 'UNPROCESSABLE', message: 'Pull request Auto merge is not allowed for this repository' },
              ],
            },
          };
        const allowed = {
          MERGE: state.settings.allow_merge_commit,
          SQUASH: state.settings.allow_squash_merge,
          REBASE: state.settings.allow_rebase_merge,
        }[method];
        if (!allowed)
          return {
            status: 200,
            body: {
              data: null,
              errors: [{ type: 'UNPROCESSABLE', message: `Merge method ${method} is not allowed on this repository` }],
            },
          };
        // Without required checks GitHub would merge at once: that is the case mvnx must never reach.
        if (requiredChecks(target.base.ref).length === 0)
          return {
            status: 200,
            body: { data: null, errors: [{ type: 'UNPROCESSABLE', message: 'Pull request is in clean status' }] },
          };
        target.autoMerge = method;
        return {
          status: 200,
          body: {
            data: {
              enablePullRequestAutoMerge: {
                pullRequest: {
                  number: target.number,
                  autoMergeRequest: { enabledAt: '2026-12-03T00:00:00Z', mergeMethod: method },
                },
              },
            },
          },
        };
      },
    },
  ];
  return serve(routes, (request: SeenRequest) => {
    if (request.headers.authorization !== `token ${state.token}`)
      return `authorization header ${String(request.headers.authorization)}`;
    if (!String(request.headers['user-agent'] ?? '').includes('mvnx/'))
      return `user-agent ${String(request.headers['user-agent'])}`;
    return undefined;
  });
}

export interface GitlabMergeRequest {
  iid: number;
  source_branch: string;
  target_branch: string;
  title: string;
  description: string;
  state: 'opened' | 'closed' | 'merged';
  web_url: string;
  auto_merge: boolean;
}

export interface GitlabPublishState {
  projectId: string;
  token: string;
  mergeRequests: GitlabMergeRequest[];
  /** A note's id is its place here (1-based), as the POST answers; `system` notes are GitLab's own ("added 1 commit"). */
  notes: { iid: number; body: string; system?: boolean }[];
  settings: { only_allow_merge_if_pipeline_succeeds: boolean };
  /** The source branch's head as the remote has it (checked against `sha` of the merge call). */
  branchHead: (branch: string) => string | undefined;
  rateLimit?: { count: number; retryAfter: string };
  forbid?: number;
}

export async function startGitlabPublishApi(state: GitlabPublishState): Promise<FakeForge> {
  const project = `^/api/v4/projects/${esc(encodeURIComponent(state.projectId))}`;
  const mr = (iid: string) => state.mergeRequests.find((candidate) => candidate.iid === Number(iid));
  const routes: Route[] = [
    ...limiter(state, 'Retry later'),
    {
      method: 'GET',
      pattern: new RegExp(`${project}$`),
      handle: () => ({ status: 200, body: { id: Number(state.projectId), ...state.settings } }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`${project}/merge_requests$`),
      handle: (request) => {
        const wanted = request.query.get('state');
        const branch = request.query.get('source_branch');
        return {
          status: 200,
          body: state.mergeRequests.filter(
            (m) => (!wanted || wanted === 'all' || m.state === wanted) && (!branch || m.source_branch === branch),
          ),
        };
      },
    },
    {
      method: 'POST',
      pattern: new RegExp(`${project}/merge_requests$`),
      handle: (request) => {
        const problem = need(request.body, { source_branch: 'string', target_branch: 'string', title: 'string' });
        if (problem) return { status: 400, body: { message: problem } };
        const body = request.body!;
        const open = state.mergeRequests.find((m) => m.state === 'opened' && m.source_branch === body.source_branch);
        if (open)
          return {
            status: 409,
            body: { message: [`Another open merge request already exists for this source branch: !${open.iid}`] },
          };
        // iids go on from the project's highest, as GitLab's do.
        const iid = Math.max(0, ...state.mergeRequests.map((m) => m.iid)) + 1;
        const created: GitlabMergeRequest = {
          iid,
          source_branch: body.source_branch as string,
          target_branch: body.target_branch as string,
          title: body.title as string,
          description: String(body.description ?? ''),
          state: 'opened',
          web_url: `https://gitlab.example/group/project/-/merge_requests/${iid}`,
          auto_merge: false,
        };
        state.mergeRequests.push(created);
        return { status: 201, body: created };
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`${project}/merge_requests/(\\d+)$`),
      handle: (_r, [iid]) =>
        mr(iid!) ? { status: 200, body: mr(iid!) } : { status: 404, body: { message: '404 Not found' } },
    },
    {
      method: 'PUT',
      pattern: new RegExp(`${project}/merge_requests/(\\d+)$`),
      handle: (request, [iid]) => {
        const found = mr(iid!);
        if (!found) return { status: 404, body: { message: '404 Not found' } };
        const body = request.body ?? {};
        if (body.state_event !== undefined && body.state_event !== 'close' && body.state_event !== 'reopen')
          return { status: 400, body: { message: 'state_event does not have a valid value' } };
        if (body.title !== undefined) found.title = String(body.title);
        if (body.description !== undefined) found.description = String(body.description);
        if (body.state_event === 'close') found.state = 'closed';
        return { status: 200, body: found };
      },
    },
    {
      method: 'POST',
      pattern: new RegExp(`${project}/merge_requests/(\\d+)/notes$`),
      handle: (request, [iid]) => {
        const problem = !mr(iid!) ? 'no such merge request' : need(request.body, { body: 'string' });
        if (problem) return { status: 400, body: { message: problem } };
        state.notes.push({ iid: Number(iid), body: request.body!.body as string });
        return { status: 201, body: { id: state.notes.length } };
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`${project}/merge_requests/(\\d+)/notes$`),
      handle: (request, [iid]) => {
        if (!mr(iid!)) return { status: 404, body: { message: '404 Not found' } };
        const perPage = Math.min(Number(request.query.get('per_page') ?? 20), 100);
        const page = Number(request.query.get('page') ?? 1);
        if (!Number.isInteger(perPage) || perPage < 1 || !Number.isInteger(page) || page < 1)
          return { status: 400, body: { error: 'per_page or page is invalid' } };
        const all = state.notes
          .map((note, index) => ({ id: index + 1, ...note }))
          .filter((note) => note.iid === Number(iid))
          .map(({ id, body, system }) => ({ id, body, system: Boolean(system), noteable_iid: Number(iid) }));
        return { status: 200, body: all.slice((page - 1) * perPage, page * perPage) };
      },
    },
    {
      method: 'PUT',
      pattern: new RegExp(`${project}/merge_requests/(\\d+)/notes/(\\d+)$`),
      handle: (request, [iid, id]) => {
        const note = state.notes[Number(id) - 1];
        if (!mr(iid!) || !note || note.iid !== Number(iid)) return { status: 404, body: { message: '404 Not found' } };
        const problem = need(request.body, { body: 'string' });
        if (problem) return { status: 400, body: { message: problem } };
        if (note.system) return { status: 403, body: { message: '403 Forbidden' } };
        note.body = request.body!.body as string;
        return { status: 200, body: { id: Number(id), body: note.body } };
      },
    },
    {
      method: 'PUT',
      pattern: new RegExp(`${project}/merge_requests/(\\d+)/merge$`),
      handle: (request, [iid]) => {
        const found = mr(iid!);
        if (!found) return { status: 404, body: { message: '404 Not found' } };
        const body = request.body ?? {};
        if (body.auto_merge !== true && body.merge_when_pipeline_succeeds !== true)
          return {
            status: 400,
            body: { message: 'auto_merge or merge_when_pipeline_succeeds must be true for this call' },
          };
        if (typeof body.sha !== 'string' || body.sha !== state.branchHead(found.source_branch))
          return { status: 409, body: { message: 'SHA does not match HEAD of source branch' } };
        // Without "pipelines must succeed" GitLab merges at once: the case mvnx must never reach.
        if (!state.settings.only_allow_merge_if_pipeline_succeeds) found.state = 'merged';
        else found.auto_merge = true;
        return { status: 200, body: found };
      },
    },
  ];
  return serve(routes, (request) =>
    request.headers['private-token'] === state.token
      ? undefined
      : `PRIVATE-TOKEN header ${String(request.headers['private-token'])}`,
  );
}
