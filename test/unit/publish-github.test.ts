/**
 * Publishing under tier auto in a simulated GitHub Actions job: real git pushes over HTTP
 * (git http-backend behind basic auth) and the GitHub REST/GraphQL API on loopback.
 */
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/policy/schema.js';
import { publishRun } from '../../src/report/publish/index.js';
import { startGitHttpServer } from '../helpers/git-http-server.js';
import { startGithubPublishApi, type GithubPublishState } from '../helpers/fake-forge-publish.js';
import { BRANCH, FINGERPRINT, fixedRecord, git, makePublishRepo, writeRun } from '../helpers/publish-repo.js';
import { tempDir } from '../helpers/temp-dir.js';

const TOKEN = 'ghs_publishtoken0123456789';

function githubState(overrides: Partial<GithubPublishState> = {}): GithubPublishState {
  return {
    owner: 'acme',
    repo: 'demo',
    token: TOKEN,
    pulls: [],
    comments: [],
    settings: { allow_auto_merge: true, allow_squash_merge: true, allow_merge_commit: true, allow_rebase_merge: false },
    protection: { main: ['build'] },
    rulesets: {},
    ...overrides,
  };
}

async function setup(
  state: GithubPublishState,
  options: { gitPassword?: string; config?: Record<string, unknown> } = {},
) {
  const repo = await makePublishRepo(await tempDir('mvnx-publish-gh-'));
  const gitServer = await startGitHttpServer({
    projectRoot: repo.remoteRoot,
    username: 'x-access-token',
    password: options.gitPassword ?? TOKEN,
  });
  const api = await startGithubPublishApi(state);
  const env = {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/demo',
    GITHUB_SERVER_URL: gitServer.url,
    GITHUB_API_URL: api.url,
    GITHUB_TOKEN: TOKEN,
    GITHUB_REF_NAME: 'main',
    GITHUB_RUN_ID: '77',
    PATH: process.env.PATH,
    HOME: process.env.HOME,
  };
  const policy = configSchema.parse({
    tier: 'auto',
    auto: { maxRisk: 'medium' },
    publish: { merge: 'when-checks-pass' },
    ...options.config,
  }) as Parameters<typeof publishRun>[0]['policy'];
  const waits: number[] = [];
  const publish = async (record = fixedRecord('run-1'), asked = false) => {
    await writeRun(repo.work, record);
    return publishRun({
      projectRoot: repo.work,
      record,
      policy,
      env,
      userAgent: 'mvnx/test',
      asked,
      rateLimit: { sleep: async (ms) => void waits.push(ms) },
    });
  };
  const close = async () => Promise.all([gitServer.close(), api.close()]);
  return { repo, gitServer, api, env, publish, waits, close };
}

