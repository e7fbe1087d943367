/**
 * A Renovate merge request on GitLab whose bump broke the build: the verified fix goes onto the MR's source branch
 * (`publish.updateBranch: commit`) or into a merge request into it (`pull-request`), through real git over HTTP (a
 * bare remote with a Renovate-like branch and history, behind `git http-backend`, basic auth `oauth2:<token>` as
 * GitLab takes it) and the GitLab REST API on loopback, which checks each request against the documented endpoint
 * (merge requests, notes: GET paged / POST / PUT .../notes/:note_id).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execaSync } from 'execa';
import { describe, expect, it } from 'vitest';
import { fingerprintChangeSet, toUnifiedDiff } from '../../src/patch/index.js';
import { configSchema } from '../../src/policy/schema.js';
import { publishUpdateBranchRun } from '../../src/report/publish/index.js';
import type { RunRecord } from '../../src/report/run-record.js';
import { startGitHttpServer } from '../helpers/git-http-server.js';
import { startGitlabPublishApi, type GitlabPublishState } from '../helpers/fake-forge-publish.js';
import { fixedRecord, git, makePublishRepo, writeRun } from '../helpers/publish-repo.js';
import { tempDir } from '../helpers/temp-dir.js';

const TOKEN = 'glpat-updatebranch0123456789';
const BOT_BRANCH = 'renovate/com.google.guava-guava-33.x';
const CALC = 'src/main/java/demo/Calc.java';
const MR_URL = 'https://gitlab.example/acme/demo/-/merge_requests/5';

function botRecord(runId: string, fingerprint: string, files: string[]): RunRecord {
  const base = fixedRecord(runId);
  return fixedRecord(runId, {
    dependencyUpdate: {
      groupId: 'com.google.guava',
      artifactId: 'guava',
      from: '16.0.1',
      to: '33.0.0-jre',
      errors: [`${CALC}:5: cannot find symbol`],
      comparedWith: 'merge-base 1234567 (origin/main)',
      oldVersionLocal: true,
      differences: [
        {
          site: `${CALC}:5`,
          message: 'cannot find symbol',
          lines: ['- removed: static CharMatcher CharMatcher.WHITESPACE'],
          quickFix: 'CharMatcher.WHITESPACE -> CharMatcher.whitespace()',
        },
      ],
    },
    attempts: [{ ...base.attempts[0]!, source: 'fixer', fixer: 'dependency-update', fingerprint, filesChanged: files }],
  });
}

/** Renovate's branch: its bump commit (and a second one) on top of main, authored as Renovate. */
async function renovateCommits(work: string, version: string) {
  const renovate = { GIT_AUTHOR_NAME: 'Renovate Bot', GIT_AUTHOR_EMAIL: 'bot@renovateapp.com' };
  const commit = (message: string) =>
    execaSync('git', ['commit', '-qam', message], {
      cwd: work,
      env: { ...renovate, GIT_COMMITTER_NAME: 'Renovate Bot', GIT_COMMITTER_EMAIL: 'bot@renovateapp.com' },
    });
  await writeFile(path.join(work, 'versions.txt'), `guava=${version}\n`);
  await git(work, 'add', 'versions.txt');
  commit(`fix(deps): update dependency com.google.guava:guava to v${version}`);
  await writeFile(path.join(work, 'versions.txt'), `guava=${version}\nfailureaccess=1.0.2\n`);
  commit('chore(deps): lock file maintenance');
}

