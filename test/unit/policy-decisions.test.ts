import { describe, expect, it } from 'vitest';
import { decideAttempt, mavenGoals } from '../../src/policy/decide-attempt.js';
import { decideVerified } from '../../src/policy/decide-verified.js';
import { protectionOf, tierForPaths } from '../../src/policy/paths.js';
import { configSchema, type ParsedConfig, type Tier } from '../../src/policy/schema.js';
import type { Diagnosis, Diagnostic } from '../../src/diagnose/types.js';
import type { ChangeSet } from '../../src/patch/types.js';

/** A parsed config as loadEffectiveConfig would give, from the same schema. */
function policy(input: Record<string, unknown> = {}): ParsedConfig {
  return configSchema.parse(input);
}

const tiered = policy({
  tier: 'assist',
  rules: [
    { paths: ['**/*Test.java'], tier: 'auto' },
    { paths: ['src/main/java/com/acme/payments/**'], tier: 'monitor', maxAttempts: 1 },
    { paths: ['src/main/java/com/acme/legacy/**'], tier: 'off' },
    { paths: ['**/Generated*.java'], protected: true },
    { paths: ['**/*.java'], modules: ['billing'], tier: 'monitor' },
  ],
});

describe('tierForPaths', () => {
  const table: [string[], string[], Tier][] = [
    [[], [], 'assist'],
    [['src/main/java/com/acme/core/Order.java'], [], 'assist'],
    [['src/test/java/com/acme/core/OrderTest.java'], [], 'auto'],
    [['src/main/java/com/acme/payments/Card.java'], [], 'monitor'],
    // the payments rule covers main code only
    [['src/test/java/com/acme/payments/CardTest.java'], [], 'auto'],
    [['src/main/java/com/acme/legacy/Old.java'], [], 'off'],
    // the strictest tier over several paths wins
    [['src/test/java/com/acme/core/OrderTest.java', 'src/main/java/com/acme/core/Order.java'], [], 'assist'],
    [['src/test/java/com/acme/core/OrderTest.java', 'src/main/java/com/acme/payments/Card.java'], [], 'monitor'],
    [['src/main/java/com/acme/payments/Card.java', 'src/main/java/com/acme/legacy/Old.java'], [], 'off'],
    // module-scoped rules apply only in their modules
    [['src/main/java/com/acme/core/Order.java'], ['billing'], 'monitor'],
    [['src/main/java/com/acme/core/Order.java'], ['shipping'], 'assist'],
    [['./src/test/java/a/BTest.java'], [], 'auto'],
    // the same canonical path as the patch stage: `.` segments and aliases cannot dodge a rule
    [['src/main/java/com/acme/./payments/Card.java'], [], 'monitor'],
    [['src/main/java//com/acme/legacy/./Old.java'], [], 'off'],
    [['src/main/java/com/acme/Payments/Card.java'], [], 'monitor'],
    [['src/main/java/com/acme/p\u0430yments/Card.java'], [], 'monitor'],
  ];
  it.each(table)('%j in %j -> %s', (paths, modules, expected) => {
    expect(tierForPaths(paths, modules, tiered).tier).toBe(expected);
  });

  it('says which rule set a tier and that the strictest won', () => {
    const result = tierForPaths(
      ['src/test/java/a/BTest.java', 'src/main/java/com/acme/payments/Card.java'],
      [],
      tiered,
    );
    expect(result.reasons).toEqual([
      'src/test/java/a/BTest.java: tier auto from rules[0] (paths **/*Test.java)',
      'src/main/java/com/acme/payments/Card.java: tier monitor from rules[1] (paths src/main/java/com/acme/payments/**)',
      'strictest tier over 2 files: monitor',
    ]);
    expect(result.maxAttempts).toBe(1);
  });

  it('lets a later rule override an earlier one for a path', () => {
    const config = policy({
      rules: [
        { paths: ['**/payments/**'], tier: 'monitor' },
        { paths: ['**/payments/**/*Test.java'], tier: 'auto' },
      ],
    });
    expect(tierForPaths(['src/test/java/payments/CardTest.java'], [], config).tier).toBe('auto');
    expect(tierForPaths(['src/main/java/payments/Card.java'], [], config).tier).toBe('monitor');
  });
});

