/**
 * Ctrl-C (or SIGTERM) while a candidate fix is being verified: mvnx stops Maven's whole
 * process tree, removes the workspace, records `interrupted` and exits as a shell reports
 * the signal: 130 for SIGINT, 143 for SIGTERM.
 */
import { afterEach, expect, it } from 'vitest';
import { execa } from 'execa';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startOllamaMock } from '../helpers/ollama-mock.js';
import { cliPath, copyProject, FAST_MAVEN_OPTS, repairFixtures, reply } from '../helpers/repair-project.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function javaProcessesMentioning(marker: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes('java') && cmdline.includes(marker)) found.push(pid);
  }
  return found;
}

it.each([
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)('%s during verification leaves no workspace and no JVM behind, and exits %i', async (signal, exitCode) => {
  const copy = await copyProject(
    path.join(repairFixtures, 'calc-slow-test'),
    'tier: monitor\nfixers:\n  enabled: false\n',
  );
  cleanups.push(copy.remove);
  const mock = await startOllamaMock({ replies: [await reply('semicolon-wrong-counts')] });
  cleanups.push(mock.close);
  // A private temp folder: whatever workspace mvnx makes lands here, so "none left" is checkable.
  const scratch = await mkdtemp(path.join(tmpdir(), 'mvnx-int-'));
  cleanups.push(() => rm(scratch, { recursive: true, force: true }));

  const before = await copy.snapshot();
  const child = execa('node', [cliPath, '-o', '-B', 'verify', `--mvnx-host=${mock.url}`, '--mvnx-json'], {
    cwd: copy.root,
    reject: false,
    env: { CI: 'true', MAVEN_OPTS: FAST_MAVEN_OPTS, TMPDIR: scratch },
  });
  let stderr = '';
  const reachedSlowTest = new Promise<void>((resolve) => {
    const watch = (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('verifying: full')) resolve();
    };
    child.stderr?.on('data', watch);
  });
  await reachedSlowTest;
  // Wait until the forked test JVM of the workspace build is really running.
  let workspaceJvms: string[] = [];
  for (let i = 0; i < 100 && workspaceJvms.length === 0; i++) {
    await new Promise((r) => setTimeout(r, 200));
    workspaceJvms = await javaProcessesMentioning(scratch);
  }
  expect(workspaceJvms.length, stderr).toBeGreaterThan(0);
  expect((await readdir(scratch)).some((name) => name.startsWith('mvnx-ws-'))).toBe(true);

  child.kill(signal);
  const result = await child;

  expect(result.exitCode, result.stderr).toBe(exitCode);
  const record = JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}') as {
    stopReason?: string;
    attempts?: { outcome: string }[];
  };
  expect(record.stopReason).toBe('interrupted');
  // The attempt the signal cut short says so: its build did not fail.
  expect(record.attempts?.at(-1)?.outcome).toBe('interrupted');
  expect((await readdir(scratch)).filter((name) => name.startsWith('mvnx-ws-'))).toEqual([]);
  // Give the kernel a moment to reap, then no JVM of that workspace may remain.
  for (let i = 0; i < 25 && (await javaProcessesMentioning(scratch)).length > 0; i++) {
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(await javaProcessesMentioning(scratch)).toEqual([]);
  expect(await copy.snapshot()).toEqual(before);
});
