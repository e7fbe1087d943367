/**
 * A dependency bot's pull request whose bump broke the build: the verified fix goes onto the bot's branch
 * (`publish.updateBranch: commit`) or into a request into it (`pull-request`), through real git over HTTP (a bare
 * remote with a Dependabot-like branch and history, behind `git http-backend`) and the GitHub REST API on loopback,
 * which checks each request against the documented endpoint.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprintChangeSet, toUnifiedDiff, type ChangeSet } from '../../src/patch/index.js';
import { afterRun } from '../../src/app/after-run.js';
import type { BuildFailureContext } from '../../src/app/handle-build-failure.js';
import { configSchema } from '../../src/policy/schema.js';
import { publishUpdateBranchRun } from '../../src/report/publish/index.js';
import { readRunRecord, RunRecorder, type RunRecord } from '../../src/report/run-record.js';
import { startGitHttpServer } from '../helpers/git-http-server.js';
import { startGithubPublishApi, type GithubPublishState } from '../helpers/fake-forge-publish.js';
import { FIX_PATCH, fixedRecord, git, makePublishRepo, writeRun } from '../helpers/publish-repo.js';
import { tempDir } from '../helpers/temp-dir.js';

const TOKEN = 'ghs_updatebranchtoken0123456789';
const BOT_BRANCH = 'dependabot/maven/com.google.guava-guava-33.0.0-jre';
const CALC = 'src/main/java/demo/Calc.java';
const TEST_FILE = 'src/test/java/demo/CalcTest.java';

const DEPENDENCY_UPDATE: NonNullable<RunRecord['dependencyUpdate']> = {
  groupId: 'com.google.guava',
  artifactId: 'guava',
  from: '16.0.1',
  to: '33.0.0-jre',
  errors: [`${CALC}:5: cannot find symbol`],
  comparedWith: 'merge-base 1234567 (origin/main)',
  oldVersionLocal: true,
  branchHint: BOT_BRANCH,
  differences: [
    {
      site: `${CALC}:5`,
      message: 'cannot find symbol',
      lines: [
        '- removed: static CharMatcher CharMatcher.WHITESPACE',
        '? candidate: static CharMatcher CharMatcher.whitespace() (same parameters)',
      ],
      quickFix: 'CharMatcher.WHITESPACE -> CharMatcher.whitespace()',
    },
  ],
};

/** fix.patch as the loop writes it for these files, and the fingerprint the loop gives that change. */
function patchOf(files: ChangeSet['files']): { patch: string; fingerprint: string } {
  return { patch: toUnifiedDiff({ files }), fingerprint: fingerprintChangeSet({ files }) };
}

function botRecord(runId: string, fingerprint: string, files: string[], overrides: Partial<RunRecord> = {}) {
  const base = fixedRecord(runId);
  return fixedRecord(runId, {
    dependencyUpdate: DEPENDENCY_UPDATE,
    attempts: [{ ...base.attempts[0]!, source: 'fixer', fixer: 'dependency-update', fingerprint, filesChanged: files }],
    ...overrides,
  });
}

