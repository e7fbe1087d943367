import { afterEach, describe, expect, it } from 'vitest';
import { ModelCallError, ProviderUnavailableError } from '../../src/model/errors.js';
import { OllamaProvider } from '../../src/model/ollama-provider.js';
import { ModelTraffic } from '../../src/model/traffic.js';
import type { ChatRequest, ModelSettings } from '../../src/model/types.js';
import { deadServerUrl, startOllamaMock, type MockScript, type OllamaMock } from '../helpers/ollama-mock.js';

const CONTRACT_UNAVAILABLE_MS = 5000;

function settings(host: string, overrides: Partial<ModelSettings> = {}): ModelSettings {
  return {
    provider: 'ollama',
    name: 'qwen2.5-coder:7b',
    host,
    temperature: 0,
    seed: 42,
    numCtx: 16384,
    timeoutSeconds: 30,
    keepAlive: '10m',
    ...overrides,
  };
}

const ask: ChatRequest = {
  messages: [
    { role: 'system', content: 'You fix Java builds.' },
    { role: 'user', content: 'Fix Main.java line 3.' },
  ],
};

let mock: OllamaMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function startMock(script: MockScript): Promise<OllamaMock> {
  mock = await startOllamaMock(script);
  return mock;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

describe('OllamaProvider health check', () => {
  it('passes against a server that has the model, asking /api/version, /api/tags and /api/show', async () => {
    const server = await startMock({});
    const provider = new OllamaProvider(settings(server.url));
    await provider.healthCheck();
    expect(server.requests.map((r) => r.path)).toEqual(['/api/version', '/api/tags', '/api/show']);
    expect(provider.contextLength).toBe(32768);
  });

  it('accepts a model listed as name:latest when configured without a tag, and the reverse', async () => {
    const server = await startMock({ models: ['mymodel:latest', 'other'] });
    await new OllamaProvider(settings(server.url, { name: 'mymodel' })).healthCheck();
    await new OllamaProvider(settings(server.url, { name: 'other:latest' })).healthCheck();
  });

  it('reports a server that is down as unavailable within 5 s, telling the user to run ollama serve', async () => {
    const url = await deadServerUrl();
    const started = performance.now();
    const error = await failure(new OllamaProvider(settings(url)).healthCheck());
    expect(performance.now() - started).toBeLessThan(CONTRACT_UNAVAILABLE_MS);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toContain('ollama serve');
    expect(error.message).toContain(url);
    expect((error as ProviderUnavailableError).hint).toContain('ollama serve');
  });

  it('reports a server that accepts but never answers as unavailable within 5 s', async () => {
    const server = await startMock({ hang: true });
    const started = performance.now();
    const error = await failure(new OllamaProvider(settings(server.url)).healthCheck());
    expect(performance.now() - started).toBeLessThan(CONTRACT_UNAVAILABLE_MS);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toMatch(/did not answer/);
    expect(server.requests).toHaveLength(1);
  });

  it('reports a model that is not pulled, telling the user to run ollama pull with the model name', async () => {
    const server = await startMock({ modelMissing: true });
    const error = await failure(new OllamaProvider(settings(server.url)).healthCheck());
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as ProviderUnavailableError).hint).toBe('Pull the model with `ollama pull qwen2.5-coder:7b`');
  });

  it('reports a server that is not Ollama (404 on /api/version) as unavailable', async () => {
    const { startRecordingServer, sendJson } = await import('../../src/bench/recording-server.js');
    const other = await startRecordingServer((_request, response) => sendJson(response, 404, { detail: 'Not Found' }));
    try {
      const error = await failure(new OllamaProvider(settings(other.url)).healthCheck());
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect(error.message).toMatch(/HTTP 404/);
    } finally {
      await other.close();
    }
  });

  it('treats an abort by the caller as an aborted call, not as an unavailable server', async () => {
    const server = await startMock({ hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(new OllamaProvider(settings(server.url)).healthCheck(controller.signal));
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).code).toBe('aborted');
  });
});

