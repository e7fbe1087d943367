/**
 * mvnx as a client of a busy model service (issue 28), through real loopback servers and a
 * real proxy in front of them: Retry-After, backoff, failover over model.host's list, a
 * server that dies mid-answer, a buffering gateway, keep-alive.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { backoffMs, retryAfterMs, safeToResend } from '../../src/model/busy-retry.js';
import { ProviderUnavailableError } from '../../src/model/errors.js';
import { HostRoster } from '../../src/model/host-roster.js';
import { OllamaProvider } from '../../src/model/ollama-provider.js';
import { OpenAiCompatibleProvider } from '../../src/model/openai-provider.js';
import { ModelTraffic } from '../../src/model/traffic.js';
import type { ChatRequest, ModelSettings } from '../../src/model/types.js';
import { startFaultProxy, type FaultProxy, type FaultScript } from '../helpers/fault-proxy.js';
import { loadModelReply } from '../helpers/model-replies.js';
import { deadServerUrl, startOllamaMock, type OllamaMock } from '../helpers/ollama-mock.js';
import { startOpenAiMock } from '../helpers/openai-mock.js';

const REPLY = loadModelReply('compile-error--missing-import');
const ask: ChatRequest = { messages: [{ role: 'user', content: 'Fix Main.java line 3.' }] };
const ollama = (host: string): ModelSettings => ({
  provider: 'ollama',
  name: 'qwen2.5-coder:7b',
  host,
  temperature: 0,
  seed: 42,
  numCtx: 16384,
  timeoutSeconds: 30,
  keepAlive: '10m',
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
async function mockWith(replies: number, chunks = 6): Promise<OllamaMock> {
  const mock = await startOllamaMock({
    replies: Array.from({ length: replies }, () => ({ text: REPLY })),
    chunks,
    tokenDelayMs: 5,
  });
  closers.push(() => mock.close());
  return mock;
}
async function proxy(upstream: string, script: FaultScript): Promise<FaultProxy> {
  const started = await startFaultProxy(upstream, script);
  closers.push(() => started.close());
  return started;
}
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

describe('Retry-After and backoff', () => {
  it('reads Retry-After as seconds or an HTTP date, and nothing else', () => {
    const now = Date.parse('2026-12-03T10:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Thu, 03 Dec 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Thu, 03 Dec 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-3', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped at 30 s', () => {
    expect(backoffMs(1, () => 0)).toBe(500);
    expect(backoffMs(1, () => 1)).toBe(1000);
    expect(backoffMs(3, () => 1)).toBe(4000);
    expect(backoffMs(12, () => 1)).toBe(30_000);
    expect(backoffMs(12, () => 0)).toBe(15_000);
  });

  it('resends only what cannot have reached the server, or what HTTP lets a client repeat', () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const reset = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
    expect(safeToResend(refused, 'POST')).toBe(true);
    expect(safeToResend(reset, 'POST')).toBe(false);
    expect(safeToResend(reset, 'GET')).toBe(true);
  });

  it('a 503 with Retry-After: 2 makes the call wait about 2 s and ask again, in the log and on the console', async () => {
    const mock = await mockWith(1);
    const gateway = await proxy(mock.url, { busyFirst: 1, retryAfter: '2' });
    const lines: string[] = [];
    const traffic = new ModelTraffic((line) => lines.push(line));
    traffic.attempt = 1;
    const result = await new OllamaProvider(ollama(gateway.url), { traffic }).chat(ask);
    expect(result.text).toBe(REPLY);
    expect(gateway.modelCalls()).toBe(2);
    const [request] = traffic.requests;
    expect(request).toMatchObject({
      attempt: 1,
      host: gateway.url,
      outcome: 'answered',
      waits: [{ host: gateway.url, status: 503, reason: 'retry-after' }],
    });
    expect(request!.waits![0]!.ms).toBeGreaterThanOrEqual(2000);
    expect(request!.waits![0]!.ms).toBeLessThanOrEqual(2200);
    expect(request!.waitedMs).toBe(request!.waits![0]!.ms);
    expect(lines).toEqual([
      expect.stringMatching(
        /^model server http:\/\/127\.0\.0\.1:\d+ is busy \(HTTP 503\): waiting 2\.\d s as its Retry-After asks, then asking again$/,
      ),
    ]);
  });

  it("does not start a wait that would run past the run's budget: provider-unavailable at once, saying why", async () => {
    const mock = await mockWith(1);
    const gateway = await proxy(mock.url, { busyFirst: 5, busyStatus: 429, retryAfter: '120' });
    const traffic = new ModelTraffic();
    const error = await failure(
      new OllamaProvider(ollama(gateway.url), { traffic, runRemainingMs: () => 10_000 }).chat(ask),
    );
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error.message).toMatch(
      /busy \(HTTP 429\), and the next wait \(1[23]\d\.\d s\) would run past the 10\.0 s left/,
    );
    expect(gateway.modelCalls()).toBe(1);
    expect(traffic.requests).toMatchObject([{ outcome: 'unavailable' }]);
    expect(traffic.requests[0]!.waits).toBeUndefined();
  });

  it('backs off without Retry-After and gives up within the budget, saying how long it waited', async () => {
    const mock = await mockWith(1);
    const gateway = await proxy(mock.url, { busyFirst: 50 });
    const until = Date.now() + 2500;
    const traffic = new ModelTraffic();
    const error = await failure(
      new OllamaProvider(ollama(gateway.url), { traffic, runRemainingMs: () => until - Date.now() }).chat(ask),
    );
    expect(error.message).toMatch(/busy \(HTTP 503\); waited \d+\.\d s in \d+ waits?, and the next wait/);
    const waits = traffic.requests[0]!.waits!;
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(waits.every((wait) => wait.reason === 'backoff')).toBe(true);
    expect(gateway.modelCalls()).toBe(waits.length + 1);
  });

  it('OpenAI-compatible servers: a 429 with Retry-After is waited for too', async () => {
    const server = await startOpenAiMock({ replies: [{ text: REPLY }] });
    closers.push(() => server.close());
    const gateway = await proxy(server.url, { busyFirst: 1, busyStatus: 429, retryAfter: '1' });
    const traffic = new ModelTraffic();
    const settings: ModelSettings = {
      provider: 'openai-compatible',
      name: 'qwen2.5-coder-7b-instruct',
      host: gateway.url,
      temperature: 0,
      seed: 42,
      timeoutSeconds: 30,
    };
    expect((await new OpenAiCompatibleProvider(settings, { traffic }).chat(ask)).text).toBe(REPLY);
    expect(traffic.requests[0]).toMatchObject({ outcome: 'answered', waits: [{ status: 429, reason: 'retry-after' }] });
  });
});

describe('model.host lists several hosts: failover with a cool-down', () => {
  it('a dead host costs one failed connect per cool-down, not one per call, and the log names the host of every call', async () => {
    const dead = await deadServerUrl();
    const mock = await mockWith(3);
    const lines: string[] = [];
    const traffic = new ModelTraffic((line) => lines.push(line));
    const provider = new OllamaProvider(ollama(`${dead},${mock.url}`), { traffic });
    for (let i = 0; i < 3; i++) expect((await provider.chat(ask)).text).toBe(REPLY);
    expect(traffic.requests.map((request) => request.host)).toEqual([mock.url, mock.url, mock.url]);
    expect(traffic.requests.map((request) => request.failedHosts?.length ?? 0)).toEqual([0, 0, 0]);
    // The health check found the dead host first (GET, safe to ask the next) and cooled it down.
    expect(lines).toEqual([
      expect.stringContaining(
        `model server ${dead} failed (fetch failed: ECONNREFUSED): skipped for its cool-down, asking ${mock.url}`,
      ),
    ]);
  });

  it('asks a cooled-down host again once its cool-down is over', async () => {
    const dead = await deadServerUrl();
    const mock = await mockWith(2);
    const traffic = new ModelTraffic();
    const provider = new OllamaProvider(ollama(`${dead},${mock.url}`), { traffic, coolDownMs: 1 });
    await provider.chat(ask);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await provider.chat(ask);
    expect(traffic.requests.map((request) => request.failedHosts?.map((failed) => failed.host))).toEqual([
      [dead],
      [dead],
    ]);
  });

  it('keeps the order the team wrote: the first host serves while it is up', () => {
    let now = 0;
    const roster = new HostRoster(['http://a:1', 'http://b:1'], 60_000, () => now);
    expect(roster.order()).toEqual(['http://a:1', 'http://b:1']);
    roster.failed('http://a:1', 'refused');
    expect(roster.order()).toEqual(['http://b:1']);
    roster.busy('http://b:1', 5000, 'HTTP 503');
    expect(roster.order()).toEqual(['http://b:1', 'http://a:1']);
    now = 60_000;
    expect(roster.order()).toEqual(['http://a:1', 'http://b:1']);
    expect(roster.hostOf('http://b:1/api/chat')).toBe('http://b:1');
    expect(roster.hostOf('http://c:1/api/chat')).toBeUndefined();
  });
});

describe('streams through gateways', () => {
  it('a server that dies mid-answer: provider-unavailable, the half answer dropped, the request not sent again', async () => {
    const mock = await mockWith(1, 20);
    const gateway = await proxy(mock.url, { cutAfterBytes: 600 });
    const traffic = new ModelTraffic();
    const pieces: string[] = [];
    const error = await failure(
      new OllamaProvider(ollama(gateway.url), { traffic }).chat({ ...ask, onToken: (piece) => pieces.push(piece) }),
    );
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(pieces.join('').length).toBeLessThan(REPLY.length);
    expect(gateway.modelCalls()).toBe(1);
    expect(traffic.requests).toMatchObject([{ outcome: 'unavailable', host: gateway.url }]);
  });

  it('a buffering gateway that delivers the NDJSON stream in one piece still gives the whole answer', async () => {
    const mock = await mockWith(1, 12);
    const gateway = await proxy(mock.url, { buffer: true });
    const result = await new OllamaProvider(ollama(gateway.url)).chat(ask);
    expect(result.text).toBe(REPLY);
    expect(result.completionTokens).toBeGreaterThan(0);
  });

  it('a buffering gateway that delivers the SSE stream in one piece still gives the whole answer', async () => {
    const server = await startOpenAiMock({ replies: [{ text: REPLY }] });
    closers.push(() => server.close());
    const gateway = await proxy(server.url, { buffer: true });
    const settings: ModelSettings = {
      provider: 'openai-compatible',
      name: 'qwen2.5-coder-7b-instruct',
      host: gateway.url,
      temperature: 0,
      seed: 42,
      timeoutSeconds: 30,
    };
    expect((await new OpenAiCompatibleProvider(settings).chat(ask)).text).toBe(REPLY);
  });

  it('keeps one connection for many calls and asks Ollama to keep the model loaded', async () => {
    const mock = await mockWith(3);
    const gateway = await proxy(mock.url, {});
    const provider = new OllamaProvider(ollama(gateway.url));
    await provider.healthCheck();
    const before = gateway.connections();
    for (let i = 0; i < 3; i++) await provider.chat(ask);
    expect(gateway.connections()).toBe(before);
    expect(mock.chatRequests().map((request) => (request.body as { keep_alive?: unknown }).keep_alive)).toEqual([
      '10m',
      '10m',
      '10m',
    ]);
  });
});
