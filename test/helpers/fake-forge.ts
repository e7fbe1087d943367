/**
 * Loopback HTTP servers that speak the parts of the GitHub and GitLab REST APIs mvnx uses,
 * and check every request against the documented endpoint: method, path, auth header,
 * and the JSON body's fields and types. A request that does not fit is answered 404/422
 * as the real API would, and recorded in `failures`, so a test that posts wrongly fails.
 *
 * GitHub (docs.github.com/rest/pulls): GET/POST .../pulls/{n}/reviews, PUT .../reviews/{id},
 * GET/POST .../pulls/{n}/comments, PATCH/DELETE .../pulls/comments/{id}, GET .../pulls/{n}/files.
 * GitLab (docs.gitlab.com/api/discussions, merge_requests, repository_files):
 * GET/POST /projects/:id/merge_requests/:iid/discussions, PUT/DELETE .../notes/:note_id,
 * GET /projects/:id/merge_requests/:iid, GET .../diffs, GET /projects/:id/repository/files/:path/raw.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body?: Record<string, unknown>;
}

/** undefined: not this route after all (a check in front of the others, such as a rate limit, let it pass). */
export type Handler = (
  request: SeenRequest,
  params: string[],
) => { status: number; body?: unknown; headers?: Record<string, string>; raw?: string } | undefined;

export interface Route {
  method: string;
  pattern: RegExp;
  handle: Handler;
}

export interface FakeForge {
  url: string;
  requests: SeenRequest[];
  failures: string[];
  close(): Promise<void>;
}

export async function serve(
  routes: Route[],
  checkAuth: (request: SeenRequest) => string | undefined,
): Promise<FakeForge> {
  const requests: SeenRequest[] = [];
  const failures: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> | undefined;
      if (text) {
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          failures.push(`${req.method} ${url.pathname}: body is not JSON`);
        }
      }
      const seen: SeenRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        ...(body ? { body } : {}),
      };
      requests.push(seen);
      const reply = (status: number, payload?: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(payload === undefined ? '' : JSON.stringify(payload));
      };
      const authProblem = checkAuth(seen);
      if (authProblem) {
        failures.push(`${seen.method} ${seen.path}: ${authProblem}`);
        return reply(401, { message: 'Bad credentials' });
      }
      if (body !== undefined && !String(req.headers['content-type'] ?? '').includes('application/json'))
        failures.push(`${seen.method} ${seen.path}: JSON body without content-type application/json`);
      for (const route of routes) {
        const match = route.method === seen.method ? route.pattern.exec(seen.path) : null;
        if (!match) continue;
        const result = route.handle(seen, match.slice(1).map(decodeURIComponent));
        if (!result) continue;
        if (result.status >= 400) failures.push(`${seen.method} ${seen.path}: ${JSON.stringify(result.body)}`);
        if (result.raw !== undefined) {
          res.writeHead(result.status, { 'content-type': 'text/plain; charset=utf-8' });
          return res.end(result.raw);
        }
        return reply(result.status, result.body, result.headers);
      }
      failures.push(`${seen.method} ${seen.path}: no such endpoint`);
      reply(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failures,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Field checks: each returns the problem, or undefined. */
export const need = (
  body: Record<string, unknown> | undefined,
  fields: Record<string, 'string' | 'number' | 'array' | 'object'>,
): string | undefined => {
  if (!body) return 'no JSON body';
  for (const [field, type] of Object.entries(fields)) {
    const value = body[field];
    const ok =
      type === 'array'
        ? Array.isArray(value)
        : type === 'object'
          ? typeof value === 'object' && value !== null && !Array.isArray(value)
          : typeof value === type;
    if (!ok) return `field ${field} must be ${type}, got ${JSON.stringify(value)}`;
  }
  return undefined;
};

// ---------------------------------------------------------------- GitHub

export interface GithubPullFile {
  filename: string;
  /** git blob id at the pull request head. */
  sha: string;
  patch?: string;
  status?: string;
}

export interface GithubState {
  owner: string;
  repo: string;
  pullNumber: number;
  token: string;
  files: GithubPullFile[];
  reviews: { id: number; body: string; commit_id: string; html_url: string }[];
  comments: {
    id: number;
    pull_request_review_id: number | null;
    path: string;
    line: number;
    start_line: number | null;
    side: string;
    body: string;
    commit_id: string;
  }[];
}

/** The lines a file's patch shows, hunk by hunk: new-side lines (added and context) and old-side lines (deleted and context). */
interface ShownHunk {
  right: Set<number>;
  left: Set<number>;
}

/** Read independently of mvnx's own reader: the server must refuse what GitHub refuses, whatever mvnx believes. */
function shownHunks(patch: string | undefined): ShownHunk[] {
  const hunks: ShownHunk[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const line of (patch ?? '').split('\n')) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (header) {
      hunks.push({ right: new Set(), left: new Set() });
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      continue;
    }
    const hunk = hunks.at(-1);
    if (!hunk || line.startsWith('\\')) continue;
    if (line.startsWith('+')) hunk.right.add(newLine++);
    else if (line.startsWith('-')) hunk.left.add(oldLine++);
    else {
      hunk.right.add(newLine++);
      hunk.left.add(oldLine++);
    }
  }
  return hunks;
}

