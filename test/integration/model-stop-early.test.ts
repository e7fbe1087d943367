/**
 * Stopping the generation at a whole answer, end to end: the built CLI, real Maven, and the
 * shipped Ollama-API server charging as the cost model does (a line at a time; a client
 * that closes the stream stops the writing). The scripted answer goes on chatting after
 * its diff: mvnx ends the request at the diff's closing fence, verifies that patch, and
 * the run record says the request was stopped early.
 */
import { afterEach, expect, it } from 'vitest';
import path from 'node:path';
import { estimateTokens } from '../../src/model/context-window.js';
import { startScriptedOllama } from '../../src/bench/scripted-ollama.js';
import { copyProject, readRecordFile, repairFixtures, reply, runMvnx } from '../helpers/repair-project.js';

const MODEL_ONLY = `tier: monitor
fixers:
  enabled: false
budget:
  dynamic: false
  maxAttempts: 2
  maxModelCalls: 2
`;
const CHATTER = Array.from({ length: 15 }, (_, i) => `Note ${i + 1}: multiplying keeps the other tests green.`);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

it('ends the request at the diff closing fence, verifies that patch, and records stoppedEarly', async () => {
  const copy = await copyProject(path.join(repairFixtures, 'calc-logic-bug'), MODEL_ONLY);
  cleanups.push(copy.remove);
  const fix = (await reply('logic-bug-fix')).trimEnd();
  const answer = `${fix}\n\n${CHATTER.join('\n')}\n`;
  const scripted = await startScriptedOllama([answer], { cost: { prompt: 60, output: 8, load: 6, scale: 0 } });
  cleanups.push(scripted.close);

  const run = await runMvnx(copy.root, ['-o', '-B', '-q', 'verify', `--mvnx-host=${scripted.url}`, '--mvnx-json']);

  expect(run.record?.status, run.stderr).toBe('fixed');
  expect(run.record?.attempts.map((a) => a.outcome)).toEqual(['verified']);
  expect(await readRecordFile(copy.root, 'fix.patch')).toContain('+        int result = a * b;');
  const [request] = run.record?.modelRequests ?? [];
  expect(request).toMatchObject({ outcome: 'answered', stoppedEarly: true });
  // The server wrote (and charged) the answer up to the fence and the line of prose that ends it, and at most a line
  // more: not the chatter.
  const calls = scripted.charges().filter((charge) => charge.promptTokens > 0);
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatchObject({ stoppedEarly: true });
  expect(calls[0]!.outputTokens).toBeLessThanOrEqual(estimateTokens(`${fix}\n\n${CHATTER[0]}\n${CHATTER[1]}\n`));
  // No server counts came (they are on the answer's last line): the record keeps mvnx's estimate, near the charge.
  expect(request!.promptTokens).toBeUndefined();
  const estimate = request!.estimatedTokens!;
  expect(Math.abs(estimate.prompt - calls[0]!.evaluatedTokens) / calls[0]!.evaluatedTokens).toBeLessThan(0.15);
  expect(estimate.completion).toBeGreaterThan(0);
  expect(estimate.completion).toBeLessThanOrEqual(calls[0]!.outputTokens);
  // The reply kept beside the record is what was read: the diff and the line after it, not the rest.
  const kept = await readRecordFile(copy.root, 'attempt-1.response.txt');
  expect(kept).toContain('int result = a * b;');
  expect(kept).not.toContain('Note 3:');
});