async function setup(options: { updateBranch?: string; branch?: string; config?: Record<string, unknown> } = {}) {
  const dir = await tempDir('mvnx-update-branch-');
  const repo = await makePublishRepo(dir);
  const branch = options.branch ?? BOT_BRANCH;
  // The bot's branch: two commits of its own on top of main (the bump, then a lockfile-like change), pushed.
  await git(repo.work, 'checkout', '-q', '-b', branch);
  await writeFile(path.join(repo.work, 'versions.txt'), 'guava=33.0.0-jre\n');
  await git(repo.work, 'add', 'versions.txt');
  await git(repo.work, 'commit', '-q', '-m', 'Bump guava from 16.0.1 to 33.0.0-jre');
  await writeFile(path.join(repo.work, 'versions.txt'), 'guava=33.0.0-jre\nfailureaccess=1.0.2\n');
  await git(repo.work, 'commit', '-qam', 'Bump failureaccess');
  await git(repo.work, 'push', '-q', repo.bare, branch);
  const botHead = await git(repo.work, 'rev-parse', 'HEAD');

  const calcBefore = await readFile(path.join(repo.work, CALC), 'utf8');
  const fixFingerprint = fingerprintChangeSet({
    files: [{ path: CALC, before: calcBefore, after: calcBefore.replace('a - b', 'a + b') }],
  });
  const gitServer = await startGitHttpServer({
    projectRoot: repo.remoteRoot,
    username: 'x-access-token',
    password: TOKEN,
  });
  const state: GithubPublishState = {
    owner: 'acme',
    repo: 'demo',
    token: TOKEN,
    pulls: [
      {
        number: 1,
        node_id: 'PR_kw1',
        head: { ref: branch },
        base: { ref: 'main' },
        title: 'Bump guava from 16.0.1 to 33.0.0-jre',
        body: 'Bumps guava.',
        state: 'open',
        merged: false,
        html_url: 'https://github.example/acme/demo/pull/1',
      },
    ],
    comments: [],
    settings: { allow_auto_merge: false, allow_squash_merge: true, allow_merge_commit: true, allow_rebase_merge: true },
    protection: {},
    rulesets: {},
  };
  const api = await startGithubPublishApi(state);
  const eventFile = path.join(dir, 'event.json');
  const writeEvent = (head: string) =>
    writeFile(eventFile, JSON.stringify({ pull_request: { number: 1, head: { ref: branch, sha: head } } }));
  await writeEvent(botHead);
  const env = {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_HEAD_REF: branch,
    GITHUB_REF: 'refs/pull/1/merge',
    GITHUB_REPOSITORY: 'acme/demo',
    GITHUB_SERVER_URL: gitServer.url,
    GITHUB_API_URL: api.url,
    GITHUB_TOKEN: TOKEN,
    GITHUB_RUN_ID: '91',
    PATH: process.env.PATH,
    HOME: process.env.HOME,
  };
  const policy = configSchema.parse({
    tier: 'auto',
    publish: { updateBranch: options.updateBranch ?? 'commit' },
    ...options.config,
  }) as Parameters<typeof publishUpdateBranchRun>[0]['policy'];
  const publish = async (record = botRecord('run-1', fixFingerprint, [CALC]), patch = FIX_PATCH) => {
    await writeRun(repo.work, record, patch);
    return publishUpdateBranchRun({ projectRoot: repo.work, record, policy, env, userAgent: 'mvnx/test' });
  };
  const remoteTip = (name = branch) => git(repo.bare, 'rev-parse', `refs/heads/${name}`);
  const close = async () => Promise.all([gitServer.close(), api.close()]);
  return { repo, state, api, botHead, publish, remoteTip, writeEvent, close, fixFingerprint, branch, env, policy };
}

