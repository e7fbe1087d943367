/**
 * The pure parts of posting a review, exactly: where a CI job's pull/merge request is
 * (context.ts), which lines a unified diff shows and where a suggestion fits
 * (suggestions.ts), the text of the review, its suggestions and its why (why.ts). Mutation
 * testing (mutation/slices/review.config.mjs) found these only loosely checked through the posts.
 */
import { describe, expect, it } from 'vitest';
import { findReviewTarget } from '../../src/report/review/context.js';
import { fetchWithTimeout, gitBlobSha } from '../../src/report/review/plan.js';
import {
  fitsDiff,
  noFixBody,
  readDiffLines,
  reviewBody,
  samePlace,
  suggestionBody,
  suggestionsOf,
  type Suggestion,
} from '../../src/report/review/suggestions.js';
import { whyParagraph } from '../../src/report/review/why.js';
import { attempt, diagnostic, record } from './stats-support.js';

const noEvent = () => undefined;
const eventOf = (event: object) => () => JSON.stringify(event);
const PULL = { pull_request: { number: 7, head: { sha: 'abc123' } } };
const GITHUB = {
  GITHUB_ACTIONS: 'true',
  GITHUB_REPOSITORY: 'acme/billing',
  GITHUB_EVENT_PATH: '/tmp/event.json',
  GITHUB_TOKEN: 'gh-token',
};
const GITLAB = {
  GITLAB_CI: 'true',
  CI_MERGE_REQUEST_IID: '12',
  CI_PROJECT_ID: '42',
  CI_API_V4_URL: 'https://gitlab.example/api/v4/',
  MVNX_GITLAB_TOKEN: 'gl-token',
};

