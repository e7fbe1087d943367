/**
 * `kill -9` of a real mvnx inside the windows no timing from outside can hit (issue 44, items 2 and 6): between
 * writing a record and renaming it into place, between renaming it and removing the run folder's owner marker,
 * between writing `latest.<pid>.tmp` and renaming it, and between making a temp folder (workspace, reused outputs,
 * log spool) and writing its owner marker. mvnx stops at the named point through its test hook
 * (src/maven/kill-window-pause.ts: MVNX_TEST_PAUSE_AT + MVNX_TEST_PAUSE_FILE), the test kills it there with SIGKILL
 * and checks the five properties: the kill's exit; the user's tree byte for byte; the next run exits with Maven's
 * code and says in one line what it put right; nothing of the killed run is left after it (TMPDIR folders, owner
 * markers, half-written files); `latest` names a whole record and the killed run is listed by `mvnx runs` (counted
 * by `--stats` as interrupted when it had no record yet).
 *
 * The Maven here is test/helpers/fake-mvn printing a real compile error of calc-semicolon (the windows are mvnx's,
 * not Maven's): a run with the deterministic quick-fix and verification takes about a second. The last case is
 * `--mvnx-sandbox=none` with real Maven and a slow test: a killed mvnx leaves its verification JVM running (nothing
 * like bubblewrap's --die-with-parent ends it), and the next run stops it.
 */
import { execa, type ResultPromise } from 'execa';
import { mkdtemp, readdir, readFile, readlink, rm, stat } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isRunFolderName } from '../../src/report/run-record.js';
import { parseRunRecord } from '../../src/report/run-record-schema.js';
import { FAKE_MVN } from '../helpers/fake-mvn.js';
import { cliPath, copyProject, FAST_MAVEN_OPTS, repairFixtures, runMvnx } from '../helpers/repair-project.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const CONFIG = `tier: monitor
budget:
  dynamic: false
  maxAttempts: 1
  maxModelCalls: 1