// Real git over HTTP, several fetches and pushes per test: 5-12 s alone, past 30 s at the shared VM's load of 25.
describe("publish.updateBranch: commit, on a Dependabot pull request's branch", { timeout: 120_000 }, () => {
  it("pushes exactly one commit on top of the bot's head, with [dependabot skip]; a second run pushes nothing", async () => {
    const { repo, state, api, botHead, publish, remoteTip, close, fixFingerprint } = await setup();
    try {
      const first = await publish();
      expect(first).toMatchObject({ handled: true, outcome: { pushed: true, placed: true } });
      const tip = await remoteTip();
      expect(await git(repo.bare, 'rev-list', `${botHead}..${tip}`)).toBe(tip);
      expect(await git(repo.bare, 'rev-parse', `${tip}^`)).toBe(botHead);
      // The bot's own commits are still there, under ours.
      expect((await git(repo.bare, 'log', '--format=%s', tip)).split('\n').slice(1, 3)).toEqual([
        'Bump failureaccess',
        'Bump guava from 16.0.1 to 33.0.0-jre',
      ]);
      expect(await git(repo.bare, 'diff', '--name-only', botHead, tip)).toBe(CALC);
      expect(await git(repo.bare, 'diff', botHead, tip)).toContain('+        return a + b;');
      const message = await git(repo.bare, 'log', '-1', '--format=%B', tip);
      expect(message).toContain('[dependabot skip]');
      expect(await git(repo.bare, 'log', '-1', '--format=%(trailers:key=Mvnx-Run,valueonly)', tip)).toBe('run-1');
      expect(first.handled && first.outcome.message).toMatch(
        new RegExp(
          `^pushed ${tip.slice(0, 12)} onto ${BOT_BRANCH} \\(on top of ${botHead.slice(0, 12)}, no force-push\\); comment posted on https://github.example/acme/demo/pull/1$`,
        ),
      );
      // The contract's publication is a request from an mvnx branch: a commit on the bot's branch is not one.
      expect(first.handled && first.outcome.publication).toBeUndefined();
      expect(state.comments).toHaveLength(1);
      expect(state.comments[0]!.body).toContain('`com.google.guava:guava` 16.0.1 -> 33.0.0-jre');
      expect(state.comments[0]!.body).toContain('- removed: static CharMatcher CharMatcher.WHITESPACE');
      expect(state.comments[0]!.body).toContain('`[dependabot skip]`');

      // The same job run again on the same head (a re-run): nothing is pushed, the one comment is edited.
      const second = await publish(botRecord('run-2', fixFingerprint, [CALC]));
      expect(second).toMatchObject({ handled: true, outcome: { pushed: false, placed: true } });
      expect(second.handled && second.outcome.message).toMatch(/^nothing pushed: .* already holds this fix/);
      expect(await remoteTip()).toBe(tip);
      expect(state.comments).toHaveLength(1);
      expect(state.comments[0]!.body).toContain('run-2');
      expect(api.failures).toEqual([]);
      expect(api.requests.filter((r) => r.method === 'PATCH').map((r) => r.path)).toEqual([
        '/repos/acme/demo/issues/comments/1',
      ]);
    } finally {
      await close();
    }
  });

  it('refuses in one line when the remote head moved since the build, and pushes nothing', async () => {
    const { repo, state, botHead, publish, remoteTip, close, branch } = await setup();
    try {
      // The bot rebased (a new commit on the remote branch) after this job built botHead.
      const other = path.join(repo.work, '..', 'other');
      await git(path.dirname(other), 'clone', '-q', '-b', branch, repo.bare, 'other');
      await writeFile(path.join(other, 'versions.txt'), 'guava=33.0.1-jre\n');
      await git(other, 'commit', '-qam', 'Bump guava to 33.0.1-jre');
      await git(other, 'push', '-q', 'origin', branch);
      const moved = await remoteTip();
      const result = await publish();
      expect(result).toMatchObject({ handled: true, outcome: { pushed: false, placed: false } });
      const message = result.handled ? result.outcome.message : '';
      expect(message).toBe(
        `not pushed: ${branch} moved since the build (built ${botHead.slice(0, 12)}, now ${moved.slice(0, 12)}); the next CI run repairs the new head`,
      );
      expect(message).not.toContain('\n');
      expect(await remoteTip()).toBe(moved);
      expect(state.comments).toEqual([]);
    } finally {
      await close();
    }
  });

  it('never pushes a fix that touches the test side or a POM plugin', async () => {
    const { repo, botHead, publish, remoteTip, close } = await setup();
    try {
      const test = patchOf([{ path: TEST_FILE, before: null, after: 'package demo;\n\nclass CalcTest {}\n' }]);
      const onTests = await publish(botRecord('run-t', test.fingerprint, [TEST_FILE]), test.patch);
      expect(onTests.handled && onTests.outcome.message).toBe(`not pushed: ${TEST_FILE} is on the test side`);
      const pom = await readFile(path.join(repo.work, 'pom.xml'), 'utf8');
      const withPlugin = pom.replace(
        '</project>',
        '<build><plugins><plugin><artifactId>exec-maven-plugin</artifactId><version>3.1.0</version></plugin></plugins></build></project>',
      );
      const { patch, fingerprint } = patchOf([{ path: 'pom.xml', before: pom, after: withPlugin }]);
      const onPom = await publish(botRecord('run-p', fingerprint, ['pom.xml']), patch);
      // The default policy protects pom.xml too; the push guard says why on its own.
      expect(onPom.handled && onPom.outcome.message).toContain(
        'pom.xml adds or changes a build plugin or extension: build-time code',
      );
      expect(onPom.handled && onPom.outcome.message).toContain('exec-maven-plugin, which runs code during the build');
      expect(await remoteTip()).toBe(botHead);
    } finally {
      await close();
    }
  });

  it("takes the fix's modules from the checkout's POMs: a record naming other modules does not sidestep a module rule", async () => {
    const { repo, botHead, publish, remoteTip, close, fixFingerprint } = await setup({
      config: { rules: [{ modules: ['calc'], paths: ['src/main/java/**'], protected: true }] },
    });
    try {
      // A forged record (another job's artifact): the fix is in module calc, the record says it is elsewhere.
      const forged = botRecord('run-f', fixFingerprint, [CALC], { fixModules: ['docs-only'] });
      const result = await publish(forged);
      expect(result.handled && result.outcome.message).toBe(
        `not pushed: ${CALC} is protected by rules[0] (paths src/main/java/**)`,
      );
      expect(await remoteTip()).toBe(botHead);
      // POMs this checkout cannot read leave the modules unknown: nothing is pushed then either.
      await writeFile(path.join(repo.work, 'pom.xml'), '<modelVersion>4.0.0</modelVersion>\n');
      const unread = await publish(botRecord('run-u', fixFingerprint, [CALC]));
      expect(unread.handled && unread.outcome.message).toBe(
        "not pushed: the fix's modules cannot be read from this checkout's POMs: cannot read pom.xml: no <project> element",
      );
      expect(await remoteTip()).toBe(botHead);
    } finally {
      await close();
    }
  });

  it("refuses a patch that is not the verified fix (the record's fingerprint)", async () => {
    const { botHead, publish, remoteTip, close } = await setup();
    try {
      const result = await publish(botRecord('run-x', 'f'.repeat(64), [CALC]));
      expect(result.handled && result.outcome.message).toMatch(
        /^not pushed: the patch is not the verified fix: on [0-9a-f]{12} it makes fingerprint [0-9a-f]{12}, the record says ffffffffffff$/,
      );
      expect(await remoteTip()).toBe(botHead);
    } finally {
      await close();
    }
  });
});

