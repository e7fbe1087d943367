/**
 * The model loads while the build is read (issue 42): the built CLI, real Maven on a test
 * that fails every other run, and the shipped Ollama-API server taking a real load time.
 * The run record alone shows the load ahead of the first chat overlapping the flaky
 * re-check; a policy that will not attempt sends no load at all. And `mvnx runs --stats`
 * over the records a real run left shows the server's own speed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { startScriptedOllama, type ScriptedOllama } from '../../src/bench/scripted-ollama.js';
import { startOllamaMock } from '../helpers/ollama-mock.js';
import type { RunRecord } from '../../src/report/run-record.js';
import { copyProject, repairFixtures, reply, runMvnx, type ProjectCopy } from '../helpers/repair-project.js';

const modelOnly = (extra = '') => `tier: monitor
fixers:
  enabled: false
budget:
  dynamic: false
  maxAttempts: 2
  maxModelCalls: 2
${extra}`;
/** A load of 8 s, taken in real time (scale 1); the chat beside the re-check is cancelled once the test passes. */
const RATES = { prompt: 600, output: 80, load: 8, scale: 1 };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function project(name: string, config: string): Promise<ProjectCopy> {
  const copy = await copyProject(path.join(repairFixtures, name), config);
  cleanups.push(copy.remove);
  return copy;
}

async function server(replies: string[]): Promise<ScriptedOllama> {
  const started = await startScriptedOllama(replies, { cost: RATES });
  cleanups.push(started.close);
  return started;
}

const verify = (host: string) => ['-o', '-B', '-q', 'verify', `--mvnx-host=${host}`, '--mvnx-json'];

/** [start, end) in ms since the epoch, read from the record. */
function interval(startedAt: string | undefined, durationMs: number | undefined): [number, number] {
  expect(startedAt).toBeDefined();
  expect(durationMs).toBeGreaterThan(0);
  const start = Date.parse(startedAt!);
  return [start, start + durationMs!];
}

describe('the model loads beside the flaky re-check', () => {
  it('a flaky test: the record times the load and the re-check, and they overlap', async () => {
    const copy = await project('calc-flaky', modelOnly());
    const scripted = await server([await reply('logic-bug-fix')]);

    const run = await runMvnx(copy.root, verify(scripted.url));
    const r: RunRecord | undefined = run.record;

    expect(r?.stopReason, run.stderr).toBe('flaky');
    // One load, asked of the server ahead of any chat: the server charged it the configured load time.
    const loads = scripted.charges().filter((charge) => charge.promptTokens === 0);
    expect(loads).toHaveLength(1);
    expect(loads[0]!.loadSeconds).toBe(8);
    expect(r!.modelLoad).toMatchObject({ host: scripted.url, model: 'qwen2.5-coder:7b' });
    // Ended (with the server's own load time), or still loading when the flaky run ended: both are timed.
    if (r!.modelLoad!.outcome === 'loaded') expect(r!.modelLoad!.loadMs).toBe(8000);
    else expect(r!.modelLoad!.outcome).toBe('loading');
    const load = interval(r!.modelLoad!.startedAt, r!.modelLoad!.durationMs);
    const recheck = interval(r!.recheckStartedAt, r!.timings.recheckMs);
    // From the record alone: each began before the other ended.
    expect(load[0], JSON.stringify({ load, recheck })).toBeLessThan(recheck[1]);
    expect(recheck[0], JSON.stringify({ load, recheck })).toBeLessThan(load[1]);
  });

  it('a policy that will not attempt (the failure kind is not a trigger) sends no load, and the record has none', async () => {
    const copy = await project('calc-flaky', modelOnly('triggers:\n  kinds: [compile]\n'));
    const mock = await startOllamaMock({ failIfCalled: true });
    cleanups.push(mock.close);

    const run = await runMvnx(copy.root, verify(mock.url));

    expect(run.record?.stopReason, run.stderr).toBe('policy-skip');
    expect(mock.requests.filter((request) => request.path === '/api/chat')).toEqual([]);
    expect(run.record!.modelLoad).toBeUndefined();
    expect(mock.failures).toEqual([]);
  });
});

describe('model cost in mvnx runs --stats, from real run records', () => {
  it("model time per verified fix and each model's tokens/s are the server's own counts", async () => {
    const copy = await project('calc-semicolon', modelOnly());
    const scripted = await startScriptedOllama(
      [await reply('semicolon-wrong-line'), await reply('semicolon-wrong-counts')],
      { cost: { prompt: 60, output: 8, load: 6, scale: 0 } },
    );
    cleanups.push(scripted.close);

    const run = await runMvnx(copy.root, verify(scripted.url));
    expect(run.record?.status, run.stderr).toBe('fixed');
    const stats = await runMvnx(copy.root, ['runs', '--stats', '--json']);

    const cost = (JSON.parse(stats.stdout) as { modelCost?: { modelMsPerVerifiedFix: number; byModel: unknown[] } })
      .modelCost;
    expect(cost, stats.stdout).toBeDefined();
    expect(cost!.modelMsPerVerifiedFix).toBe(run.record!.timings.modelMs);
    const calls = scripted.charges().filter((charge) => charge.promptTokens > 0);
    // A request mvnx closed at a whole answer has no server counts: it is counted with mvnx's estimate, apart.
    const requests = run.record!.modelRequests!;
    expect(requests).toHaveLength(calls.length);
    const counted = calls.filter((_, index) => !requests[index]!.stoppedEarly);
    const closed = requests.filter((request) => request.stoppedEarly);
    expect(closed.every((request) => request.estimatedTokens !== undefined)).toBe(true);
    expect(cost!.byModel).toEqual([
      expect.objectContaining({
        model: 'qwen2.5-coder:7b',
        requests: calls.length,
        estimatedRequests: closed.length,
        estimatedPromptTokens: closed.reduce((sum, request) => sum + request.estimatedTokens!.prompt, 0),
        estimatedOutputTokens: closed.reduce((sum, request) => sum + request.estimatedTokens!.completion, 0),
        promptTokens: counted.reduce((sum, charge) => sum + charge.evaluatedTokens, 0),
        outputTokens: counted.reduce((sum, charge) => sum + charge.outputTokens, 0),
      }),
    ]);
    // The estimate is near what the server charged (its template adds a few tokens per turn; it may have written a
    // line more before it heard the close).
    calls.forEach((charge, index) => {
      const estimate = requests[index]!.estimatedTokens;
      if (!estimate) return;
      expect(Math.abs(estimate.prompt - charge.evaluatedTokens) / charge.evaluatedTokens).toBeLessThan(0.15);
      expect(estimate.completion).toBeLessThanOrEqual(charge.outputTokens);
    });
    // The configured rates, within the server's rounding of each duration to a millisecond.
    const [speed] = cost!.byModel as { promptTokensPerSecond: number; outputTokensPerSecond: number }[];
    expect(speed!.promptTokensPerSecond).toBeCloseTo(60, 0);
    expect(speed!.outputTokensPerSecond).toBeCloseTo(8, 0);
    const table = await runMvnx(copy.root, ['runs', '--stats']);
    expect(table.stdout).toMatch(
      new RegExp(
        String.raw`speed of qwen2\.5-coder:7b\s+prompt (?:59\.9|60\.\d) tokens/s, output (?:7\.9|8\.\d) tokens/s \(2 requests` +
          (closed.length > 0 ? String.raw`, ${closed.length} closed early: ~\d+ tokens estimated\)` : String.raw`\)`),
      ),
    );
  });
});
