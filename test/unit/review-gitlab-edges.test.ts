/**
 * GitLab suggestions and the GitHub review at their edges, against the loopback forges
 * (test/helpers/fake-forge.ts): refusals in one line, a run without a fix, files the merge
 * request does not change or whose head differs, a note already up to date, a review
 * found again only by its marker. Mutation testing (mutation/slices/review.config.mjs) found these paths unexercised.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeSet } from '../../src/patch/types.js';
import { gitBlobSha } from '../../src/report/review/plan.js';
import { postReview } from '../../src/report/review/post.js';
import { REVIEW_MARKER, SUGGESTION_MARKER } from '../../src/report/review/suggestions.js';
import type { RunRecord } from '../../src/report/run-record.js';
import {
  startGithubApi,
  startGitlabApi,
  type FakeForge,
  type GithubState,
  type GitlabState,
} from '../helpers/fake-forge.js';
import { deadServerUrl } from '../helpers/mock-server.js';
import { attempt, diagnostic, record } from './stats-support.js';

const FILE = 'src/main/java/com/acme/calc/Calculator.java';
const OTHER = 'src/main/java/com/acme/calc/Other.java';
const BEFORE = [
  'package com.acme.calc;',
  '',
  'public class Calculator {',
  '    public int twice(int a) {',
  '        return a + a',
  '    }',
  '}',
  '',
].join('\n');
const AFTER = BEFORE.replace('return a + a\n', 'return a + a;\n');
const OTHER_BEFORE = 'class Other {\n    int x = 1\n}\n';
const fix: ChangeSet = { files: [{ path: FILE, before: BEFORE, after: AFTER }] };
const GL_TOKEN = 'glpat-abcdefghijklmnopqrstuvwx';

const run = (overrides: Partial<RunRecord> = {}): RunRecord =>
  record({
    runId: 'r-1',
    startedAt: '2024-06-01T10:00:00.000Z',
    tier: 'assist',
    status: 'fixed',
    stopReason: 'fixed',
    diagnostics: [diagnostic('compile', "';' expected", FILE)],
    attempts: [{ ...attempt(1, 'verified', 'fixer'), fixer: 'missing-semicolon', filesChanged: [FILE] }],
    ...overrides,
  });
const unfixed = run({ status: 'unfixed', stopReason: 'budget-exhausted', attempts: [] });

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function gitlab(state: Partial<GitlabState> = {}) {
  const full: GitlabState = {
    projectId: 'acme/billing',
    iid: 3,
    token: GL_TOKEN,
    diffRefs: { base_sha: 'base1', head_sha: 'head1', start_sha: 'start1' },
    diffs: [
      {
        old_path: FILE,
        new_path: FILE,
        diff: `@@ -1,7 +1,7 @@\n${BEFORE.trimEnd()
          .split('\n')
          .map((line) => ` ${line}`)
          .join('\n')}`,
      },
    ],
    files: { [FILE]: BEFORE },
    discussions: [],
    ...state,
  };
  const api = await startGitlabApi(full);
  cleanups.push(api.close);
  const env = {
    GITLAB_CI: 'true',
    CI_MERGE_REQUEST_IID: '3',
    CI_PROJECT_ID: 'acme/billing',
    CI_API_V4_URL: `${api.url}/api/v4`,
    MVNX_GITLAB_TOKEN: GL_TOKEN,
  };
  return { api, state: full, env };
}

const post = (env: NodeJS.ProcessEnv, record = run(), withFix: ChangeSet | undefined = fix, prefix?: string) =>
  postReview({
    record,
    env,
    gitlabTokenEnv: 'MVNX_GITLAB_TOKEN',
    userAgent: 'mvnx/0.1.0',
    ...(withFix ? { fix: withFix } : {}),
    ...(prefix ? { prefix } : {}),
  });
const summaryOf = (state: GitlabState) =>
  state.discussions.flatMap((d) => d.notes).find((note) => note.body.includes(REVIEW_MARKER))?.body ?? '';

describe('GitLab: the edges', () => {
  it("a refusal becomes one line naming the status, the request and GitLab's message, without the token", async () => {
    const { api, env } = await gitlab({ token: 'glpat-somebodyelsesTokenXYZ0' });
    expect(await post(env)).toEqual({
      posted: false,
      platform: 'gitlab',
      message:
        'not posted: GitLab answered 401: GitLab answered 401 to GET /merge_requests/3/discussions: Bad credentials',
    });
    expect(api.requests[0]!.path).toBe('/api/v4/projects/acme%2Fbilling/merge_requests/3/discussions');
    expect(api.requests[0]!.headers['content-type']).toBeUndefined();
  });

  it('an unreachable API: one line, with no status to name', async () => {
    const { env } = await gitlab();
    const outcome = await post({ ...env, CI_API_V4_URL: `${await deadServerUrl()}/api/v4` });
    expect(outcome).toMatchObject({ posted: false, platform: 'gitlab' });
    expect(outcome.message).toMatch(/^not posted: (?!GitLab answered)\S/);
  });

  it('a run without a fix: nothing when there was no earlier thread; else the thread says so and the suggestions go', async () => {
    const { api, state, env } = await gitlab();
    expect(await post(env, unfixed, undefined)).toEqual({
      posted: true,
      platform: 'gitlab',
      message: 'no verified fix and no earlier mvnx thread: nothing posted',
    });
    expect(api.requests.filter((request) => request.method !== 'GET')).toEqual([]);
    await post({ ...env, CI_JOB_URL: 'https://gitlab.example/j/9' });
    expect(
      state.discussions.flatMap((d) => d.notes).filter((note) => note.body.includes(SUGGESTION_MARKER)),
    ).toHaveLength(1);
    const outcome = await post(
      { ...env, CI_JOB_URL: 'https://gitlab.example/j/9' },
      { ...unfixed, runId: 'r-2' },
      undefined,
    );
    expect(api.failures).toEqual([]);
    expect(outcome.message).toBe('updated the mvnx thread on merge request !3: no verified fix this time');
    expect(summaryOf(state)).toBe(
      '<!-- mvnx:review -->\n**mvnx:** the latest run (r-2) found no verified fix (budget-exhausted); the earlier suggestions were removed.\n\nRun record: https://gitlab.example/j/9/artifacts/file/.mvnx/runs/r-2/run.json',
    );
    expect(state.discussions.flatMap((d) => d.notes).filter((note) => note.body.includes(SUGGESTION_MARKER))).toEqual(
      [],
    );
  });

  it('files the merge request does not change, or whose head differs, go into the summary as a patch; the merge request link comes back', async () => {
    const both: ChangeSet = {
      files: [...fix.files, { path: OTHER, before: OTHER_BEFORE, after: OTHER_BEFORE.replace('= 1\n', '= 1;\n') }],
    };
    const { api, state, env } = await gitlab({ files: { [FILE]: `${BEFORE}// changed on the branch since\n` } });
    const outcome = await post(env, run(), both);
    expect(api.failures).toEqual([]);
    expect(outcome).toEqual({
      posted: true,
      platform: 'gitlab',
      message: 'posted 0 suggestion(s) on merge request !3',
      url: 'https://gitlab.example/mr/3',
    });
    expect(summaryOf(state)).toContain(
      `Not placed as a suggestion (${FILE}: the merge request head differs from the built file; ${OTHER}: not changed by this merge request)`,
    );
    expect(summaryOf(state)).not.toContain('Run record:');
  });

  it('a note already saying the same is left alone; one no longer wanted is deleted', async () => {
    const { api, state, env } = await gitlab();
    await post(env);
    const stale = {
      id: 'old',
      notes: [
        {
          id: 77,
          body: `${SUGGESTION_MARKER}\nold\n\n\`\`\`suggestion:-0+0\nx\n\`\`\``,
          position: { new_path: FILE, new_line: 2 },
        },
      ],
    };
    state.discussions.push(stale);
    api.requests.length = 0;
    const outcome = await post(env);
    expect(api.failures).toEqual([]);
    expect(outcome.message).toBe('updated 1 suggestion(s) on merge request !3');
    const writes = api.requests.filter((request) => request.method !== 'GET');
    expect(
      writes.map((request) => `${request.method} ${request.path.replace('/api/v4/projects/acme%2Fbilling', '')}`),
    ).toEqual([
      `PUT /merge_requests/3/discussions/${state.discussions[0]!.id}/notes/${state.discussions[0]!.notes[0]!.id}`,
      'DELETE /merge_requests/3/discussions/old/notes/77',
    ]);
  });

  it('a project below the repository root: paths in the merge request carry the prefix', async () => {
    const inRepo = `app/${FILE}`;
    const { api, state, env } = await gitlab({
      diffs: [
        {
          old_path: inRepo,
          new_path: inRepo,
          diff: `@@ -1,7 +1,7 @@\n${BEFORE.trimEnd()
            .split('\n')
            .map((line) => ` ${line}`)
            .join('\n')}`,
        },
      ],
      files: { [inRepo]: BEFORE },
    });
    expect((await post(env, run(), fix, 'app')).message).toBe('posted 1 suggestion(s) on merge request !3');
    expect(api.failures).toEqual([]);
    expect(
      state.discussions.flatMap((d) => d.notes).find((note) => note.body.includes(SUGGESTION_MARKER))?.position,
    ).toMatchObject({ new_path: inRepo, new_line: 5, old_line: 5 });
  });
});

describe('GitHub: the edges', () => {
  const TOKEN = 'ghs_0123456789abcdefghijklmnopqrstuvwxyzAB';
  async function github(
    state: Partial<GithubState> = {},
  ): Promise<{ api: FakeForge; state: GithubState; env: NodeJS.ProcessEnv }> {
    const full: GithubState = {
      owner: 'acme',
      repo: 'billing',
      pullNumber: 7,
      token: TOKEN,
      files: [
        {
          filename: FILE,
          sha: gitBlobSha(BEFORE),
          patch: `@@ -0,0 +1,7 @@\n${BEFORE.trimEnd()
            .split('\n')
            .map((line) => `+${line}`)
            .join('\n')}`,
          status: 'added',
        },
      ],
      reviews: [],
      comments: [],
      ...state,
    };
    const api = await startGithubApi(full);
    cleanups.push(api.close);
    const env = {
      GITHUB_ACTIONS: 'true',
      GITHUB_REPOSITORY: 'acme/billing',
      GITHUB_API_URL: api.url,
      GITHUB_TOKEN: TOKEN,
    };
    return { api, state: full, env };
  }
  const withEvent = (env: NodeJS.ProcessEnv) => ({
    record: run(),
    env: { ...env, GITHUB_EVENT_PATH: 'event.json' },
    gitlabTokenEnv: 'T',
    userAgent: 'mvnx/0.1.0',
    readEvent: () => JSON.stringify({ pull_request: { number: 7, head: { sha: 'headsha1' } } }),
  });

  it('files the pull request does not change, or changes into other text, are not inline; a file without a patch neither', async () => {
    const both: ChangeSet = {
      files: [...fix.files, { path: OTHER, before: OTHER_BEFORE, after: OTHER_BEFORE.replace('= 1\n', '= 1;\n') }],
    };
    const { api, state, env } = await github({
      files: [{ filename: FILE, sha: gitBlobSha(`${BEFORE}x`), patch: '@@ -0,0 +1 @@\n+x', status: 'modified' }],
    });
    const outcome = await postReview({ ...withEvent(env), fix: both });
    expect(api.failures).toEqual([]);
    expect(outcome.message).toBe('posted a review with 0 suggestion(s) on pull request #7');
    expect(state.reviews[0]!.body).toContain(
      `(${FILE}: the pull request head differs from the built file; ${OTHER}: not changed by this pull request)`,
    );
    const noPatch = await github({ files: [{ filename: FILE, sha: gitBlobSha(BEFORE), status: 'modified' }] });
    await postReview({ ...withEvent(noPatch.env), fix });
    expect(noPatch.state.reviews[0]!.body).toContain(`(${FILE}:5: outside the pull request's diff)`);
  });

  it('a file the fix creates is never a suggestion but is named; the user agent is sent', async () => {
    const { api, state, env } = await github();
    const created: ChangeSet = {
      files: [...fix.files, { path: 'src/main/java/com/acme/calc/New.java', before: null, after: 'class New {}\n' }],
    };
    expect((await postReview({ ...withEvent(env), fix: created })).message).toBe(
      'posted a review with 1 suggestion(s) on pull request #7',
    );
    expect(api.failures).toEqual([]);
    expect(state.reviews[0]!.body).toContain('(src/main/java/com/acme/calc/New.java: created, deleted or renamed)');
    expect(String(api.requests[0]!.headers['user-agent'])).toContain('mvnx/0.1.0');
  });

  it('finds its earlier review by the marker alone, keeps a comment already up to date, and does not touch comments of people', async () => {
    const { api, state, env } = await github({
      reviews: [
        { id: 1, body: null as unknown as string, commit_id: 'headsha0', html_url: 'https://github.example/r/1' },
      ],
    });
    await postReview({ ...withEvent(env), fix });
    expect(state.reviews).toHaveLength(2);
    state.comments.push({
      id: 900,
      pull_request_review_id: 1,
      path: FILE,
      line: 1,
      start_line: null,
      side: 'RIGHT',
      body: 'a person: nice',
      commit_id: 'headsha1',
    });
    api.requests.length = 0;
    const outcome = await postReview({ ...withEvent(env), fix });
    expect(api.failures).toEqual([]);
    expect(outcome.message).toBe('updated the mvnx review on pull request #7 (1 suggestion(s))');
    expect(api.requests.filter((request) => request.method !== 'GET').map((request) => request.method)).toEqual([
      'PUT',
    ]);
    expect(state.comments.map((comment) => comment.id)).toContain(900);
  });
});
