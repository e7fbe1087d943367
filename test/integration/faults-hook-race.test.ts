/**
 * The pre-push hook and a second mvnx run at the same time, two real processes: the hook
 * must judge its own run (which applied a fix to the working tree under tier auto, so the
 * commits being pushed are still broken), never the run that another mvnx made `latest`.
 */
import { execa } from 'execa';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isRunFolderName } from '../../src/report/run-record.js';
import { cliPath, FAST_MAVEN_OPTS, repoRoot } from '../helpers/repair-project.js';

let scratch: string;
let work: string;
const env = {
  ...process.env,
  CI: 'true',
  MAVEN_OPTS: FAST_MAVEN_OPTS,
  MVNX_HOST: 'http://127.0.0.1:9',
  MVNX_BIN: `node ${cliPath}`,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'mvnx-hook-race-'));
  work = path.join(scratch, 'compile-error');
  await cp(path.join(repoRoot, 'examples/compile-error'), work, { recursive: true });
  await writeFile(path.join(work, '.mvnxrc.yaml'), 'tier: auto\n');
  const git = (args: string[]) => execa('git', args, { cwd: work, env });
  await git(['init', '-q', '-b', 'main']);
  await git(['add', '.']);
  await git(['commit', '-q', '-m', 'broken on purpose']);
  const install = await execa('node', [cliPath, 'hook', 'install', '--goals', '-o -B verify'], { cwd: work, env });
  expect(install.exitCode).toBe(0);
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** Run folders, not `latest` nor a folder still being made (`<id>.<pid>.tmp`, renamed once its owner marker is in). */
async function runFolders(): Promise<string[]> {
  return (await readdir(path.join(work, '.mvnx/runs')).catch(() => [] as string[])).filter(isRunFolderName);
}

it("the hook blocks the push by its own run's record while a second run makes `latest` its own", async () => {
  const hook = execa('sh', ['.git/hooks/pre-push', 'origin', 'file:///remote'], {
    cwd: work,
    env,
    input: '',
    reject: false,
  });
  // The hook's run has started its record: now the second run starts, and its record becomes `latest`.
  const deadline = Date.now() + 120_000;
  while ((await runFolders()).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const hookRun = (await runFolders())[0];
  expect(hookRun).toBeDefined();
  const second = execa('node', [cliPath, '--mvnx-tier=assist', '-o', '-B', 'verify'], {
    cwd: work,
    env,
    stdin: 'ignore',
    reject: false,
  });
  const [pushed, other] = await Promise.all([hook, second]);

  const hookRecord = JSON.parse(await readFile(path.join(work, '.mvnx/runs', hookRun!, 'run.json'), 'utf8')) as {
    applied?: boolean;
  };
  expect(hookRecord.applied, pushed.stderr).toBe(true);
  expect(pushed.stderr).toContain(`mvnx applied a verified fix to your working tree (run ${hookRun})`);
  expect(pushed.exitCode).toBe(1);
  // Two runs, two records; `latest` names one of them, whichever finished last.
  expect((await runFolders()).length).toBe(2);
  expect(other.exitCode).not.toBe(2);
  // No run id file is left behind by the hook.
  expect((await readdir(path.join(work, '.mvnx'))).filter((name) => name.startsWith('pre-push-run-id'))).toEqual([]);
});