describe('publish.updateBranch: pull-request, and when the mode does not apply', { timeout: 120_000 }, () => {
  it("opens a request from mvnx/fix-<fingerprint> into the bot's branch, leaves that branch alone, and comments once", async () => {
    const { repo, state, api, botHead, publish, remoteTip, close, fixFingerprint } = await setup({
      updateBranch: 'pull-request',
    });
    try {
      const result = await publish();
      expect(result).toMatchObject({ handled: true, outcome: { pushed: true, placed: true } });
      expect(await remoteTip()).toBe(botHead);
      const fixBranch = `mvnx/fix-${fixFingerprint.slice(0, 12)}`;
      const fixTip = await remoteTip(fixBranch);
      expect(await git(repo.bare, 'rev-parse', `${fixTip}^`)).toBe(botHead);
      expect(state.pulls[1]).toMatchObject({ number: 2, head: { ref: fixBranch }, base: { ref: BOT_BRANCH } });
      const created = api.requests.find((r) => r.method === 'POST' && r.path === '/repos/acme/demo/pulls');
      expect(created?.body).toMatchObject({ head: fixBranch, base: BOT_BRANCH });
      expect(state.comments).toEqual([
        { issue_number: 1, body: expect.stringContaining('https://github.example/acme/demo/pull/2') },
      ]);
      const again = await publish();
      expect(again).toMatchObject({ handled: true, outcome: { pushed: false, placed: true } });
      expect(await remoteTip(fixBranch)).toBe(fixTip);
      expect(state.pulls).toHaveLength(2);
      expect(state.comments).toHaveLength(1);
      expect(api.failures).toEqual([]);
    } finally {
      await close();
    }
  });

  it("leaves a person's branch, an update that is not the failure's cause, and updateBranch off to the usual publication", async () => {
    const person = await setup({ branch: 'feature/guava' });
    try {
      expect(await person.publish()).toEqual({
        handled: false,
        why: "not a dependency bot's pull request (publish.botBranches)",
      });
    } finally {
      await person.close();
    }
    const off = await setup({ updateBranch: 'off' });
    try {
      expect(await off.publish()).toEqual({ handled: false, why: 'publish.updateBranch is off' });
      const notUpdate = fixedRecord('run-n');
      expect(await off.publish(notUpdate)).toEqual({ handled: false, why: 'the failure is not a dependency update' });
    } finally {
      await off.close();
    }
  });

  it('a configured bot prefix and a per-rule mode', async () => {
    const custom = await setup({
      branch: 'deps/guava-33',
      updateBranch: 'off',
      config: {
        publish: { updateBranch: 'off', botBranches: ['deps/**'] },
        rules: [{ paths: ['src/main/java/**'], publish: { updateBranch: 'commit' } }],
      },
    });
    try {
      const result = await custom.publish();
      expect(result).toMatchObject({ handled: true, outcome: { pushed: true } });
      expect(await git(custom.repo.bare, 'log', '-1', '--format=%B', await custom.remoteTip())).not.toContain(
        '[dependabot skip]',
      );
    } finally {
      await custom.close();
    }
  });
});

