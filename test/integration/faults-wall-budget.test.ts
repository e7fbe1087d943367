/**
 * The wall-time budget holds while a model call waits: a real loopback Ollama server that
 * accepts the chat request and never answers, a model timeout far beyond the budget, and
 * the repair must end at the budget (within a second), saying so. So must a verification
 * build and the flaky re-check that run past it (issue 49 item 3: every wait).
 */
import { afterEach, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startOllamaMock } from '../helpers/ollama-mock.js';
import { copyProject, repairFixtures, reply, repoRoot, runMvnx } from '../helpers/repair-project.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

it('a held model call ends at the wall-time budget, not at the model timeout', async () => {
  const copy = await copyProject(path.join(repoRoot, 'examples/compile-error'));
  cleanups.push(copy.remove);
  const server = await startOllamaMock({ hang: 'chat' });
  cleanups.push(() => server.close());

  const wallSeconds = 8;
  const run = await runMvnx(copy.root, [
    '-o',
    '-B',
    '-q',
    'verify',
    `--mvnx-host=${server.url}`,
    '--mvnx-no-fixers',
    `--mvnx-max-wall-seconds=${wallSeconds}`,
    '--mvnx-model-timeout=60',
    '--mvnx-json',
  ]);
  const record = run.record!;
  expect(record, run.stderr).toBeDefined();
  expect(record.stopReason).toBe('budget-exhausted');
  expect(record.message).toMatch(/^stopped at the (\d+)s wall-time budget while waiting for the model$/);
  const budget = Number(/the (\d+)s wall-time/.exec(record.message ?? '')![1]);
  expect(budget).toBeLessThan(60);
  // The held request ran inside the budget and was given up at it: the run ended right after (within a second).
  const [held] = record.modelRequests ?? [];
  // Given up at the budget: cancelled, as a request mvnx itself ends is recorded (issue 44).
  expect(held?.outcome).toBe('cancelled');
  expect(held!.durationMs).toBeLessThanOrEqual(budget * 1000);
  const heldEnded = new Date(held!.startedAt).getTime() + held!.durationMs;
  expect(new Date(record.finishedAt).getTime() - heldEnded).toBeLessThan(1000);
  // The budget counts from the start of the repair session; before it, only diagnosis and set-up (a few seconds on a
  // busy machine), never the 60 s model timeout.
  expect(record.timings!.totalMs).toBeLessThan(budget * 1000 + 10_000);
  expect(record.attempts).toEqual([]);
  expect(run.exitCode).toBe(1);
});

const CONFIG = `tier: monitor
fixers:
  enabled: false
budget:
  dynamic: false
  maxAttempts: 2
  maxModelCalls: 2
  perAttemptTimeoutSeconds: 300
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

/** The run's TMPDIR (its workspace is there), removed after the test. */
async function scratchDir(): Promise<string> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'mvnx-wall-'));
  cleanups.push(() => rm(scratch, { recursive: true, force: true }));
  return scratch;
}

it('a verification build that runs past the budget ends at it (a 120 s test, a 20 s budget)', async () => {
  const copy = await copyProject(path.join(repairFixtures, 'calc-slow-test'), CONFIG);
  cleanups.push(copy.remove);
  const server = await startOllamaMock({ replies: [await reply('semicolon-wrong-counts')] });
  cleanups.push(() => server.close());
  const scratch = await scratchDir();

  const wallSeconds = 20;
  const run = await runMvnx(
    copy.root,
    ['-o', '-B', 'verify', `--mvnx-host=${server.url}`, `--mvnx-max-wall-seconds=${wallSeconds}`, '--mvnx-json'],
    { TMPDIR: scratch },
  );
  const record = run.record!;
  expect(record, run.stderr).toBeDefined();
  expect(record.stopReason, run.stderr).toBe('budget-exhausted');
  expect(record.message).toBe(`stopped at the ${wallSeconds}s wall-time budget while verifying attempt 1`);
  expect(record.attempts).toHaveLength(1);
  expect(record.attempts[0]).toMatchObject({
    outcome: 'interrupted',
    reason: `stopped at the ${wallSeconds}s wall-time budget during verification`,
  });
  // The 120 s test was not waited for, nor the 300 s attempt timeout: the run ended right after the budget
  // (the budget counts from the repair session's start; before it, the user's build and diagnosis).
  const afterBuild = record.timings.totalMs - (record.timings.diagnoseMs ?? 0);
  expect(afterBuild, run.stderr).toBeLessThan(wallSeconds * 1000 + 10_000);
  expect(record.attempts[0]!.timings.verifyMs ?? 0).toBeLessThan(wallSeconds * 1000);
  // Nothing of the stopped build runs on.
  expect(await javaProcessesMentioning(scratch)).toEqual([]);
  expect(run.exitCode).toBe(1);
}, 180_000);

it('a flaky re-check that runs past the budget ends at it, and no repair follows', async () => {
  const copy = await copyProject(path.join(repairFixtures, 'calc-flaky'), CONFIG);
  cleanups.push(copy.remove);
  // The user's build fails at once; the re-check (the second run of the test) would hold for 120 s.
  await writeFile(
    path.join(copy.root, 'src/test/java/com/acme/calc/ExchangeRateTest.java'),
    `package com.acme.calc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ExchangeRateTest {

    @Test
    void convertsAtTheCurrentRate() throws Exception {
        Path runs = Path.of("flaky-runs.txt");
        int previous = Files.exists(runs) ? Integer.parseInt(Files.readString(runs).trim()) : 0;
        Files.writeString(runs, Integer.toString(previous + 1));
        if (previous > 0) Thread.sleep(120_000);
        assertEquals(2, previous, "the rate service timed out");
    }
}
`,
  );
  const server = await startOllamaMock({ hang: 'chat' });
  cleanups.push(() => server.close());
  const scratch = await scratchDir();

  const wallSeconds = 15;
  const run = await runMvnx(
    copy.root,
    ['-o', '-B', 'verify', `--mvnx-host=${server.url}`, `--mvnx-max-wall-seconds=${wallSeconds}`, '--mvnx-json'],
    { TMPDIR: scratch },
  );
  const record = run.record!;
  expect(record, run.stderr).toBeDefined();
  expect(run.stderr).toContain('re-running the failing tests');
  expect(record.stopReason, run.stderr).toBe('budget-exhausted');
  expect(record.message).toBe(`stopped at the ${wallSeconds}s wall-time budget during the re-check`);
  expect(record.attempts).toEqual([]);
  const afterBuild = record.timings.totalMs - (record.timings.diagnoseMs ?? 0);
  expect(afterBuild, run.stderr).toBeLessThan(wallSeconds * 1000 + 10_000);
  expect(await javaProcessesMentioning(scratch)).toEqual([]);
  expect(run.exitCode).toBe(1);
}, 180_000);
