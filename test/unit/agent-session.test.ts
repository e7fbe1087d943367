/**
 * The agent's state machine, guards and middleware, with the model on the other side of
 * a real loopback Ollama-API server reached through mvnx's own Ollama provider, in both
 * ways a model calls tools: natively (message.tool_calls) and as JSON in its text. The
 * prompt of each turn is the real one (buildAgentTurn); write_fix's builds are a port
 * here (the integration tests build with Maven).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startOllamaMock, type OllamaMock, type ScriptedReply } from '../helpers/ollama-mock.js';
import { OllamaProvider } from '../../src/model/ollama-provider.js';
import { buildAgentTurn } from '../../src/model/prompts/index.js';
import { ModelCallError } from '../../src/model/errors.js';
import { runAgentSession, ToolCallingRefused, type FixTrial } from '../../src/repair/agent/agent-session.js';
import { fixCandidates } from '../../src/repair/agent/tools/write-fix.js';
import { allToolNames, toolsAllowedIn } from '../../src/repair/agent/toolbox.js';
import { renderPromptAsModelReadsIt, sharedPrefixShare } from '../../src/bench/model-cost.js';
import type { AgentTool } from '../../src/plugins/contracts.js';

let mock: OllamaMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const calls: string[] = [];
/** A reading tool that answers with what it was asked, so repeats and corrections are visible. */
const LOOK: AgentTool = {
  name: 'look_at_file',
  description: 'look at a file',
  parameters: {
    file: { type: 'string', description: 'a file' },
    line: { type: 'integer', description: 'a line', optional: true },
  },
  states: ['understand', 'collect', 'fix'],
  run: async (args) => {
    calls.push(`${String(args.file)}${args.line !== undefined ? `@${JSON.stringify(args.line)}` : ''}`);
    return args.file
      ? { ok: true, output: `contents of ${String(args.file)}` }
      : { ok: false, output: 'look_at_file needs "file"' };
  },
};
const BUILD: AgentTool = {
  name: 'run_tests',
  description: 'build',
  parameters: {},
  states: ['collect', 'fix'],
  run: async (_a, c) => c.runTests(),
};
const PATCH = '```diff\n--- a/A.java\n+++ b/A.java\n@@ -1 +1 @@\n-a\n+b\n```';
const PATCH_2 = PATCH.replace('+b', '+c');

interface Options {
  mode?: 'native' | 'text';
  maxSteps?: number;
  trial?: (candidates: string[]) => FixTrial;
  exhaustedReply?: string;
  tools?: boolean;
}

const failing = (candidates: string[]): FixTrial => ({
  outcomes: candidates.map(() => ({ outcome: 'build-failed', detail: 'built, still fails: x', files: ['A.java'] })),
  buildsLeft: 5,
});

async function session(replies: ScriptedReply[], options: Options = {}) {
  calls.length = 0;
  mock = await startOllamaMock({
    replies,
    ...(options.exhaustedReply ? { exhaustedReply: options.exhaustedReply } : {}),
    ...(options.tools === false ? { tools: false } : {}),
  });
  const provider = new OllamaProvider({
    provider: 'ollama',
    name: 'qwen2.5-coder:7b',
    host: mock.url,
    temperature: 0,
    seed: 1,
    timeoutSeconds: 10,
  });
  let builds = 0;
  const tried: string[][] = [];
  const results: string[] = [];
  const result = await runAgentSession({
    tools: [LOOK, BUILD],
    mode: options.mode ?? 'text',
    maxSteps: options.maxSteps ?? 10,
    maxCandidates: 3,
    context: {
      view: { root: '/p', read: async () => undefined, list: async () => [] },
      runTests: async () => ({ ok: true, output: `build ${++builds}: still failing` }),
    },
    turn: (memory) =>
      buildAgentTurn({
        diagnostics: [],
        history: [],
        editFormat: 'diff',
        ...memory,
        contextTokens: 32_000,
        answerTokens: 1000,
      }).messages,
    chat: async (messages, tools) => {
      try {
        const reply = await provider.chat({ messages, ...(tools ? { tools } : {}) });
        return { text: reply.text, ...(reply.toolCalls ? { toolCalls: reply.toolCalls } : {}) };
      } catch (error) {
        if (error instanceof ModelCallError && error.code === 'tools-unsupported')
          throw new ToolCallingRefused(error.message);
        throw error;
      }
    },
    tryFixes: async (candidates) => {
      tried.push(candidates);
      return (options.trial ?? failing)(candidates);
    },
  });
  // What each turn told the model about its last call: the tool message (native) or the user message after the call
  // (text), without the line on where the session stands that ends it.
  for (const request of mock.chatRequests().slice(1)) {
    const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
    results.push(messages.at(-1)!.content.replace(/\n\nState: [^\n]*$/, ''));
  }
  return { result, results, tried };
}

