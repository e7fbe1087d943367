import { describe, expect, it } from 'vitest';
import { effectiveScope, parallelSlots } from '../../src/repair/verification/verification-session.js';

const config = (
  over: {
    tier?: 'monitor' | 'assist' | 'auto';
    rules?: { tier?: 'monitor' | 'assist' | 'auto' }[];
    requireFull?: boolean;
    scope?: 'affected' | 'full';
  } = {},
) =>
  ({
    tier: over.tier ?? 'assist',
    rules: over.rules ?? [],
    auto: { maxRisk: 'high', requireFullVerification: over.requireFull ?? false },
    verify: { scope: over.scope ?? 'affected', tests: 'all', reuseOutputs: true, quickJvm: true, parallel: 'auto' },
    sandbox: { env: { pass: [] } },
  }) as unknown as Parameters<typeof effectiveScope>[0];

describe('effectiveScope', () => {
  it('is verify.scope, unless auto may apply the fix and auto.requireFullVerification asks for the whole build', () => {
    expect(effectiveScope(config())).toBe('affected');
    expect(effectiveScope(config({ scope: 'full' }))).toBe('full');
    expect(effectiveScope(config({ requireFull: true }))).toBe('affected');
    expect(effectiveScope(config({ requireFull: true, tier: 'auto' }))).toBe('full');
    // A rule that raises some paths to auto is enough.
    expect(effectiveScope(config({ requireFull: true, rules: [{ tier: 'auto' }] }))).toBe('full');
  });
});

describe('parallelSlots', () => {
  it('auto: half the processors, at least 1, at most 4; a number as given', () => {
    expect(parallelSlots('auto', 2)).toBe(1);
    expect(parallelSlots('auto', 1)).toBe(1);
    expect(parallelSlots('auto', 6)).toBe(3);
    expect(parallelSlots('auto', 64)).toBe(4);
    expect(parallelSlots(3, 2)).toBe(3);
  });
});
