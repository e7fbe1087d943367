/**
 * The single-shot prompt keeps a fixed allowance for the earlier attempts from the first
 * attempt on: on a window the code fills, a later attempt packs the same code, so its
 * prompt begins with the first's (what a server's prompt cache reuses).
 */
import { expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnose/types.js';
import { composeRepairPrompt, type ContextPiece, type RepairPromptInput } from '../../src/model/prompts/index.js';

const failing: Diagnostic = {
  kind: 'test',
  category: 'test',
  fixable: true,
  message: 'expected: <10> but was: <6>',
  file: 'src/main/java/com/acme/Series.java',
  line: 4,
  module: 'app',
  test: 'com.acme.SeriesTest#sumsUpTo',
  scope: 'main',
  fingerprint: 'f1',
};

/** Three hundred one-line pieces, more than the window holds: the packer fills it to within a piece. */
const pieces: ContextPiece[] = Array.from({ length: 300 }, (_, i) => ({
  path: `src/main/java/com/acme/Part${i % 30}.java`,
  startLine: 1 + Math.floor(i / 30) * 2,
  text: `    int value${i} = compute(${i});`,
  tier: i < 2 ? 'primary' : 'other',
  score: 1000 - i,
  label: `field Part${i % 30}.value${i}`,
}));

const input: RepairPromptInput = {
  diagnostics: [failing],
  context: pieces,
  editFormat: 'diff',
  history: [],
  contextTokens: 4096,
};

it('a later attempt packs the same code as the first, and its prompt begins with the first one', () => {
  const first = composeRepairPrompt(input);
  const third = composeRepairPrompt({
    ...input,
    history: [
      { n: 1, outcome: 'build-failed', reason: 'SeriesTest.sumsUpTo still fails: expected: <10> but was: <7>' },
      { n: 2, outcome: 'rejected', reason: 'the patch changes the test side (src/test/java/com/acme/SeriesTest.java)' },
    ],
  });

  expect(first.pack.omitted.length).toBeGreaterThan(0);
  expect(third.pack.included.map((piece) => piece.label)).toEqual(first.pack.included.map((piece) => piece.label));
  expect(third.messages[0]!.content).toBe(first.messages[0]!.content);
  expect(third.messages[1]!.content.startsWith(first.messages[1]!.content)).toBe(true);
  expect(third.messages[1]!.content).toContain('Attempt 2 (rejected)');
});

it('history longer than the allowance still goes in whole, and then takes room from the code', () => {
  const long = Array.from({ length: 12 }, (_, i) => ({
    n: i + 1,
    outcome: 'build-failed',
    reason: `attempt ${i + 1} failed: ${'the same assertion still fails in SeriesTest '.repeat(3)}`,
  }));
  const first = composeRepairPrompt(input);
  const late = composeRepairPrompt({ ...input, history: long });
  for (const attempt of long) expect(late.messages[1]!.content).toContain(`Attempt ${attempt.n} (build-failed)`);
  expect(late.pack.included.length).toBeLessThan(first.pack.included.length);
  expect(late.tokens).toBeLessThanOrEqual(input.contextTokens);
});
