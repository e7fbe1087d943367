import { afterEach, describe, expect, it, vi } from 'vitest';
import { PassThrough } from 'node:stream';
import { createProgress, PLAIN_TOKEN_LINE_MS } from '../../src/report/progress.js';

afterEach(() => {
  vi.useRealTimers();
});

function capture(): { stream: NodeJS.WriteStream; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

describe('progress in CI (plain lines)', () => {
  it('writes one timed line per step and note, and drops streamed tokens', async () => {
    const out = capture();
    const progress = createProgress({ interactive: false, stream: out.stream });
    const value = await progress.run('repairing the failed build', async () => {
      progress.step('attempt 1: asking qwen2.5-coder:7b');
      progress.tokens('Here is the fix:\n```diff');
      progress.note('attempt 1 (model): verified');
      return 42;
    });
    expect(value).toBe(42);
    const lines = out.text().trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^mvnx \[\d+\.\ds\] repairing the failed build$/);
    expect(lines[2]).toContain('attempt 1 (model): verified');
    expect(out.text()).not.toContain('Here is the fix');
    expect(out.text()).not.toContain('\u001b[');
  });
});

describe('the model at work', () => {
  it('in CI says what the model is writing at most once every ten seconds, with the count and the rate', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-12-05T20:00:00Z'));
    const out = capture();
    const progress = createProgress({ interactive: false, stream: out.stream });
    await progress.run('repairing', async () => {
      progress.step('attempt 1: asking the model');
      // 35 s of answer, a word every 500 ms.
      for (let tick = 0; tick < 70; tick++) {
        vi.advanceTimersByTime(500);
        progress.tokens('word ');
      }
    });
    const lines = out
      .text()
      .trim()
      .split('\n')
      .filter((line) => line.includes('the model is writing'));
    expect(lines).toHaveLength(3);
    const seconds = lines.map((line) => Number(/\[(\d+\.\d)s\]/.exec(line)![1]));
    for (let index = 1; index < seconds.length; index++)
      expect(seconds[index]! - seconds[index - 1]!).toBeGreaterThanOrEqual(PLAIN_TOKEN_LINE_MS / 1000);
    expect(lines[0]).toMatch(/the model is writing: 40 tokens, 4\.2 tokens\/s$/);
  });
});
