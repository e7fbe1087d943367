/** The agent's per-turn prompt: its sections, both ways of calling tools, and trimming to the context window. */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnose/types.js';
import { estimateTokens } from '../../src/model/context-window.js';
import { buildAgentTurn, type AgentTurnInput } from '../../src/model/prompts/index.js';

const FAILURE: Diagnostic = {
  kind: 'test',
  category: 'test',
  fixable: true,
  message: 'expected: <90> but was: <0>',
  test: 'com.acme.DiscountTest#tenPercent',
  file: 'src/test/java/com/acme/DiscountTest.java',
  line: 9,
  fingerprint: 'f',
};

const INPUT: AgentTurnInput = {
  diagnostics: [FAILURE],
  history: [{ n: 1, outcome: 'build-failed', reason: 'still fails' }],
  editFormat: 'diff',
  mode: 'text',
  tools: [
    {
      name: 'read_range',
      description: 'lines of a file',
      parameters: '{"file": string, "start": integer}',
      states: ['understand', 'collect', 'fix'],
    },
    { name: 'write_fix', description: 'try fixes', parameters: '{"patch"?: string}', states: ['collect', 'fix'] },
  ],
  opening: { state: 'understand', tools: ['read_range'], stepsLeft: 10 },
  exchanges: [
    {
      tool: 'read_range',
      args: { file: 'A.java', start: 1 },
      result: 'A'.repeat(4000),
      after: { state: 'understand', tools: ['read_range'], stepsLeft: 9 },
    },
    {
      tool: 'read_range',
      args: { file: 'B.java', start: 1 },
      said: 'Reading B.\n{"tool": "read_range", "args": {"file": "B.java", "start": 1}}',
      result: 'B'.repeat(4000),
      after: { state: 'collect', tools: ['read_range', 'write_fix'], stepsLeft: 8 },
    },
    { tool: 'read_range', args: { file: 'C.java', start: 1 }, result: 'C'.repeat(2000) },
  ],
  contextTokens: 32_000,
  answerTokens: 1000,
};

const tokens = (messages: { content: string }[]) =>
  messages.reduce((sum, message) => sum + estimateTokens(message.content) + 8, 0);

