import { describe, expect, it } from 'vitest';
import { computeBudget, failureComplexity, type BudgetInput } from '../../src/policy/budget.js';
import { configSchema } from '../../src/policy/schema.js';

const budget = configSchema.parse({}).budget;
const simple: BudgetInput = { diagnostics: 1, files: 1, modules: 1, kinds: ['compile'], failedAttemptsWithProgress: 0 };

describe('computeBudget (defaults: 3 attempts, 6 calls, 300 s, 120 s per attempt; cap 8/16/900/300)', () => {
  // [name, input, attempts, model calls, wall seconds, per-attempt seconds]
  const curve: [string, Partial<BudgetInput>, number, number, number, number][] = [
    ['simple compile error', {}, 3, 6, 300, 120],
    ['3 compile errors in one file', { diagnostics: 3 }, 4, 8, 390, 120],
    ['3 errors in 3 files', { diagnostics: 3, files: 3 }, 6, 11, 540, 120],
    ['one test failure', { kinds: ['test'] }, 5, 9, 450, 150],
    ['errors across 2 modules', { diagnostics: 2, files: 2, modules: 2 }, 6, 12, 570, 150],
    [
      'a big reactor failure hits the caps',
      { diagnostics: 20, files: 12, modules: 4, kinds: ['compile', 'test'] },
      8,
      16,
      900,
      240,
    ],
    ['simple, after 1 attempt with progress', { failedAttemptsWithProgress: 1 }, 4, 8, 420, 120],
    ['simple, after 2 attempts with progress', { failedAttemptsWithProgress: 2 }, 5, 10, 540, 120],
    ['simple, after 9 attempts with progress: capped', { failedAttemptsWithProgress: 9 }, 8, 16, 900, 120],
  ];

  it.each(curve)('%s', (_name, input, attempts, calls, wall, perAttempt) => {
    const result = computeBudget({ ...simple, ...input }, budget);
    expect([result.maxAttempts, result.maxModelCalls, result.maxWallSeconds, result.perAttemptTimeoutSeconds]).toEqual([
      attempts,
      calls,
      wall,
      perAttempt,
    ]);
  });

  it('prints its curve and never exceeds the hard cap or shrinks as complexity grows', () => {
    const rows: string[] = ['diagnostics files modules kinds progress -> attempts calls wall perAttempt complexity'];
    let previous = 0;
    for (const n of [1, 2, 3, 5, 8, 13, 21]) {
      const input: BudgetInput = {
        diagnostics: n,
        files: Math.ceil(n / 2),
        modules: Math.ceil(n / 8),
        kinds: n > 3 ? ['compile', 'test'] : ['compile'],
        failedAttemptsWithProgress: 0,
      };
      const result = computeBudget(input, budget);
      rows.push(
        `${n} ${input.files} ${input.modules} ${input.kinds.join('+')} 0 -> ${result.maxAttempts} ${result.maxModelCalls} ${result.maxWallSeconds} ${result.perAttemptTimeoutSeconds} ${result.complexity}`,
      );
      expect(result.maxAttempts).toBeLessThanOrEqual(budget.hardCap.maxAttempts);
      expect(result.maxWallSeconds).toBeLessThanOrEqual(budget.hardCap.maxWallSeconds);
      expect(result.maxAttempts).toBeGreaterThanOrEqual(previous);
      previous = result.maxAttempts;
    }
    for (const progress of [0, 1, 2, 3, 5]) {
      const result = computeBudget({ ...simple, failedAttemptsWithProgress: progress }, budget);
      rows.push(
        `1 1 1 compile ${progress} -> ${result.maxAttempts} ${result.maxModelCalls} ${result.maxWallSeconds} ${result.perAttemptTimeoutSeconds} ${result.complexity}`,
      );
    }
    console.log(rows.join('\n'));
  });

  it('explains itself, including the caps it hit', () => {
    const result = computeBudget({ ...simple, failedAttemptsWithProgress: 9 }, budget);
    expect(result.reasons).toEqual([
      'complexity 1 from 1 diagnostic(s), 1 file(s), 1 module(s), kinds compile',
      '+9 attempt(s) for failed attempts that made progress',
      'maxAttempts 12 capped at budget.hardCap.maxAttempts (8)',
      'maxModelCalls 24 capped at budget.hardCap.maxModelCalls (16)',
      'maxWallSeconds 1380 capped at budget.hardCap.maxWallSeconds (900)',
    ]);
  });

  it('is the configured budget when dynamic is off, whatever the failure', () => {
    const fixed = configSchema.parse({ budget: { dynamic: false, maxAttempts: 2 } }).budget;
    const result = computeBudget(
      { diagnostics: 30, files: 10, modules: 5, kinds: ['test'], failedAttemptsWithProgress: 4 },
      fixed,
    );
    expect(result).toMatchObject({
      maxAttempts: 2,
      maxModelCalls: 6,
      maxWallSeconds: 300,
      perAttemptTimeoutSeconds: 120,
      complexity: 1,
    });
  });

  it('caps complexity at 3', () => {
    expect(failureComplexity({ diagnostics: 100, files: 100, modules: 100, kinds: ['test'] })).toBe(3);
    expect(failureComplexity({ diagnostics: 0, files: 0, modules: 0, kinds: [] })).toBe(1);
  });
});
