/**
 * `auto` (and `assist.autoApplyLowRisk`) trust a verdict only when its verification ran
 * isolated, unless a config file says `sandbox.mode: none` (the environment is the sandbox).
 */
import { describe, expect, it } from 'vitest';
import { decideVerified, isolationOptOut, type Isolation } from '../../src/policy/decide-verified.js';
import { configSchema } from '../../src/policy/schema.js';
import type { ChangeSet } from '../../src/patch/types.js';

const lowRisk: ChangeSet = {
  files: [{ path: 'src/main/java/com/acme/A.java', before: '// helo\nint a = 1;\n', after: '// hello\nint a = 1;\n' }],
};
const decide = (input: Record<string, unknown>, isolation?: Isolation) =>
  decideVerified({
    config: configSchema.parse(input),
    changeSet: lowRisk,
    changeTypes: ['edit-main-source'],
    modules: [],
    interactive: false,
    ...(isolation ? { isolation } : {}),
  });

const unisolated: Isolation = { isolated: false, reason: 'no sandbox available (bwrap: not installed)' };

describe('isolation gating', () => {
  it('auto applies a verdict from an isolated verification', () => {
    expect(decide({ tier: 'auto' }, { isolated: true })).toMatchObject({ action: 'apply', tier: 'auto' });
  });

  it('auto drops to assist when verification ran without isolation, with the reason in words', () => {
    const decision = decide({ tier: 'auto' }, unisolated);
    expect(decision).toMatchObject({ action: 'suggest', tier: 'assist' });
    expect(decision.reasons.join('\n')).toContain(
      'verification ran without isolation (no sandbox available (bwrap: not installed)), so its verdict is not applied without you',
    );
    expect(decision.reasons.join('\n')).toContain('tier drops to assist');
  });

  it('assist.autoApplyLowRisk does not apply an unisolated verdict either', () => {
    const decision = decide({ tier: 'assist', assist: { autoApplyLowRisk: true } }, unisolated);
    expect(decision.risk).toBe('low');
    expect(decision.action).toBe('suggest');
    expect(decision.reasons.join('\n')).toContain(
      'assist.autoApplyLowRisk does not apply: verification ran without isolation',
    );
    expect(decide({ tier: 'assist', assist: { autoApplyLowRisk: true } }, { isolated: true }).action).toBe('apply');
  });

  it('a config file that says sandbox.mode none opts out in writing: auto applies, and the record says why', () => {
    const decision = decide({ tier: 'auto' }, { ...unisolated, optedOutIn: '/repo/.mvnxrc.yaml' });
    expect(decision).toMatchObject({ action: 'apply', tier: 'auto' });
    expect(decision.reasons.join('\n')).toContain(
      '/repo/.mvnxrc.yaml sets sandbox.mode none (the environment is the sandbox)',
    );
  });

  it('only a config file opts out: not a flag, an environment variable or the default', () => {
    expect(isolationOptOut('/repo/.mvnxrc.yaml', 'none')).toBe('/repo/.mvnxrc.yaml');
    expect(isolationOptOut('flag --mvnx-sandbox', 'none')).toBeUndefined();
    expect(isolationOptOut('env MVNX_SANDBOX', 'none')).toBeUndefined();
    expect(isolationOptOut('default', 'none')).toBeUndefined();
    expect(isolationOptOut('/repo/.mvnxrc.yaml', 'auto')).toBeUndefined();
  });
});
