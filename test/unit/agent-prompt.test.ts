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
  state: 'collect',
  tools: [
    {
      name: 'read_range',
      description: 'lines of a file',
      parameters: '{"file": string, "start": integer}',
      states: ['understand', 'collect', 'fix'],
    },
    { name: 'write_fix', description: 'try fixes', parameters: '{"patch"?: string}', states: ['collect', 'fix'] },
  ],
  hypothesis: 'apply() divides by 10',
  facts: [
    { call: 'read_range {"file":"A.java","start":1}', output: 'A'.repeat(4000) },
    { call: 'read_range {"file":"B.java","start":1}', output: 'B'.repeat(4000) },
  ],
  fixesTried: [{ summary: 'step 3, fix 1 (A.java)', outcome: 'built, still fails' }],
  last: { tool: 'read_range', args: { file: 'C.java', start: 1 }, result: 'C'.repeat(2000) },
  stepsLeft: 7,
  contextTokens: 32_000,
  answerTokens: 1000,
};

const tokens = (messages: { content: string }[]) =>
  messages.reduce((sum, message) => sum + estimateTokens(message.content) + 8, 0);

describe('buildAgentTurn', () => {
  it('puts role, goals, answer format and edit format in the system message, and the situation in sections after it', () => {
    const { messages, droppedFacts } = buildAgentTurn(INPUT);
    expect(droppedFacts).toBe(0);
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    const system = messages[0]!.content;
    expect(system.indexOf('You are mvnx')).toBe(0);
    for (const heading of ['## Goals', '## How to answer', '## The fix (each patch of write_fix)'])
      expect(system).toContain(heading);
    const situation = messages[1]!.content;
    const order = [
      '## Build failure',
      '## Earlier attempts that did not work',
      '## What you found so far',
      '## Your hypothesis',
      '## Fixes tried',
      '## State: collect what the fix needs',
      'You have 7 tool calls left.',
    ];
    const positions = order.map((heading) => situation.indexOf(heading));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(situation).toContain('- read_range {"file": string, "start": integer}: lines of a file');
    expect(messages[2]!.content).toBe('{"tool":"read_range","args":{"file":"C.java","start":1}}');
    expect(messages[3]!.content.startsWith('Result of read_range:\nCCC')).toBe(true);
  });

  it('in native mode lists tools by name only and gives the last call as a tool call and a tool message', () => {
    const { messages } = buildAgentTurn({ ...INPUT, mode: 'native', last: { ...INPUT.last!, id: 'call_3' } });
    expect(messages[1]!.content).toContain('- read_range: lines of a file');
    expect(messages[2]).toEqual({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call_3', name: 'read_range', arguments: { file: 'C.java', start: 1 } }],
    });
    expect(messages[3]).toMatchObject({ role: 'tool', toolName: 'read_range', toolCallId: 'call_3' });
    expect(messages[0]!.content).toContain('Call exactly one of the tools you are offered');
  });

  it('leaves the edit format out while no write_fix is offered', () => {
    const { messages } = buildAgentTurn({ ...INPUT, state: 'understand', tools: [INPUT.tools[0]!] });
    expect(messages[0]!.content).not.toContain('## The fix');
  });

  it('fits the context window by dropping the oldest gathered output first, keeping its call listed', () => {
    const full = tokens(buildAgentTurn(INPUT).messages);
    const window = full + INPUT.answerTokens - 500;
    const { messages, droppedFacts } = buildAgentTurn({ ...INPUT, contextTokens: window });
    expect(droppedFacts).toBe(1);
    expect(messages[1]!.content).toContain(
      '### read_range {"file":"A.java","start":1}\n(output left out to fit the context window; call the tool again if you need it)',
    );
    expect(messages[1]!.content).toContain('B'.repeat(4000));
    expect(tokens(messages) + INPUT.answerTokens).toBeLessThanOrEqual(window);
  });

  it('cuts the last result when dropping every gathered output is not enough', () => {
    const bare = tokens(
      buildAgentTurn({
        ...INPUT,
        facts: INPUT.facts.map((fact) => ({
          ...fact,
          output: '(output left out to fit the context window; call the tool again if you need it)',
        })),
        last: { ...INPUT.last!, result: '' },
      }).messages,
    );
    const { messages, droppedFacts } = buildAgentTurn({ ...INPUT, contextTokens: bare + INPUT.answerTokens + 300 });
    expect(droppedFacts).toBe(2);
    expect(messages[3]!.content).toContain('... (cut to fit the context window)');
    expect(messages[3]!.content.length).toBeLessThan(2000);
  });
});
