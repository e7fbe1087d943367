import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { createProgress } from '../../src/report/progress.js';

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
