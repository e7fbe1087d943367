/**
 * The wall-time budget holds while a model call waits: a real loopback Ollama server that
 * accepts the chat request and never answers, a model timeout far beyond the budget, and
 * the repair must end at the budget (within a second), saying so.
 */
import { afterEach, expect, it } from 'vitest';
import path from 'node:path';
import { startOllamaMock } from '../helpers/ollama-mock.js';
import { copyProject, repoRoot, runMvnx } from '../helpers/repair-project.js';

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
