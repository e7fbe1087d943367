/**
 * The prompt's wait is told for the agent's requests too (issue 42, item 6): through the session's model as the
 * repair wires it (real provider, real `ollama` client, redaction) against the scripted Ollama-API server charging as
 * llama.cpp's prompt cache does. An agent request is not streamed: before it goes out the progress hears the tokens
 * the server reads (native tool definitions included, read once) and the last measured rate, and once the answer is
 * in, that it is in (a TTY's live line goes back to the step).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { wireModel } from '../../src/app/session-model.js';
import { startScriptedOllama } from '../../src/bench/scripted-ollama.js';
import { estimateTokens } from '../../src/model/context-window.js';
import { Redactor, type ChatMessage, type ToolSpec } from '../../src/model/index.js';
import { configSchema } from '../../src/policy/schema.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const TOOLS: ToolSpec[] = [
  {
    name: 'read_range',
    description: 'numbered lines start..end of a project file',
    parameters: {
      type: 'object',
      properties: { file: { type: 'string', description: 'project-relative path' } },
      required: ['file'],
    },
  },
];
const OPENING: ChatMessage[] = [
  { role: 'system', content: `You are mvnx, repairing a failing Maven build. ${'Rules of the session. '.repeat(80)}` },
  { role: 'user', content: `## Build failure\n\n${'expected: <90> but was: <0>\n'.repeat(30)}` },
];
const call = { name: 'read_range', arguments: { file: 'A.java' } };

describe("the prompt's wait, for requests nobody streams (the agent's)", () => {
  it('is told before each request, counting only what the server has not read, then that the answer is in', async () => {
    const server = await startScriptedOllama(
      [
        { text: '', toolCalls: [call] },
        { text: '', toolCalls: [call] },
      ],
      { cost: { prompt: 60, output: 8, load: 0, scale: 0 } },
    );
    cleanups.push(server.close);
    const told: { event: string; tokens?: number; lastRate?: number | undefined }[] = [];
    const { provider } = wireModel({
      config: {
        ...configSchema.parse({ model: { host: server.url } }),
        model: { ...configSchema.parse({}).model, host: server.url },
        sources: {},
        files: [],
      },
      env: {},
      redactor: new Redactor({}),
      note: () => {},
      runRemainingMs: () => 60_000,
      promptSent: (tokens, lastRate) => told.push({ event: 'sent', tokens, lastRate }),
      promptAnswered: () => told.push({ event: 'answered' }),
    });

    await provider.chat({ messages: OPENING, tools: TOOLS });
    const next: ChatMessage[] = [
      ...OPENING,
      { role: 'assistant', content: '', toolCalls: [call], toolName: 'read_range' },
      { role: 'tool', content: '1| package com.acme;\n\nState: understand the failure.', toolName: 'read_range' },
    ];
    await provider.chat({ messages: next, tools: TOOLS });

    expect(told.map((entry) => entry.event)).toEqual(['sent', 'answered', 'sent', 'answered']);
    const [first, , second] = told;
    // The whole first prompt, the tool definitions with it; no rate measured yet.
    expect(first!.tokens).toBeGreaterThan(estimateTokens(JSON.stringify(TOOLS)) + estimateTokens(OPENING[0]!.content));
    expect(first!.lastRate).toBeUndefined();
    // Then only the new exchange (the definitions and the opening are in the server's cache), at the rate the first
    // request measured: the server's own 60 tokens/s.
    expect(second!.tokens).toBeGreaterThan(0);
    expect(second!.tokens).toBeLessThan(first!.tokens! / 10);
    expect(second!.lastRate).toBeCloseTo(60, 0);
  });
});