`;

const readFileSyncSafe = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

/** Every path under `dir` (relative), folders included. */
async function allPaths(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    found.push(entry.name);
    if (entry.isDirectory())
      for (const inner of await allPaths(path.join(dir, entry.name))) found.push(`${entry.name}/${inner}`);
  }
  return found;
}

const mvnxFolders = async (dir: string) => (await readdir(dir)).filter((name) => name.startsWith('mvnx-')).sort();

interface Setup {
  root: string;
  scratch: string;
  runs: string;
  env: NodeJS.ProcessEnv;
  before: Map<string, string>;
  snapshot(): Promise<Map<string, string>>;
}

/** calc-semicolon, its build replaced by the fake mvn printing the compile error real Maven prints for it. */
async function fakeMavenProject(): Promise<Setup> {
  const copy = await copyProject(path.join(repairFixtures, 'calc-semicolon'), CONFIG);
  cleanups.push(copy.remove);
  const scratch = await mkdtemp(path.join(tmpdir(), 'mvnx-kill-'));
  cleanups.push(() => rm(scratch, { recursive: true, force: true }));
  const source = path.join(copy.root, 'src/main/java/com/acme/calc/Calculator.java');
  const output = [
    '[INFO] BUILD FAILURE',
    '[ERROR] COMPILATION ERROR : ',
    `[ERROR] ${source}:[11,27] ';' expected`,
    '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:compile ' +
      '(default-compile) on project calc: Compilation failure',
    `[ERROR] ${source}:[11,27] ';' expected`,
    '[ERROR] -> [Help 1]',
    '',
  ].join('\n');
  const env = {
    TMPDIR: scratch,
    MVNX_MAVEN: FAKE_MVN,
    MVNX_HOST: 'http://127.0.0.1:9',
    MVNX_SANDBOX: 'none',
    FAKE_MVN_EXIT: '1',
    FAKE_MVN_STDOUT: output,
  };
  return {
    root: copy.root,
    scratch,
    runs: path.join(copy.root, '.mvnx/runs'),
    env,
    before: await copy.snapshot(),
    snapshot: copy.snapshot,
  };
}

/** Starts mvnx paused at `point`, waits until it is there, kills it with SIGKILL; returns the killed pid. */
async function killAt(setup: Setup, point: string, env: NodeJS.ProcessEnv = setup.env): Promise<number> {
  const pauseFile = path.join(setup.scratch, '..', `${path.basename(setup.scratch)}.paused`);
  cleanups.push(() => rm(pauseFile, { force: true }));
  const child: ResultPromise = execa('node', [cliPath, '-o', '-B', 'verify'], {
    cwd: setup.root,
    reject: false,
    stdin: 'ignore',
    env: {
      CI: 'true',
      MAVEN_OPTS: FAST_MAVEN_OPTS,
      ...env,
      MVNX_TEST_PAUSE_AT: point,
      MVNX_TEST_PAUSE_FILE: pauseFile,
    },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let i = 0; i < 600 && !(await exists(pauseFile)) && child.exitCode === null; i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await readFile(pauseFile, 'utf8').catch(() => 'never reached'), stderr).toBe(`${child.pid} ${point}\n`);
  child.kill('SIGKILL');
  const killed = await child;
  expect(killed.signal).toBe('SIGKILL');
  expect(killed.exitCode).toBeUndefined();
  return child.pid!;
}

/** The next run (the same failing build, no pause): Maven's code, one line about what it put right. */
async function nextRun(setup: Setup): Promise<{ runId: string; said: string; stderr: string }> {
  const idFile = path.join(setup.scratch, '..', `${path.basename(setup.scratch)}.run-id`);
  cleanups.push(() => rm(idFile, { force: true }));
  const run = await runMvnx(setup.root, ['-o', '-B', 'verify'], { ...setup.env, MVNX_RUN_ID_FILE: idFile });
  expect(run.exitCode, run.stderr).toBe(1);
  const said = run.stderr.split('\n').filter((line) => line.includes('killed before finishing'));
  expect(said, run.stderr).toHaveLength(1);
  return { runId: (await readFile(idFile, 'utf8')).trim(), said: said[0]!, stderr: run.stderr };
}

/** Nothing of any run left in TMPDIR, no marker or half-written file in `.mvnx/runs`, `latest` a whole record. */
async function expectNothingLeft(setup: Setup, latestRunId: string): Promise<void> {
  expect(await mvnxFolders(setup.scratch)).toEqual([]);
  const left = (await allPaths(setup.runs)).filter((entry) => entry.endsWith('.mvnx-owner') || entry.endsWith('.tmp'));
  expect(left).toEqual([]);
  expect((await readFile(path.join(setup.runs, 'latest'), 'utf8')).trim()).toBe(latestRunId);
  const file = path.join(setup.runs, latestRunId, 'run.json');
  expect(parseRunRecord(await readFile(file, 'utf8'), file).runId).toBe(latestRunId);
  expect(await setup.snapshot()).toEqual(setup.before);
}

async function runFolders(setup: Setup): Promise<string[]> {
  return (await readdir(setup.runs)).filter(isRunFolderName);
}

describe('kill -9 while the record is written', () => {
  it('between writing run.json.<pid>.tmp and renaming it: listed at once, recorded as interrupted by the next run', async () => {
    const setup = await fakeMavenProject();
    const pid = await killAt(setup, 'run-record-rename');
    const [killedRun] = await runFolders(setup);
    const inFolder = await readdir(path.join(setup.runs, killedRun!));
    expect(inFolder).toEqual(expect.arrayContaining(['.mvnx-owner', `run.json.${pid}.tmp`]));
    expect(inFolder).not.toContain('run.json');
    expect(await exists(path.join(setup.runs, 'latest'))).toBe(false);
    expect(await setup.snapshot()).toEqual(setup.before);
    // Before any later build: the reader already shows it.
    expect((await runMvnx(setup.root, ['runs'], setup.env)).stdout).toMatch(
      new RegExp(`${killedRun}.*error \\(incomplete\\).*interrupted`),
    );

    const next = await nextRun(setup);
    expect(next.said).toContain(`(pid ${pid})`);
    expect(next.said).toContain(`recorded run ${killedRun} as interrupted`);
    await expectNothingLeft(setup, next.runId);
    const file = path.join(setup.runs, killedRun!, 'run.json');
    const record = parseRunRecord(await readFile(file, 'utf8'), file);
    expect(record).toMatchObject({ status: 'error', stopReason: 'interrupted', mavenArgs: ['-o', '-B', 'verify'] });
    expect(record.incomplete?.pid).toBe(pid);
    const stats = await runMvnx(setup.root, ['runs', '--stats'], setup.env);
    expect(stats.stdout).toMatch(/interrupted runs\s+1 \(1 killed before writing a record/);
  }, 60_000);

  it.each(['run-record-owner', 'latest-rename'])(
    'at %s: the record is whole and stays what it says; the marker and half-written files go',
    async (point) => {
      const setup = await fakeMavenProject();
      const pid = await killAt(setup, point);
      const [killedRun] = await runFolders(setup);
      const killedFile = path.join(setup.runs, killedRun!, 'run.json');
      const whole = await readFile(killedFile, 'utf8');
      expect(parseRunRecord(whole, killedFile).incomplete).toBeUndefined();
      // `latest` never names a run whose record is not in place; here it names none yet.
      expect(await exists(path.join(setup.runs, 'latest'))).toBe(false);
      expect(await setup.snapshot()).toEqual(setup.before);

      const next = await nextRun(setup);
      expect(next.said).toContain(`(pid ${pid})`);
      expect(next.said).not.toContain('recorded run');
      await expectNothingLeft(setup, next.runId);
      // The next run reconciles earlier records (`reconciledAt`), and changes nothing of what this one says happened.
      const after = parseRunRecord(await readFile(killedFile, 'utf8'), killedFile);
      const { status, stopReason, attempts, applied, fixBase } = parseRunRecord(whole, killedFile);
      expect(after).toMatchObject({ status, stopReason, attempts, applied, fixBase });
      expect(after.incomplete).toBeUndefined();
      const list = await runMvnx(setup.root, ['runs'], setup.env);
      expect(list.stdout).toContain(killedRun);
      expect(list.stdout).toContain(next.runId);
    },
    60_000,
  );
});

describe('kill -9 between making a temp folder and marking it', () => {
  it.each([
    ['workspace-marker', /^mvnx-ws-/],
    ['outputs-marker', /^mvnx-outputs-/],
    ['log-marker', /^mvnx-log-/],
  ])(
    'at %s: the unmarked folder carries the pid in its name and the next run removes it',
    async (point, kind) => {
      const setup = await fakeMavenProject();
      const pid = await killAt(setup, point);
      const unmarked = (await mvnxFolders(setup.scratch)).filter((name) => kind.test(name));
      expect(unmarked).toHaveLength(1);
      expect(unmarked[0]).toMatch(new RegExp(`^mvnx-[a-z]+-${pid}-`));
      expect(await readdir(path.join(setup.scratch, unmarked[0]!))).toEqual([]);
      expect(await setup.snapshot()).toEqual(setup.before);

      const next = await nextRun(setup);
      expect(next.said).toContain(`(pid ${pid})`);
      expect(next.said).toMatch(/removed \d+ folders? it left in/);
      await expectNothingLeft(setup, next.runId);
    },
    60_000,
  );
});

/** Processes working in a folder under `scratch` (a workspace's Maven and its test JVMs), with their command lines. */
async function processesWorkingUnder(scratch: string): Promise<{ pid: number; cmdline: string }[]> {
  const found: { pid: number; cmdline: string }[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => '');
    if (!cwd.startsWith(`${scratch}/`)) continue;
    found.push({ pid: Number(entry), cmdline: await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '') });
  }
  return found;
}

describe('kill -9 with --mvnx-sandbox=none', () => {
  it('during verification: the next run stops the Maven and test JVMs the killed run left running', async () => {
    // calc-slow-test: the quick-fix makes the build compile, and its verification then runs a test that sleeps 120 s.
    const copy = await copyProject(path.join(repairFixtures, 'calc-slow-test'), 'tier: monitor\n');
    cleanups.push(copy.remove);
    const scratch = await mkdtemp(path.join(tmpdir(), 'mvnx-kill-'));
    cleanups.push(async () => {
      for (const { pid } of await processesWorkingUnder(scratch)) process.kill(pid, 'SIGKILL');
      await rm(scratch, { recursive: true, force: true });
    });
    const before = await copy.snapshot();
    const env = { TMPDIR: scratch, MVNX_HOST: 'http://127.0.0.1:9', MVNX_SANDBOX: 'none' };
    const child = execa('node', [cliPath, '-o', '-B', 'verify'], {
      cwd: copy.root,
      reject: false,
      stdin: 'ignore',
      env: { CI: 'true', MAVEN_OPTS: FAST_MAVEN_OPTS, ...env },
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // In the test JVM: surefire's fork is a java process working inside the workspace.
    const inTests = async () =>
      (await processesWorkingUnder(scratch)).some(({ cmdline }) => cmdline.includes('surefire'));
    for (let i = 0; i < 1200 && child.exitCode === null && !(await inTests()); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await inTests(), stderr).toBe(true);
    const killedPid = child.pid!;
    child.kill('SIGKILL');
    expect((await child).signal).toBe('SIGKILL');
    // Nothing ends them with their mvnx: the builds of its workspace run on.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await processesWorkingUnder(scratch)).length).toBeGreaterThan(0);

    // The next run (a passing build; the fake mvn is enough: the cleanup runs beside whatever Maven runs).
    const next = await runMvnx(copy.root, ['-o', '-B', 'verify'], { ...env, MVNX_MAVEN: FAKE_MVN });
    expect(next.exitCode, next.stderr).toBe(0);
    const said = next.stderr.split('\n').filter((line) => line.includes('killed before finishing'));
    expect(said, next.stderr).toHaveLength(1);
    expect(said[0]).toContain(`(pid ${killedPid})`);
    expect(said[0]).toMatch(/stopped \d+ process(es)? of its builds still running/);
    for (let i = 0; i < 50 && (await processesWorkingUnder(scratch)).length > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await processesWorkingUnder(scratch)).toEqual([]);
    expect(await mvnxFolders(scratch)).toEqual([]);
    expect(await copy.snapshot()).toEqual(before);
  }, 180_000);
});

describe("kill -9 during the user's own build", () => {
  it('Maven, in its own process group, runs on after its mvnx; the next run stops that group', async () => {
    const setup = await fakeMavenProject();
    const childPidFile = path.join(setup.scratch, '..', `${path.basename(setup.scratch)}.grandchild`);
    cleanups.push(() => rm(childPidFile, { force: true }));
    // The fake mvn starts a grandchild (a forked JVM's stand-in) and waits for it.
    const child = execa('node', [cliPath, '-o', '-B', 'verify'], {
      cwd: setup.root,
      reject: false,
      stdin: 'ignore',
      env: { CI: 'true', ...setup.env, FAKE_MVN_CHILD_PID: childPidFile },
    });
    for (let i = 0; i < 300 && !(await exists(childPidFile)) && child.exitCode === null; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const grandchild = Number((await readFile(childPidFile, 'utf8')).trim());
    cleanups.push(async () => {
      try {
        process.kill(grandchild, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    });
    const killedPid = child.pid!;
    child.kill('SIGKILL');
    expect((await child).signal).toBe('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return !readFileSyncSafe(`/proc/${pid}/stat`).includes(') Z ');
      } catch {
        return false;
      }
    };
    expect(alive(grandchild)).toBe(true);

    const next = await runMvnx(setup.root, ['-o', '-B', 'verify'], { ...setup.env, FAKE_MVN_EXIT: '0' });
    expect(next.exitCode, next.stderr).toBe(0);
    const said = next.stderr.split('\n').filter((line) => line.includes('killed before finishing'));
    expect(said, next.stderr).toHaveLength(1);
    expect(said[0]).toContain(`(pid ${killedPid})`);
    expect(said[0]).toMatch(/stopped \d+ process(es)? of its builds still running/);
    for (let i = 0; i < 50 && alive(grandchild); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(grandchild)).toBe(false);
    expect(await mvnxFolders(setup.scratch)).toEqual([]);
    expect(await setup.snapshot()).toEqual(setup.before);
  }, 60_000);
});