describe("after a run under auto in CI on the bot's pull request (app/after-run.ts)", { timeout: 120_000 }, () => {
  it("puts the fix on the bot's branch instead of opening a request against main, and records it", async () => {
    const { repo, state, botHead, remoteTip, close, fixFingerprint, env, policy } = await setup();
    try {
      const config = { ...policy, sources: {}, files: [] } as unknown as Parameters<typeof afterRun>[0]['config'];
      const context = { options: {}, cwd: repo.work, projectRoot: repo.work, env } as unknown as BuildFailureContext;
      const record = botRecord('run-ci', fixFingerprint, [CALC]);
      await writeRun(repo.work, record);
      await afterRun({ context, config, record, recorder: await RunRecorder.open(repo.work, 'run-ci') });
      const written = await readRunRecord(repo.work, 'run-ci');
      expect(written.decisions.at(-1)).toMatch(new RegExp(`^update branch: pushed [0-9a-f]{12} onto ${BOT_BRANCH} `));
      expect(written.publication).toBeUndefined();
      const tip = await remoteTip();
      // The commit pushed onto the bot's branch, in publications[] (an addition: publication stays a request).
      expect(written.publications).toEqual([
        {
          target: 'update-branch',
          forge: 'github',
          mode: 'commit',
          branch: BOT_BRANCH,
          commit: tip,
          onTopOf: botHead,
          pushed: true,
          url: 'https://github.example/acme/demo/pull/1',
          number: 1,
        },
      ]);
      expect(await git(repo.bare, 'rev-parse', `${await remoteTip()}^`)).toBe(botHead);
      expect(state.pulls).toHaveLength(1);
      // The next run on the same head (a re-run of the job): nothing pushed, and its record says so.
      const rerun = botRecord('run-ci2', fixFingerprint, [CALC]);
      await writeRun(repo.work, rerun);
      await afterRun({ context, config, record: rerun, recorder: await RunRecorder.open(repo.work, 'run-ci2') });
      const again = await readRunRecord(repo.work, 'run-ci2');
      expect(again.decisions.at(-1)).toMatch(/^update branch: nothing pushed: .* already holds this fix/);
      expect(again.publications).toEqual([expect.objectContaining({ commit: tip, onTopOf: botHead, pushed: false })]);
      expect(await remoteTip()).toBe(tip);
    } finally {
      await close();
    }
  });
});
