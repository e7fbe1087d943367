/** verify.tests: its default, its refusal of a bad value, and what auto makes of it. */
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/policy/schema.js';
import { effectiveTests } from '../../src/policy/verify-tests.js';

describe('verify.tests', () => {
  it('defaults to affected and takes all', () => {
    expect(configSchema.parse({}).verify.tests).toBe('affected');
    expect(configSchema.parse({ verify: { tests: 'all' } }).verify.tests).toBe('all');
  });

  it('refuses a value it does not know, naming the field', () => {
    const result = configSchema.safeParse({ verify: { tests: 'some' } });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual(['verify', 'tests']);
  });

  const config = (
    tier: string,
    requireFullVerification: boolean,
    tests: 'affected' | 'all' = 'affected',
    rules: { tier?: string }[] = [],
  ) => ({ tier, rules, auto: { requireFullVerification }, verify: { tests } });
  it.each([
    ['monitor', config('monitor', true), 'affected'],
    ['assist', config('assist', false), 'affected'],
    ['auto without auto.requireFullVerification', config('auto', false), 'affected'],
    ['auto with auto.requireFullVerification', config('auto', true), 'all'],
    ['a rule at auto with auto.requireFullVerification', config('assist', true, 'affected', [{ tier: 'auto' }]), 'all'],
    [
      'rules below auto with auto.requireFullVerification',
      config('assist', true, 'affected', [{ tier: 'monitor' }, {}]),
      'affected',
    ],
    ['all asked for', config('monitor', false, 'all'), 'all'],
  ])('%s', (_label, input, expected) => {
    expect(effectiveTests(input)).toBe(expected);
  });
});