const sideLines = (hunk: ShownHunk, side: unknown) => (side === 'LEFT' ? hunk.left : hunk.right);

/**
 * GitHub answers 422 for a review comment outside the file's diff, a multi-line comment whose
 * start is not before its end or not in the same hunk, and a side the line is not shown on
 * (docs.github.com/rest/pulls/comments#create-a-review-comment-for-a-pull-request).
 */
function checkGithubComment(comment: Record<string, unknown>, state: GithubState): string | undefined {
  const problem = need(comment, { path: 'string', line: 'number', side: 'string', body: 'string' });
  if (problem) return problem;
  if (comment.side !== 'RIGHT' && comment.side !== 'LEFT') return `side ${String(comment.side)}`;
  const file = state.files.find((candidate) => candidate.filename === comment.path);
  if (!file) return `path ${String(comment.path)} is not in the pull request`;
  const hunks = shownHunks(file.patch);
  const hunk = hunks.find((candidate) => sideLines(candidate, comment.side).has(comment.line as number));
  if (!hunk) return 'pull_request_review_thread.line must be part of the diff';
  if (comment.start_line === undefined)
    return comment.start_side === undefined ? undefined : 'start_side must go with start_line';
  if (typeof comment.start_line !== 'number') return 'start_line must be a number';
  if (comment.start_side !== 'RIGHT' && comment.start_side !== 'LEFT') return 'start_side must go with start_line';
  if (comment.start_line >= (comment.line as number))
    return 'pull_request_review_thread.start_line must precede the end line';
  if (!sideLines(hunk, comment.start_side).has(comment.start_line))
    return 'pull_request_review_thread.start_line must be part of the same hunk as the line';
  return undefined;
}

/**
 * What GitHub's "Commit suggestion" button writes: the comment's ```suggestion block in place
 * of lines start_line (or line, for a one-line comment) to line of the head version.
 */
