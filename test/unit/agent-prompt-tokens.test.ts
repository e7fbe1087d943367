/**
 * What an agent session makes the server read, through the real proposer, the real `ollama` client and the Ollama-API
 * test server: the native tool definitions (sent with every request, read once per session by a server that keeps
 * the evaluated prompt) stay within a token budget, and an answer names the tools usable now only when they change.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOllamaMock, type ScriptedReply } from '../helpers/ollama-mock.js';
import type { Diagnosis } from '../../src/diagnose/types.js';
import { estimateTokens } from '../../src/model/context-window.js';
import { createProvider, Redactor, withRedaction } from '../../src/model/index.js';
import { configSchema } from '../../src/policy/schema.js';
import { toPatchPolicy } from '../../src/policy/patch-policy.js';
import { createAgentProposer } from '../../src/repair/agent/proposer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const FILE = 'src/main/java/com/acme/Ledger.java';
const SOURCE = ['package com.acme;', '', 'public class Ledger {', '    long total() { return 0; }', '}'].join('\n');
const DIAGNOSIS: Diagnosis = {
  diagnostics: [
    {
      kind: 'compile',
      category: 'compile',
      fixable: true,
      message: 'cannot find symbol: balanceOf',
      file: FILE,
      line: 4,
      fingerprint: 'f1',
    },
  ],
  fingerprint: 'd1',
  fixable: true,
  modules: [],
  warnings: [],
};
const read = (start: number): ScriptedReply => ({
  text: '',
  toolCalls: [{ name: 'read_range', arguments: { file: FILE, start, end: start + 1 } }],
});

/**
 * The built-in tools' definitions took 1,707 estimated tokens (mvnx's estimate, ~1.25× qwen2.5-coder's count), most
 * of an agent session's first prompt; what the descriptions said twice (the goals explain the states' tools, the
 * form hints carry the example path) is gone.
 */
const TOOL_DEFINITIONS_BUDGET = 1_500;

interface ChatBody {
  tools?: { type: string; function: { name: string; description: string; parameters: object } }[];
  messages: { role: string; content: string }[];
}

async function nativeSession(replies: ScriptedReply[]): Promise<ChatBody[]> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'mvnx-agent-tokens-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  await mkdir(path.join(root, path.dirname(FILE)), { recursive: true });
  await writeFile(path.join(root, FILE), SOURCE);
  const mock = await startOllamaMock({ replies });
  cleanups.push(mock.close);
  const provider = withRedaction(
    createProvider({
      provider: 'ollama',
      name: 'qwen2.5-coder:7b',
      host: mock.url,
      temperature: 0,
      seed: 1,
      timeoutSeconds: 10,
      numCtx: 16384,
    }),
    new Redactor({}),
  );
  const propose = createAgentProposer({
    provider,
    editFormat: 'diff',
    checker: { root, policy: toPatchPolicy(configSchema.parse({})) },
    read: () => async (file) => readFile(path.join(root, file), 'utf8').catch(() => undefined),
    list: async () => [FILE],
    verify: async () => {
      throw new Error('nothing is built in this test');
    },
    fingerprint: () => 'fp',
    keepExchange: async () => {},
    maxSteps: replies.length,
    maxCandidates: 3,
    parallelBuilds: 1,
    toolCalling: 'auto',
    contextTokens: 16384,
    signal: new AbortController().signal,
    perCallTimeoutMs: 10_000,
  });
  await propose({
    diagnosis: DIAGNOSIS,
    base: { files: [] },
    history: [],
    n: 1,
    modelCallsLeft: replies.length,
    attemptsLeft: 1,
  });
  return mock.chatRequests().map((request) => request.body as ChatBody);
}

describe('what an agent session makes the server read', () => {
  it('sends the same native tool definitions on every call, within the budget, each tool and argument described', async () => {
    const requests = await nativeSession([read(1), read(2), read(3)]);
    expect(requests).toHaveLength(3);
    const tools = requests[0]!.tools!;
    expect(tools.map((tool) => tool.function.name)).toEqual(
      expect.arrayContaining(['read_range', 'extract_test_code', 'express_hypothesis', 'write_fix', 'give_up']),
    );
    for (const request of requests) expect(request.tools).toEqual(tools);
    for (const { function: tool } of tools) {
      expect(tool.description.trim(), tool.name).not.toBe('');
      const properties = (tool.parameters as { properties: Record<string, { description: string }> }).properties;
      for (const [name, property] of Object.entries(properties))
        expect(property.description.trim(), `${tool.name}.${name}`).not.toBe('');
    }
    // As the cost server renders them (one JSON object per tool, as qwen2.5-coder's template lists them).
    const definitionTokens = tools.reduce((sum, tool) => sum + estimateTokens(JSON.stringify(tool)), 0);
    expect(definitionTokens).toBeLessThanOrEqual(TOOL_DEFINITIONS_BUDGET);
  });

  it('names the usable tools in the opening and again only when they change, not at the end of every answer', async () => {
    const requests = await nativeSession([read(1), read(2), read(3), read(1)]);
    const last = requests.at(-1)!.messages;
    const toolAnswers = last.filter((message) => message.role === 'tool').map((message) => message.content);
    expect(toolAnswers).toHaveLength(3);
    // Reading keeps the session in "understand": its tools were named in the opening message.
    expect(last[1]!.content).toContain('State: understand the failure. Tools you can use now: ');
    for (const [index, answer] of toolAnswers.entries()) {
      expect(answer).not.toContain('Tools you can use now');
      expect(answer).toContain(`State: understand the failure, the same tools. ${3 - index} tool calls left.`);
    }
  });
});
