/**
 * The publication decision as pure data (src/policy/publish.ts): when a verified fix is
 * published on its own and when the forge may merge it. The publish-* tests reach it through
 * real git and loopback forges; these pin each condition and reason, as mutation testing of
 * src/policy (mutation/slices/policy-capabilities.config.mjs) asked for.
 */
import { describe, expect, it } from 'vitest';
// schema.js first: publish.js -> paths.js -> schema.js -> publish.js is an import cycle that only resolves when entered at schema.js.
import { configSchema } from '../../src/policy/schema.js';
import { decidePublication, mergeModeFor, type PublishFacts } from '../../src/policy/publish.js';

const MAIN = 'src/main/java/com/acme/core/Order.java';
const TEST = 'src/test/java/com/acme/core/OrderTest.java';

function policy(input: Record<string, unknown> = {}) {
  return configSchema.parse(input);
}

const fixed: PublishFacts = {
  tier: 'auto',
  status: 'fixed',
  action: 'apply',
  risk: 'medium',
  files: [MAIN],
  modules: ['core'],
};
const merging = policy({ publish: { merge: 'when-checks-pass' } });

describe('decidePublication', () => {
  it('publishes and merges an applied auto fix when the config allows both', () => {
    expect(decidePublication(fixed, merging)).toEqual({
      publishAutomatically: true,
      merge: 'when-checks-pass',
      reasons: [],
    });
  });

  it('publishes but leaves the merge to a person by default, and says which setting', () => {
    expect(decidePublication(fixed, policy())).toEqual({
      publishAutomatically: true,
      merge: 'off',
      reasons: ['publish.merge is off: the request waits for a person'],
    });
  });

  it('neither publishes nor merges, giving every reason, when anything speaks against it', () => {
    const facts: PublishFacts = {
      ...fixed,
      tier: 'assist',
      status: 'regressed',
      action: undefined,
      risk: 'high',
      failingTestEdits: ['assertEquals(3, x) became assertEquals(4, x)', 'a line removed'],
    };
    expect(
      decidePublication(facts, policy({ auto: { maxRisk: 'medium' }, publish: { merge: 'when-checks-pass' } })),
    ).toEqual({
      publishAutomatically: false,
      merge: 'off',
      reasons: [
        'the run has no verified fix (status regressed)',
        'the fix edits the failing test (assertEquals(3, x) became assertEquals(4, x); a line removed): only a person may take it',
        'risk high is above auto.maxRisk (medium)',
        'the policy did not let auto take the fix (tier assist, action none)',
      ],
    });
  });

  it.each([
    ['a status other than fixed', { status: 'build-failed' }],
    ['a failing-test edit', { failingTestEdits: ['x'] }],
    ['a risk above auto.maxRisk', { risk: 'high' as const }],
    ['tier assist', { tier: 'assist' }],
    ['an action other than apply', { action: 'suggest' }],
  ])('stops on %s alone', (_name, change) => {
    const decision = decidePublication(
      { ...fixed, ...change },
      policy({ auto: { maxRisk: 'medium' }, publish: { merge: 'when-checks-pass' } }),
    );
    expect(decision).toMatchObject({ publishAutomatically: false, merge: 'off' });
    expect(decision.reasons).toHaveLength(1);
  });

  it('takes a fix whose risk equals auto.maxRisk, and one without a risk', () => {
    expect(
      decidePublication({ ...fixed, risk: 'medium' }, policy({ auto: { maxRisk: 'medium' } })).publishAutomatically,
    ).toBe(true);
    expect(
      decidePublication({ ...fixed, risk: undefined }, policy({ auto: { maxRisk: 'low' } })).publishAutomatically,
    ).toBe(true);
  });

  it('does not publish on its own when publish.auto is off, and still may merge what a person publishes', () => {
    expect(decidePublication(fixed, policy({ publish: { auto: false, merge: 'when-checks-pass' } }))).toEqual({
      publishAutomatically: false,
      merge: 'when-checks-pass',
      reasons: ['publish.auto is off'],
    });
  });
});

describe('mergeModeFor', () => {
  it('uses the last matching rule per path and names it', () => {
    const config = policy({
      rules: [
        { paths: ['**/core/**'], publish: { merge: 'off' } },
        { paths: ['**/*.java'], publish: { merge: 'when-checks-pass' } },
      ],
    });
    expect(mergeModeFor([MAIN], [], config)).toEqual({ merge: 'when-checks-pass', setBy: `rules[1] for ${MAIN}` });
  });

  it('lets off win across paths, whichever comes first, and names the rule that set it', () => {
    const config = policy({
      publish: { merge: 'when-checks-pass' },
      rules: [{ paths: ['src/test/**'], publish: { merge: 'off' } }],
    });
    expect(mergeModeFor([MAIN, TEST], [], config)).toEqual({ merge: 'off', setBy: `rules[0] for ${TEST}` });
    expect(mergeModeFor([TEST, MAIN], [], config)).toEqual({ merge: 'off', setBy: `rules[0] for ${TEST}` });
    expect(decidePublication({ ...fixed, files: [MAIN, TEST] }, config).reasons).toEqual([
      `publish.merge is off (rules[0] for ${TEST}): the request waits for a person`,
    ]);
  });

  it('ignores rules without a merge mode and falls back to the config for no files', () => {
    const config = policy({ publish: { merge: 'when-checks-pass' }, rules: [{ paths: ['**'], tier: 'monitor' }] });
    expect(mergeModeFor([MAIN], [], config)).toEqual({ merge: 'when-checks-pass' });
    expect(mergeModeFor([], [], config)).toEqual({ merge: 'when-checks-pass' });
  });
});