async function setup(options: { updateBranch?: string } = {}) {
  const dir = await tempDir('mvnx-update-branch-gl-');
  const repo = await makePublishRepo(dir);
  await git(repo.work, 'checkout', '-q', '-b', BOT_BRANCH);
  await renovateCommits(repo.work, '33.0.0-jre');
  await git(repo.work, 'push', '-q', repo.bare, BOT_BRANCH);
  const botHead = await git(repo.work, 'rev-parse', 'HEAD');
  const calc = await readFile(path.join(repo.work, CALC), 'utf8');
  const fixFingerprint = fingerprintChangeSet({
    files: [{ path: CALC, before: calc, after: calc.replace('a - b', 'a + b') }],
  });
  const gitServer = await startGitHttpServer({ projectRoot: repo.remoteRoot, username: 'oauth2', password: TOKEN });
  const state: GitlabPublishState = {
    projectId: '42',
    token: TOKEN,
    mergeRequests: [
      {
        iid: 5,
        source_branch: BOT_BRANCH,
        target_branch: 'main',
        title: 'fix(deps): update dependency com.google.guava:guava to v33',
        description: 'This MR contains the following updates: guava 16.0.1 -> 33.0.0-jre',
        state: 'opened',
        web_url: MR_URL,
        auto_merge: false,
      },
    ],
    // GitLab's own system note, and a person's: neither is mvnx's to edit.
    notes: [
      { iid: 5, body: 'added 2 commits', system: true },
      { iid: 5, body: 'Looks like guava broke the build.' },
    ],
    settings: { only_allow_merge_if_pipeline_succeeds: true },
    branchHead: (branch) => {
      const found = execaSync('git', ['rev-parse', '--verify', '-q', `refs/heads/${branch}`], {
        cwd: repo.bare,
        reject: false,
      });
      return found.exitCode === 0 ? found.stdout.trim() : undefined;
    },
  };
  const api = await startGitlabPublishApi(state);
  // A merge request pipeline of the bot's branch, as GitLab sets its predefined variables.
  const env: NodeJS.ProcessEnv = {
    CI: 'true',
    GITLAB_CI: 'true',
    CI_PROJECT_ID: '42',
    CI_PROJECT_PATH: 'acme/demo',
    CI_API_V4_URL: `${api.url}/api/v4`,
    CI_SERVER_URL: gitServer.url,
    CI_SERVER_HOST: 'gitlab.example',
    CI_PIPELINE_SOURCE: 'merge_request_event',
    CI_MERGE_REQUEST_IID: '5',
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: BOT_BRANCH,
    CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
    CI_COMMIT_SHA: botHead,
    CI_JOB_URL: 'https://gitlab.example/acme/demo/-/jobs/77',
    MVNX_GITLAB_TOKEN: TOKEN,
    PATH: process.env.PATH,
    HOME: process.env.HOME,
  };
  const policy = configSchema.parse({
    tier: 'auto',
    publish: { updateBranch: options.updateBranch ?? 'commit' },
  }) as Parameters<typeof publishUpdateBranchRun>[0]['policy'];
  const publish = async (record = botRecord('run-1', fixFingerprint, [CALC]), patch?: string) => {
    await writeRun(repo.work, record, patch);
    return publishUpdateBranchRun({ projectRoot: repo.work, record, policy, env, userAgent: 'mvnx/test' });
  };
  const remoteTip = (name = BOT_BRANCH) => git(repo.bare, 'rev-parse', `refs/heads/${name}`);
  const mvnxNotes = () => state.notes.filter((note) => note.body.includes('<!-- mvnx:update-branch -->'));
  const close = async () => Promise.all([gitServer.close(), api.close()]);
  return { repo, state, api, env, botHead, publish, remoteTip, mvnxNotes, close, fixFingerprint };
}

