/**
 * Posting a verified fix where reviewers work, through the real clients (@octokit/rest,
 * fetch) against loopback servers that check every request against the documented
 * GitHub and GitLab endpoints (test/helpers/fake-forge.ts).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeSet } from '../../src/patch/types.js';
import { gitBlobSha } from '../../src/report/review/plan.js';
import { postReview } from '../../src/report/review/post.js';
import { REVIEW_MARKER, SUGGESTION_MARKER } from '../../src/report/review/suggestions.js';
import type { RunRecord } from '../../src/report/run-record.js';
import {
  commitGithubSuggestion,
  startGithubApi,
  startGitlabApi,
  type FakeForge,
  type GithubState,
  type GitlabState,
} from '../helpers/fake-forge.js';
import { attempt, diagnostic, record } from './stats-support.js';

const FILE = 'src/main/java/com/acme/calc/Calculator.java';
const BEFORE = [
  'package com.acme.calc;',
  '',
  'public class Calculator {',
  '    public int multiply(int a, int b) {',
  '        int result = a * b',
  '        return result;',
  '    }',
  '',
  '    public int twice(int a) {',
  '        return a + a',
  '    }',
  '}',
  '',
].join('\n');
const AFTER = BEFORE.replace('int result = a * b\n', 'int result = a * b;\n').replace(
  'return a + a\n',
  'return a + a;\n',
);
/** The pull request adds the class: every line is on the diff. */
const PR_PATCH = `@@ -0,0 +1,12 @@\n${BEFORE.trimEnd()
  .split('\n')
  .map((line) => `+${line}`)
  .join('\n')}`;
const TOKEN = 'ghs_0123456789abcdefghijklmnopqrstuvwxyzAB';

const fix: ChangeSet = { files: [{ path: FILE, before: BEFORE, after: AFTER }] };
const fixedRun = (overrides: Partial<RunRecord> = {}): RunRecord =>
  record({
    runId: '20240601-100000Z-abc123',
    startedAt: '2024-06-01T10:00:00.000Z',
    tier: 'assist',
    status: 'fixed',
    stopReason: 'fixed',
    action: 'suggest',
    risk: 'medium',
    diagnostics: [diagnostic('compile', "';' expected", FILE)],
    attempts: [{ ...attempt(1, 'verified', 'fixer'), fixer: 'missing-semicolon', filesChanged: [FILE] }],
    mavenArgs: ['-B', 'verify', '-Ddb.password=hunter2secret'],
    ...overrides,
  });

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function githubEvent(pull: object | undefined): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mvnx-gh-event-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'event.json');
  await writeFile(
    file,
    JSON.stringify(pull ? { action: 'synchronize', pull_request: pull } : { ref: 'refs/heads/main' }),
  );
  return file;
}

async function github(
  state: Partial<GithubState> = {},
): Promise<{ api: FakeForge; state: GithubState; env: NodeJS.ProcessEnv }> {
  const full: GithubState = {
    owner: 'acme',
    repo: 'billing',
    pullNumber: 7,
    token: TOKEN,
    files: [{ filename: FILE, sha: gitBlobSha(BEFORE), patch: PR_PATCH, status: 'added' }],
    reviews: [],
    comments: [],
    ...state,
  };
  const api = await startGithubApi(full);
  cleanups.push(api.close);
  const env = {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/billing',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: await githubEvent({ number: 7, head: { sha: 'headsha1' } }),
    GITHUB_API_URL: api.url,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: '99',
    GITHUB_TOKEN: TOKEN,
  };
  return { api, state: full, env };
}

const post = (env: NodeJS.ProcessEnv, run = fixedRun(), withFix: ChangeSet | undefined = fix) =>
  postReview({
    record: run,
    env,
    gitlabTokenEnv: 'MVNX_GITLAB_TOKEN',
    userAgent: 'mvnx/0.1.0',
    ...(withFix ? { fix: withFix } : {}),
  });