describe('OllamaProvider chat', () => {
  it('streams the answer through onToken in several pieces and returns the whole text', async () => {
    const server = await startMock({ replies: ['Here is the fix:\n```diff\n--- a/x\n+++ b/x\n```\n'], chunks: 5 });
    const pieces: string[] = [];
    const result = await new OllamaProvider(settings(server.url)).chat({
      ...ask,
      onToken: (text) => pieces.push(text),
    });
    expect(result.text).toBe('Here is the fix:\n```diff\n--- a/x\n+++ b/x\n```\n');
    expect(pieces.length).toBeGreaterThanOrEqual(5);
    expect(pieces.join('')).toBe(result.text);
    expect(result.model).toBe('qwen2.5-coder:7b');
    expect(result.completionTokens).toBeGreaterThan(0);
    expect(result.promptTokens).toBeGreaterThan(0);
    expect(server.failures).toEqual([]);
  });

  it('runs the health check once before the first call only', async () => {
    const server = await startMock({ replies: ['one', 'two'] });
    const provider = new OllamaProvider(settings(server.url));
    await provider.chat(ask);
    await provider.chat(ask);
    expect(server.requests.map((r) => r.path)).toEqual([
      '/api/version',
      '/api/tags',
      '/api/show',
      '/api/chat',
      '/api/chat',
    ]);
  });

  it('does not check health again in chat after an explicit health check passed', async () => {
    const server = await startMock({ replies: ['one'] });
    const provider = new OllamaProvider(settings(server.url));
    await provider.healthCheck();
    await provider.chat(ask);
    expect(server.requests.map((r) => r.path)).toEqual(['/api/version', '/api/tags', '/api/show', '/api/chat']);
  });

  it('sends the messages, stream: true, temperature, seed, keep_alive and a num_ctx sized to the prompt', async () => {
    const server = await startMock({ replies: ['ok'] });
    await new OllamaProvider(settings(server.url, { temperature: 0, seed: 7, keepAlive: '5m' })).chat(ask);
    const body = server.chatRequests()[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      model: 'qwen2.5-coder:7b',
      stream: true,
      keep_alive: '5m',
      messages: ask.messages,
      options: { temperature: 0, seed: 7, num_ctx: 4096 },
    });
  });

  it('grows num_ctx with the prompt but never beyond the configured numCtx or the model context', async () => {
    const server = await startMock({ replies: ['a', 'b', 'c'], contextLength: 16384 });
    const big = (chars: number): ChatRequest => ({ messages: [{ role: 'user', content: 'x'.repeat(chars) }] });
    await new OllamaProvider(settings(server.url, { numCtx: 65536 })).chat(big(20_000));
    await new OllamaProvider(settings(server.url, { numCtx: 65536 })).chat(big(50_000));
    await new OllamaProvider(settings(server.url, { numCtx: 8192 })).chat(big(20_000));
    const sent = server.chatRequests().map((r) => (r.body as { options: { num_ctx: number } }).options.num_ctx);
    // 20k chars ~ 5.7k tokens + 2k answer -> 8192; 50k ~ 14.3k + 2k -> 16384 (model cap); the 8192 setting caps the third.
    expect(sent).toEqual([8192, 16384, 8192]);
  });

  it('never sends a smaller num_ctx than before: another window makes Ollama load the model again', async () => {
    const server = await startMock({ replies: ['a', 'b', 'c'], contextLength: 32768 });
    const provider = new OllamaProvider(settings(server.url));
    const sized = (chars: number): ChatRequest => ({ messages: [{ role: 'user', content: 'x'.repeat(chars) }] });
    await provider.chat(sized(100));
    await provider.chat(sized(20_000));
    await provider.chat(sized(100));
    const sent = server.chatRequests().map((r) => (r.body as { options: { num_ctx: number } }).options.num_ctx);
    expect(sent).toEqual([4096, 8192, 8192]);
  });

  it('preloads the model with an empty chat, keep_alive and the num_ctx the first call then sends too', async () => {
    const server = await startMock({ replies: ['a'] });
    const provider = new OllamaProvider(settings(server.url, { keepAlive: '10m' }));
    await provider.preload();
    await provider.chat(ask);
    const [load, chat] = server.requests
      .filter((r) => r.path === '/api/chat')
      .map((r) => r.body as Record<string, unknown>);
    expect(server.chatRequests()).toHaveLength(1);
    expect(load).toMatchObject({ model: 'qwen2.5-coder:7b', messages: [], keep_alive: '10m', stream: false });
    expect((load!.options as { num_ctx: number }).num_ctx).toBe((chat!.options as { num_ctx: number }).num_ctx);
    // The load used no scripted reply: the chat got the first.
    expect(server.answered()).toBe(1);
  });

  it("logs the load for the run record: when it began, how long it took, the server's load time; failed when refused", async () => {
    const server = await startMock({ replies: ['a'] });
    const traffic = new ModelTraffic();
    const provider = new OllamaProvider(settings(server.url), { traffic });
    const before = Date.now();
    const loading = provider.preload();
    // Asked for before the answer: still loading, timed so far.
    expect(traffic.loadRecord()).toMatchObject({ host: server.url, model: 'qwen2.5-coder:7b', outcome: 'loading' });
    await loading;
    const load = traffic.loadRecord()!;
    // (This server reports no load_duration without a cost model: test/integration/model-load-overlap.test.ts has one.)
    expect(load).toMatchObject({ host: server.url, outcome: 'loaded' });
    expect(Date.parse(load.startedAt)).toBeGreaterThanOrEqual(before - 1);
    expect(load.durationMs).toBeGreaterThanOrEqual(0);
    // A load is no chat call: modelRequests stays empty.
    expect(traffic.requests).toEqual([]);

    const refused = await startMock({ modelMissing: true });
    const refusedTraffic = new ModelTraffic();
    await failure(new OllamaProvider(settings(refused.url), { traffic: refusedTraffic }).preload());
    expect(refusedTraffic.loadRecord()).toMatchObject({ outcome: 'failed' });
    expect(refusedTraffic.loadRecord()!.loadMs).toBeUndefined();
    await refused.close();
  });

  it('refuses a prompt that cannot fit the window instead of letting Ollama truncate it', async () => {
    const server = await startMock({ replies: ['never'] });
    const error = await failure(
      new OllamaProvider(settings(server.url, { numCtx: 2048 })).chat({
        messages: [{ role: 'user', content: 'y '.repeat(5_000) }],
      }),
    );
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).code).toBe('prompt-too-large');
    expect(server.chatRequests()).toHaveLength(0);
  });

  it('passes a JSON schema format through for structured output', async () => {
    const server = await startMock({ replies: ['{"edits":[]}'] });
    const format = { type: 'object', properties: { edits: { type: 'array' } }, required: ['edits'] };
    const result = await new OllamaProvider(settings(server.url)).chat({ ...ask, format });
    expect(result.text).toBe('{"edits":[]}');
    expect((server.chatRequests()[0]?.body as { format: unknown }).format).toEqual(format);
  });

  it('omits format when none is asked for', async () => {
    const server = await startMock({ replies: ['plain'] });
    await new OllamaProvider(settings(server.url)).chat(ask);
    expect(server.chatRequests()[0]?.body).not.toHaveProperty('format');
  });

  it('detects a model missing at chat time by the 404 status and says to pull it', async () => {
    const server = await startMock({ replies: ['unused'] });
    const provider = new OllamaProvider(settings(server.url));
    await provider.healthCheck();
    server.script.modelMissing = true;
    const error = await failure(provider.chat(ask));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toContain('ollama pull qwen2.5-coder:7b');
  });

  it('reports a 404 whatever its message says', async () => {
    const server = await startMock({
      replies: [{ text: '', status: 404, errorMessage: 'something entirely different' }],
    });
    const error = await failure(new OllamaProvider(settings(server.url)).chat(ask));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as ProviderUnavailableError).hint).toContain('ollama pull');
  });

  it('reports a full queue (503) as unavailable', async () => {
    const server = await startMock({ busy: true });
    // Busy without Retry-After: backed off within what is left of the run (model-busy-retry.test.ts has the details).
    const until = Date.now() + 1500;
    const error = await failure(
      new OllamaProvider(settings(server.url), { runRemainingMs: () => until - Date.now() }).chat(ask),
    );
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toMatch(/busy \(HTTP 503\)/);
  });

  it('reports a 400 as a failed call carrying the status', async () => {
    const server = await startMock({
      replies: [
        { text: '', status: 400, errorMessage: 'registry.ollama.ai/library/qwen2.5-coder:7b does not support tools' },
      ],
    });
    const error = await failure(new OllamaProvider(settings(server.url)).chat(ask));
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).code).toBe('bad-request');
    expect((error as ModelCallError).status).toBe(400);
    expect(error.message).toContain('does not support tools');
  });

  it('reports an NDJSON error line under HTTP 200 as a failed call with the server message', async () => {
    const server = await startMock({
      replies: [
        {
          text: 'Here is the fix: --- a/',
          chunks: 4,
          errorAfterChunks: { after: 2, message: 'llama runner process has terminated: signal: killed' },
        },
      ],
    });
    const tokens: string[] = [];
    const error = await failure(
      new OllamaProvider(settings(server.url)).chat({ ...ask, onToken: (t) => tokens.push(t) }),
    );
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).code).toBe('stream-error');
    expect(error.message).toContain('llama runner process has terminated');
    expect(tokens).toHaveLength(2);
  });

  it('gives up on a chat that never answers after the per-call timeout', async () => {
    const server = await startMock({ hang: 'chat' });
    const started = performance.now();
    const error = await failure(new OllamaProvider(settings(server.url, { timeoutSeconds: 1 })).chat(ask));
    expect(performance.now() - started).toBeLessThan(CONTRACT_UNAVAILABLE_MS);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).code).toBe('timeout');
  });

  it('times out a stream that stalls after the first tokens', async () => {
    const server = await startMock({
      replies: [{ text: 'slow answer that takes long', chunks: 30, tokenDelayMs: 200 }],
    });
    const tokens: string[] = [];
    const error = await failure(
      new OllamaProvider(settings(server.url, { timeoutSeconds: 1 })).chat({ ...ask, onToken: (t) => tokens.push(t) }),
    );
    expect((error as ModelCallError).code).toBe('timeout');
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.length).toBeLessThan(27);
  });

  it('stops streaming when the caller aborts, reporting an aborted call', async () => {
    const server = await startMock({ replies: [{ text: 'a'.repeat(200), chunks: 100, tokenDelayMs: 20 }] });
    const controller = new AbortController();
    const tokens: string[] = [];
    const error = await failure(
      new OllamaProvider(settings(server.url)).chat({
        ...ask,
        signal: controller.signal,
        onToken: (t) => {
          tokens.push(t);
          if (tokens.length === 3) controller.abort();
        },
      }),
    );
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).code).toBe('aborted');
    expect(tokens.length).toBeLessThan(100);
  });

  it('fails fast with unavailable when the server is down at chat time', async () => {
    const url = await deadServerUrl();
    const started = performance.now();
    const error = await failure(new OllamaProvider(settings(url)).chat(ask));
    expect(performance.now() - started).toBeLessThan(CONTRACT_UNAVAILABLE_MS);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
  });

  it('hands an exception thrown by onToken back unchanged', async () => {
    const server = await startMock({ replies: ['abc def'] });
    const bug = new RangeError('progress display broke');
    const error = await failure(
      new OllamaProvider(settings(server.url)).chat({
        ...ask,
        onToken: () => {
          throw bug;
        },
      }),
    );
    expect(error).toBe(bug);
  });

  it('sends a Bearer header when an API key is configured (Ollama behind a proxy)', async () => {
    const server = await startMock({ replies: ['ok'] });
    await new OllamaProvider(settings(server.url, { apiKey: 'proxy-key-1' })).chat(ask);
    expect(server.chatRequests()[0]?.headers.authorization).toBe('Bearer proxy-key-1');
  });
});