describe('findReviewTarget: the pull or merge request a CI job builds', () => {
  it('GitHub: owner, repo, pull request, head and token; the API URL without trailing slashes; the run page when there is a run id', () => {
    expect(
      findReviewTarget(
        {
          ...GITHUB,
          GITHUB_API_URL: 'https://ghe.example/api/v3//',
          GITHUB_SERVER_URL: 'https://ghe.example',
          GITHUB_RUN_ID: '99',
        },
        eventOf(PULL),
        'T',
      ),
    ).toEqual({
      target: {
        platform: 'github',
        apiUrl: 'https://ghe.example/api/v3',
        owner: 'acme',
        repo: 'billing',
        pullNumber: 7,
        headSha: 'abc123',
        token: 'gh-token',
        runUrl: 'https://ghe.example/acme/billing/actions/runs/99',
      },
    });
    expect(findReviewTarget(GITHUB, eventOf(PULL), 'T')).toEqual({
      target: {
        platform: 'github',
        apiUrl: 'https://api.github.com',
        owner: 'acme',
        repo: 'billing',
        pullNumber: 7,
        headSha: 'abc123',
        token: 'gh-token',
      },
    });
    expect(findReviewTarget({ ...GITHUB, GITHUB_RUN_ID: '5' }, eventOf(PULL), 'T')).toMatchObject({
      target: { runUrl: 'https://github.com/acme/billing/actions/runs/5' },
    });
  });

  it.each([
    [{ GITHUB_REPOSITORY: undefined }, PULL, 'GITHUB_REPOSITORY is not set'],
    [{ GITHUB_REPOSITORY: 'acme' }, PULL, 'GITHUB_REPOSITORY is not set'],
    [{ GITHUB_REPOSITORY: '/billing' }, PULL, 'GITHUB_REPOSITORY is not set'],
    [{ GITHUB_EVENT_NAME: 'push' }, { ref: 'main' }, 'not a pull request build (event push has no pull_request)'],
    [{}, { pull_request: { number: 7 } }, 'not a pull request build (event unknown has no pull_request)'],
    [{}, { pull_request: { head: { sha: 'abc' } } }, 'not a pull request build (event unknown has no pull_request)'],
    [
      { GITHUB_TOKEN: '' },
      PULL,
      'no GITHUB_TOKEN in the environment (add `GITHUB_TOKEN: ${{ github.token }}` to the step, with permission pull-requests: write)',
    ],
  ])('GitHub, %j: says why not', (env, event, reason) => {
    expect(findReviewTarget({ ...GITHUB, ...env }, eventOf(event), 'T')).toEqual({ reason });
  });

  it('GitHub: no event file is no pull request; an event file that is not JSON says so', () => {
    expect(findReviewTarget({ ...GITHUB, GITHUB_EVENT_PATH: undefined }, eventOf(PULL), 'T')).toEqual({
      reason: 'not a pull request build (event unknown has no pull_request)',
    });
    expect(findReviewTarget(GITHUB, noEvent, 'T')).toEqual({
      reason: 'not a pull request build (event unknown has no pull_request)',
    });
    expect(findReviewTarget(GITHUB, () => '{not json', 'T')).toEqual({
      reason: 'the event file GITHUB_EVENT_PATH (/tmp/event.json) is not JSON',
    });
  });

  it('GitLab: project, merge request, the token named in config, the API URL without trailing slashes, the job page', () => {
    expect(
      findReviewTarget({ ...GITLAB, CI_JOB_URL: 'https://gitlab.example/j/1' }, noEvent, 'MVNX_GITLAB_TOKEN'),
    ).toEqual({
      target: {
        platform: 'gitlab',
        apiUrl: 'https://gitlab.example/api/v4',
        projectId: '42',
        mergeRequestIid: 12,
        token: 'gl-token',
        jobUrl: 'https://gitlab.example/j/1',
      },
    });
    expect(findReviewTarget(GITLAB, noEvent, 'MVNX_GITLAB_TOKEN')).toEqual({
      target: {
        platform: 'gitlab',
        apiUrl: 'https://gitlab.example/api/v4',
        projectId: '42',
        mergeRequestIid: 12,
        token: 'gl-token',
      },
    });
  });

  it.each([
    [{ CI_MERGE_REQUEST_IID: undefined }, 'not a merge request pipeline (CI_MERGE_REQUEST_IID is not set)'],
    [{ CI_MERGE_REQUEST_IID: '0' }, 'not a merge request pipeline (CI_MERGE_REQUEST_IID is not set)'],
    [{ CI_MERGE_REQUEST_IID: '-3' }, 'not a merge request pipeline (CI_MERGE_REQUEST_IID is not set)'],
    [{ CI_MERGE_REQUEST_IID: '1.5' }, 'not a merge request pipeline (CI_MERGE_REQUEST_IID is not set)'],
    [{ CI_PROJECT_ID: undefined }, 'CI_PROJECT_ID or CI_API_V4_URL is not set'],
    [{ CI_API_V4_URL: undefined }, 'CI_PROJECT_ID or CI_API_V4_URL is not set'],
    [
      { MVNX_GITLAB_TOKEN: undefined },
      'no MVNX_GITLAB_TOKEN in the environment (a project access token with scope api, named by review.gitlabTokenEnv)',
    ],
  ])('GitLab, %j: says why not', (env, reason) => {
    expect(findReviewTarget({ ...GITLAB, ...env }, noEvent, 'MVNX_GITLAB_TOKEN')).toEqual({ reason });
  });

  it('outside GitHub Actions and GitLab CI: says so', () => {
    expect(
      findReviewTarget(
        { ...GITHUB, ...GITLAB, GITHUB_ACTIONS: 'false', GITLAB_CI: 'false' },
        eventOf(PULL),
        'MVNX_GITLAB_TOKEN',
      ),
    ).toEqual({ reason: 'not a GitHub Actions or GitLab CI job' });
  });
});

