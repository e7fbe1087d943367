/**
 * The CI templates' remaining script parts, run with bash against loopback forges: the
 * GitHub step that publishes (`mvnx publish "$RUN_ID"`), the step that reconciles outcomes,
 * and the GitLab repair job's script after the build. mvnx is the built CLI; git pushes go
 * through git http-backend behind basic auth (GitHub) and to a bare repository over file:// (GitLab).
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execa, execaSync } from 'execa';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readRunRecord } from '../../src/report/run-record.js';
import { startGitHttpServer } from '../helpers/git-http-server.js';
import {
  startGithubPublishApi,
  startGitlabPublishApi,
  type GithubPublishState,
  type GitlabPublishState,
} from '../helpers/fake-forge-publish.js';
import { BRANCH, fixedRecord, git, makePublishRepo, writeRun } from '../helpers/publish-repo.js';
import { tempDir } from '../helpers/temp-dir.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TOKEN = 'ci-token-0123456789abcdef';

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

const template = async (name: string) =>
  parse(await readFile(path.join(root, 'examples/ci', name), 'utf8')) as Record<string, Record<string, unknown>>;

describe('examples/ci/github-actions.yml, run', () => {
  it('publishes a verified fix with auto-merge through the publish step, and the reconcile step records the merge', async () => {
    const dir = await tempDir('mvnx-ci-gh-');
    const repo = await makePublishRepo(dir);
    const state: GithubPublishState = {
      owner: 'acme',
      repo: 'demo',
      token: TOKEN,
      pulls: [],
      comments: [],
      settings: {
        allow_auto_merge: true,
        allow_squash_merge: false,
        allow_merge_commit: true,
        allow_rebase_merge: false,
      },
      protection: { main: ['build'] },
      rulesets: {},
    };
    const gitServer = await startGitHttpServer({
      projectRoot: repo.remoteRoot,
      username: 'x-access-token',
      password: TOKEN,
    });
    const api = await startGithubPublishApi(state);
    try {
      await writeFile(path.join(repo.work, '.mvnxrc.yaml'), 'tier: auto\npublish:\n  merge: when-checks-pass\n');
      await writeRun(repo.work, fixedRecord('run-1'));
      const steps = ((await template('github-actions.yml')).jobs as { build: { steps: unknown } }).build.steps as {
        name: string;
        run?: string;
        env?: Record<string, string>;
      }[];
      const step = (name: string) => steps.find((candidate) => candidate.name === name)!;
      const env = {
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_REPOSITORY: 'acme/demo',
        GITHUB_SERVER_URL: gitServer.url,
        GITHUB_API_URL: api.url,
        GITHUB_REF_NAME: 'main',
        GITHUB_RUN_ID: '5',
        GITHUB_TOKEN: TOKEN,
        RUN_ID: 'run-1',
        PATH: await mvnxOnPath(dir),
      };
      const publish = await execa('bash', ['-e', '-c', step('Publish the verified fix as a pull request').run!], {
        cwd: repo.work,
        env,
        extendEnv: false,
        reject: false,
      });
      expect(publish.exitCode, publish.stderr).toBe(0);
      expect(publish.stderr).toMatch(
        /^mvnx: publish: opened pull request #1 https:\/\/github\.example\/acme\/demo\/pull\/1 from mvnx\/fix-a1b2c3d4e5f6; auto-merge enabled/m,
      );
      expect(state.pulls).toHaveLength(1);
      expect(state.pulls[0]!.autoMerge).toBe('MERGE');
      expect(await git(repo.bare, 'log', '-1', '--format=%B', BRANCH)).toContain('Mvnx-Run: run-1');
      expect((await readRunRecord(repo.work, 'run-1')).publication).toEqual({
        forge: 'github',
        url: 'https://github.example/acme/demo/pull/1',
        number: 1,
        branch: BRANCH,
        autoMerge: 'enabled',
        reason: 'merges when the required checks pass (branch protection requires build)',
        commit: await git(repo.bare, 'rev-parse', BRANCH),
      });

      state.pulls[0]!.merged = true;
      state.pulls[0]!.state = 'closed';
      const reconcile = await execa('bash', ['-e', '-c', step('Record what became of earlier suggestions').run!], {
        cwd: repo.work,
        env,
        extendEnv: false,
        reject: false,
      });
      expect(reconcile.exitCode, reconcile.stderr).toBe(0);
      const after = await readRunRecord(repo.work, 'run-1');
      expect(after.outcome).toBe('merged');
      expect(api.failures).toEqual([]);
    } finally {
      await Promise.all([gitServer.close(), api.close()]);
    }
  });
});

describe('examples/ci/gitlab-ci.yml, run', () => {
  it('the repair job publishes a fix under auto with mvnx publish and stays red', async () => {
    const dir = await tempDir('mvnx-ci-gl-');
    const repo = await makePublishRepo(dir);
    const state: GitlabPublishState = {
      projectId: '42',
      token: TOKEN,
      mergeRequests: [],
      notes: [],
      settings: { only_allow_merge_if_pipeline_succeeds: true },
      branchHead: (branch) =>
        execaSync('git', ['rev-parse', `refs/heads/${branch}`], { cwd: repo.bare, reject: false }).stdout.trim() ||
        undefined,
    };
    const api = await startGitlabPublishApi(state);
    try {
      await writeFile(
        path.join(repo.work, '.mvnxrc.yaml'),
        `tier: auto\npublish:\n  merge: when-checks-pass\n  pushUrl: ${pathToFileURL(repo.bare).href}\n`,
      );
      await writeRun(repo.work, fixedRecord('run-1'));
      const script = ((await template('gitlab-ci.yml'))['mvnx-repair']!.script as string[]).find((line) =>
        line.includes('run_id='),
      )!;
      const env = {
        CI: 'true',
        GITLAB_CI: 'true',
        CI_PROJECT_ID: '42',
        CI_PROJECT_PATH: 'acme/demo',
        CI_API_V4_URL: `${api.url}/api/v4`,
        CI_SERVER_HOST: 'gitlab.example',
        CI_COMMIT_BRANCH: 'main',
        CI_COMMIT_REF_NAME: 'main',
        MVNX_GITLAB_TOKEN: TOKEN,
        MVNX_PUBLISH: 'false',
        PATH: await mvnxOnPath(dir),
      };
      const result = await execa('bash', ['-c', script], { cwd: repo.work, env, extendEnv: false, reject: false });
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toContain('mvnx run run-1: tier auto, status fixed, stop reason fixed');
      expect(result.stderr).toMatch(
        /mvnx: publish: opened merge request !1 .* from mvnx\/fix-a1b2c3d4e5f6; auto-merge enabled/,
      );
      expect(state.mergeRequests).toMatchObject([{ source_branch: BRANCH, target_branch: 'main', auto_merge: true }]);
      expect(api.failures).toEqual([]);
    } finally {
      await api.close();
    }
  });
});
