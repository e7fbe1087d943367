/**
 * The publishing job of examples/ci/gitlab-dependency-update.yml, its script run with bash as a GitLab runner would in
 * a merge request pipeline of Renovate's branch: the checkout at the bot's head (with an origin remote), the artifact
 * of the repair job in mvnx-update-fix/, the built CLI on PATH, a real bare remote behind git http-backend (basic auth
 * oauth2:<token>), and the GitLab API on loopback checking each request. The script checks out the default branch,
 * whose .mvnxrc.yaml decides (the bot's branch carries one that says `off`); a verified fix of main sources is pushed
 * as one commit on the bot's head with one note on the merge request; a test-side patch or a POM plugin is refused.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, execaSync } from 'execa';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fingerprintChangeSet, toUnifiedDiff, type ChangeSet } from '../../src/patch/index.js';
import type { RunRecord } from '../../src/report/run-record.js';
import { startGitHttpServer } from '../helpers/git-http-server.js';
import { startGitlabPublishApi, type GitlabPublishState } from '../helpers/fake-forge-publish.js';
import { fixedRecord, git, makePublishRepo } from '../helpers/publish-repo.js';
import { tempDir } from '../helpers/temp-dir.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TOKEN = 'glpat-ci-update-branch-0123456789';
const BOT_BRANCH = 'renovate/com.google.guava-guava-33.x';
const CALC = 'src/main/java/demo/Calc.java';

async function publishScript(): Promise<string> {
  const yaml = parse(await readFile(path.join(root, 'examples/ci/gitlab-dependency-update.yml'), 'utf8')) as Record<
    string,
    { script: string[] }
  >;
  return yaml['mvnx-update-publish']!.script.join('\n');
}

async function mvnxOnPath(dir: string): Promise<string> {
  const bin = path.join(dir, 'bin');
  await mkdir(bin, { recursive: true });
  await writeFile(
    path.join(bin, 'mvnx'),
    `#!/bin/sh\nexec "${process.execPath}" "${path.join(root, 'dist/cli/bin.js')}" "$@"\n`,
  );
  await chmod(path.join(bin, 'mvnx'), 0o755);
  return `${bin}:${process.env.PATH}`;
}

function artifact(files: ChangeSet['files']): { record: RunRecord; patch: string } {
  const base = fixedRecord('run-mr-5');
  const record = fixedRecord('run-mr-5', {
    dependencyUpdate: {
      groupId: 'com.google.guava',
      artifactId: 'guava',
      from: '16.0.1',
      to: '33.0.0-jre',
      errors: [`${CALC}:5: cannot find symbol`],
      comparedWith: 'merge-base 1234567 (origin/main)',
      oldVersionLocal: true,
      differences: [{ site: `${CALC}:5`, message: 'cannot find symbol', lines: ['- removed: int Calc.sub(int, int)'] }],
    },
    attempts: [
      {
        ...base.attempts[0]!,
        source: 'fixer',
        fixer: 'dependency-update',
        fingerprint: fingerprintChangeSet({ files }),
        filesChanged: files.map((file) => file.path),
      },
    ],
  });
  return { record, patch: toUnifiedDiff({ files }) };
}

async function setup() {
  const dir = await tempDir('mvnx-ci-gl-dep-');
  const repo = await makePublishRepo(dir);
  // The default branch's policy, the one that decides.
  await writeFile(path.join(repo.work, '.mvnxrc.yaml'), 'tier: auto\npublish:\n  updateBranch: commit\n');
  await git(repo.work, 'add', '.mvnxrc.yaml');
  await git(repo.work, 'commit', '-qm', 'mvnx policy');
  await git(repo.work, 'push', '-q', repo.bare, 'main');
  // Renovate's branch: the bump, and a policy of its own that would turn publishing off were it read.
  await git(repo.work, 'checkout', '-q', '-b', BOT_BRANCH);
  await writeFile(path.join(repo.work, 'versions.txt'), 'guava=33.0.0-jre\n');
  await writeFile(path.join(repo.work, '.mvnxrc.yaml'), 'tier: auto\npublish:\n  updateBranch: off\n');
  await git(repo.work, 'add', '.');
  await git(repo.work, 'commit', '-q', '-m', 'fix(deps): update dependency com.google.guava:guava to v33');
  await git(repo.work, 'push', '-q', repo.bare, BOT_BRANCH);
  const botHead = await git(repo.work, 'rev-parse', 'HEAD');
  // The runner's checkout: detached at the built commit, origin the project's remote.
  await git(repo.work, 'checkout', '-q', '--detach', botHead);
  await git(repo.work, 'remote', 'add', 'origin', repo.bare);
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
        description: '',
        state: 'opened',
        web_url: 'https://gitlab.example/acme/demo/-/merge_requests/5',
        auto_merge: false,
      },
    ],
    notes: [],
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
  const env = {
    CI: 'true',
    GITLAB_CI: 'true',
    CI_PIPELINE_SOURCE: 'merge_request_event',
    CI_DEFAULT_BRANCH: 'main',
    CI_PROJECT_ID: '42',
    CI_PROJECT_PATH: 'acme/demo',
    CI_API_V4_URL: `${api.url}/api/v4`,
    CI_SERVER_URL: gitServer.url,
    CI_SERVER_HOST: 'gitlab.example',
    CI_MERGE_REQUEST_IID: '5',
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: BOT_BRANCH,
    CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
    CI_COMMIT_SHA: botHead,
    CI_JOB_URL: 'https://gitlab.example/acme/demo/-/jobs/78',
    MVNX_GITLAB_TOKEN: TOKEN,
    HOME: process.env.HOME!,
    PATH: await mvnxOnPath(dir),
  };
  const script = await publishScript();
  const runScript = async (made: { record: RunRecord; patch: string }) => {
    await git(repo.work, 'checkout', '-q', '--detach', botHead);
    const folder = path.join(repo.work, 'mvnx-update-fix');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'run.json'), JSON.stringify(made.record));
    await writeFile(path.join(folder, 'fix.patch'), made.patch);
    return execa('bash', ['-e', '-c', script], { cwd: repo.work, env, extendEnv: false, reject: false });
  };
  const remoteTip = () => git(repo.bare, 'rev-parse', `refs/heads/${BOT_BRANCH}`);
  const close = async () => Promise.all([gitServer.close(), api.close()]);
  return { repo, state, api, botHead, runScript, remoteTip, close };
}

describe('examples/ci/gitlab-dependency-update.yml, the publishing job run', () => {
  it("pushes the artifact's verified fix as one commit on Renovate's head, by the default branch's policy, and notes it once", async () => {
    const { repo, state, api, botHead, runScript, remoteTip, close } = await setup();
    try {
      const calc = await readFile(path.join(repo.work, CALC), 'utf8');
      const made = artifact([{ path: CALC, before: calc, after: calc.replace('a - b', 'a + b') }]);
      const result = await runScript(made);
      expect(result.exitCode, result.stderr).toBe(0);
      const tip = await remoteTip();
      expect(result.stderr).toContain(`mvnx: publish: pushed ${tip.slice(0, 12)} onto ${BOT_BRANCH}`);
      expect(await git(repo.bare, 'rev-list', `${botHead}..${tip}`)).toBe(tip);
      expect(await git(repo.bare, 'log', '-1', '--format=%ae', tip)).toBe('mvnx@gitlab.example');
      expect(state.notes.map((note) => note.iid)).toEqual([5]);
      expect(state.notes[0]!.body).toContain('`mvnx@gitlab.example` is in its `gitIgnoredAuthors`');
      // The record in the artifact folder says which commit went onto the bot's branch.
      const written = JSON.parse(await readFile(path.join(repo.work, 'mvnx-update-fix/run.json'), 'utf8')) as RunRecord;
      expect(written.publications).toEqual([
        {
          target: 'update-branch',
          forge: 'gitlab',
          mode: 'commit',
          branch: BOT_BRANCH,
          commit: tip,
          onTopOf: botHead,
          pushed: true,
          url: 'https://gitlab.example/acme/demo/-/merge_requests/5',
          number: 5,
        },
      ]);
      expect(written.decisions.at(-1)).toMatch(/^mvnx publish --from: update branch: pushed [0-9a-f]{12} onto /);
      // A re-run of the job (same head, same artifact): nothing pushed, the note edited.
      const again = await runScript(made);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(again.stderr).toContain('mvnx: publish: nothing pushed: ');
      const rerun = JSON.parse(await readFile(path.join(repo.work, 'mvnx-update-fix/run.json'), 'utf8')) as RunRecord;
      expect(rerun.publications).toEqual([expect.objectContaining({ commit: tip, pushed: false })]);
      expect(await remoteTip()).toBe(tip);
      expect(state.notes).toHaveLength(1);
      expect(api.failures).toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);

  it('refuses a patch that touches a test file, and one that adds a POM plugin: nothing is pushed', async () => {
    const { repo, state, botHead, runScript, remoteTip, close } = await setup();
    try {
      const onTest = await runScript(
        artifact([{ path: 'src/test/java/demo/CalcTest.java', before: null, after: 'class CalcTest {}\n' }]),
      );
      expect(onTest.exitCode).toBe(1);
      expect(onTest.stderr.trim()).toBe(
        'mvnx: publish: not pushed: src/test/java/demo/CalcTest.java is on the test side',
      );
      const pom = await readFile(path.join(repo.work, 'pom.xml'), 'utf8');
      const plugin = pom.replace(
        '</project>',
        '<build><plugins><plugin><artifactId>maven-antrun-plugin</artifactId><version>3.1.0</version></plugin></plugins></build></project>',
      );
      const onPom = await runScript(artifact([{ path: 'pom.xml', before: pom, after: plugin }]));
      expect(onPom.exitCode).toBe(1);
      expect(onPom.stderr).toContain('pom.xml adds or changes a build plugin or extension: build-time code');
      expect(await remoteTip()).toBe(botHead);
      expect(state.notes).toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);
});
