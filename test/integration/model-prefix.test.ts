/**
 * Stable prompt prefixes end to end: the built CLI, real Maven, and the shipped Ollama-API
 * server charging calls as llama.cpp's prompt cache does (src/bench/model-cost.ts). Each
 * request after the first must begin with (at least 90% of) the one before it, as the
 * model reads it, so the server evaluates little more than what is new.
 */
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { renderPromptAsModelReadsIt, sharedPrefixShare } from '../../src/bench/model-cost.js';
import { startScriptedOllama, type ScriptedOllama } from '../../src/bench/scripted-ollama.js';
import { copyProject, repairFixtures, reply, runMvnx, type ProjectCopy } from '../helpers/repair-project.js';

const MODEL_ONLY = `tier: monitor
fixers:
  enabled: false
budget:
  dynamic: false
  maxAttempts: 4
  maxModelCalls: 4
`;
const RATES = { prompt: 60, output: 8, load: 6, scale: 0 };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function project(name: string): Promise<ProjectCopy> {
  const copy = await copyProject(path.join(repairFixtures, name), MODEL_ONLY);
  cleanups.push(copy.remove);
  return copy;
}

async function server(replies: string[]): Promise<ScriptedOllama> {
  const started = await startScriptedOllama(replies, { cost: RATES });
  cleanups.push(started.close);
  return started;
}

const readAsModel = (scripted: ScriptedOllama) => scripted.requests().map((body) => renderPromptAsModelReadsIt(body));

describe('stable prompt prefixes', () => {
  it('single-shot: the second call begins with the first and evaluates at most a quarter of its prompt', async () => {
    const copy = await project('calc-semicolon');
    const scripted = await server([
      await reply('semicolon-wrong-line'),
      await reply('semicolon-wrong-line-2'),
      await reply('semicolon-wrong-counts'),
    ]);

    const run = await runMvnx(copy.root, ['-o', '-B', '-q', 'verify', `--mvnx-host=${scripted.url}`, '--mvnx-json']);

    expect(
      run.record?.attempts.map((a) => a.outcome),
      run.stderr,
    ).toEqual(['build-failed', 'build-failed']);
    const prompts = readAsModel(scripted);
    expect(prompts).toHaveLength(2);
    expect(sharedPrefixShare(prompts[0]!, prompts[1]!)).toBeGreaterThanOrEqual(0.9);
    // The model was loaded ahead (a request with nothing to read), so no chat paid for the load.
    const charges = scripted.charges();
    expect(charges[0]).toMatchObject({ promptTokens: 0, loadSeconds: 6 });
    const calls = charges.filter((charge) => charge.promptTokens > 0);
    expect(calls.map((charge) => charge.loadSeconds)).toEqual([0, 0]);
    expect(calls[1]!.evaluatedTokens / calls[1]!.promptTokens).toBeLessThanOrEqual(0.25);
    // The run record keeps the server's own counters per call.
    const ms = (seconds: number) => Math.round(seconds * 1000);
    expect(run.record?.modelRequests?.map((request) => request.outcome)).toEqual(['answered', 'answered']);
    // A request mvnx closed at a whole answer has no final line, so no server counters (and says so); the cost server
    // may have charged a line or two more by the time it heard the close.
    const requests = run.record?.modelRequests ?? [];
    expect(requests).toHaveLength(calls.length);
    requests.forEach((request, index) => {
      const { promptTokens, completionTokens, loadMs, promptEvalMs, evalMs } = request;
      const counters = { promptTokens, completionTokens, loadMs, promptEvalMs, evalMs };
      const charge = calls[index]!;
      if (request.stoppedEarly) {
        expect(Object.values(counters).every((value) => value === undefined)).toBe(true);
        // mvnx's estimate instead, the way the cache charged it: near the server's count of evaluated tokens.
        const estimate = request.estimatedTokens!;
        expect(Math.abs(estimate.prompt - charge.evaluatedTokens), JSON.stringify({ estimate, charge })).toBeLessThan(
          Math.max(10, charge.evaluatedTokens * 0.15),
        );
        expect(estimate.completion).toBeLessThanOrEqual(charge.outputTokens);
        return;
      }
      expect(counters).toEqual({
        promptTokens: charge.evaluatedTokens,
        completionTokens: charge.outputTokens,
        loadMs: ms(charge.loadSeconds),
        promptEvalMs: ms(charge.promptSeconds),
        evalMs: ms(charge.outputSeconds),
      });
    });
  });
});
