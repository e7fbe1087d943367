/**
 * The second workflow of the split templates (examples/ci/github-dependency-update-publish.yml), its script run with
 * bash as GitHub would on `workflow_run`: the artifact of the repair job (run.json, fix.patch) in mvnx-update-fix/,
 * the default branch checked out with its .mvnxrc.yaml, the built CLI on PATH, a real bare remote behind git
 * http-backend with a Dependabot branch, and the GitHub API on loopback. A verified fix of main sources is pushed as
 * one commit on the bot's head; a patch touching a test file or a POM plugin is refused and nothing is pushed.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fingerprintChangeSet, toUnifiedDiff, type ChangeSet } from '../../src/patch/index.js';
import type { RunRecord } from '../../src/report/run-record.js';
import { startGitHttpServer } from '../helpers/git-http-server.js';
import { startGithubPublishApi, type GithubPublishState } from '../helpers/fake-forge-publish.js';
import { fixedRecord, git, makePublishRepo } from '../helpers/publish-repo.js';
import { tempDir } from '../helpers/temp-dir.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TOKEN = 'ci-token-update-branch-0123456789';
const BOT_BRANCH = 'dependabot/maven/com.google.guava-guava-33.0.0-jre';
const CALC = 'src/main/java/demo/Calc.java';

async function publishScript(): Promise<string> {
  const yaml = parse(await readFile(path.join(root, 'examples/ci/github-dependency-update-publish.yml'), 'utf8')) as {
    jobs: { publish: { steps: { name?: string; run?: string }[] } };
  };
  return yaml.jobs.publish.steps.find((step) => step.name === 'Check and push the verified fix')!.run!;
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

function artifactRecord(files: ChangeSet['files']): { record: RunRecord; patch: string } {
  const base = fixedRecord('run-pr-7');
  const record = fixedRecord('run-pr-7', {
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

async function setup(policy = 'tier: auto\npublish:\n  updateBranch: commit\n') {
  const dir = await tempDir('mvnx-ci-dep-');
  const repo = await makePublishRepo(dir);
  await git(repo.work, 'checkout', '-q', '-b', BOT_BRANCH);
  await writeFile(path.join(repo.work, 'versions.txt'), 'guava=33.0.0-jre\n');
  await git(repo.work, 'add', 'versions.txt');
  await git(repo.work, 'commit', '-q', '-m', 'Bump guava from 16.0.1 to 33.0.0-jre');
  await git(repo.work, 'push', '-q', repo.bare, BOT_BRANCH);
  const botHead = await git(repo.work, 'rev-parse', 'HEAD');
  // The workflow_run job: the default branch checked out, its policy the one that decides.
  await git(repo.work, 'checkout', '-q', 'main');
  await writeFile(path.join(repo.work, '.mvnxrc.yaml'), policy);
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
        number: 7,
        node_id: 'PR_kw7',
        head: { ref: BOT_BRANCH },
        base: { ref: 'main' },
        title: 'Bump guava from 16.0.1 to 33.0.0-jre',
        body: '',
        state: 'open',
        merged: false,
        html_url: 'https://github.example/acme/demo/pull/7',
      },
    ],
    comments: [],
    settings: { allow_auto_merge: false, allow_squash_merge: true, allow_merge_commit: true, allow_rebase_merge: true },
    protection: {},
    rulesets: {},
  };
  const api = await startGithubPublishApi(state);
  const eventFile = path.join(dir, 'event.json');
  await writeFile(
    eventFile,
    JSON.stringify({
      workflow_run: {
        event: 'pull_request',
        head_branch: BOT_BRANCH,
        head_sha: botHead,
        pull_requests: [{ number: 7 }],
      },
    }),
  );
  const env = {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'workflow_run',
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_REPOSITORY: 'acme/demo',
    GITHUB_SERVER_URL: gitServer.url,
    GITHUB_API_URL: api.url,
    GITHUB_REF_NAME: 'main',
    GITHUB_RUN_ID: '12',
    GITHUB_TOKEN: TOKEN,
    HOME: process.env.HOME!,
    PATH: await mvnxOnPath(dir),
  };
  const script = await publishScript();
  const runScript = async (artifact: { record: RunRecord; patch: string }) => {
    const folder = path.join(repo.work, 'mvnx-update-fix');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'run.json'), JSON.stringify(artifact.record));
    await writeFile(path.join(folder, 'fix.patch'), artifact.patch);
    return execa('bash', ['-e', '-c', script], { cwd: repo.work, env, extendEnv: false, reject: false });
  };
  const remoteTip = () => git(repo.bare, 'rev-parse', `refs/heads/${BOT_BRANCH}`);
  const close = async () => Promise.all([gitServer.close(), api.close()]);
  return { repo, state, api, botHead, runScript, remoteTip, close };
}

describe('examples/ci/github-dependency-update-publish.yml, run on workflow_run', () => {
  it("pushes the artifact's verified fix as one commit on the bot's head, and comments once on its pull request", async () => {
    const { repo, state, api, botHead, runScript, remoteTip, close } = await setup();
    try {
      const calc = await readFile(path.join(repo.work, CALC), 'utf8');
      const result = await runScript(
        artifactRecord([{ path: CALC, before: calc, after: calc.replace('a - b', 'a + b') }]),
      );
      expect(result.exitCode, result.stderr).toBe(0);
      const tip = await remoteTip();
      expect(result.stderr).toContain(`mvnx: publish: pushed ${tip.slice(0, 12)} onto ${BOT_BRANCH}`);
      expect(await git(repo.bare, 'rev-parse', `${tip}^`)).toBe(botHead);
      expect(await git(repo.bare, 'log', '-1', '--format=%B', tip)).toContain('[dependabot skip]');
      expect(state.comments.map((comment) => comment.issue_number)).toEqual([7]);
      expect(api.failures).toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);

  it('refuses a patch that touches a test file, and one that adds a POM plugin: nothing is pushed', async () => {
    const { repo, state, botHead, runScript, remoteTip, close } = await setup();
    try {
      const onTest = await runScript(
        artifactRecord([{ path: 'src/test/java/demo/CalcTest.java', before: null, after: 'class CalcTest {}\n' }]),
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
      const onPom = await runScript(artifactRecord([{ path: 'pom.xml', before: pom, after: plugin }]));
      expect(onPom.exitCode).toBe(1);
      expect(onPom.stderr).toContain('pom.xml adds or changes a build plugin or extension: build-time code');
      expect(onPom.stderr).toContain('maven-antrun-plugin, which runs code during the build');
      expect(await remoteTip()).toBe(botHead);
      expect(state.comments).toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);

  it("takes the fix's modules from the checkout's POMs: a forged record naming another module is refused", async () => {
    const { repo, state, botHead, runScript, remoteTip, close } = await setup(
      [
        'tier: auto',
        'publish:',
        '  updateBranch: commit',
        'rules:',
        '  - modules: [calc]',
        "    paths: ['src/main/java/**']",
        '    protected: true',
        '',
      ].join('\n'),
    );
    try {
      const calc = await readFile(path.join(repo.work, CALC), 'utf8');
      const made = artifactRecord([{ path: CALC, before: calc, after: calc.replace('a - b', 'a + b') }]);
      // The artifact says the fix is in another module, which the module-scoped rule does not name.
      const forged = await runScript({ ...made, record: { ...made.record, fixModules: ['docs-only'] } });
      expect(forged.exitCode).toBe(1);
      expect(forged.stderr.trim()).toBe(
        `mvnx: publish: not pushed: ${CALC} is protected by rules[0] (paths src/main/java/**)`,
      );
      expect(await remoteTip()).toBe(botHead);
      expect(state.comments).toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);
});