describe('Ollama mock', () => {
  it('records a failure when a model call happens under failIfCalled', async () => {
    const server = await startMock({ failIfCalled: true, replies: ['x'] });
    await new OllamaProvider(settings(server.url)).chat(ask);
    expect(server.failures).toEqual(['/api/chat was called although the script says failIfCalled']);
  });

  it('records no failure under failIfCalled when only the health check runs', async () => {
    const server = await startMock({ failIfCalled: true });
    await new OllamaProvider(settings(server.url)).healthCheck();
    expect(server.failures).toEqual([]);
  });

  it('records a failure when the script runs out of replies', async () => {
    const server = await startMock({ replies: [] });
    await expect(new OllamaProvider(settings(server.url)).chat(ask)).rejects.toBeInstanceOf(ModelCallError);
    expect(server.failures).toEqual(['/api/chat call 1 has no scripted reply']);
  });

  it('answers a non-streamed chat and a generate call for other clients', async () => {
    const server = await startMock({
      replies: ['whole', (request) => `echo ${(request.body as { prompt: string }).prompt}`],
    });
    const { Ollama } = await import('ollama');
    const client = new Ollama({ host: server.url });
    const chat = await client.chat({
      model: 'qwen2.5-coder:7b',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    });
    expect(chat.message.content).toBe('whole');
    expect(chat.done).toBe(true);
    const generated = await client.generate({ model: 'qwen2.5-coder:7b', prompt: 'ping', stream: false });
    expect(generated.response).toBe('echo ping');
  });
});
