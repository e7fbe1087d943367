/**
 * Fault injection (issue 44): mvnx killed with SIGKILL (what a CI runner does to a cancelled
 * job after its grace period) at a stage boundary of a real run: real Maven on a small
 * fixture, the verification sandbox (bubblewrap where present), a loopback Ollama server.
 * Sampled boundaries, to keep the run time small: diagnosis, the flaky re-check, the model
 * wait and verification (record writing, and the windows between making a temp folder and
 * marking it, are test/integration/kill-windows.test.ts's: a test hook pauses mvnx there). After each:
 *
 *   - the user's tree is byte for byte what it was;
 *   - the killed run left its folders (it could not remove them) and no JVM of its workspace;
 *   - the next run works, removes those folders, records the killed run as interrupted and
 *     says so in one line; then nothing of the killed run is left in TMPDIR;
 *   - `latest` names a valid record, `mvnx runs` lists the killed run, `--stats` counts it.
 */
import { execa } from 'execa';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { isRunFolderName } from '../../src/report/run-record.js';
import { parseRunRecord } from '../../src/report/run-record-schema.js';
import { startOllamaMock, type OllamaMock } from '../helpers/ollama-mock.js';
import { cliPath, copyProject, FAST_MAVEN_OPTS, repairFixtures, reply, runMvnx } from '../helpers/repair-project.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const CONFIG = `tier: monitor
fixers:
  enabled: false
budget:
  dynamic: false
  maxAttempts: 1
  maxModelCalls: 1
