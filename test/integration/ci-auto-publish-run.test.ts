/**
 * The automatic publication path as a CI job takes it (issue 44 item 5): the whole `mvnx`
 * on a failing project under `CI=true` and GitHub Actions' variables, tier auto, with a
 * real bare git remote behind `git http-backend` (basic auth with the job's token) and the
 * loopback GitHub API. Nothing is called by the test but the CLI: the build fails, the
 * model's fix is verified in the sandbox, auto applies it, and the run itself pushes the
 * branch and opens the pull request.
 */
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { readRunRecord } from '../../src/report/run-record.js';
import { startGithubPublishApi, type GithubPublishState } from '../helpers/fake-forge-publish.js';
import { startGitHttpServer } from '../helpers/git-http-server.js';
import { startOllamaMock } from '../helpers/ollama-mock.js';
import { git } from '../helpers/publish-repo.js';
import { repairFixtures, reply, runMvnx } from '../helpers/repair-project.js';
import { tempDir } from '../helpers/temp-dir.js';

const TOKEN = 'ci-token-0123456789abcdef';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

it('CI=true, tier auto: a failing build is fixed, and the run pushes the fix branch and opens the pull request', async () => {
  const dir = await tempDir('mvnx-ci-run-');
  const work = path.join(dir, 'work');
  const remoteRoot = path.join(dir, 'remote');
  const bare = path.join(remoteRoot, 'acme', 'demo.git');
  await cp(path.join(repairFixtures, 'calc-semicolon'), work, { recursive: true });
  await writeFile(path.join(work, '.mvnxrc.yaml'), 'tier: auto\nfixers:\n  enabled: false\n');
  await mkdir(bare, { recursive: true });
  await git(bare, 'init', '-q', '--bare', '-b', 'main');
  await git(bare, 'config', 'http.receivepack', 'true');
  await git(work, 'init', '-q', '-b', 'main');
  await git(work, 'add', '.');
  await git(work, 'commit', '-q', '-m', 'calc');
  await git(work, 'push', '-q', bare, 'main');
  const mainTip = await git(work, 'rev-parse', 'HEAD');

  const state: GithubPublishState = {
    owner: 'acme',
    repo: 'demo',
    token: TOKEN,
    pulls: [],
    comments: [],
    settings: { allow_auto_merge: true, allow_squash_merge: true, allow_merge_commit: true, allow_rebase_merge: true },
    protection: {},
    rulesets: {},
  };
  const gitServer = await startGitHttpServer({ projectRoot: remoteRoot, username: 'x-access-token', password: TOKEN });
  cleanups.push(() => gitServer.close());
  const api = await startGithubPublishApi(state);
  cleanups.push(() => api.close());
  const model = await startOllamaMock({ replies: [await reply('semicolon-wrong-counts')] });
  cleanups.push(() => model.close());

  const run = await runMvnx(work, ['-o', '-B', 'verify', `--mvnx-host=${model.url}`], {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/demo',
    GITHUB_SERVER_URL: gitServer.url,
    GITHUB_API_URL: api.url,
    GITHUB_REF_NAME: 'main',
    GITHUB_RUN_ID: '7',
    GITHUB_TOKEN: TOKEN,
  });

  const runId = (await readFile(path.join(work, '.mvnx/runs/latest'), 'utf8')).trim();
  const record = await readRunRecord(work, runId);
  expect(record.status, run.stderr).toBe('fixed');
  expect(record.applied).toBe(true);
  // What was opened: one pull request from the fix branch onto main, named in the record and on the console.
  expect(state.pulls, run.stderr).toHaveLength(1);
  const [pull] = state.pulls;
  expect(pull!.base.ref).toBe('main');
  expect(pull!.head.ref).toMatch(/^mvnx\/fix-[0-9a-f]{12}$/);
  expect(run.stderr).toMatch(new RegExp(`mvnx: publish: opened pull request #1 .* from ${pull!.head.ref}`));
  expect(record.publication).toMatchObject({ forge: 'github', number: 1, branch: pull!.head.ref });
  // What was pushed: one commit on main's tip, naming the run, holding the fix and nothing else.
  const branchTip = await git(bare, 'rev-parse', pull!.head.ref);
  expect(record.publication!.commit).toBe(branchTip);
  expect(await git(bare, 'rev-parse', `${pull!.head.ref}^`)).toBe(mainTip);
  expect(await git(bare, 'log', '-1', '--format=%B', pull!.head.ref)).toContain(`Mvnx-Run: ${runId}`);
  expect(await git(bare, 'diff', '--name-only', mainTip, pull!.head.ref)).toBe(
    'src/main/java/com/acme/calc/Calculator.java',
  );
  expect(await git(bare, 'diff', mainTip, pull!.head.ref)).toMatch(
    /-\s+int result = a \* b\n\+\s+int result = a \* b;/,
  );
  // main itself is untouched on the remote; the token went as basic auth; the forge saw nothing it refused.
  expect(await git(bare, 'rev-parse', 'main')).toBe(mainTip);
  expect(gitServer.authorizations.filter(Boolean).length).toBeGreaterThan(0);
  expect(api.failures).toEqual([]);
  // The token reached neither the console nor the record.
  expect(run.stderr).not.toContain(TOKEN);
  expect(JSON.stringify(record)).not.toContain(TOKEN);
}, 240_000);
