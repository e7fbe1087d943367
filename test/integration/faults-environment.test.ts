/**
 * A verification build the machine failed, not the candidate (issue 49 item 5): here a test
 * JVM killed from outside (SIGKILL, as the kernel's OOM killer or a CI runner's memory limit
 * does it) while the candidate's tests run in the sandbox. The run stops with a reason of
 * its own; the fix is not blamed and no other candidate is tried against a broken machine.
 */
import { cp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startOllamaMock } from '../helpers/ollama-mock.js';
import { repairFixtures, reply, runMvnx } from '../helpers/repair-project.js';
import { tempDir } from '../helpers/temp-dir.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Kills its own JVM, as an OOM killer would: only where the tests run, the compile error keeps them from the user's. */
const KILLED_FORK_TEST = `package com.acme.calc;

import org.junit.jupiter.api.Test;

class QuarterlyReportTest {

    @Test
    void rendersTheQuarter() throws Exception {
        long self = ProcessHandle.current().pid();
        new ProcessBuilder("kill", "-9", Long.toString(self)).start().waitFor();
        Thread.sleep(30_000);
    }
}
`;

it('a test JVM killed during verification: stop with its own reason, the model is not asked again', async () => {
  const dir = await tempDir('mvnx-env-fault-');
  const root = path.join(dir, 'calc-semicolon');
  await cp(path.join(repairFixtures, 'calc-semicolon'), root, { recursive: true });
  await writeFile(path.join(root, 'src/test/java/com/acme/calc/QuarterlyReportTest.java'), KILLED_FORK_TEST);
  await writeFile(
    path.join(root, '.mvnxrc.yaml'),
    'tier: monitor\nfixers:\n  enabled: false\nbudget:\n  dynamic: false\n  maxAttempts: 3\n  maxModelCalls: 3\n',
  );
  const model = await startOllamaMock({
    replies: [await reply('semicolon-wrong-counts'), await reply('semicolon-wrong-line')],
  });
  cleanups.push(() => model.close());

  const run = await runMvnx(root, ['-o', '-B', 'verify', `--mvnx-host=${model.url}`, '--mvnx-json']);
  const record = run.record!;
  expect(record, run.stderr).toBeDefined();
  expect(record.stopReason, run.stderr).toBe('error');
  expect(record.message).toMatch(
    /^a verification build failed for a reason of this machine, not of the fix: a test JVM killed from outside/,
  );
  expect(record.attempts).toHaveLength(1);
  expect(record.attempts[0]!.outcome).toBe('build-failed');
  expect(record.attempts[0]!.reason).toMatch(/^environment: the build could not run here: a test JVM killed/);
  // No other candidate against a broken machine: one model call.
  expect(model.chatRequests()).toHaveLength(1);
  expect(run.exitCode).toBe(1);
}, 240_000);