`;

async function javaProcessesMentioning(marker: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes('java') && cmdline.includes(marker)) found.push(pid);
  }
  return found;
}

const mvnxFolders = async (dir: string) => (await readdir(dir)).filter((name) => name.startsWith('mvnx-')).sort();

interface Boundary {
  fixture: string;
  /** The model server of the killed run. */
  server: () => Promise<OllamaMock>;
  /** True once the run is at the boundary (its stderr so far, the server, the run's TMPDIR). */
  reached: (stderr: string, mock: OllamaMock, scratch: string) => Promise<boolean>;
  /** Folders in TMPDIR the killed run must have left. */
  left: RegExp[];
  /** Written into the tree by the user's own build (the flaky test's run counter), not by mvnx. */
  userBuildWrites?: string[];
}

const boundaries: Record<string, Boundary> = {
  diagnosis: {
    fixture: 'calc-semicolon',
    server: () => startOllamaMock({ hang: 'chat' }),
    // The run folder is made as the diagnosis starts; Maven has ended by then.
    reached: async (_stderr, _mock, _scratch) => true,
    left: [],
  },
  're-check': {
    fixture: 'calc-flaky',
    server: () => startOllamaMock({ hang: 'chat' }),
    reached: async (stderr, _mock, scratch) =>
      stderr.includes('re-running the failing tests') && (await javaProcessesMentioning(scratch)).length > 0,
    left: [/^mvnx-ws-/, /^mvnx-log-/],
    userBuildWrites: ['flaky-runs.txt'],
  },
  'model wait': {
    fixture: 'calc-semicolon',
    server: () => startOllamaMock({ hang: 'chat' }),
    reached: async (stderr, mock) => stderr.includes('attempt 1: asking') && mock.chatRequests().length > 0,
    left: [/^mvnx-log-/],
  },
  verification: {
    fixture: 'calc-slow-test',
    server: async () => startOllamaMock({ replies: [await reply('semicolon-wrong-counts')] }),
    reached: async (stderr, _mock, scratch) =>
      stderr.includes('verifying: full') && (await javaProcessesMentioning(scratch)).length > 0,
    left: [/^mvnx-ws-/, /^mvnx-log-/],
  },
};

it.each(Object.keys(boundaries))(
  'kill -9 at %s: tree intact, the next run cleans up and records the killed run, latest valid',
  async (name) => {
    const boundary = boundaries[name]!;
    const copy = await copyProject(path.join(repairFixtures, boundary.fixture), CONFIG);
    cleanups.push(copy.remove);
    const scratch = await mkdtemp(path.join(tmpdir(), 'mvnx-fault-'));
    cleanups.push(() => rm(scratch, { recursive: true, force: true }));
    const mock = await boundary.server();
    cleanups.push(() => mock.close());
    const before = await copy.snapshot();
    const env = { CI: 'true', MAVEN_OPTS: FAST_MAVEN_OPTS, TMPDIR: scratch };

    const child = execa('node', [cliPath, '-o', '-B', 'verify', `--mvnx-host=${mock.url}`], {
      cwd: copy.root,
      reject: false,
      stdin: 'ignore',
      env,
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const runs = path.join(copy.root, '.mvnx/runs');
    let at = false;
    for (let i = 0; i < 600 && !at && child.exitCode === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const runFolderMade = (await readdir(runs).catch(() => [] as string[])).some(isRunFolderName);
      at = runFolderMade && (await boundary.reached(stderr, mock, scratch));
    }
    expect(at, stderr).toBe(true);
    const killedPid = child.pid!;
    child.kill('SIGKILL');
    const killed = await child;
    expect(killed.signal).toBe('SIGKILL');

    // The killed run could not clean up: its folders are there, its run folder has no record.
    const left = await mvnxFolders(scratch);
    for (const pattern of boundary.left)
      expect(
        left.some((entry) => pattern.test(entry)),
        left.join(' '),
      ).toBe(true);
    const killedRun = (await readdir(runs)).find(isRunFolderName)!;
    expect(await readdir(path.join(runs, killedRun))).not.toContain('run.json');
    // bubblewrap dies with its parent, and the JVMs with it.
    for (let i = 0; i < 25 && (await javaProcessesMentioning(scratch)).length > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await javaProcessesMentioning(scratch)).toEqual([]);
    const ignore = (tree: Map<string, string>) => {
      for (const file of boundary.userBuildWrites ?? []) tree.delete(file);
      return tree;
    };
    expect(ignore(await copy.snapshot())).toEqual(ignore(before));

    // The next run works, and puts right what the killed one left.
    const next = await startOllamaMock({ exhaustedReply: 'I cannot tell what is wrong here.' });
    cleanups.push(() => next.close());
    const run = await runMvnx(copy.root, ['-o', '-B', 'verify', `--mvnx-host=${next.url}`, '--mvnx-json'], env);
    expect([0, 1], run.stderr).toContain(run.exitCode);
    const said = run.stderr.split('\n').filter((line) => line.includes('killed before finishing'));
    expect(said, run.stderr).toHaveLength(1);
    expect(said[0]).toContain(`recorded run ${killedRun} as interrupted`);
    expect(await mvnxFolders(scratch)).toEqual([]);
    expect(ignore(await copy.snapshot())).toEqual(ignore(before));

    // `latest` names the newest finished run (issue 49): none when the next build passed and the killed run never
    // finished; when it is there, it names a whole record.
    const latest = (await readFile(path.join(runs, 'latest'), 'utf8').catch(() => undefined))?.trim();
    if (run.exitCode !== 0) expect(latest, run.stderr).toBeDefined();
    if (latest !== undefined) {
      const latestFile = path.join(runs, latest, 'run.json');
      expect(parseRunRecord(await readFile(latestFile, 'utf8'), latestFile).runId).toBe(latest);
    }
    const killedFile = path.join(runs, killedRun, 'run.json');
    const killedRecord = parseRunRecord(await readFile(killedFile, 'utf8'), killedFile);
    expect(killedRecord).toMatchObject({
      stopReason: 'interrupted',
      status: 'error',
      mavenArgs: ['-o', '-B', 'verify'],
    });
    expect(killedRecord.incomplete?.pid).toBe(killedPid);

    const list = await runMvnx(copy.root, ['runs']);
    expect(list.stdout).toMatch(new RegExp(`${killedRun}.*error \\(incomplete\\).*interrupted`));
    const stats = await runMvnx(copy.root, ['runs', '--stats']);
    expect(stats.stdout).toMatch(/interrupted runs\s+1 \(1 killed before writing a record/);
  },
  240_000,
);