describe('readDiffLines and fitsDiff: which new-side lines a diff shows, hunk by hunk', () => {
  const PATCH = [
    '@@ -3,4 +3,5 @@ class A {',
    ' keep3',
    '-gone4',
    '+new4',
    '+new5',
    ' keep5',
    '\\ No newline at end of file',
    '@@ -20 +21,2 @@',
    ' keep20',
    '+new22',
  ].join('\n');

  it('maps each shown new-side line to its hunk, and context lines to their old-side line', () => {
    const diff = readDiffLines(`diff --git a/A b/A\n+++ b/A\n${PATCH}`);
    expect([...diff.hunkOf]).toEqual([
      [3, 0],
      [4, 0],
      [5, 0],
      [6, 0],
      [21, 1],
      [22, 1],
    ]);
    expect([...diff.oldOf]).toEqual([
      [3, 3],
      [6, 5],
      [21, 20],
    ]);
  });

  it.each([
    [3, 6, true],
    [4, 4, true],
    [21, 22, true],
    [6, 21, false],
    [2, 3, false],
    [6, 7, false],
    [22, 22, true],
    [23, 23, false],
  ])('lines %i..%i fit: %s', (startLine, endLine, fits) => {
    expect(fitsDiff({ path: 'A', startLine, endLine, lines: [] }, readDiffLines(PATCH))).toBe(fits);
  });

  it('no patch (a binary or too large file): nothing fits', () => {
    expect(fitsDiff({ path: 'A', startLine: 1, endLine: 1, lines: [] }, undefined)).toBe(false);
  });
});

describe('suggestionsOf: a change as the lines it replaces', () => {
  const file = new Map([['A.java', ['one', 'two', 'three']]]);
  it('a replacement keeps its range; an insertion anchors on the line before, or at the top on the first line; a deletion suggests nothing', () => {
    expect(
      suggestionsOf(
        [
          { path: 'A.java', startLine: 2, endLine: 3, removed: ['two', 'three'], added: ['2', '3'] },
          { path: 'A.java', startLine: 3, endLine: 3, removed: [], added: ['after two'] },
          { path: 'A.java', startLine: 1, endLine: 1, removed: [], added: ['header'] },
          { path: 'A.java', startLine: 2, endLine: 2, removed: ['two'], added: [] },
          { path: 'B.java', startLine: 1, endLine: 1, removed: [], added: ['new file'] },
        ],
        file,
      ),
    ).toEqual<Suggestion[]>([
      { path: 'A.java', startLine: 2, endLine: 3, lines: ['2', '3'] },
      { path: 'A.java', startLine: 2, endLine: 2, lines: ['two', 'after two'] },
      { path: 'A.java', startLine: 1, endLine: 1, lines: ['header', 'one'] },
      { path: 'A.java', startLine: 2, endLine: 2, lines: [] },
    ]);
  });

  it('an insertion past the known lines anchors on an empty line', () => {
    expect(suggestionsOf([{ path: 'C.java', startLine: 5, endLine: 5, removed: [], added: ['x'] }], file)).toEqual([
      { path: 'C.java', startLine: 4, endLine: 4, lines: ['', 'x'] },
    ]);
  });
});