const call = (tool: string, args: Record<string, unknown> = {}) => JSON.stringify({ tool, args });
const native = (name: string, args: Record<string, unknown> = {}, text = ''): ScriptedReply => ({
  text,
  toolCalls: [{ name, arguments: args }],
});

describe('runAgentSession', () => {
  it('moves understand -> collect -> fix -> collect, and ends when a fix passes (text mode)', async () => {
    const trial = (candidates: string[]): FixTrial =>
      candidates.length === 2
        ? {
            outcomes: [
              { outcome: 'build-failed', detail: 'built, still fails: x', files: ['A.java'] },
              { outcome: 'verified', detail: 'passed', files: ['A.java'] },
            ],
            verified: 1,
            buildsLeft: 3,
          }
        : failing(candidates);
    const { result, results, tried } = await session(
      [
        call('look_at_file', { file: 'A.java' }),
        call('express_hypothesis', { hypothesis: 'a should be b' }),
        call('run_tests'),
        `${call('write_fix')}\n${PATCH}`,
        call('collect_more_information', { reason: 'need B' }),
        call('look_at_file', { file: 'B.java' }),
        `Two ways to fix it:\n${call('write_fix')}\n${PATCH}\n\n${PATCH_2}`,
      ],
      { trial },
    );
    expect(result.stop).toBe('fix-verified');
    expect(result.hypothesis).toBe('a should be b');
    expect(result.steps.map((s) => `${s.state}:${s.tool}:${s.ok}`)).toEqual([
      'understand:look_at_file:true',
      'understand:express_hypothesis:true',
      'collect:run_tests:true',
      'collect:write_fix:false',
      'fix:collect_more_information:true',
      'collect:look_at_file:true',
      'collect:write_fix:true',
    ]);
    expect(result.toolCalls).toEqual({
      look_at_file: 2,
      express_hypothesis: 1,
      run_tests: 1,
      write_fix: 2,
      collect_more_information: 1,
    });
    expect(tried).toEqual([[`${call('write_fix')}\n${PATCH}`], [PATCH, PATCH_2]]);
    expect(results[0]).toBe('Result of look_at_file:\ncontents of A.java');
    expect(results[3]).toContain('Fix 1: built, still fails: x\nNone passed.');
    expect(result.modelCalls).toBe(7);
    expect(result.mode).toBe('text');
  });

  it('only appends: each request is the one before it, its own turn and the answer ending with the state', async () => {
    await session([
      call('look_at_file', { file: 'A.java' }),
      call('express_hypothesis', { hypothesis: 'h' }),
      call('look_at_file', { file: 'B.java' }),
      `${call('write_fix')}\n${PATCH}`,
      call('give_up'),
    ]);
    const requests = mock!
      .chatRequests()
      .map((request) => (request.body as { messages: { role: string; content: string }[] }).messages);
    expect(requests.map((messages) => messages.length)).toEqual([2, 4, 6, 8, 10]);
    for (let index = 1; index < requests.length; index++)
      expect(requests[index]!.slice(0, -2)).toEqual(requests[index - 1]);
    // Every tool once, with its states, at the top: a state change adds a line at the end instead.
    expect(requests[0]![1]!.content).toContain(
      '## Tools, and the states they can be used in\n\n- look_at_file {"file": string, "line"?: integer}: look at a file (understand, collect, fix)',
    );
    expect(requests[0]![1]!.content).toContain(
      'State: understand the failure. Tools you can use now: look_at_file, express_hypothesis, give_up. You have 10 tool calls.',
    );
    // The model's own words go back as its turn.
    expect(requests[1]![2]).toEqual({ role: 'assistant', content: call('look_at_file', { file: 'A.java' }) });
    expect(requests[2]!.at(-1)!.content).toBe(
      'Result of express_hypothesis:\nNoted. Now collect what the fix needs, then call write_fix.\n\nState: collect what the fix needs. Tools you can use now: look_at_file, run_tests, express_hypothesis, discard_hypothesis, write_fix, give_up. 8 tool calls left. Answer with one JSON tool call.',
    );
    expect(requests[4]!.at(-1)!.content).toContain('Fix 1: built, still fails: x');
    expect(requests[4]!.at(-1)!.content).toContain('State: fix (your last fix did not pass).');
  });

  it('every request after the first keeps at least 90% of the one before it as its prefix, as the model reads it', async () => {
    for (const mode of ['text', 'native'] as const) {
      await session(
        [
          mode === 'native' ? native('look_at_file', { file: 'A.java' }) : call('look_at_file', { file: 'A.java' }),
          call('express_hypothesis', { hypothesis: 'h' }),
          call('look_at_file', { file: 'B.java' }),
          `${call('write_fix')}\n${PATCH}`,
          call('look_at_file', { file: 'C.java' }),
          call('give_up'),
        ],
        { mode },
      );
      const read = mock!.chatRequests().map((request) => renderPromptAsModelReadsIt(request.body));
      const shares = read.slice(1).map((text, index) => sharedPrefixShare(read[index]!, text));
      expect(shares.length).toBe(5);
      for (const share of shares) expect(share).toBeGreaterThanOrEqual(0.9);
      await mock!.close();
      mock = undefined;
    }
  });

  it('takes native tool calls, answers with a tool message, and falls back to reading the text when no call came', async () => {
    const { result, results } = await session(
      [
        native('look_at_file', { file: 'A.java' }),
        `I will state it.\n${call('express_hypothesis', { hypothesis: 'h' })}`,
        native('give_up'),
      ],
      { mode: 'native' },
    );
    expect(result.steps.map((s) => s.tool)).toEqual(['look_at_file', 'express_hypothesis', 'give_up']);
    expect(results[0]).toBe('contents of A.java');
    const second = mock!.chatRequests()[1]!.body as {
      messages: { role: string; tool_calls?: unknown }[];
      tools: { function: { name: string } }[];
    };
    expect(second.messages.slice(-2).map((message) => message.role)).toEqual(['assistant', 'tool']);
    expect(second.messages.at(-2)!.tool_calls).toEqual([
      { function: { name: 'look_at_file', arguments: { file: 'A.java' } } },
    ]);
    // Every tool is offered in every state, in one order: the definitions the template puts at the top never change.
    expect(second.tools.map((tool) => tool.function.name)).toEqual(allToolNames([LOOK, BUILD]));
    expect(result.mode).toBe('native');
  });

  it('corrects misspelled tool names and messy arguments, and tells the model in one line', async () => {
    const { result, results } = await session(
      [
        native('lookAtFile', { path: 'A.java line 12', verbose: true }),
        native('look_at_flie', { file: 'B.java', line: '7' }),
        native('rm_rf', { path: '/' }),
        native('give_up'),
      ],
      { mode: 'native' },
    );
    expect(calls).toEqual(['A.java@12', 'B.java@7']);
    expect(results[0]).toBe(
      '(mvnx corrected your call: lookAtFile → look_at_file; "path" → "file"; dropped unknown "verbose"; "A.java line 12" → file "A.java", line 12)\ncontents of A.java',
    );
    expect(results[1]).toBe('(mvnx corrected your call: look_at_flie → look_at_file; "7" → 7)\ncontents of B.java');
    expect(results[2]).toBe('There is no tool named rm_rf. You can use: look_at_file, express_hypothesis, give_up.');
    expect(result.corrections).toBe(2);
    expect(result.toolCalls).toEqual({ look_at_file: 2, give_up: 1 });
  });

  it('goes on in text mode when the server refuses native tools, and says so in the result', async () => {
    const { result } = await session([call('look_at_file', { file: 'A.java' }), call('give_up')], {
      mode: 'native',
      tools: false,
    });
    expect(result.mode).toBe('text');
    expect(result.modeNote).toContain('does not support tools');
    expect(result.steps.map((s) => s.tool)).toEqual(['look_at_file', 'give_up']);
    expect(calls).toEqual(['A.java']);
    // The refused request, then two text-mode requests without tools.
    expect(mock!.chatRequests().map((request) => Boolean((request.body as { tools?: unknown[] }).tools))).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('refuses a tool outside its state and an unknown tool, naming what is allowed', async () => {
    const { result, results } = await session([
      call('run_tests'),
      call('write_fix', { patch: PATCH }),
      call('give_up'),
    ]);
    expect(results[0]).toContain(
      '\nrun_tests cannot be used while understanding the failure. You can use: look_at_file, express_hypothesis, give_up.',
    );
    expect(results[1]).toMatch(/\nwrite_fix cannot be used while understanding the failure/);
    expect(result.stop).toBe('gave-up');
    expect(result.steps.map((s) => s.ok)).toEqual([false, false, true]);
  });

  it('answers a repeated call from memory, and the third repeat ends the session (loop guard)', async () => {
    const same = call('look_at_file', { file: 'A.java' });
    const { result, results } = await session([same, same, same, same, call('give_up')]);
    expect(calls).toEqual(['A.java']);
    expect(results[1]).toMatch(
      /You already called look_at_file with these arguments; the answer is the same:\ncontents of A\.java/,
    );
    expect(result.stop).toBe('loop-guard');
    expect(result.modelCalls).toBe(4);
  });

  it('runs the build again when asked again: its answer can change', async () => {
    const { results } = await session([
      call('express_hypothesis', { hypothesis: 'h' }),
      call('run_tests'),
      call('run_tests'),
      call('give_up', { reason: 'no idea' }),
    ]);
    expect(results[1]).toContain('build 1');
    expect(results[2]).toContain('build 2');
  });

  it('reminds the model of the format once, and two unreadable replies in a row end the session', async () => {
    const { result, results } = await session([
      'I think the bug is in the divisor.',
      call('look_at_file', { file: 'B.java' }),
      'Hmm.',
      'Let me think.',
    ]);
    expect(results[0]).toContain('I could not read a tool call in your answer');
    expect(result.stop).toBe('unreadable');
    expect(result.modelCalls).toBe(4);
  });

  it('stops at the step limit, takes a bare patch as a fix in any state, and stops when the builds run out', async () => {
    expect(
      (
        await session(
          [
            call('look_at_file', { file: '1' }),
            call('look_at_file', { file: '2' }),
            call('look_at_file', { file: '3' }),
          ],
          { maxSteps: 2 },
        )
      ).result.stop,
    ).toBe('step-limit');
    const bare = await session([`The divisor is wrong.\n${PATCH}`, call('give_up')]);
    expect(bare.tried).toEqual([[`The divisor is wrong.\n${PATCH}`]]);
    const spent = await session([`${PATCH}`], { trial: (c) => ({ ...failing(c), buildsLeft: 0 }) });
    expect(spent.result.stop).toBe('build-budget');
  });

  it('asks again when write_fix comes without a patch, drops a hypothesis on request, and ends with goals_accomplished', async () => {
    const { result, results } = await session([
      call('express_hypothesis', { hypothesis: 'x' }),
      call('write_fix'),
      call('discard_hypothesis'),
      call('express_hypothesis'),
      call('express_hypothesis', { hypothesis: 'y' }),
      `${call('write_fix')}\n${PATCH}`,
      call('goals_accomplished'),
    ]);
    expect(results[1]).toMatch(/\nwrite_fix needs the fix: as "patch", or as a fenced block after the JSON/);
    expect(results[2]).toMatch(/\nHypothesis dropped/);
    expect(results[3]).toMatch(/\nexpress_hypothesis needs "hypothesis"/);
    expect(result).toMatchObject({ stop: 'goals-accomplished', hypothesis: 'y' });
  });

  it('lists per state which tools may be used', () => {
    expect(toolsAllowedIn('understand', [LOOK, BUILD])).toEqual(['look_at_file', 'express_hypothesis', 'give_up']);
    expect(toolsAllowedIn('collect', [LOOK, BUILD])).toEqual([
      'look_at_file',
      'run_tests',
      'express_hypothesis',
      'discard_hypothesis',
      'write_fix',
      'give_up',
    ]);
    expect(toolsAllowedIn('fix', [LOOK, BUILD])).toEqual([
      'look_at_file',
      'run_tests',
      'discard_hypothesis',
      'collect_more_information',
      'write_fix',
      'goals_accomplished',
      'give_up',
    ]);
  });
});

describe('fixCandidates', () => {
  it('reads patches, patch, several whole diffs, or one fix of another format, and caps their number', () => {
    expect(fixCandidates({ patches: ['a', 'b'] }, '', 3)).toEqual({ candidates: ['a', 'b'] });
    expect(fixCandidates({ patch: ['a'] }, '', 3)).toEqual({ candidates: ['a'] });
    expect(fixCandidates({ patch: { edits: [] } }, '', 3)).toEqual({ candidates: ['{"edits":[]}'] });
    expect(fixCandidates({}, `x\n${PATCH}\ny\n${PATCH_2}`, 3)).toEqual({ candidates: [PATCH, PATCH_2] });
    const searchReplace =
      'A.java\n```java\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\nB.java\n```java\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE\n```';
    expect(fixCandidates({}, searchReplace, 3)).toEqual({ candidates: [searchReplace] });
    expect(fixCandidates({ patches: ['1', '2', '3', '4'] }, '', 3)).toEqual({
      candidates: ['1', '2', '3'],
      note: '(only the first 3 fixes were tried; 1 more were left out)',
    });
    expect(fixCandidates({}, 'no fix here', 3)).toEqual({ candidates: [] });
  });
});
