import { describe, expect, it } from 'vitest';
import { estimateTokens, sizeContextWindow } from '../../src/model/context-window.js';
import { createProvider, normaliseHost } from '../../src/model/index.js';
import type { ModelSettings } from '../../src/model/types.js';

const base: ModelSettings = {
  provider: 'ollama',
  name: 'qwen2.5-coder:7b',
  host: 'http://127.0.0.1:11434',
  temperature: 0,
  seed: 42,
  timeoutSeconds: 120,
};

describe('createProvider', () => {
  it('builds the provider the settings name', () => {
    const ollama = createProvider(base);
    expect([ollama.kind, ollama.model, ollama.host]).toEqual(['ollama', 'qwen2.5-coder:7b', 'http://127.0.0.1:11434']);
    const openai = createProvider({
      ...base,
      provider: 'openai-compatible',
      host: 'http://localhost:8080/v1',
      name: 'local',
    });
    expect([openai.kind, openai.host]).toEqual(['openai-compatible', 'http://localhost:8080']);
  });

  it.each([
    ['127.0.0.1:11434', 'ollama', 'http://127.0.0.1:11434'],
    ['0.0.0.0', 'ollama', 'http://0.0.0.0:11434'],
    [':11500', 'ollama', 'http://127.0.0.1:11500'],
    ['https://ollama.internal.acme.io/', 'ollama', 'https://ollama.internal.acme.io'],
    ['localhost:8080', 'openai-compatible', 'http://localhost:8080'],
  ] as const)('reads host %s for %s as %s', (host, provider, expected) => {
    expect(normaliseHost(host, provider)).toBe(expected);
    expect(createProvider({ ...base, provider, host }).host).toBe(expected);
  });

  it.each([
    [{ name: ' ' }, 'model.name must name a model'],
    [{ host: '' }, 'model.host must be a URL'],
    [{ host: 'ftp://models.acme.io' }, 'model.host must be an http or https URL, got "ftp://models.acme.io"'],
    [{ timeoutSeconds: 0 }, 'model.timeoutSeconds must be positive, got 0'],
    [{ numCtx: 1.5 }, 'model.numCtx must be a positive integer, got 1.5'],
    [{ provider: 'anthropic' as never }, 'model.provider must be "ollama" or "openai-compatible", got "anthropic"'],
  ])('explains bad settings %o', (override, message) => {
    expect(() => createProvider({ ...base, ...override })).toThrow(message);
  });
});

describe('context window sizing', () => {
  it('estimates a token per five letters of a word, per two symbols and per digit (see model-token-estimate.test.ts)', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('x'.repeat(35))).toBe(7);
    expect(estimateTokens('x'.repeat(36))).toBe(8);
    expect(estimateTokens('();')).toBe(2);
    expect(estimateTokens('2026')).toBe(4);
  });

  it.each([
    [0, undefined, 2048],
    [1, undefined, 4096],
    [6000, undefined, 8192],
    [6200, undefined, 16384],
    [6000, 6144, 6144],
    [20000, 32768, 32768],
  ])('gives a prompt of %i tokens (cap %s) a window of %i', (prompt, cap, expected) => {
    expect(sizeContextWindow(prompt, { cap })).toBe(expected);
  });

  it('returns undefined when the prompt alone does not fit, and explains a bad size', () => {
    expect(sizeContextWindow(8192, { cap: 8192 })).toBeUndefined();
    expect(() => sizeContextWindow(-1)).toThrow('promptTokens must be a non-negative number, got -1');
  });
});