export function commitGithubSuggestion(
  text: string,
  comment: { line: number; start_line: number | null; body: string },
): string {
  const block = /^(`{3,})suggestion\n([\s\S]*?)\n?\1$/m.exec(comment.body);
  if (!block) throw new Error('the comment carries no suggestion block');
  const lines = text.split('\n');
  const start = comment.start_line ?? comment.line;
  const replacement = block[2] === '' ? [] : block[2]!.split('\n');
  lines.splice(start - 1, comment.line - start + 1, ...replacement);
  return lines.join('\n');
}

export async function startGithubApi(state: GithubState): Promise<FakeForge> {
  const base = `/repos/${state.owner}/${state.repo}`;
  const esc = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pulls = `^${esc(base)}/pulls`;
  let nextId = 1000;
  const routes: Route[] = [
    {
      method: 'GET',
      pattern: new RegExp(`${pulls}/(\\d+)/files$`),
      handle: () => ({ status: 200, body: state.files }),
    },
    {
      method: 'GET',
      pattern: new RegExp(`${pulls}/(\\d+)/reviews$`),
      handle: () => ({
        status: 200,
        body: state.reviews.map((review) => ({
          ...review,
          state: 'COMMENTED',
          user: { login: 'github-actions[bot]' },
        })),
      }),
    },
    {
      method: 'POST',
      pattern: new RegExp(`${pulls}/(\\d+)/reviews$`),
      handle: (request, [number]) => {
        const problem =
          Number(number) !== state.pullNumber
            ? `no pull request ${number}`
            : need(request.body, { commit_id: 'string', body: 'string', event: 'string', comments: 'array' });
        if (problem) return { status: 422, body: { message: problem } };
        if (!['COMMENT', 'APPROVE', 'REQUEST_CHANGES'].includes(request.body!.event as string))
          return { status: 422, body: { message: `event ${String(request.body!.event)}` } };
        for (const comment of request.body!.comments as Record<string, unknown>[]) {
          const commentProblem = checkGithubComment(comment, state);
          if (commentProblem) return { status: 422, body: { message: commentProblem } };
        }
        const id = nextId++;
        const review = {
          id,
          body: request.body!.body as string,
          commit_id: request.body!.commit_id as string,
          html_url: `https://github.example/pull/${number}#review-${id}`,
        };
        state.reviews.push(review);
        for (const comment of request.body!.comments as Record<string, unknown>[]) {
          state.comments.push({
            id: nextId++,
            pull_request_review_id: id,
            path: comment.path as string,
            line: comment.line as number,
            start_line: (comment.start_line as number | undefined) ?? null,
            side: comment.side as string,
            body: comment.body as string,
            commit_id: review.commit_id,
          });
        }
        return { status: 200, body: review };
      },
    },
    {
      method: 'PUT',
      pattern: new RegExp(`${pulls}/(\\d+)/reviews/(\\d+)$`),
      handle: (request, [, id]) => {
        const review = state.reviews.find((candidate) => candidate.id === Number(id));
        const problem = !review ? `no review ${id}` : need(request.body, { body: 'string' });
        if (problem) return { status: review ? 422 : 404, body: { message: problem } };
        review!.body = request.body!.body as string;
        return { status: 200, body: review };
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`${pulls}/(\\d+)/comments$`),
      handle: () => ({ status: 200, body: state.comments }),
    },
    {
      method: 'POST',
      pattern: new RegExp(`${pulls}/(\\d+)/comments$`),
      handle: (request) => {
        const problem = need(request.body, { commit_id: 'string' }) ?? checkGithubComment(request.body!, state);
        if (problem) return { status: 422, body: { message: problem } };
        const body = request.body!;
        const comment = {
          id: nextId++,
          pull_request_review_id: null,
          path: body.path as string,
          line: body.line as number,
          start_line: (body.start_line as number | undefined) ?? null,
          side: body.side as string,
          body: body.body as string,
          commit_id: body.commit_id as string,
        };
        state.comments.push(comment);
        return { status: 201, body: comment };
      },
    },
    {
      method: 'PATCH',
      pattern: new RegExp(`${pulls}/comments/(\\d+)$`),
      handle: (request, [id]) => {
        const comment = state.comments.find((candidate) => candidate.id === Number(id));
        const problem = !comment ? `no comment ${id}` : need(request.body, { body: 'string' });
        if (problem) return { status: comment ? 422 : 404, body: { message: problem } };
        comment!.body = request.body!.body as string;
        return { status: 200, body: comment };
      },
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`${pulls}/comments/(\\d+)$`),
      handle: (_request, [id]) => {
        const index = state.comments.findIndex((candidate) => candidate.id === Number(id));
        if (index < 0) return { status: 404, body: { message: `no comment ${id}` } };
        state.comments.splice(index, 1);
        return { status: 204 };
      },
    },
  ];
  return serve(routes, (request) => {
    if (request.headers.authorization !== `token ${state.token}`)
      return `authorization header ${String(request.headers.authorization)}`;
    if (!String(request.headers.accept ?? '').includes('application/vnd.github'))
      return `accept header ${String(request.headers.accept)}`;
    if (!String(request.headers['user-agent'] ?? '').includes('mvnx/'))
      return `user-agent ${String(request.headers['user-agent'])}`;
    return undefined;
  });
}

// ---------------------------------------------------------------- GitLab

export interface GitlabState {
  projectId: string;
  iid: number;
  token: string;
  diffRefs: { base_sha: string; head_sha: string; start_sha: string };
  diffs: { old_path: string; new_path: string; diff: string }[];
  /** File content at head_sha, by path. */
  files: Record<string, string>;
  discussions: { id: string; notes: { id: number; body: string; position?: Record<string, unknown> | null }[] }[];
  /** Page size the fake uses for lists, to exercise x-next-page. */
  pageSize?: number;
}

