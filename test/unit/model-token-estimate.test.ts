/**
 * estimateTokens errs on the safe side: on every sample (Java, TypeScript, Markdown, a Maven
 * log, a stack trace, real prompts, digits and symbols, emoji and other scripts) it counts
 * at least as many tokens as the default model's tokenizer does. The counts come from
 * scripts/count-qwen-tokens.mjs (the tokenizer is not a dependency; rerun it after
 * changing a sample).
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CHARS_PER_TOKEN,
  charsForTokens,
  estimateTokens,
  promptWindow,
  sizeContextWindow,
  tokensForChars,
} from '../../src/model/context-window.js';
import { configSchema } from '../../src/policy/index.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/tokens');
const { counts } = JSON.parse(await readFile(path.join(dir, 'qwen-counts.json'), 'utf8')) as {
  counts: Record<string, number>;
};
const samples = (await readdir(path.join(dir, 'samples'))).sort();

describe('estimateTokens', () => {
  it('has a real count for every sample', () => {
    expect(Object.keys(counts).sort()).toEqual(samples);
  });

  it.each(samples)('%s: never fewer than the tokenizer counts, and not wildly more', async (name) => {
    const text = await readFile(path.join(dir, 'samples', name), 'utf8');
    const estimate = estimateTokens(text);
    expect(estimate).toBeGreaterThanOrEqual(counts[name]!);
    expect(estimate).toBeLessThanOrEqual(counts[name]! * 2.5);
  });

  it('counts nothing as nothing and every digit as a token', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('1234567890')).toBe(10);
  });

  it('sizes a window for the prompt and the answer', () => {
    expect(sizeContextWindow(1000)).toBe(4096);
    expect(sizeContextWindow(7000, { cap: 8192 })).toBe(8192);
    expect(sizeContextWindow(9000, { cap: 8192 })).toBeUndefined();
  });
});

describe('promptWindow', () => {
  it('packs for contextTokens (8192 by default), capped by numCtx when that is smaller', () => {
    expect(promptWindow(configSchema.parse({}).model)).toBe(8192);
    expect(promptWindow(configSchema.parse({ model: { contextTokens: 16384 } }).model)).toBe(16384);
    expect(promptWindow(configSchema.parse({ model: { contextTokens: 16384, numCtx: 4096 } }).model)).toBe(4096);
    expect(promptWindow(configSchema.parse({ model: { numCtx: 32768 } }).model)).toBe(8192);
  });
});

describe('the rough chars-per-token figure, named once', () => {
  it('converts both ways with the same constant, rounding up so a cut frees at least what it says', () => {
    expect(CHARS_PER_TOKEN).toBe(3.5);
    expect(tokensForChars(7)).toBe(2);
    expect(tokensForChars(8)).toBe(3);
    expect(charsForTokens(3)).toBe(11);
    expect(tokensForChars(charsForTokens(100))).toBeGreaterThanOrEqual(100);
  });
});