describe('comment and review bodies', () => {
  const multi: Suggestion = { path: 'A.java', startLine: 4, endLine: 6, lines: ['a', 'b'] };
  it('GitHub: a suggestion block; GitLab: the range above the anchor line; the fence longer than any fence inside', () => {
    expect(suggestionBody(multi, 'github', 'Verified.')).toBe(
      '<!-- mvnx:suggestion -->\nVerified.\n\n```suggestion\na\nb\n```',
    );
    expect(suggestionBody(multi, 'gitlab', 'Verified.')).toBe(
      '<!-- mvnx:suggestion -->\nVerified.\n\n```suggestion:-2+0\na\nb\n```',
    );
    expect(suggestionBody({ ...multi, lines: ['  ````java', 'x', '```'] }, 'github', 'n')).toBe(
      '<!-- mvnx:suggestion -->\nn\n\n`````suggestion\n  ````java\nx\n```\n`````',
    );
    expect(suggestionBody({ ...multi, lines: ['x ```'] }, 'github', 'n')).toBe(
      '<!-- mvnx:suggestion -->\nn\n\n```suggestion\nx ```\n```',
    );
  });

  it('same place: the same file and the same first and last line', () => {
    const place = { path: 'A', startLine: 2, endLine: 4 };
    expect(samePlace(place, { ...place })).toBe(true);
    expect(samePlace(place, { ...place, path: 'B' })).toBe(false);
    expect(samePlace(place, { ...place, startLine: 3 })).toBe(false);
    expect(samePlace(place, { ...place, endLine: 5 })).toBe(false);
  });

  it('the review body: count, why, run link, and the whole patch only when something is not inline', () => {
    const diff = '--- a/A\n+++ b/A\n@@ -1 +1 @@\n-x\n+y\n\n';
    expect(reviewBody({ why: 'Because.', notInline: [], inline: 1, diff })).toBe(
      '<!-- mvnx:review -->\n**mvnx: verified fix** (1 suggestion on the changed lines)\n\nBecause.\n\n_Apply with "Commit suggestion", or locally with `mvnx apply` on the run. This comment is updated by the next mvnx run._',
    );
    expect(
      reviewBody({
        why: 'Because.',
        notInline: ['B: created', 'C: outside'],
        inline: 0,
        diff,
        runLink: 'https://ci/run/1',
      }),
    ).toBe(
      [
        '<!-- mvnx:review -->',
        '**mvnx: verified fix** (0 suggestions on the changed lines)',
        '',
        'Because.',
        '',
        'Run record: https://ci/run/1',
        '',
        'Not placed as a suggestion (B: created; C: outside); the whole verified patch:',
        '',
        '```diff',
        '--- a/A\n+++ b/A\n@@ -1 +1 @@\n-x\n+y',
        '```',
        '',
        '_Apply with "Commit suggestion", or locally with `mvnx apply` on the run. This comment is updated by the next mvnx run._',
      ].join('\n'),
    );
    expect(reviewBody({ why: 'W', notInline: ['B: created'], inline: 2 })).toContain(
      '(2 suggestions on the changed lines)\n\nW\n\n_Apply',
    );
  });

  it('no fix: says which run and why, with the run link when there is one', () => {
    expect(noFixBody('r1', 'budget-exhausted')).toBe(
      '<!-- mvnx:review -->\n**mvnx:** the latest run (r1) found no verified fix (budget-exhausted); the earlier suggestions were removed.',
    );
    expect(noFixBody('r1', 'budget-exhausted', 'https://ci/1')).toBe(
      '<!-- mvnx:review -->\n**mvnx:** the latest run (r1) found no verified fix (budget-exhausted); the earlier suggestions were removed.\n\nRun record: https://ci/1',
    );
  });
});