describe('buildAgentTurn', () => {
  it('opens with role, goals, both formats and the guidelines, then the failure, the tools and the opening state', () => {
    const { messages, droppedFacts } = buildAgentTurn({ ...INPUT, guidelines: 'Prefer records.' });
    expect(droppedFacts).toBe(0);
    expect(messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    const system = messages[0]!.content;
    expect(system.indexOf('You are mvnx')).toBe(0);
    for (const heading of ['## Goals', '## How to answer', '## The fix (each patch of write_fix)', 'Prefer records.'])
      expect(system).toContain(heading);
    const opening = messages[1]!.content;
    const order = [
      '## Build failure',
      '## Earlier attempts that did not work',
      '## Tools, and the states they can be used in',
      'State: understand the failure. Tools you can use now: read_range. You have 10 tool calls.',
    ];
    const positions = order.map((heading) => opening.indexOf(heading));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(opening).toContain(
      '- read_range {"file": string, "start": integer}: lines of a file (understand, collect, fix)',
    );
    expect(messages[2]!.content).toBe('{"tool":"read_range","args":{"file":"A.java","start":1}}');
    expect(messages[3]!.content).toBe(
      `Result of read_range:\n${'A'.repeat(4000)}\n\nState: understand the failure, the same tools. 9 tool calls left. Answer with one JSON tool call.`,
    );
    // What the model wrote goes back as it wrote it.
    expect(messages[4]!.content).toBe(INPUT.exchanges[1]!.said);
    expect(messages[5]!.content).toContain(
      'State: collect what the fix needs. Tools you can use now: read_range, write_fix.',
    );
    // The newest answer has no standing yet: the session adds it when it asks the next turn.
    expect(messages[7]!.content).toBe(`Result of read_range:\n${'C'.repeat(2000)}`);
  });

  it('names the tools usable now only when they change: an unchanged list is not sent again at the end of each answer', () => {
    const standing = (tools: string[], stepsLeft: number, state: 'collect' | 'fix' = 'collect') => ({
      state,
      tools,
      stepsLeft,
    });
    const exchange = (after: ReturnType<typeof standing>) => ({
      tool: 'read_range',
      args: { file: 'A.java', start: 1 },
      result: 'x',
      after,
    });
    const { messages } = buildAgentTurn({
      ...INPUT,
      exchanges: [
        exchange(standing(['read_range', 'write_fix'], 9)),
        exchange(standing(['read_range', 'write_fix'], 8)),
        exchange(standing(['read_range', 'write_fix'], 7, 'fix')),
        exchange(standing(['read_range', 'write_fix', 'give_up'], 6, 'fix')),
        exchange(standing(['read_range', 'write_fix', 'give_up'], 5, 'fix')),
      ],
    });
    const ends = messages.filter((message) => message.content.startsWith('Result of')).map((m) => m.content);
    expect(ends.map((text) => text.slice(text.indexOf('State:')))).toEqual([
      'State: collect what the fix needs. Tools you can use now: read_range, write_fix. 9 tool calls left. Answer with one JSON tool call.',
      'State: collect what the fix needs, the same tools. 8 tool calls left. Answer with one JSON tool call.',
      'State: fix (your last fix did not pass). Tools you can use now: read_range, write_fix. 7 tool calls left. Answer with one JSON tool call.',
      'State: fix (your last fix did not pass). Tools you can use now: read_range, write_fix, give_up. 6 tool calls left. Answer with one JSON tool call.',
      'State: fix (your last fix did not pass), the same tools. 5 tool calls left. Answer with one JSON tool call.',
    ]);
  });

  it('the turns before stay as they were: a new exchange only appends', () => {
    const before = buildAgentTurn({ ...INPUT, exchanges: INPUT.exchanges.slice(0, 2) }).messages;
    const after = buildAgentTurn(INPUT).messages;
    expect(after.slice(0, before.length)).toEqual(before);
  });

  it('in native mode lists no tools in text (the server definitions carry them), and gives each call as a tool call and a tool message', () => {
    const { messages } = buildAgentTurn({
      ...INPUT,
      mode: 'native',
      exchanges: [{ ...INPUT.exchanges[2]!, id: 'call_3' }],
    });
    expect(messages[1]!.content).not.toContain('## Tools, and the states they can be used in');
    expect(messages[1]!.content).not.toContain('read_range (understand');
    expect(messages[1]!.content).not.toContain('lines of a file');
    // The state's usable tools are named, at the start and at the end of every answer.
    expect(messages[1]!.content).toContain('State: understand the failure. Tools you can use now: read_range.');
    expect(messages[2]).toEqual({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call_3', name: 'read_range', arguments: { file: 'C.java', start: 1 } }],
    });
    expect(messages[3]).toMatchObject({ role: 'tool', toolName: 'read_range', toolCallId: 'call_3' });
    expect(messages[0]!.content).toContain('Call exactly one of the tools you are offered');
  });

  it('fits the context window by dropping the oldest tool output first, keeping its call', () => {
    const full = tokens(buildAgentTurn(INPUT).messages);
    const window = full + INPUT.answerTokens - 500;
    const { messages, droppedFacts } = buildAgentTurn({ ...INPUT, contextTokens: window });
    expect(droppedFacts).toBe(1);
    expect(messages[2]!.content).toBe('{"tool":"read_range","args":{"file":"A.java","start":1}}');
    expect(messages[3]!.content).toContain(
      'Result of read_range:\n(output left out to fit the context window; call the tool again if you need it)',
    );
    expect(messages[5]!.content).toContain('B'.repeat(4000));
    expect(tokens(messages) + INPUT.answerTokens).toBeLessThanOrEqual(window);
  });

  it('cuts the last result when dropping every earlier output is not enough', () => {
    const bare = tokens(
      buildAgentTurn({
        ...INPUT,
        exchanges: INPUT.exchanges.map((exchange, index) => ({
          ...exchange,
          result: index < 2 ? '(output left out to fit the context window; call the tool again if you need it)' : '',
        })),
      }).messages,
    );
    const { messages, droppedFacts } = buildAgentTurn({ ...INPUT, contextTokens: bare + INPUT.answerTokens + 300 });
    expect(droppedFacts).toBe(2);
    expect(messages[7]!.content).toContain('... (cut to fit the context window)');
    expect(messages[7]!.content.length).toBeLessThan(2000);
  });
});