describe('protectionOf', () => {
  const table: [string, boolean][] = [
    ['pom.xml', true],
    ['core/pom.xml', true],
    ['.mvn/wrapper/maven-wrapper.properties', true],
    ['mvnw', true],
    ['mvnw.cmd', true],
    ['.github/workflows/ci.yml', true],
    ['.gitlab-ci.yml', true],
    ['core/src/main/resources/db/migration/V1__init.sql', true],
    ['.mvnxrc.yaml', true],
    ['src/main/java/com/acme/GeneratedMapper.java', true],
    ['src/main/java/com/acme/Order.java', false],
    ['src/main/resources/application.properties', false],
  ];
  it.each(table)('%s protected: %s', (file, expected) => {
    expect(protectionOf(file, [], tiered).protected).toBe(expected);
  });

  it('names the glob that protects a path', () => {
    expect(protectionOf('core/pom.xml', [], tiered).reason).toBe('core/pom.xml is protected ("**/pom.xml")');
  });

  it('lets a rule lift a protectedPaths entry written the same way', () => {
    const config = policy({ rules: [{ paths: ['**/pom.xml'], protected: false }] });
    expect(protectionOf('core/pom.xml', [], config).protected).toBe(false);
    expect(protectionOf('pom.xml', [], config).protected).toBe(true);
  });
});

function diagnostic(overrides: Partial<Diagnostic>): Diagnostic {
  return {
    kind: 'compile',
    category: 'compile',
    fixable: true,
    message: 'cannot find symbol',
    fingerprint: 'f',
    ...overrides,
  };
}

function diagnosis(diagnostics: Diagnostic[], overrides: Partial<Diagnosis> = {}): Diagnosis {
  return {
    diagnostics,
    fingerprint: 'd',
    fixable: diagnostics.some((d) => d.fixable),
    modules: [],
    warnings: [],
    ...overrides,
  };
}

describe('decideAttempt', () => {
  const compile = diagnostic({ file: 'src/main/java/com/acme/core/Order.java', module: 'core' });
  const test = diagnostic({
    kind: 'test',
    category: 'test',
    file: 'src/test/java/com/acme/core/OrderTest.java',
    module: 'core',
  });

  const table: [string, ParsedConfig, Diagnosis, string[], 'skip' | 'attempt', Tier, string][] = [
    ['tier off', policy({ tier: 'off' }), diagnosis([compile]), ['verify'], 'skip', 'off', 'tier is off'],
    [
      'not fixable',
      policy(),
      diagnosis(
        [
          diagnostic({
            kind: 'other',
            category: 'dependency-resolution',
            fixable: false,
            reason: 'a dependency could not be resolved',
          }),
        ],
        { fixable: false, reason: 'a dependency could not be resolved' },
      ),
      ['verify'],
      'skip',
      'assist',
      'not fixable: a dependency could not be resolved',
    ],
    [
      'kind not triggered',
      policy({ triggers: { kinds: ['compile'] } }),
      diagnosis([test]),
      ['test'],
      'skip',
      'assist',
      'failure kinds (test) are not in triggers.kinds (compile)',
    ],
    [
      'goal not triggered',
      policy({ triggers: { goals: ['verify'] } }),
      diagnosis([compile]),
      ['-q', 'clean', 'install'],
      'skip',
      'assist',
      'Maven goals (clean install) are not in triggers.goals (verify)',
    ],
    [
      'goal triggered',
      policy({ triggers: { goals: ['verify'] } }),
      diagnosis([compile]),
      ['-pl', 'core', 'verify'],
      'attempt',
      'assist',
      '1 fixable diagnostic (compile) under tier assist',
    ],
    [
      'all files protected',
      policy(),
      diagnosis([diagnostic({ file: 'core/pom.xml' })]),
      ['verify'],
      'skip',
      'assist',
      'every diagnosed file is protected: core/pom.xml is protected ("**/pom.xml")',
    ],
    [
      'rule tier auto',
      tiered,
      diagnosis([test]),
      ['test'],
      'attempt',
      'auto',
      '1 fixable diagnostic (test) under tier auto',
    ],
    [
      'rule tier off',
      tiered,
      diagnosis([diagnostic({ file: 'src/main/java/com/acme/legacy/Old.java' })]),
      ['verify'],
      'skip',
      'off',
      'tier is off for the diagnosed files',
    ],
    [
      'no file known',
      policy({ tier: 'auto' }),
      diagnosis([diagnostic({})]),
      ['verify'],
      'attempt',
      'auto',
      '1 fixable diagnostic (compile) under tier auto',
    ],
  ];
  it.each(table)('%s', (_name, config, input, args, action, tier, lastReason) => {
    const decision = decideAttempt({ diagnosis: input, config, mavenArgs: args });
    expect(decision.action).toBe(action);
    expect(decision.tier).toBe(tier);
    expect(decision.reasons.at(-1)).toBe(lastReason);
  });

  it('names the source of tier off', () => {
    const decision = decideAttempt({
      diagnosis: diagnosis([compile]),
      config: { ...policy({ tier: 'off' }), sources: { tier: 'flag --mvnx-no-fix' } },
      mavenArgs: [],
    });
    expect(decision.reasons).toEqual(['tier is off (set by flag --mvnx-no-fix)']);
  });

  it('attempts the editable files when only some are protected, and says so', () => {
    const decision = decideAttempt({
      diagnosis: diagnosis([compile, diagnostic({ file: 'pom.xml' })]),
      config: policy(),
      mavenArgs: ['verify'],
    });
    expect(decision.action).toBe('attempt');
    expect(decision.reasons[0]).toBe('pom.xml is protected ("pom.xml"); it will not be patched');
    expect(decision.targets).toHaveLength(2);
  });

  it("passes a rule's maxAttempts on", () => {
    const decision = decideAttempt({
      diagnosis: diagnosis([diagnostic({ file: 'src/main/java/com/acme/payments/Card.java' })]),
      config: tiered,
      mavenArgs: ['verify'],
    });
    expect(decision).toMatchObject({ action: 'attempt', tier: 'monitor', maxAttempts: 1 });
  });

  it('keeps only triggered, fixable diagnostics as targets', () => {
    const other = diagnostic({ kind: 'other', fixable: false, reason: 'x' });
    const decision = decideAttempt({
      diagnosis: diagnosis([compile, test, other]),
      config: policy({ triggers: { kinds: ['test'] } }),
      mavenArgs: ['verify'],
    });
    expect(decision.targets).toEqual([test]);
  });
});