describe('whyParagraph: what failed, who fixed it, how it was checked', () => {
  const base = {
    runId: 'r',
    startedAt: '2024-06-01T10:00:00.000Z',
    tier: 'assist' as const,
    mavenArgs: ['-B', 'verify'],
  };
  const tail = (command: string) =>
    `and mvnx built the change in a docker sandbox with the network off: the failing tests ran and passed, \`${command}\` passed, and no test that passed before failed, went missing or was weakened. `;

  it('a quick-fix, a failure with file and line, a sandbox', () => {
    const text = whyParagraph(
      record({
        ...base,
        risk: 'low',
        sandbox: { kind: 'docker', isolated: true },
        diagnostics: [{ ...diagnostic('compile', "';' expected", 'src/A.java'), line: 12 }, diagnostic('compile', 'x')],
        attempts: [
          attempt(1, 'rejected'),
          {
            ...attempt(2, 'verified', 'fixer'),
            fixer: 'missing-semicolon',
            filesChanged: ['src/A.java', 'src/B.java'],
          },
        ],
      }),
    );
    expect(text).toBe(
      "Mvnx looked at this commit because the build failed: `src/A.java:12` ';' expected (and 1 more). The deterministic quick-fix `missing-semicolon` changed `src/A.java`, `src/B.java` (attempt 2), " +
        tail('mvn -B verify') +
        'Risk low; the policy tier is assist, so the fix is suggested here rather than applied.',
    );
  });

  it('an agent with the model named, a failing test without a line, no sandbox, no risk', () => {
    const text = whyParagraph(
      record({
        ...base,
        model: { provider: 'ollama', name: 'qwen2.5-coder:7b', host: 'h' },
        sandbox: { kind: 'none', isolated: false },
        diagnostics: [{ ...diagnostic('test', 'expected: <6> but was: <5>', 'src/T.java'), test: 'com.acme.T#adds' }],
        attempts: [{ ...attempt(1, 'verified', 'agent'), filesChanged: ['src/A.java'] }],
      }),
    );
    expect(text).toBe(
      'Mvnx looked at this commit because the build failed: `src/T.java` com.acme.T#adds: expected: <6> but was: <5>. An agent session with qwen2.5-coder:7b changed `src/A.java` (attempt 1), ' +
        'and mvnx built the change in a separate workspace (no sandbox was available): the failing tests ran and passed, `mvn -B verify` passed, and no test that passed before failed, went missing or was weakened. ' +
        'Risk unknown; the policy tier is assist, so the fix is suggested here rather than applied.',
    );
  });

  it('the model without a name, no diagnostics, no verified attempt, no Maven arguments; secrets in them redacted', () => {
    expect(whyParagraph(record({ ...base, mavenArgs: [], diagnostics: [], attempts: [] }))).toBe(
      'Mvnx looked at this commit because the build failed. The code model changed the code (attempt ?), ' +
        'and mvnx built the change in a separate workspace (no sandbox was available): the failing tests ran and passed, `mvn` passed, and no test that passed before failed, went missing or was weakened. ' +
        'Risk unknown; the policy tier is assist, so the fix is suggested here rather than applied.',
    );
    const agent = whyParagraph(
      record({
        ...base,
        mavenArgs: ['-Ddb.password=hunter2secret'],
        diagnostics: [diagnostic('compile', 'x')],
        attempts: [attempt(3, 'verified', 'agent')],
      }),
    );
    expect(agent).toContain(
      'because the build failed: x. An agent session with the model changed `src/main/java/com/acme/Calc.java` (attempt 3)',
    );
    expect(agent).toContain('`mvn -Ddb.password=[REDACTED]');
    expect(agent).not.toContain('hunter2secret');
    expect(
      whyParagraph(
        record({
          ...base,
          model: { provider: 'ollama', name: 'm7', host: 'h' },
          attempts: [attempt(1, 'verified', 'model')],
        }),
      ),
    ).toContain('. The code model m7 changed');
    expect(whyParagraph(record({ ...base, attempts: [attempt(1, 'verified', 'fixer')] }))).toContain(
      '. The deterministic quick-fix `fixer` changed',
    );
  });
});

describe('plan helpers', () => {
  it("gitBlobSha is git's blob id", () => {
    expect(gitBlobSha('')).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    expect(gitBlobSha('hello\n')).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    expect(gitBlobSha('é\n')).toBe(gitBlobSha(Buffer.from('é\n', 'utf8').toString()));
  });

  it('fetchWithTimeout keeps a caller signal and adds a timeout signal otherwise', async () => {
    const seen: (AbortSignal | null | undefined)[] = [];
    const base = (async (_input: unknown, init?: RequestInit) => {
      seen.push(init?.signal);
      return new Response('ok');
    }) as typeof fetch;
    const own = new AbortController().signal;
    await fetchWithTimeout(1000, base)('http://x', { signal: own });
    await fetchWithTimeout(1000, base)('http://x');
    expect(seen[0]).toBe(own);
    expect(seen[1]).toBeInstanceOf(AbortSignal);
    expect(seen[1]).not.toBe(own);
  });
});
