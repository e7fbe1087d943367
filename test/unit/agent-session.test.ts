/**
 * The agent's state machine and guards, with the model on the other side of a real
 * loopback Ollama-API server reached through mvnx's own Ollama provider.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startOllamaMock, type OllamaMock } from '../../src/bench/ollama-api-server.js';
import { OllamaProvider } from '../../src/model/ollama-provider.js';
import type { ChatMessage } from '../../src/model/types.js';
import { runAgentSession, toolsAllowedIn } from '../../src/repair/agent/session.js';
import type { AgentTool } from '../../src/repair/agent/types.js';

let mock: OllamaMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const calls: string[] = [];
/** A reading tool that answers with what it was asked, so repeats are visible. */
const LOOK: AgentTool = {
  name: 'look',
  description: 'look at a file',
  parameters: { file: { type: 'string', description: 'a file' } },
  states: ['understand', 'collect', 'fix'],
  run: async (args) => {
    calls.push(String(args.file));
    return args.file ? { ok: true, output: `contents of ${String(args.file)}` } : { ok: false, output: 'look needs "file"' };
  },
};
const BUILD: AgentTool = { name: 'run_tests', description: 'build', parameters: {}, states: ['collect', 'fix'], run: async (_a, c) => c.runTests() };
const OPENING: ChatMessage[] = [
  { role: 'system', content: 'You are an agent.' },
  { role: 'user', content: 'The build fails.' },
];

async function session(replies: string[], maxSteps = 10, extra: { exhaustedReply?: string } = {}) {
  calls.length = 0;
  mock = await startOllamaMock({ replies, ...extra });
  const provider = new OllamaProvider({ provider: 'ollama', name: 'qwen2.5-coder:7b', host: mock.url, temperature: 0, seed: 1, timeoutSeconds: 10 });
  let builds = 0;
  const result = await runAgentSession({
    opening: OPENING,
    tools: [LOOK, BUILD],
    context: { view: { root: '/p', read: async () => undefined, list: async () => [] }, runTests: async () => ({ ok: true, output: `build ${++builds}: still failing` }) },
    chat: async (messages) => (await provider.chat({ messages })).text,
    maxSteps,
  });
  return { result, toolMessages: result.transcript.filter((m) => m.role === 'user').slice(1).map((m) => m.content) };
}

const call = (tool: string, args: Record<string, unknown> = {}) => JSON.stringify({ tool, args });
const PATCH = '```diff\n--- a/A.java\n+++ b/A.java\n@@ -1 +1 @@\n-a\n+b\n```';

describe('runAgentSession', () => {
  it('moves understand -> collect on a hypothesis and ends with the fix written after write_fix', async () => {
    const { result, toolMessages } = await session([call('look', { file: 'A.java' }), call('express_hypothesis', { hypothesis: 'a should be b' }), call('run_tests'), `${call('write_fix')}\n${PATCH}`]);
    expect(result.stop).toBe('fix-written');
    expect(result.fixText).toBe(`${call('write_fix')}\n${PATCH}`);
    expect(result.hypothesis).toBe('a should be b');
    expect(result.steps.map((s) => `${s.state}:${s.tool}:${s.ok}`)).toEqual(['understand:look:true', 'understand:express_hypothesis:true', 'collect:run_tests:true', 'collect:write_fix:true']);
    expect(result.modelCalls).toBe(4);
    expect(toolMessages[0]).toBe('contents of A.java\n\n(state: understand; tools you can use now: look, express_hypothesis, give_up)');
    expect(toolMessages[2]).toContain('build 1: still failing');
    expect(mock!.chatRequests()).toHaveLength(4);
  });

  it('refuses a tool outside its state and an unknown tool, naming what is allowed', async () => {
    const { result, toolMessages } = await session([call('run_tests'), call('rm_rf'), call('write_fix', { patch: PATCH }), call('give_up')]);
    expect(toolMessages[0]).toMatch(/^run_tests cannot be used while understanding the failure\. You can use: look, express_hypothesis, give_up\./);
    expect(toolMessages[1]).toMatch(/^there is no tool named rm_rf\. You can use: look, express_hypothesis, give_up\./);
    // write_fix is a collect/fix tool: refused in understand too.
    expect(toolMessages[2]).toMatch(/^write_fix cannot be used while understanding the failure/);
    expect(result.stop).toBe('gave-up');
    expect(result.steps.map((s) => s.ok)).toEqual([false, false, false, true]);
  });

  it('answers a repeated call from memory, and the third repeat ends the session (loop guard)', async () => {
    const same = call('look', { file: 'A.java' });
    const { result, toolMessages } = await session([same, same, same, same, call('give_up')]);
    expect(calls).toEqual(['A.java']);
    expect(toolMessages[1]).toMatch(/^You already called look with these arguments; the answer is the same:\ncontents of A\.java/);
    expect(result.stop).toBe('loop-guard');
    expect(result.modelCalls).toBe(4);
  });

  it('runs the build again when asked again: its answer can change', async () => {
    const { toolMessages } = await session([call('express_hypothesis', { hypothesis: 'h' }), call('run_tests'), call('run_tests'), call('give_up', { reason: 'no idea' })]);
    expect(toolMessages[1]).toContain('build 1');
    expect(toolMessages[2]).toContain('build 2');
  });

  it('reminds the model of the format once, and two unreadable replies in a row end the session', async () => {
    const { result, toolMessages } = await session(['I think the bug is in the divisor.', call('look', { file: 'B.java' }), 'Hmm.', 'Let me think.']);
    expect(toolMessages[0]).toMatch(/^I could not read a tool call in your reply/);
    expect(result.stop).toBe('unreadable');
    expect(result.modelCalls).toBe(4);
  });

  it('stops at the step limit, and takes a bare patch as the fix', async () => {
    const limited = await session([call('look', { file: '1' }), call('look', { file: '2' }), call('look', { file: '3' })], 2);
    expect(limited.result.stop).toBe('step-limit');
    expect(limited.result.modelCalls).toBe(2);
    const bare = await session([`The divisor is wrong.\n${PATCH}`]);
    expect(bare.result).toMatchObject({ stop: 'fix-written', fixText: `The divisor is wrong.\n${PATCH}` });
  });

  it('asks again when write_fix comes without a patch, drops a hypothesis on request, and gives up when told', async () => {
    const { result, toolMessages } = await session([
      call('express_hypothesis', { hypothesis: 'x' }),
      call('write_fix'),
      call('discard_hypothesis'),
      call('express_hypothesis'),
      call('give_up', { reason: 'cannot tell' }),
    ]);
    expect(toolMessages[1]).toMatch(/^write_fix needs the fix as "patch"/);
    expect(toolMessages[2]).toMatch(/^Hypothesis dropped/);
    expect(toolMessages[3]).toMatch(/^express_hypothesis needs "hypothesis"/);
    expect(result).toMatchObject({ stop: 'gave-up' });
    expect(result.hypothesis).toBeUndefined();
  });

  it('lists per state which tools may be used', () => {
    expect(toolsAllowedIn('understand', [LOOK, BUILD])).toEqual(['look', 'express_hypothesis', 'give_up']);
    expect(toolsAllowedIn('fix', [LOOK, BUILD])).toEqual(['look', 'run_tests', 'discard_hypothesis', 'write_fix', 'give_up']);
  });
});
