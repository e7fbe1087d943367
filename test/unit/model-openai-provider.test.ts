import { afterEach, describe, expect, it } from 'vitest';
import { ModelCallError, ProviderUnavailableError } from '../../src/model/errors.js';
import { OpenAiCompatibleProvider } from '../../src/model/openai-provider.js';
import type { ChatRequest, ModelSettings } from '../../src/model/types.js';
import { deadServerUrl } from '../helpers/mock-server.js';
import { startOpenAiMock, type OpenAiMock, type OpenAiMockScript } from '../helpers/openai-mock.js';

const CONTRACT_UNAVAILABLE_MS = 5000;
const ask: ChatRequest = { messages: [{ role: 'user', content: 'Fix it.' }] };

function settings(host: string, overrides: Partial<ModelSettings> = {}): ModelSettings {
  return {
    provider: 'openai-compatible',
    name: 'qwen2.5-coder-7b-instruct',
    host,
    temperature: 0,
    seed: 42,
    timeoutSeconds: 30,
    ...overrides,
  };
}

let mock: OpenAiMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});
async function startMock(script: OpenAiMockScript): Promise<OpenAiMock> {
  mock = await startOpenAiMock(script);
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

describe('OpenAiCompatibleProvider', () => {
  it('checks health with GET /v1/models and finds the model', async () => {
    const server = await startMock({});
    await new OpenAiCompatibleProvider(settings(server.url)).healthCheck();
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
  });

  it('accepts a host given with its /v1 suffix and a model listed as a gguf file', async () => {
    const server = await startMock({ models: ['models/qwen2.5-coder-7b-instruct-q4_k_m.gguf'] });
    const provider = new OpenAiCompatibleProvider(
      settings(`${server.url}/v1/`, { name: 'qwen2.5-coder-7b-instruct-q4_k_m' }),
    );
    expect(provider.host).toBe(server.url);
    await provider.healthCheck();
  });

  it('names the served models when the configured one is not among them', async () => {
    const server = await startMock({ models: ['llama-3.1-8b', 'phi-4'] });
    const error = await failure(new OpenAiCompatibleProvider(settings(server.url)).healthCheck());
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toContain('llama-3.1-8b, phi-4');
  });

  it('reports a server that is down, or that never answers, as unavailable within 5 s', async () => {
    const down = await deadServerUrl();
    const hung = await startMock({ hang: true });
    for (const url of [down, hung.url]) {
      const started = performance.now();
      const error = await failure(new OpenAiCompatibleProvider(settings(url)).healthCheck());
      expect(performance.now() - started).toBeLessThan(CONTRACT_UNAVAILABLE_MS);
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect((error as ProviderUnavailableError).hint).toMatch(/Start the model server/);
    }
  });

  it('streams SSE tokens to onToken, with keep-alive comments and CRLF line ends', async () => {
    const server = await startMock({
      replies: ['--- a/A.java\n+++ b/A.java\n'],
      chunks: 6,
      keepAliveComments: true,
      crlf: true,
    });
    const tokens: string[] = [];
    const result = await new OpenAiCompatibleProvider(settings(server.url)).chat({
      ...ask,
      onToken: (t) => tokens.push(t),
    });
    expect(result.text).toBe('--- a/A.java\n+++ b/A.java\n');
    expect(tokens).toHaveLength(6);
    expect(result.completionTokens).toBeGreaterThan(0);
    expect(result.promptTokens).toBeGreaterThan(0);
  });

  it('sends stream, temperature, seed and the model, and a json_schema response_format when a format is given', async () => {
    const server = await startMock({ replies: ['{}', 'plain'] });
    const provider = new OpenAiCompatibleProvider(settings(server.url, { temperature: 0, seed: 9 }));
    const schema = { type: 'object', properties: { edits: { type: 'array' } } };
    await provider.chat({ ...ask, format: schema });
    await provider.chat(ask);
    const [structured, plain] = server.chatRequests().map((r) => r.body as Record<string, unknown>);
    expect(structured).toMatchObject({
      model: 'qwen2.5-coder-7b-instruct',
      stream: true,
      temperature: 0,
      seed: 9,
      messages: ask.messages,
    });
    expect(structured?.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'edits', strict: true, schema },
    });
    expect(plain).not.toHaveProperty('response_format');
  });

  it('sends the API key as a Bearer token and reports a refused key as unavailable', async () => {
    const server = await startMock({ apiKey: 'sekrit-123', replies: ['ok'] });
    await new OpenAiCompatibleProvider(settings(server.url, { apiKey: 'sekrit-123' })).chat(ask);
    expect(server.chatRequests()[0]?.headers.authorization).toBe('Bearer sekrit-123');
    const error = await failure(new OpenAiCompatibleProvider(settings(server.url, { apiKey: 'wrong' })).healthCheck());
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toMatch(/HTTP 401/);
  });

  it('reports 503 as unavailable and 400 as a failed call with the server message', async () => {
    const busy = await startMock({ busy: true });
    const until = Date.now() + 1500;
    expect(
      await failure(
        new OpenAiCompatibleProvider(settings(busy.url), { runRemainingMs: () => until - Date.now() }).chat(ask),
      ),
    ).toBeInstanceOf(ProviderUnavailableError);
    await busy.close();
    const bad = await startMock({
      replies: [{ text: '', status: 400, errorMessage: 'response_format not supported' }],
    });
    const error = await failure(new OpenAiCompatibleProvider(settings(bad.url)).chat(ask));
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).status).toBe(400);
    expect(error.message).toContain('response_format not supported');
  });

  it('reports an error event in the stream as a failed call', async () => {
    const server = await startMock({
      replies: [{ text: 'abcdefgh', chunks: 4, errorAfterChunks: { after: 1, message: 'context shift disabled' } }],
    });
    const error = await failure(new OpenAiCompatibleProvider(settings(server.url)).chat(ask));
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).code).toBe('stream-error');
    expect(error.message).toContain('context shift disabled');
  });

  it('times out a chat that never answers and reports an abort as aborted', async () => {
    const server = await startMock({ hang: 'chat' });
    const timedOut = await failure(new OpenAiCompatibleProvider(settings(server.url, { timeoutSeconds: 1 })).chat(ask));
    expect((timedOut as ModelCallError).code).toBe('timeout');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const aborted = await failure(
      new OpenAiCompatibleProvider(settings(server.url)).chat({ ...ask, signal: controller.signal }),
    );
    expect((aborted as ModelCallError).code).toBe('aborted');
  });
});