describe('publishing on GitHub', () => {
  it('makes one branch, one commit with trailers, one pull request with auto-merge; a second run updates the same request', async () => {
    const state = githubState();
    const { repo, gitServer, api, publish, close } = await setup(state);
    try {
      const first = await publish();
      expect(first.outcome).toMatchObject({
        published: true,
        publication: {
          forge: 'github',
          number: 1,
          branch: BRANCH,
          autoMerge: 'enabled',
          url: 'https://github.example/acme/demo/pull/1',
        },
      });
      expect(await git(repo.bare, 'rev-parse', `${BRANCH}^`)).toBe(repo.mainTip);
      const message = await git(repo.bare, 'log', '-1', '--format=%B', BRANCH);
      expect(message).toContain('Mvnx-Run: run-1');
      expect(message).toContain(`Mvnx-Fingerprint: ${FINGERPRINT}`);
      expect(message).toContain('Mvnx-Risk: low');
      expect(await git(repo.bare, 'diff', '--stat', `${BRANCH}^`, BRANCH)).toContain(
        'src/main/java/demo/Calc.java | 2 +-',
      );
      expect(await git(repo.bare, 'show', `${BRANCH}:src/main/java/demo/Calc.java`)).toContain('return a + b;');
      // The working tree was not used: it still holds the old line.
      expect(await git(repo.work, 'status', '--porcelain', '--untracked-files=no')).toBe('');
      expect(gitServer.authorizations).toContain(`Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`);

      expect(state.pulls).toHaveLength(1);
      const pull = state.pulls[0]!;
      expect(pull).toMatchObject({ head: { ref: BRANCH }, base: { ref: 'main' }, state: 'open', autoMerge: 'SQUASH' });
      for (const part of [
        'expected: <5> but was: <-1>',
        '`src/main/java/demo/Calc.java` +1 -1',
        'risk low: 1 line changed in 1 file',
        '`mvn -B verify`',
        'demo.CalcTest#adds',
        'actions/runs/77',
        '**Auto-merge:** enabled',
      ])
        expect(pull.body).toContain(part);

      // The same fix on the same base: the branch already holds it, so nothing is pushed (the commit stays run-1's).
      const pushed = await git(repo.bare, 'rev-parse', BRANCH);
      const second = await publish(fixedRecord('run-2'));
      expect(second.outcome).toMatchObject({ published: true, publication: { number: 1, autoMerge: 'enabled' } });
      expect(second.outcome!.message).toMatch(/^updated pull request #1/);
      expect(state.pulls).toHaveLength(1);
      expect(state.pulls[0]!.body).toContain('run-2');
      expect(await git(repo.bare, 'log', '-1', '--format=%B', BRANCH)).toContain('Mvnx-Run: run-1');
      expect(await git(repo.bare, 'rev-parse', BRANCH)).toBe(pushed);
      expect(second.outcome!.message).toContain('nothing pushed: the branch already holds this fix on this base');
      expect(await git(repo.bare, 'rev-list', '--count', `main..${BRANCH}`)).toBe('1');
      expect(
        api.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/pulls')),
      ).toHaveLength(1);
      expect(api.failures).toEqual([]);
    } finally {
      await close();
    }
  });

  it('closes the open request with a comment once the target branch holds the fix', async () => {
    const state = githubState();
    const { repo, publish, close } = await setup(state);
    try {
      await publish();
      await git(repo.work, 'apply', '.mvnx/runs/run-1/fix.patch');
      await git(repo.work, 'commit', '-qam', 'the same fix by hand');
      await git(repo.work, 'push', '-q', repo.bare, 'main');
      const again = await publish(fixedRecord('run-3'));
      expect(again.outcome).toEqual({
        published: false,
        message: `closed pull request #1: main already contains this fix`,
      });
      expect(state.pulls[0]!.state).toBe('closed');
      expect(state.comments).toEqual([
        { issue_number: 1, body: expect.stringContaining('`main` already contains this fix') },
      ]);
    } finally {
      await close();
    }
  });

  it('never enables auto-merge without required checks, for a risk above auto.maxRisk or a test-side edit, and says why', async () => {
    const state = githubState({ protection: {} });
    const { api, publish, close } = await setup(state);
    try {
      const unprotected = await publish();
      expect(unprotected.outcome).toMatchObject({
        published: true,
        publication: {
          autoMerge: 'refused',
          reason: expect.stringContaining('branch main has no required status checks'),
        },
      });
      expect(state.pulls[0]!.body).toContain('**Auto-merge:** refused');
      expect(api.requests.some((request) => request.path === '/graphql')).toBe(false);

      const risky = fixedRecord('run-high', { risk: 'high', decisions: ['risk high: 40 lines changed'] });
      const skipped = await publish(risky);
      expect(skipped.outcome).toBeUndefined();
      expect(skipped.skipped).toContain('risk high is above auto.maxRisk (medium)');
      const asked = await publish(risky, true);
      expect(asked.outcome).toMatchObject({
        published: true,
        publication: { autoMerge: 'off', reason: expect.stringContaining('risk high is above auto.maxRisk (medium)') },
      });

      const testSide = fixedRecord('run-test', {
        attempts: [{ ...fixedRecord('x').attempts[0]!, failingTestEdits: ['CalcTest#adds: expected value 5 -> -1'] }],
      });
      const testAsked = await publish(testSide, true);
      expect(testAsked.outcome).toMatchObject({
        published: true,
        publication: { autoMerge: 'off', reason: expect.stringContaining('the fix edits the failing test') },
      });
      expect(api.requests.some((request) => request.path === '/graphql')).toBe(false);
    } finally {
      await close();
    }
  });

  it('reads required checks from rulesets, and reports auto-merge not allowed on the repository', async () => {
    const state = githubState({
      protection: {},
      rulesets: { main: ['ci/build'] },
      settings: {
        allow_auto_merge: false,
        allow_squash_merge: true,
        allow_merge_commit: true,
        allow_rebase_merge: true,
      },
    });
    const { publish, close } = await setup(state);
    try {
      const result = await publish();
      expect(result.outcome).toMatchObject({
        published: true,
        publication: {
          autoMerge: 'refused',
          reason: 'auto-merge is not allowed on acme/demo (Settings > General > Allow auto-merge)',
        },
      });
      state.settings.allow_auto_merge = true;
      const retried = await publish(fixedRecord('run-2'));
      expect(retried.outcome).toMatchObject({
        publication: { autoMerge: 'enabled', reason: expect.stringContaining('a ruleset requires ci/build') },
      });
    } finally {
      await close();
    }
  });

  it('updates the request another run opened in between (422 "already exists") instead of opening a second', async () => {
    const state = githubState();
    const { api, publish, close } = await setup(state);
    try {
      // The list shows nothing the first time: the other run's request appears right after.
      let listed = 0;
      const original = state.pulls;
      state.pulls = new Proxy(original, {
        get(target, key, receiver) {
          if (key === 'filter' && listed++ === 0) return () => [];
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      original.push({
        number: 1,
        node_id: 'PR_kw1',
        head: { ref: BRANCH },
        base: { ref: 'main' },
        title: 'other run',
        body: 'old',
        state: 'open',
        merged: false,
        html_url: 'https://github.example/acme/demo/pull/1',
      });
      const result = await publish();
      expect(result.outcome).toMatchObject({ published: true, publication: { number: 1 } });
      expect(original).toHaveLength(1);
      expect(original[0]!.body).toContain('run-1');
      expect(api.failures).toEqual([
        expect.stringContaining('A pull request already exists for acme:mvnx/fix-a1b2c3d4e5f6'),
      ]);
    } finally {
      await close();
    }
  });

  it('waits out a rate limit (429 Retry-After) and goes on', async () => {
    const state = githubState({ rateLimit: { count: 1, retryAfter: '7' } });
    const { publish, waits, close } = await setup(state);
    try {
      const result = await publish();
      expect(waits).toEqual([7000]);
      expect(result.outcome).toMatchObject({ published: true });
    } finally {
      await close();
    }
  });

  it('says in one line what a token without rights stopped (API 403, git 401), and keeps the fix', async () => {
    const denied = await setup(githubState({ forbid: 403 }));
    try {
      const result = await denied.publish();
      expect(result.outcome?.published).toBe(false);
      expect(result.outcome?.message).toMatch(
        /^not published: .*403.*Resource not accessible by integration.*\(the token may not push or open requests here\)$/,
      );
      expect(result.outcome?.message).not.toContain('\n');
    } finally {
      await denied.close();
    }
    const wrongGit = await setup(githubState(), { gitPassword: 'another-token' });
    try {
      const result = await wrongGit.publish();
      expect(result.outcome?.published).toBe(false);
      expect(result.outcome?.message).toMatch(
        /^not published: git (ls-remote|push): .*(401|Authentication failed|could not read Username)/,
      );
      expect(result.outcome?.message).not.toContain(TOKEN);
    } finally {
      await wrongGit.close();
    }
  });
});