describe('GitHub pull request review', () => {
  it('creates one review whose comments carry suggestion blocks on the changed lines, with the why and the run record link', async () => {
    const { api, state, env } = await github();
    const outcome = await post(env);

    expect(api.failures).toEqual([]);
    expect(outcome).toMatchObject({
      posted: true,
      platform: 'github',
      message: 'posted a review with 2 suggestion(s) on pull request #7',
    });
    const create = api.requests.find((request) => request.method === 'POST');
    expect(create?.path).toBe('/repos/acme/billing/pulls/7/reviews');
    expect(create?.body).toMatchObject({ commit_id: 'headsha1', event: 'COMMENT' });
    const comments = create?.body?.comments as { path: string; line: number; side: string; body: string }[];
    expect(comments.map(({ path: file, line, side }) => ({ file, line, side }))).toEqual([
      { file: FILE, line: 5, side: 'RIGHT' },
      { file: FILE, line: 10, side: 'RIGHT' },
    ]);
    expect(comments[0]!.body).toContain(`${SUGGESTION_MARKER}`);
    expect(comments[0]!.body).toContain('```suggestion\n        int result = a * b;\n```');
    const body = create?.body?.body as string;
    expect(body).toContain(REVIEW_MARKER);
    expect(body).toContain('quick-fix `missing-semicolon`');
    expect(body).toContain(
      'https://github.example/acme/billing/actions/runs/99 (artifact mvnx-runs, .mvnx/runs/20240601-100000Z-abc123/run.json)',
    );
    // A Maven argument that carries a password never reaches the pull request.
    expect(body).not.toContain('hunter2secret');
    expect(state.reviews).toHaveLength(1);
  });

  it('updates the same review on the next run: edits comments in place, adds new ones, deletes stale ones', async () => {
    const { api, state, env } = await github();
    await post(env);
    const reviewId = state.reviews[0]!.id;
    const kept = state.comments.find((comment) => comment.line === 5)!;
    // The next run's fix touches only line 10 and adds a line after line 6.
    const next: ChangeSet = {
      files: [
        {
          path: FILE,
          before: BEFORE,
          after: BEFORE.replace('return a + a\n', 'return a + a;\n').replace(
            '        return result;\n',
            '        return result;\n        // checked\n',
          ),
        },
      ],
    };
    api.requests.length = 0;

    const outcome = await post(env, fixedRun({ runId: '20240602-100000Z-def456' }), next);

    expect(api.failures).toEqual([]);
    expect(outcome.message).toBe('updated the mvnx review on pull request #7 (2 suggestion(s))');
    expect(state.reviews).toHaveLength(1);
    expect(api.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /repos/acme/billing/pulls/7/reviews',
      'GET /repos/acme/billing/pulls/7/comments',
      'GET /repos/acme/billing/pulls/7/files',
      `PUT /repos/acme/billing/pulls/7/reviews/${reviewId}`,
      'POST /repos/acme/billing/pulls/7/comments',
      expect.stringMatching(/^PATCH \/repos\/acme\/billing\/pulls\/comments\/\d+$/),
      `DELETE /repos/acme/billing/pulls/comments/${kept.id}`,
    ]);
    expect(state.reviews[0]!.body).toContain('20240602-100000Z-def456');
    expect(state.comments.map((comment) => comment.line).sort()).toEqual([10, 6]);
    expect(state.comments.find((comment) => comment.line === 6)!.body).toContain(
      '        return result;\n        // checked\n```',
    );
  });

  it('keeps the patch in the review body when the pull request head differs from the built file', async () => {
    const { api, env } = await github({
      files: [{ filename: FILE, sha: gitBlobSha(`${BEFORE}// changed on the branch\n`), patch: PR_PATCH }],
    });
    const outcome = await post(env);
    expect(api.failures).toEqual([]);
    expect(outcome.message).toBe('posted a review with 0 suggestion(s) on pull request #7');
    const create = api.requests.find((request) => request.method === 'POST')!;
    expect(create.body?.comments).toEqual([]);
    expect(create.body?.body).toContain('the pull request head differs from the built file');
    expect(create.body?.body).toContain('+        int result = a * b;');
  });

  it('puts inline only the suggestions on lines the pull request diff shows; the rest go into the review body', async () => {
    // The pull request only added line 5; GitHub refuses (422) a comment on any line its diff does not show.
    const partial = [
      '@@ -3,4 +3,5 @@',
      ' public class Calculator {',
      '     public int multiply(int a, int b) {',
      '+        int result = a * b',
      '         return result;',
      '     }',
    ].join('\n');
    const { api, state, env } = await github({
      files: [{ filename: FILE, sha: gitBlobSha(BEFORE), patch: partial, status: 'modified' }],
    });

    const outcome = await post(env);

    expect(api.failures).toEqual([]);
    expect(outcome).toMatchObject({ posted: true, message: 'posted a review with 1 suggestion(s) on pull request #7' });
    expect(state.comments.map((comment) => comment.line)).toEqual([5]);
    expect(state.reviews[0]!.body).toContain(`${FILE}:10: outside the pull request's diff`);
    expect(state.reviews[0]!.body).toContain('+        return a + a;');
  });

  it('a multi-line suggestion spans its lines, so "Commit suggestion" writes exactly the verified fix', async () => {
    const wide = BEFORE.replace(
      '        int result = a * b\n        return result;\n',
      '        long wide = (long) a * b;\n        return Math.toIntExact(wide);\n',
    );
    const { api, state, env } = await github();

    await post(env, fixedRun(), { files: [{ path: FILE, before: BEFORE, after: wide }] });

    expect(api.failures).toEqual([]);
    expect(state.comments).toHaveLength(1);
    expect(state.comments[0]).toMatchObject({ start_line: 5, line: 6, side: 'RIGHT' });
    const create = api.requests.find((request) => request.method === 'POST')!;
    expect((create.body?.comments as Record<string, unknown>[])[0]).toMatchObject({ start_side: 'RIGHT' });
    expect(commitGithubSuggestion(BEFORE, state.comments[0]!)).toBe(wide);
  });

  it('every suggestion of a fix, committed on GitHub, gives the fixed file', async () => {
    const { state, env } = await github();
    await post(env);
    const committed = [...state.comments]
      .sort((a, b) => b.line - a.line)
      .reduce((text, comment) => commitGithubSuggestion(text, comment), BEFORE);
    expect(committed).toBe(AFTER);
  });

  it.each([
    [
      'a line the diff does not show',
      { line: 10, side: 'RIGHT' },
      'pull_request_review_thread.line must be part of the diff',
    ],
    [
      'a start after its end',
      { start_line: 6, start_side: 'RIGHT', line: 5, side: 'RIGHT' },
      'pull_request_review_thread.start_line must precede the end line',
    ],
    [
      'a start in another hunk',
      { start_line: 1, start_side: 'RIGHT', line: 5, side: 'RIGHT' },
      'pull_request_review_thread.start_line must be part of the same hunk as the line',
    ],
    [
      'the old side, where line 7 is not shown',
      { line: 7, side: 'LEFT' },
      'pull_request_review_thread.line must be part of the diff',
    ],
    [
      'a start side without a start line',
      { line: 5, side: 'RIGHT', start_side: 'RIGHT' },
      'start_side must go with start_line',
    ],
  ])('the loopback GitHub refuses a review comment on %s, as GitHub does', async (_what, place, message) => {
    const partial = [
      '@@ -1,1 +1,1 @@',
      ' package com.acme.calc;',
      '@@ -3,4 +3,5 @@',
      ' public class Calculator {',
      '     public int multiply(int a, int b) {',
      '+        int result = a * b',
      '         return result;',
      '     }',
    ].join('\n');
    const { api } = await github({
      files: [{ filename: FILE, sha: gitBlobSha(BEFORE), patch: partial, status: 'modified' }],
    });
    const response = await fetch(`${api.url}/repos/acme/billing/pulls/7/comments`, {
      method: 'POST',
      headers: {
        authorization: `token ${TOKEN}`,
        accept: 'application/vnd.github+json',
        'user-agent': 'mvnx/test',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ commit_id: 'headsha1', path: FILE, body: 'x', ...place }),
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { message: string }).message).toBe(message);
  });

  it('says why nothing was posted: no pull request, no token, not CI', async () => {
    const { api, env } = await github();
    const push = { ...env, GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: await githubEvent(undefined) };
    expect(await post(push)).toEqual({
      posted: false,
      message: 'not posted: not a pull request build (event push has no pull_request)',
    });
    const { GITHUB_TOKEN: _token, ...noToken } = env;
    expect((await post(noToken)).message).toMatch(/^not posted: no GITHUB_TOKEN in the environment/);
    expect(await post({ CI: 'true' })).toEqual({
      posted: false,
      message: 'not posted: not a GitHub Actions or GitLab CI job',
    });
    expect(api.requests).toEqual([]);
  });

  it('turns an API refusal into one line without the token', async () => {
    const { env } = await github();
    const outcome = await post({ ...env, GITHUB_TOKEN: 'ghs_wrongwrongwrongwrongwrongwrongwrong12' });
    expect(outcome.posted).toBe(false);
    expect(outcome.message).toMatch(/^not posted: GitHub answered 401: Bad credentials/);
    expect(outcome.message).not.toContain('ghs_wrong');
  });

  it('after a run without a fix, only updates an earlier mvnx review and removes its stale suggestions', async () => {
    const { api, state, env } = await github();
    const unfixed = fixedRun({ status: 'unfixed', stopReason: 'budget-exhausted', attempts: [] });
    expect((await post(env, unfixed, undefined)).message).toBe(
      'no verified fix and no earlier mvnx review: nothing posted',
    );
    expect(api.requests.filter((request) => request.method !== 'GET')).toEqual([]);
    await post(env);
    const outcome = await post(env, { ...unfixed, runId: 'later' }, undefined);
    expect(api.failures).toEqual([]);
    expect(outcome.message).toBe('updated the mvnx review on pull request #7: no verified fix this time');
    expect(state.reviews[0]!.body).toContain('the latest run (later) found no verified fix (budget-exhausted)');
    expect(state.comments).toEqual([]);
  });
});