describe('mavenGoals', () => {
  it.each([
    [
      ['clean', 'verify'],
      ['clean', 'verify'],
    ],
    [['-B', '-q', '-pl', 'core', '-am', 'test'], ['test']],
    [['-f', 'sub/pom.xml', '-Dtest=FooTest', 'surefire:test'], ['surefire:test']],
    [['-D', 'skipTests', 'package', '-T', '2'], ['package']],
    [['--projects', 'a,b', '--also-make', 'install'], ['install']],
  ])('%j -> %j', (args, goals) => {
    expect(mavenGoals(args)).toEqual(goals);
  });
});

const MAIN = 'src/main/java/com/acme/core/Order.java';
const importFix: ChangeSet = {
  files: [
    {
      path: MAIN,
      before: 'package a;\n\nclass Order {\n  List<String> l;\n}\n',
      after: 'package a;\n\nimport java.util.List;\n\nclass Order {\n  List<String> l;\n}\n',
    },
  ],
};
const logicFix: ChangeSet = {
  files: [
    {
      path: MAIN,
      before: 'class Order {\n  int total() { return a - b; }\n}\n',
      after: 'class Order {\n  int total() { return a + b; }\n}\n',
    },
  ],
};

describe('decideVerified', () => {
  const base = { changeTypes: ['edit-main-source' as const], modules: ['core'], interactive: false };
  const table: [string, ParsedConfig, ChangeSet, 'record' | 'suggest' | 'apply', Tier, 'low' | 'medium' | 'high'][] = [
    ['monitor records', policy({ tier: 'monitor' }), importFix, 'record', 'monitor', 'low'],
    ['assist suggests low risk by default', policy({ tier: 'assist' }), importFix, 'suggest', 'assist', 'low'],
    [
      'assist applies low risk when allowed',
      policy({ tier: 'assist', assist: { autoApplyLowRisk: true } }),
      importFix,
      'apply',
      'assist',
      'low',
    ],
    [
      'assist suggests medium risk even when low may apply',
      policy({ tier: 'assist', assist: { autoApplyLowRisk: true } }),
      logicFix,
      'suggest',
      'assist',
      'medium',
    ],
    ['auto applies', policy({ tier: 'auto' }), logicFix, 'apply', 'auto', 'medium'],
    [
      'auto above maxRisk drops to assist',
      policy({ tier: 'auto', auto: { maxRisk: 'low' } }),
      logicFix,
      'suggest',
      'assist',
      'medium',
    ],
    [
      'a stricter rule on a touched path wins',
      policy({ tier: 'auto', rules: [{ paths: ['**/core/**'], tier: 'monitor' }] }),
      logicFix,
      'record',
      'monitor',
      'medium',
    ],
  ];
  it.each(table)('%s', (_name, config, changeSet, action, tier, risk) => {
    const decision = decideVerified({ ...base, config, changeSet });
    expect(decision).toMatchObject({ action, tier, risk });
  });

  it('prompts for a suggestion on a TTY when promptOnTty', () => {
    expect(decideVerified({ ...base, config: policy(), changeSet: logicFix, interactive: true }).prompt).toBe(true);
    expect(
      decideVerified({
        ...base,
        config: policy({ assist: { promptOnTty: false } }),
        changeSet: logicFix,
        interactive: true,
      }).prompt,
    ).toBe(false);
    expect(decideVerified({ ...base, config: policy(), changeSet: logicFix, interactive: false }).prompt).toBe(false);
  });

  it('only records a patch touching a module-scoped protected path', () => {
    const config = policy({ tier: 'auto', rules: [{ paths: ['**/*.java'], modules: ['core'], protected: true }] });
    const decision = decideVerified({ ...base, config, changeSet: logicFix });
    expect(decision.action).toBe('record');
    expect(decision.reasons).toContain(`${MAIN} is protected by rules[0] (paths **/*.java)`);
  });

  describe('a fix that edits the failing test (tests.allowFailingTestEdits)', () => {
    const edits = ['changed the expected value of `assertEquals` in com.acme.OrderTest#total from `6` to `5`'];
    it('is always high risk, says so, and is never applied by auto', () => {
      const decision = decideVerified({
        ...base,
        config: policy({ tier: 'auto', tests: { allowFailingTestEdits: true } }),
        changeSet: importFix,
        failingTestEdits: edits,
      });
      expect(decision).toMatchObject({ action: 'suggest', tier: 'assist', risk: 'high' });
      expect(decision.reasons).toContain(
        `risk high: the fix edits the failing test (tests.allowFailingTestEdits): ${edits[0]}`,
      );
      expect(decision.reasons).toContain(
        'the fix edits the failing test, so it is never applied automatically: tier drops to assist',
      );
    });

    it('is never applied by assist.autoApplyLowRisk, even when the lines are trivial', () => {
      const decision = decideVerified({
        ...base,
        config: policy({ tier: 'assist', assist: { autoApplyLowRisk: true } }),
        changeSet: importFix,
        failingTestEdits: edits,
      });
      expect(decision).toMatchObject({ action: 'suggest', risk: 'high' });
    });
  });

  describe('auto.requireFullVerification', () => {
    it('an affected-scope verdict drops auto to assist, and says why', () => {
      const decision = decideVerified({
        ...base,
        config: policy({ tier: 'auto', auto: { requireFullVerification: true } }),
        changeSet: logicFix,
        verdictScope: 'affected',
      });
      expect(decision).toMatchObject({ action: 'suggest', tier: 'assist' });
      expect(decision.reasons.join('\n')).toContain(
        'the fix was verified on the affected modules only and auto.requireFullVerification asks for the whole build',
      );
    });

    it('a full verdict is applied; without the setting an affected verdict is applied too', () => {
      expect(
        decideVerified({
          ...base,
          config: policy({ tier: 'auto', auto: { requireFullVerification: true } }),
          changeSet: logicFix,
          verdictScope: 'full',
        }).action,
      ).toBe('apply');
      expect(
        decideVerified({ ...base, config: policy({ tier: 'auto' }), changeSet: logicFix, verdictScope: 'affected' })
          .action,
      ).toBe('apply');
    });
  });

  it('only records a patch whose change types a rule does not allow', () => {
    const config = policy({ tier: 'auto', rules: [{ paths: ['src/main/**'], allowedChanges: ['edit-test-source'] }] });
    const decision = decideVerified({ ...base, config, changeSet: logicFix });
    expect(decision.action).toBe('record');
    expect(decision.reasons).toContain(`${MAIN}: change types edit-main-source not allowed by rules[0].allowedChanges`);
  });
});
