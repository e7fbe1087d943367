import { afterEach, describe, expect, it, vi } from 'vitest';
import { PassThrough } from 'node:stream';
import type { ModelRequestRecord } from '../../src/model/traffic.js';
import { createProgress } from '../../src/report/progress.js';
import { lastPromptRate, promptWaitLine, tokensToEvaluate } from '../../src/report/prompt-wait.js';

afterEach(() => {
  vi.useRealTimers();
});

const request = (counters: Partial<ModelRequestRecord>): ModelRequestRecord => ({
  host: 'http://127.0.0.1:11434',
  model: 'qwen2.5-coder:7b',
  startedAt: '2026-12-05T20:00:00.000Z',
  durationMs: 1000,
  outcome: 'answered',
  ...counters,
});

describe('the wait for a long prompt', () => {
  it('names the tokens and, with a measured rate, the seconds at that rate', () => {
    expect(promptWaitLine(1800, 60)).toBe(
      'reading the prompt: ~1,800 tokens, about 30 s at the last measured 60 tokens/s',
    );
    expect(promptWaitLine(12, 7.25)).toBe(
      'reading the prompt: ~12 tokens, about 2 s at the last measured 7.3 tokens/s',
    );
    expect(promptWaitLine(20, 600)).toBe(
      'reading the prompt: ~20 tokens, under a second at the last measured 600 tokens/s',
    );
  });

  it('without a measured rate (the run asked nothing yet): the tokens only, no estimate', () => {
    expect(promptWaitLine(1800, undefined)).toBe('reading the prompt: ~1,800 tokens');
  });

  it("the rate is the newest request's that measured one: prompt tokens over prompt time", () => {
    expect(lastPromptRate([])).toBeUndefined();
    expect(lastPromptRate([request({ promptTokens: 100 }), request({ outcome: 'cancelled' })])).toBeUndefined();
    expect(
      lastPromptRate([
        request({ promptTokens: 1800, promptEvalMs: 30_000 }),
        request({ promptTokens: 240, promptEvalMs: 3000 }),
        // Everything was in the cache: nothing measured.
        request({ promptTokens: 0, promptEvalMs: 0 }),
      ]),
    ).toBe(80);
  });

  it('counts only what is new since the previous request (the rest is in the server cache)', () => {
    const first = `system\n${'You fix Java builds. '.repeat(20)}\nuser\nFix Calc.java line 3.`;
    expect(tokensToEvaluate(undefined, first)).toBeGreaterThan(10);
    expect(tokensToEvaluate(first, first)).toBe(0);
    const second = `${first}\nassistant\nthe diff\nuser\nIt failed: expected 3`;
    expect(tokensToEvaluate(first, second)).toBeLessThan(tokensToEvaluate(undefined, second) / 2);
    expect(tokensToEvaluate(first, second)).toBeGreaterThan(0);
  });
});

describe('the prompt wait on the console', () => {
  function capture(): { stream: NodeJS.WriteStream; text: () => string } {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
    return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
  }

  it('in CI: one line for a wait of ten seconds or more, none for a short one or without a rate', async () => {
    const out = capture();
    const progress = createProgress({ interactive: false, stream: out.stream });
    await progress.run('repairing', async () => {
      progress.step('attempt 1: asking the model');
      progress.promptSent(3000, undefined);
      progress.promptSent(300, 60);
      progress.promptSent(1800, 60);
    });
    const lines = out
      .text()
      .split('\n')
      .filter((line) => line.includes('reading the prompt'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/\] reading the prompt: ~1,800 tokens, about 30 s at the last measured 60 tokens\/s$/);
  });
});