describe('GitLab merge request suggestions', () => {
  const GL_TOKEN = 'glpat-abcdefghijklmnopqrstuvwx';
  async function gitlab(state: Partial<GitlabState> = {}) {
    const full: GitlabState = {
      projectId: '42',
      iid: 3,
      token: GL_TOKEN,
      diffRefs: { base_sha: 'base1', head_sha: 'head1', start_sha: 'start1' },
      // The merge request changed line 10 only; lines 7-12 are on the diff, 5 is not.
      diffs: [
        {
          old_path: FILE,
          new_path: FILE,
          diff: '@@ -7,6 +7,6 @@ public class Calculator {\n     }\n \n     public int twice(int a) {\n-        return a * 2\n+        return a + a\n     }\n }\n',
        },
      ],
      files: { [FILE]: BEFORE },
      discussions: [{ id: 'human', notes: [{ id: 1, body: 'looks good' }] }],
      pageSize: 1,
      ...state,
    };
    const api = await startGitlabApi(full);
    cleanups.push(api.close);
    const env = {
      CI: 'true',
      GITLAB_CI: 'true',
      CI_MERGE_REQUEST_IID: '3',
      CI_PROJECT_ID: '42',
      CI_API_V4_URL: `${api.url}/api/v4`,
      CI_JOB_URL: 'https://gitlab.example/acme/billing/-/jobs/5',
      MVNX_GITLAB_TOKEN: GL_TOKEN,
    };
    return { api, state: full, env };
  }

  it('posts a summary thread and a diff thread with a suggestion where the diff allows, the rest as a patch in the summary', async () => {
    const { api, state, env } = await gitlab();
    const outcome = await post(env);

    expect(api.failures).toEqual([]);
    expect(outcome).toMatchObject({
      posted: true,
      platform: 'gitlab',
      message: 'posted 1 suggestion(s) on merge request !3',
    });
    const posts = api.requests.filter((request) => request.method === 'POST');
    expect(posts.map((request) => request.path)).toEqual([
      '/api/v4/projects/42/merge_requests/3/discussions',
      '/api/v4/projects/42/merge_requests/3/discussions',
    ]);
    expect(posts[0]!.body?.position).toBeUndefined();
    expect(posts[0]!.body?.body).toContain(REVIEW_MARKER);
    expect(posts[0]!.body?.body).toContain('Calculator.java:5: outside the merge request');
    expect(posts[0]!.body?.body).toContain(
      'https://gitlab.example/acme/billing/-/jobs/5/artifacts/file/.mvnx/runs/20240601-100000Z-abc123/run.json',
    );
    // Line 10 was added by the merge request: new_line only, with the diff_refs shas.
    expect(posts[1]!.body?.position).toEqual({
      position_type: 'text',
      base_sha: 'base1',
      start_sha: 'start1',
      head_sha: 'head1',
      old_path: FILE,
      new_path: FILE,
      new_line: 10,
    });
    expect(posts[1]!.body?.body).toContain('```suggestion:-0+0\n        return a + a;\n```');
    // The raw file was read at the head commit, to check the lines still mean what the fix saw.
    expect(
      api.requests.some(
        (request) =>
          request.path === `/api/v4/projects/42/repository/files/${encodeURIComponent(FILE)}/raw` &&
          request.query.get('ref') === 'head1',
      ),
    ).toBe(true);
    expect(state.discussions).toHaveLength(3);
  });

  it('names an unchanged line by old_line and new_line, and updates its own notes on the next run', async () => {
    const { api, state, env } = await gitlab();
    await post(env);
    // Line 7 is an unchanged line of the merge request's diff; line 10 gets the same suggestion again.
    const next: ChangeSet = {
      files: [
        {
          path: FILE,
          before: BEFORE,
          after: BEFORE.replace('    }\n\n    public int twice', '    } // multiply\n\n    public int twice').replace(
            'return a + a\n',
            'return a + a;\n',
          ),
        },
      ],
    };
    api.requests.length = 0;

    const outcome = await post(env, fixedRun({ runId: 'second' }), next);

    expect(api.failures).toEqual([]);
    expect(outcome.message).toBe('updated 2 suggestion(s) on merge request !3');
    const summaryPut = api.requests.find(
      (request) => request.method === 'PUT' && String(request.body?.body).includes(REVIEW_MARKER),
    );
    expect(summaryPut?.body?.body).toContain('second');
    const newThread = api.requests.find((request) => request.method === 'POST')!;
    expect(newThread.body?.position).toMatchObject({ new_line: 7, old_line: 7 });
    expect(api.requests.filter((request) => request.method === 'DELETE')).toEqual([]);
    expect(
      state.discussions.filter((discussion) => discussion.notes.some((note) => note.body.includes(SUGGESTION_MARKER))),
    ).toHaveLength(2);
    expect(state.discussions.find((discussion) => discussion.id === 'human')?.notes[0]!.body).toBe('looks good');
  });

  it('without the token variable named in config, posts nothing and says which variable', async () => {
    const { api, env } = await gitlab();
    const { MVNX_GITLAB_TOKEN: _token, ...rest } = env;
    expect(
      (
        await postReview({
          record: fixedRun(),
          fix,
          env: { ...rest, TEAM_TOKEN: GL_TOKEN },
          gitlabTokenEnv: 'GL_API_TOKEN',
          userAgent: 'mvnx/0',
        })
      ).message,
    ).toMatch(/^not posted: no GL_API_TOKEN in the environment/);
    expect(
      (
        await postReview({
          record: fixedRun(),
          fix,
          env: { ...rest, GL_API_TOKEN: GL_TOKEN },
          gitlabTokenEnv: 'GL_API_TOKEN',
          userAgent: 'mvnx/0',
        })
      ).posted,
    ).toBe(true);
    const { CI_MERGE_REQUEST_IID: _iid, ...branch } = env;
    expect((await post(branch)).message).toBe(
      'not posted: not a merge request pipeline (CI_MERGE_REQUEST_IID is not set)',
    );
    expect(api.failures).toEqual([]);
  });
});
