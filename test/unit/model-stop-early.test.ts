/**
 * Stopping the generation once the answer is whole, through the real `ollama` client and
 * the shipped Ollama-API server charging as the cost model does (it streams a line at a
 * time and charges only what it wrote before the client closed the stream), and through
 * a loopback OpenAI-compatible server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CallCharge } from '../../src/bench/model-cost.js';
import { startScriptedOllama, type ScriptedOllama } from '../../src/bench/scripted-ollama.js';
import { estimateTokens } from '../../src/model/context-window.js';
import { OllamaProvider } from '../../src/model/ollama-provider.js';
import { OpenAiCompatibleProvider } from '../../src/model/openai-provider.js';
import { ModelTraffic } from '../../src/model/traffic.js';
import type { ChatRequest, ModelSettings } from '../../src/model/types.js';
import { diffAnswerComplete } from '../../src/repair/proposers/answer-complete.js';
import { SERIES_DIFF_ANSWER } from '../helpers/model-replies.js';
import { startOpenAiMock, type OpenAiMock } from '../helpers/openai-mock.js';

const DIFF = SERIES_DIFF_ANSWER;
const CHATTER = Array.from({ length: 12 }, (_, i) => `Chatter line ${i + 1} explains the fix once more.`).join('\n');
const REPLY = `${DIFF}\n${CHATTER}\n`;

const ask: ChatRequest = { messages: [{ role: 'user', content: 'Fix Series.java.' }] };
const RATES = { prompt: 60, output: 8, load: 6, scale: 0 };

function settings(host: string, provider: ModelSettings['provider'], name: string): ModelSettings {
  return { provider, name, host, temperature: 0, seed: 42, numCtx: 8192, timeoutSeconds: 30 };
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});

/** The server's charges of calls that asked something, once `ready` holds for the last (or after 3 s). */
async function chargedCalls(server: ScriptedOllama, ready: (charge: CallCharge) => boolean): Promise<CallCharge[]> {
  const calls = () => server.charges().filter((c) => c.promptTokens > 0);
  for (let waited = 0; waited < 3000 && !(calls().length > 0 && ready(calls().at(-1)!)); waited += 20)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return calls();
}

async function ollama(): Promise<{ server: ScriptedOllama; provider: OllamaProvider; traffic: ModelTraffic }> {
  const server = await startScriptedOllama([REPLY], { cost: RATES });
  servers.push(server);
  const traffic = new ModelTraffic();
  const provider = new OllamaProvider(settings(server.url, 'ollama', 'qwen2.5-coder:7b'), { traffic });
  return { server, provider, traffic };
}

describe('Ollama: the stream is closed once the diff is whole', () => {
  it('ends the request at the closing fence: the patch is in, the chatter is never written, the record says so', async () => {
    const { server, provider, traffic } = await ollama();

    const result = await provider.chat({ ...ask, isComplete: diffAnswerComplete });

    expect(result.text).toBe(`${DIFF}\nChatter line 1 explains the fix once more.\n`);
    expect(result.stoppedEarly).toBe(true);
    // The server stopped writing when the client went: only the answer up to the fence is charged. It notices the
    // close before its next line, which may be after chat() returned.
    const [charge] = await chargedCalls(server, (c) => c.stoppedEarly === true);
    expect(charge).toMatchObject({ stoppedEarly: true });
    expect(charge!.outputTokens).toBeLessThan(estimateTokens(REPLY) - estimateTokens(CHATTER) / 2);
    expect(charge!.outputTokens).toBeGreaterThanOrEqual(estimateTokens(DIFF));
    const [record] = traffic.requests;
    expect(record).toMatchObject({ outcome: 'answered', stoppedEarly: true });
    // The server's counters come with the answer's last line, which was never read.
    expect(record!.completionTokens).toBeUndefined();
    expect(record!.doneReason).toBeUndefined();
  });

  it('reads to the end without a predicate, and records the server own reason', async () => {
    const { server, provider, traffic } = await ollama();

    const result = await provider.chat(ask);

    expect(result.text).toBe(REPLY);
    expect(result.stoppedEarly).toBeUndefined();
    expect(result.doneReason).toBe('stop');
    const [charge] = server.charges().filter((c) => c.promptTokens > 0);
    expect(charge!.outputTokens).toBe(estimateTokens(REPLY));
    expect(charge!.stoppedEarly).toBeUndefined();
    expect(traffic.requests[0]).toMatchObject({ outcome: 'answered', doneReason: 'stop' });
    expect(traffic.requests[0]!.stoppedEarly).toBeUndefined();
  });

  it('the next request of the model finds the cut answer in the cache, as llama.cpp keeps what it wrote', async () => {
    const server = await startScriptedOllama([REPLY, 'Nothing more.'], { cost: RATES });
    servers.push(server);
    const provider = new OllamaProvider(settings(server.url, 'ollama', 'qwen2.5-coder:7b'));
    const first = await provider.chat({ ...ask, isComplete: diffAnswerComplete });
    await provider.chat({
      messages: [...ask.messages, { role: 'assistant', content: first.text }, { role: 'user', content: 'Again.' }],
    });
    const [, second] = await chargedCalls(server, () => true);
    expect(second!.evaluatedTokens / second!.promptTokens).toBeLessThan(0.5);
  });
});

describe('OpenAI-compatible: the stream is closed once the diff is whole', () => {
  it('stops reading at the closing fence and records it', async () => {
    const mock: OpenAiMock = await startOpenAiMock({ replies: [REPLY], chunks: 40, tokenDelayMs: 5 });
    servers.push(mock);
    const traffic = new ModelTraffic();
    const provider = new OpenAiCompatibleProvider(
      settings(mock.url, 'openai-compatible', 'qwen2.5-coder-7b-instruct'),
      { traffic },
    );

    const result = await provider.chat({ ...ask, isComplete: diffAnswerComplete });

    expect(result.text.startsWith(DIFF)).toBe(true);
    expect(result.text).not.toContain('Chatter line 3');
    expect(result.stoppedEarly).toBe(true);
    expect(traffic.requests[0]).toMatchObject({ outcome: 'answered', stoppedEarly: true });
  });
});