// Real git over HTTP, several fetches and pushes per test: 15-20 s alone, past 30 s at the shared VM's load of 25.
describe(
  "publish.updateBranch: commit, on a Renovate merge request's source branch (GitLab)",
  { timeout: 120_000 },
  () => {
    it("pushes one commit on the bot's head, leaves one note on the MR, and a re-run pushes nothing and edits that note", async () => {
      const { repo, state, api, botHead, publish, remoteTip, mvnxNotes, close, fixFingerprint } = await setup();
      try {
        const first = await publish();
        expect(first).toMatchObject({ handled: true, outcome: { pushed: true, placed: true } });
        const tip = await remoteTip();
        expect(await git(repo.bare, 'rev-list', `${botHead}..${tip}`)).toBe(tip);
        expect(await git(repo.bare, 'rev-parse', `${tip}^`)).toBe(botHead);
        expect(await git(repo.bare, 'diff', '--name-only', botHead, tip)).toBe(CALC);
        // Renovate keeps rebasing a branch whose other commits are by an author in gitIgnoredAuthors: the commit's
        // author is the e-mail the note names for it (nothing in a message does it for Renovate).
        const author = await git(repo.bare, 'log', '-1', '--format=%ae', tip);
        expect(author).toBe('mvnx@gitlab.example');
        expect(await git(repo.bare, 'log', '-1', '--format=%B', tip)).not.toContain('[dependabot skip]');
        expect(first.handled && first.outcome.message).toBe(
          `pushed ${tip.slice(0, 12)} onto ${BOT_BRANCH} (on top of ${botHead.slice(0, 12)}, no force-push); comment posted on ${MR_URL}`,
        );
        expect(mvnxNotes()).toHaveLength(1);
        const note = mvnxNotes()[0]!.body;
        expect(note).toContain('`com.google.guava:guava` 16.0.1 -> 33.0.0-jre');
        expect(note).toContain(
          `The fix is commit ${tip.slice(0, 12)} on this branch, on top of ${botHead.slice(0, 12)}.`,
        );
        expect(note).toContain('- removed: static CharMatcher CharMatcher.WHITESPACE');
        expect(note).toContain(`\`${author}\` is in its \`gitIgnoredAuthors\``);
        // What the run record keeps (publications[]): the commit on the bot's branch, the MR, pushed by this run.
        expect(first.handled && first.outcome.entry).toEqual({
          target: 'update-branch',
          forge: 'gitlab',
          mode: 'commit',
          branch: BOT_BRANCH,
          commit: tip,
          onTopOf: botHead,
          pushed: true,
          url: MR_URL,
          number: 5,
        });

        const second = await publish(botRecord('run-2', fixFingerprint, [CALC]));
        expect(second).toMatchObject({ handled: true, outcome: { pushed: false, placed: true } });
        expect(second.handled && second.outcome.message).toMatch(/^nothing pushed: .* already holds this fix/);
        expect(second.handled && second.outcome.entry).toMatchObject({ commit: tip, onTopOf: botHead, pushed: false });
        expect(await remoteTip()).toBe(tip);
        expect(mvnxNotes()).toHaveLength(1);
        expect(mvnxNotes()[0]!.body).toContain('run-2');
        expect(state.notes[0]).toEqual({ iid: 5, body: 'added 2 commits', system: true });
        const writes = api.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
        expect(writes).toEqual([
          'POST /api/v4/projects/42/merge_requests/5/notes',
          'PUT /api/v4/projects/42/merge_requests/5/notes/3',
        ]);
        expect(api.failures).toEqual([]);
      } finally {
        await close();
      }
    });

    it('a rebased bump is repaired again: the same fix (same fingerprint) as one commit on the new head', async () => {
      const { repo, env, botHead, publish, remoteTip, mvnxNotes, close, fixFingerprint } = await setup();
      try {
        await publish();
        const firstFix = await remoteTip();
        // main moves on; Renovate rebases its branch (a force-push of its own commits on the new main).
        await git(repo.work, 'checkout', '-q', 'main');
        await writeFile(path.join(repo.work, 'README.md'), 'calc\n');
        await git(repo.work, 'add', 'README.md');
        await git(repo.work, 'commit', '-qm', 'readme');
        await git(repo.work, 'push', '-q', repo.bare, 'main');
        await git(repo.work, 'checkout', '-q', '-B', BOT_BRANCH, 'main');
        await renovateCommits(repo.work, '33.0.0-jre');
        await git(repo.work, 'push', '-qf', repo.bare, BOT_BRANCH);
        const rebased = await git(repo.work, 'rev-parse', 'HEAD');
        expect(rebased).not.toBe(botHead);
        // The next pipeline builds the rebased head and mvnx verifies the same fix there.
        env.CI_COMMIT_SHA = rebased;
        const again = await publish(botRecord('run-r', fixFingerprint, [CALC]));
        expect(again).toMatchObject({ handled: true, outcome: { pushed: true, placed: true } });
        const tip = await remoteTip();
        expect(await git(repo.bare, 'rev-list', `${rebased}..${tip}`)).toBe(tip);
        expect(await git(repo.bare, 'rev-parse', `${tip}^`)).toBe(rebased);
        expect(await publishedFingerprint(repo.bare, tip)).toBe(fixFingerprint);
        expect(await publishedFingerprint(repo.bare, firstFix)).toBe(fixFingerprint);
        expect(await git(repo.bare, 'diff', rebased, tip)).toBe(await git(repo.bare, 'diff', `${firstFix}^`, firstFix));
        expect(again.handled && again.outcome.entry).toMatchObject({ onTopOf: rebased, commit: tip, pushed: true });
        expect(mvnxNotes()).toHaveLength(1);
      } finally {
        await close();
      }
    });

    it('refuses a moved head in one line, and never pushes a test-side change', async () => {
      const { repo, botHead, publish, remoteTip, mvnxNotes, close } = await setup();
      try {
        const test = { path: 'src/test/java/demo/CalcTest.java', before: null, after: 'class CalcTest {}\n' };
        const onTests = await publish(
          botRecord('run-t', fingerprintChangeSet({ files: [test] }), [test.path]),
          toUnifiedDiff({ files: [test] }),
        );
        expect(onTests.handled && onTests.outcome.message).toBe(`not pushed: ${test.path} is on the test side`);
        expect(onTests.handled && onTests.outcome.entry).toBeUndefined();
        await git(repo.work, 'commit', '-q', '--allow-empty', '-m', 'Renovate: rebase');
        await git(repo.work, 'push', '-q', repo.bare, BOT_BRANCH);
        const moved = await remoteTip();
        await git(repo.work, 'reset', '-q', '--hard', botHead);
        const result = await publish();
        expect(result.handled && result.outcome.message).toBe(
          `not pushed: ${BOT_BRANCH} moved since the build (built ${botHead.slice(0, 12)}, now ${moved.slice(0, 12)}); the next CI run repairs the new head`,
        );
        expect(await remoteTip()).toBe(moved);
        expect(mvnxNotes()).toEqual([]);
      } finally {
        await close();
      }
    });
  },
);

