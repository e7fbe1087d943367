/**
 * The agent's prompt fits the model's own context window, not only the configured one:
 * through the real proposer, the real `ollama` client (behind the redaction wrapper, as
 * the engine wires it) and the Ollama-API test server, whose /api/show reports a context
 * length smaller than `model.numCtx`. A prompt past the model's length would be refused
 * as too large (no model call at all); trimmed, the session goes on.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOllamaMock, type ScriptedReply } from '../helpers/ollama-mock.js';
import type { Diagnosis } from '../../src/diagnose/types.js';
import { createProvider, Redactor, withRedaction } from '../../src/model/index.js';
import { configSchema } from '../../src/policy/schema.js';
import { toPatchPolicy } from '../../src/policy/patch-policy.js';
import { agentWindow, createAgentProposer } from '../../src/repair/agent/proposer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const FILE = 'src/main/java/com/acme/Ledger.java';
// 600 lines of about 70 characters: each read_range of 200 lines is near the 6,000-character output cap.
const SOURCE = [
  'package com.acme;',
  '',
  'public class Ledger {',
  ...Array.from(
    { length: 596 },
    (_, i) => `    private long entry${String(i).padStart(3, '0')} = ${i}L; // opening balance of account ${i}`,
  ),
  '}',
].join('\n');
const DIAGNOSIS: Diagnosis = {
  diagnostics: [
    {
      kind: 'compile',
      category: 'compile',
      fixable: true,
      message: 'cannot find symbol: balanceOf',
      file: FILE,
      line: 300,
      fingerprint: 'f1',
    },
  ],
  fingerprint: 'd1',
  fixable: true,
  modules: [],
  warnings: [],
};
const read = (start: number, end: number): ScriptedReply => ({
  text: '',
  toolCalls: [{ name: 'read_range', arguments: { file: FILE, start, end } }],
});

describe("agent prompts and the model's context window", () => {
  it("trims to the model's own context length (from /api/show) when it is below model.numCtx", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'mvnx-agent-window-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    await mkdir(path.join(root, path.dirname(FILE)), { recursive: true });
    await writeFile(path.join(root, FILE), SOURCE);
    const mock = await startOllamaMock({
      contextLength: 4096,
      replies: [read(1, 200), read(201, 400), read(401, 600), read(1, 30)],
    });
    cleanups.push(mock.close);
    const provider = withRedaction(
      createProvider({
        provider: 'ollama',
        name: 'qwen2.5-coder:7b',
        host: mock.url,
        temperature: 0,
        seed: 1,
        timeoutSeconds: 10,
        numCtx: 32768,
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
      maxSteps: 4,
      maxCandidates: 3,
      parallelBuilds: 1,
      toolCalling: 'auto',
      contextTokens: 32768,
      signal: new AbortController().signal,
      perCallTimeoutMs: 10_000,
    });

    const proposal = await propose({
      diagnosis: DIAGNOSIS,
      base: { files: [] },
      history: [],
      n: 1,
      modelCallsLeft: 4,
      attemptsLeft: 1,
    });

    // Every turn reached the model: none was refused as too large for the window.
    expect(proposal.problems.map((problem) => problem.code)).toEqual(['no-edits']);
    expect(proposal.agent).toMatchObject({ stop: 'step-limit', steps: 4, modelCalls: 4, toolCalls: { read_range: 4 } });
    const requests = mock
      .chatRequests()
      .map((request) => request.body as { options: { num_ctx: number }; messages: { content: string }[] });
    expect(requests).toHaveLength(4);
    for (const request of requests) expect(request.options.num_ctx).toBeLessThanOrEqual(4096);
    // The oldest reads were left out to fit, newest kept.
    const lastPrompt = requests[3]!.messages.map((message) => message.content).join('\n');
    expect(lastPrompt).toContain('(output left out to fit the context window; call the tool again if you need it)');
  });

  it("takes the smaller of the configured window and the model's length, and the configured one when the model's is unknown", () => {
    expect(agentWindow(8192, 4096)).toBe(4096);
    expect(agentWindow(8192, 32768)).toBe(8192);
    expect(agentWindow(8192, undefined)).toBe(8192);
    expect(agentWindow(8192, 0)).toBe(8192);
  });
});
