/**
 * Issue 47, end to end: a whole `mvnx` run under CI=true and tier auto, whose rule does not allow the change type of
 * the fix (a main-source edit under `allowedChanges: [edit-test-source]`), then the GitHub template's publish step
 * run as the template runs it. The step's condition holds (tier auto, status fixed), yet nothing reaches the forge:
 * no push, no request, and one line naming the rule. mvnx is the built CLI; the remote is a bare repository.
 */
import { chmod, cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readRunRecord } from '../../src/report/run-record.js';
import { startGithubPublishApi, type GithubPublishState } from '../helpers/fake-forge-publish.js';
import { git } from '../helpers/publish-repo.js';
import { cliPath, FAST_MAVEN_OPTS, repairFixtures } from '../helpers/repair-project.js';
import { tempDir } from '../helpers/temp-dir.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TOKEN = 'ghs_refusedrefusedrefused0123';

describe('a fix the policy refused, through the CI template', () => {
  it('records action record, and the template publish step pushes nothing and opens nothing', async () => {
    const dir = await tempDir('mvnx-publish-refused-');
    const work = path.join(dir, 'work');
    const bare = path.join(dir, 'remote', 'acme', 'demo.git');
    await cp(path.join(repairFixtures, 'calc-semicolon'), work, {
      recursive: true,
      filter: (file) => !/[\\/](target|\.mvnx)([\\/]|$)/.test(file),
    });
    await writeFile(
      path.join(work, '.mvnxrc.yaml'),
      [
        'tier: auto',
        'rules:',
        "  - paths: ['src/main/java/**']",
        '    allowedChanges: [edit-test-source]',
        'publish:',
        `  pushUrl: ${pathToFileURL(bare).href}`,
        '',
      ].join('\n'),
    );
    await writeFile(path.join(work, '.gitignore'), '.mvnx/\ntarget/\nbin/\n');
    await mkdir(bare, { recursive: true });
    await git(bare, 'init', '-q', '--bare', '-b', 'main');
    await git(work, 'init', '-q', '-b', 'main');
    await git(work, 'add', '-A');
    await git(work, 'commit', '-q', '-m', 'the broken build');
    await git(work, 'push', '-q', bare, 'main');
    const head = await git(work, 'rev-parse', 'HEAD');

    const state: GithubPublishState = {
      owner: 'acme',
      repo: 'demo',
      token: TOKEN,
      pulls: [],
      comments: [],
      settings: {
        allow_auto_merge: true,
        allow_squash_merge: true,
        allow_merge_commit: true,
        allow_rebase_merge: true,
      },
      protection: { main: ['build'] },
      rulesets: {},
    };
    const api = await startGithubPublishApi(state);
    try {
      const bin = path.join(dir, 'bin');
      await mkdir(bin, { recursive: true });
      await writeFile(path.join(bin, 'mvnx'), `#!/bin/sh\nexec "${process.execPath}" "${cliPath}" "$@"\n`);
      await chmod(path.join(bin, 'mvnx'), 0o755);
      const env = {
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_REPOSITORY: 'acme/demo',
        GITHUB_SERVER_URL: 'https://github.example',
        GITHUB_API_URL: api.url,
        GITHUB_REF_NAME: 'main',
        GITHUB_EVENT_NAME: 'push',
        GITHUB_TOKEN: TOKEN,
        HOME: process.env.HOME,
        MAVEN_OPTS: FAST_MAVEN_OPTS,
        PATH: `${bin}:${process.env.PATH}`,
      };

      // The repair step as the template has it: records only (MVNX_PUBLISH=false).
      const repair = await execa('mvnx', ['-o', '-B', '-q', 'verify', '--mvnx-json'], {
        cwd: work,
        env: { ...env, MVNX_PUBLISH: 'false' },
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
      });
      const runId = (await readFile(path.join(work, '.mvnx/runs/latest'), 'utf8')).trim();
      const record = await readRunRecord(work, runId);
      expect(record.status, repair.stderr).toBe('fixed');
      expect(record.tier).toBe('auto');
      expect(record.action).toBe('record');
      expect(record.built).toEqual({ commit: head, tree: await git(work, 'rev-parse', 'HEAD^{tree}') });
      expect(record.decisions).toContain('recorded only: the policy does not allow this patch');

      const steps = (
        parse(await readFile(path.join(root, 'examples/ci/github-actions.yml'), 'utf8')) as {
          jobs: { build: { steps: { name: string; if?: string; run?: string }[] } };
        }
      ).jobs.build.steps;
      const step = steps.find((candidate) => candidate.run?.includes('mvnx publish'))!;
      // The step's condition, as GitHub would evaluate it from the repair step's outputs: it runs.
      expect(step.if).toContain("steps.repair.outputs.tier == 'auto' && steps.repair.outputs.status == 'fixed'");
      const publish = await execa('bash', ['-e', '-c', step.run!], {
        cwd: work,
        env: { ...env, RUN_ID: runId },
        extendEnv: false,
        reject: false,
      });
      expect(publish.exitCode).toBe(3);
      expect(publish.stderr.trim().split('\n')).toEqual([
        `mvnx: publish: not published: the policy did not allow run ${runId}'s fix to be taken: src/main/java/com/acme/calc/Calculator.java: change types edit-main-source not allowed by rules[0].allowedChanges`,
      ]);
      expect(await git(bare, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/main');
      expect(api.requests).toEqual([]);
      expect(state.pulls).toEqual([]);
    } finally {
      await api.close();
    }
  }, 300_000);
});