describe('publish.updateBranch: pull-request (GitLab)', { timeout: 120_000 }, () => {
  it("opens one merge request from mvnx/fix-<fingerprint> into the bot's branch and says so in the one note", async () => {
    const { repo, state, api, botHead, publish, remoteTip, mvnxNotes, close, fixFingerprint } = await setup({
      updateBranch: 'pull-request',
    });
    try {
      const result = await publish();
      expect(result).toMatchObject({ handled: true, outcome: { pushed: true, placed: true } });
      expect(await remoteTip()).toBe(botHead);
      const fixBranch = `mvnx/fix-${fixFingerprint.slice(0, 12)}`;
      const fixTip = await remoteTip(fixBranch);
      expect(await git(repo.bare, 'rev-parse', `${fixTip}^`)).toBe(botHead);
      const created = api.requests.find((r) => r.method === 'POST' && r.path === '/api/v4/projects/42/merge_requests');
      expect(created?.body).toMatchObject({ source_branch: fixBranch, target_branch: BOT_BRANCH });
      expect(state.mergeRequests[1]).toMatchObject({ iid: 6, source_branch: fixBranch, target_branch: BOT_BRANCH });
      const mr6 = 'https://gitlab.example/group/project/-/merge_requests/6';
      expect(result.handled && result.outcome.publication).toMatchObject({
        number: 6,
        branch: fixBranch,
        commit: fixTip,
      });
      expect(result.handled && result.outcome.entry).toMatchObject({
        target: 'update-branch',
        mode: 'pull-request',
        branch: BOT_BRANCH,
        commit: fixTip,
        onTopOf: botHead,
        pushed: true,
        number: 6,
        url: mr6,
      });
      expect(mvnxNotes().map((note) => note.iid)).toEqual([5]);
      expect(mvnxNotes()[0]!.body).toContain(`The fix waits in ${mr6}, a request into this branch.`);
      const again = await publish();
      expect(again).toMatchObject({ handled: true, outcome: { pushed: false, placed: true } });
      expect(again.handled && again.outcome.entry).toMatchObject({ commit: fixTip, pushed: false });
      expect(await remoteTip(fixBranch)).toBe(fixTip);
      expect(state.mergeRequests).toHaveLength(2);
      expect(mvnxNotes()).toHaveLength(1);
      expect(api.failures).toEqual([]);
    } finally {
      await close();
    }
  });
});

/** The fingerprint a published commit carries in its Mvnx-Fingerprint trailer. */
const publishedFingerprint = (bare: string, commit: string) =>
  git(bare, 'log', '-1', '--format=%(trailers:key=Mvnx-Fingerprint,valueonly)', commit);