export async function startGitlabApi(state: GitlabState): Promise<FakeForge> {
  const project = `^/api/v4/projects/${encodeURIComponent(state.projectId).replace(/%/g, '%')}`;
  const mr = `${project}/merge_requests/(\\d+)`;
  let nextId = 500;
  const page = <T>(items: T[], request: SeenRequest) => {
    const size = state.pageSize ?? 100;
    const current = Number(request.query.get('page') ?? '1');
    const slice = items.slice((current - 1) * size, current * size);
    return {
      status: 200,
      body: slice,
      headers: { 'x-next-page': current * size < items.length ? String(current + 1) : '' },
    };
  };
  const findNote = (discussionId: string, noteId: string) =>
    state.discussions.find((d) => d.id === discussionId)?.notes.find((n) => n.id === Number(noteId));
  const routes: Route[] = [
    {
      method: 'GET',
      pattern: new RegExp(`${mr}$`),
      handle: (_r, [iid]) =>
        Number(iid) === state.iid
          ? {
              status: 200,
              body: { iid: state.iid, web_url: `https://gitlab.example/mr/${iid}`, diff_refs: state.diffRefs },
            }
          : { status: 404, body: { message: '404 Not found' } },
    },
    { method: 'GET', pattern: new RegExp(`${mr}/diffs$`), handle: (request) => page(state.diffs, request) },
    {
      method: 'GET',
      pattern: new RegExp(`${project}/repository/files/([^/]+)/raw$`),
      handle: (request, [file]) =>
        request.query.get('ref') === state.diffRefs.head_sha && state.files[file!] !== undefined
          ? { status: 200, raw: state.files[file!] }
          : { status: 404, body: { message: '404 File Not Found' } },
    },
    { method: 'GET', pattern: new RegExp(`${mr}/discussions$`), handle: (request) => page(state.discussions, request) },
    {
      method: 'POST',
      pattern: new RegExp(`${mr}/discussions$`),
      handle: (request) => {
        const problem = need(request.body, { body: 'string' });
        if (problem) return { status: 400, body: { message: problem } };
        const position = request.body!.position as Record<string, unknown> | undefined;
        if (position) {
          const positionProblem = need(position, {
            base_sha: 'string',
            start_sha: 'string',
            head_sha: 'string',
            position_type: 'string',
            new_path: 'string',
            old_path: 'string',
            new_line: 'number',
          });
          if (positionProblem) return { status: 400, body: { message: `position: ${positionProblem}` } };
          if (position.position_type !== 'text') return { status: 400, body: { message: 'position_type' } };
          if (
            position.head_sha !== state.diffRefs.head_sha ||
            position.base_sha !== state.diffRefs.base_sha ||
            position.start_sha !== state.diffRefs.start_sha
          )
            return { status: 400, body: { message: 'position shas differ from diff_refs' } };
          const diff = state.diffs.find((candidate) => candidate.new_path === position.new_path);
          if (!diff) return { status: 400, body: { message: 'new_path not in the diff' } };
        }
        const discussion = {
          id: `d${nextId++}`,
          notes: [{ id: nextId++, body: request.body!.body as string, position: position ?? null }],
        };
        state.discussions.push(discussion);
        return { status: 201, body: discussion };
      },
    },
    {
      method: 'PUT',
      pattern: new RegExp(`${mr}/discussions/([^/]+)/notes/(\\d+)$`),
      handle: (request, [, discussionId, noteId]) => {
        const note = findNote(discussionId!, noteId!);
        const problem = !note ? 'no such note' : need(request.body, { body: 'string' });
        if (problem) return { status: note ? 400 : 404, body: { message: problem } };
        note!.body = request.body!.body as string;
        return { status: 200, body: note };
      },
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`${mr}/discussions/([^/]+)/notes/(\\d+)$`),
      handle: (_request, [, discussionId, noteId]) => {
        const discussion = state.discussions.find((d) => d.id === discussionId);
        const index = discussion?.notes.findIndex((n) => n.id === Number(noteId)) ?? -1;
        if (!discussion || index < 0) return { status: 404, body: { message: 'no such note' } };
        discussion.notes.splice(index, 1);
        if (discussion.notes.length === 0) state.discussions.splice(state.discussions.indexOf(discussion), 1);
        return { status: 204 };
      },
    },
  ];
  return serve(routes, (request) =>
    request.headers['private-token'] === state.token
      ? undefined
      : `PRIVATE-TOKEN header ${String(request.headers['private-token'])}`,
  );
}
