/**
 * The decisions' edges and the exact reasons they record (the run record and the console show
 * them as they are): found by mutation testing (mutation/slices/policy-decide.config.mjs), where a
 * changed comparison, a dropped filter or a blank reason left every earlier test green.
 */
import { describe, expect, it } from 'vitest';
import { decideAttempt } from '../../src/policy/decide-attempt.js';
import { decideVerified, type VerifiedInput } from '../../src/policy/decide-verified.js';
import { assessRisk } from '../../src/policy/risk.js';
import { configSchema, type ParsedConfig } from '../../src/policy/schema.js';
import type { Diagnosis, Diagnostic } from '../../src/diagnose/types.js';
import type { ChangeSet } from '../../src/patch/types.js';

function policy(input: Record<string, unknown> = {}): ParsedConfig {
  return configSchema.parse(input);
}

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

const ORDER = 'src/main/java/com/acme/core/Order.java';
const compile = diagnostic({ file: ORDER, module: 'core' });

describe('decideAttempt: reasons and edges', () => {
  it('names the diagnosis reason first, then the first diagnostic with one, then a default', () => {
    const own = decideAttempt({
      diagnosis: diagnosis([diagnostic({ fixable: false, reason: 'the JDK is missing' })], {
        fixable: false,
        reason: 'a dependency could not be resolved',
      }),
      config: policy(),
      mavenArgs: [],
    });
    expect(own.reasons).toEqual(['not fixable: a dependency could not be resolved']);
    const fromDiagnostic = decideAttempt({
      diagnosis: diagnosis(
        [diagnostic({ fixable: false }), diagnostic({ fixable: false, reason: 'the JDK is missing' })],
        { fixable: false },
      ),
      config: policy(),
      mavenArgs: [],
    });
    expect(fromDiagnostic.reasons).toEqual(['not fixable: the JDK is missing']);
    const none = decideAttempt({ diagnosis: diagnosis([], { fixable: false }), config: policy(), mavenArgs: [] });
    expect(none).toEqual({
      action: 'skip',
      tier: 'assist',
      reasons: ['not fixable: no compile or test failure was diagnosed'],
      targets: [],
    });
  });

  it('lists every untriggered kind and every triggered one, or none when no diagnostic is fixable', () => {
    const kinds = decideAttempt({
      diagnosis: diagnosis([diagnostic({ kind: 'quality' }), diagnostic({ kind: 'other' })]),
      config: policy({ triggers: { kinds: ['compile', 'test'] } }),
      mavenArgs: [],
    });
    expect(kinds.reasons).toEqual(['failure kinds (quality, other) are not in triggers.kinds (compile, test)']);
    const none = decideAttempt({
      diagnosis: diagnosis([diagnostic({ fixable: false })], { fixable: true }),
      config: policy({ triggers: { kinds: ['compile'] } }),
      mavenArgs: [],
    });
    expect(none.reasons).toEqual(['failure kinds (none) are not in triggers.kinds (compile)']);
  });

  it('never targets an unfixable diagnostic of a triggered kind', () => {
    const unfixable = diagnostic({ file: 'src/main/java/com/acme/core/Other.java', fixable: false });
    const decision = decideAttempt({ diagnosis: diagnosis([compile, unfixable]), config: policy(), mavenArgs: [] });
    expect(decision.targets).toEqual([compile]);
  });

  it('attempts when any goal on the command line is a trigger goal, and says when none is', () => {
    const config = policy({ triggers: { goals: ['verify', 'install'] } });
    expect(decideAttempt({ diagnosis: diagnosis([compile]), config, mavenArgs: ['clean', 'verify'] }).action).toBe(
      'attempt',
    );
    expect(decideAttempt({ diagnosis: diagnosis([compile]), config, mavenArgs: ['-q'] }).reasons).toEqual([
      'Maven goals (none) are not in triggers.goals (verify, install)',
    ]);
  });

  it('applies module-scoped rules to the diagnosed modules', () => {
    const config = policy({ tier: 'auto', rules: [{ paths: ['**/*.java'], modules: ['core'], tier: 'monitor' }] });
    expect(decideAttempt({ diagnosis: diagnosis([compile]), config, mavenArgs: [] }).tier).toBe('monitor');
    expect(decideAttempt({ diagnosis: diagnosis([{ ...compile, module: 'web' }]), config, mavenArgs: [] }).tier).toBe(
      'auto',
    );
  });

  it('takes its tier from files it knows only, and from the files it may edit only', () => {
    const everywhere = policy({ tier: 'auto', rules: [{ paths: ['**'], tier: 'monitor' }] });
    expect(decideAttempt({ diagnosis: diagnosis([diagnostic({})]), config: everywhere, mavenArgs: [] }).tier).toBe(
      'auto',
    );
    const pomRule = policy({ rules: [{ paths: ['pom.xml'], tier: 'monitor' }] });
    const decision = decideAttempt({
      diagnosis: diagnosis([compile, diagnostic({ file: 'pom.xml' })]),
      config: pomRule,
      mavenArgs: [],
    });
    expect(decision).toMatchObject({ action: 'attempt', tier: 'assist' });
  });

  it('joins the reasons of several protected files', () => {
    const decision = decideAttempt({
      diagnosis: diagnosis([diagnostic({ file: 'pom.xml' }), diagnostic({ file: 'core/pom.xml' })]),
      config: policy(),
      mavenArgs: [],
    });
    expect(decision.reasons).toEqual([
      'every diagnosed file is protected: pom.xml is protected ("pom.xml"); core/pom.xml is protected ("**/pom.xml")',
    ]);
    expect(decision.targets).toEqual([]);
  });

  it('counts several targets in the plural, with their kinds', () => {
    const test = diagnostic({
      kind: 'test',
      category: 'test',
      file: 'src/test/java/com/acme/core/OrderTest.java',
      module: 'core',
    });
    const decision = decideAttempt({ diagnosis: diagnosis([compile, test]), config: policy(), mavenArgs: [] });
    expect(decision.reasons).toEqual(['2 fixable diagnostics (compile, test) under tier assist']);
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
const base = { changeTypes: ['edit-main-source' as const], modules: ['core'], interactive: false };
const verified = (config: ParsedConfig, changeSet: ChangeSet, more: Partial<VerifiedInput> = {}) =>
  decideVerified({ ...base, config, changeSet, ...more });

describe('decideVerified: reasons and edges', () => {
  it('records each tier with the whole chain of reasons', () => {
    const oneImport: ChangeSet = {
      files: [
        {
          path: MAIN,
          before: 'package a;\nclass Order {}\n',
          after: 'package a;\nimport java.util.List;\nclass Order {}\n',
        },
      ],
    };
    expect(verified(policy({ tier: 'monitor' }), oneImport).reasons).toEqual([
      'risk low: 1 line in 1 file, source edits only, only log/comment/import/string-literal lines',
      'tier monitor: the fix is recorded, not shown or applied',
    ]);
    expect(verified(policy({ tier: 'off' }), importFix)).toMatchObject({
      action: 'record',
      reasons: [expect.any(String), 'tier off: the fix is recorded, not shown or applied'],
    });
    expect(verified(policy({ tier: 'auto' }), logicFix).reasons.at(-1)).toBe(
      'tier auto: the verified fix is to be applied',
    );
    expect(verified(policy({ assist: { autoApplyLowRisk: true } }), importFix).reasons.at(-1)).toBe(
      'tier assist with assist.autoApplyLowRisk: low-risk fix applied',
    );
  });

  it('says why a low-risk suggestion was not applied, and nothing of the kind for a riskier one', () => {
    expect(verified(policy(), importFix).reasons.at(-1)).toBe(
      'tier assist: the fix is suggested (assist.autoApplyLowRisk is off)',
    );
    expect(verified(policy(), logicFix).reasons.at(-1)).toBe('tier assist: the fix is suggested');
  });

  it('names the missing sandbox when an unisolated low-risk fix is only suggested', () => {
    const decision = verified(policy({ assist: { autoApplyLowRisk: true } }), importFix, {
      isolation: { isolated: false },
    });
    expect(decision.action).toBe('suggest');
    expect(decision.reasons.slice(-2)).toEqual([
      "assist.autoApplyLowRisk does not apply: verification ran without isolation (no sandbox), so its verdict is not applied without you; write sandbox.mode: none in the team's config only where the environment itself is the sandbox",
      'tier assist: the fix is suggested',
    ]);
  });

  it('quotes the failing-test edits, joined, as the high risk', () => {
    const decision = verified(policy({ tier: 'auto' }), logicFix, {
      failingTestEdits: ['assertEquals(3, x) became assertEquals(4, x)', 'a line removed'],
    });
    expect(decision.reasons[0]).toBe(
      'risk high: the fix edits the failing test (tests.allowFailingTestEdits): assertEquals(3, x) became assertEquals(4, x); a line removed',
    );
  });

  it('prompts only for a suggestion, never for a recorded or applied fix', () => {
    expect(verified(policy({ tier: 'monitor' }), logicFix, { interactive: true }).prompt).toBe(false);
    expect(verified(policy({ tier: 'auto' }), logicFix, { interactive: true }).prompt).toBe(false);
  });

  it('judges a rename by both of its paths', () => {
    const rename: ChangeSet = {
      files: [
        {
          path: 'src/main/java/com/acme/core/Total.java',
          oldPath: 'src/main/java/com/acme/legacy/Total.java',
          before: 'class Total {}\n',
          after: 'class Total {}\n',
        },
      ],
    };
    const config = policy({ tier: 'auto', rules: [{ paths: ['**/legacy/**'], tier: 'monitor' }] });
    expect(verified(config, rename, { changeTypes: ['rename'] }).tier).toBe('monitor');
    const inPlace: ChangeSet = { files: [{ ...logicFix.files[0]!, oldPath: MAIN }] };
    expect(
      verified(policy({ tier: 'auto', rules: [{ paths: ['**'], allowedChanges: ['edit-main-source'] }] }), inPlace)
        .action,
    ).toBe('apply');
  });

  it('counts a file changed in place once, even when its change names its own path as the old one', () => {
    const inPlace: ChangeSet = { files: [{ ...logicFix.files[0]!, oldPath: MAIN }] };
    const decision = verified(policy({ rules: [{ paths: ['**/core/**'], tier: 'monitor' }] }), inPlace);
    expect(decision.reasons.slice(1)).toEqual([
      `${MAIN}: tier monitor from rules[0] (paths **/core/**)`,
      'tier monitor: the fix is recorded, not shown or applied',
    ]);
  });

  it('joins every reason for the risk', () => {
    const pom: ChangeSet = {
      files: [{ path: 'pom.xml', before: '<project/>\n', after: '<project><dependencies/></project>\n' }],
    };
    const decision = verified(policy(), pom, { changeTypes: ['edit-build-file', 'add-dependency'] });
    expect(decision.reasons[0]).toBe(
      'risk high: change type edit-build-file is high risk (risk.highChangeTypes); change type add-dependency is high risk (risk.highChangeTypes)',
    );
  });

  it('lets auto apply a fix whose risk equals auto.maxRisk', () => {
    expect(verified(policy({ tier: 'auto', auto: { maxRisk: 'medium' } }), logicFix).action).toBe('apply');
    expect(verified(policy({ tier: 'auto', auto: { maxRisk: 'low' } }), logicFix).reasons).toContain(
      'risk medium is above auto.maxRisk (low): tier drops to assist',
    );
  });

  it('does not let the auto rules run for assist or monitor', () => {
    // Under assist a module without coverage is no reason: the coverage gate is auto's.
    const decision = verified(policy({ tier: 'assist', auto: { requireCoverage: 80 } }), logicFix);
    expect(decision.reasons.join('\n')).not.toContain('requireCoverage');
  });

  it('gates on coverage even when no coverage was read at all', () => {
    const decision = verified(policy({ tier: 'auto', auto: { requireCoverage: 80 } }), logicFix);
    expect(decision).toMatchObject({ action: 'suggest', tier: 'assist' });
    expect(decision.reasons).toContain(
      'module core has no jacoco report (target/site/jacoco/jacoco.xml), auto.requireCoverage is 80%: tier drops to assist',
    );
  });

  it('records a patch whose change types a matching rule does not allow, naming them', () => {
    const config = policy({ tier: 'auto', rules: [{ paths: ['**/*.java'], allowedChanges: ['edit-main-source'] }] });
    const decision = verified(config, logicFix, { changeTypes: ['edit-main-source', 'rename', 'delete-file'] });
    expect(decision.action).toBe('record');
    expect(decision.reasons.slice(-2)).toEqual([
      `${MAIN}: change types rename, delete-file not allowed by rules[0].allowedChanges`,
      'recorded only: the policy does not allow this patch',
    ]);
    expect(verified(config, logicFix).action).toBe('apply');
  });
});

describe('assessRisk: limits are inclusive, and the reasons count', () => {
  const config = policy();
  const lines = (n: number, path = MAIN): ChangeSet['files'][number] => ({
    path,
    before: '',
    after: Array.from({ length: n }, (_, i) => `  int f${i} = ${i};\n`).join(''),
  });
  const files = (n: number): ChangeSet => ({
    files: Array.from({ length: n }, (_, i) => lines(1, `src/main/java/com/acme/F${i}.java`)),
  });

  it('counts added and removed lines together', () => {
    const replaced: ChangeSet = {
      files: [
        {
          path: MAIN,
          before: Array.from({ length: 30 }, (_, i) => `  int a${i};\n`).join(''),
          after: Array.from({ length: 31 }, (_, i) => `  int b${i};\n`).join(''),
        },
      ],
    };
    expect(assessRisk(replaced, ['edit-main-source'], config)).toEqual({
      risk: 'high',
      reasons: ['61 lines in 1 file: more than risk.highMinLines (60)'],
    });
  });

  it('is high above highMinLines and highMinFiles, not at them', () => {
    expect(assessRisk({ files: [lines(60)] }, ['edit-main-source'], config).risk).toBe('medium');
    expect(assessRisk(files(4), ['edit-main-source'], config).risk).toBe('medium');
    expect(assessRisk(files(5), ['edit-main-source'], config)).toEqual({
      risk: 'high',
      reasons: ['5 files: more than risk.highMinFiles (4)'],
    });
  });

  it('is low up to lowMaxLines and lowMaxFiles, medium above, and says so', () => {
    const trivial = policy({ risk: { lowRequiresTrivialLines: false } });
    expect(assessRisk({ files: [lines(10)] }, ['edit-main-source'], trivial)).toEqual({
      risk: 'low',
      reasons: ['10 lines in 1 file, source edits only'],
    });
    expect(assessRisk({ files: [lines(11)] }, ['edit-main-source'], trivial)).toEqual({
      risk: 'medium',
      reasons: ['11 lines in 1 file: more than risk.lowMaxLines (10)'],
    });
    expect(assessRisk(files(2), ['edit-main-source'], trivial)).toEqual({
      risk: 'low',
      reasons: ['2 lines in 2 files, source edits only'],
    });
    expect(assessRisk(files(3), ['edit-main-source'], trivial)).toEqual({
      risk: 'medium',
      reasons: ['3 files: more than risk.lowMaxFiles (2)'],
    });
  });

  it('names the change types that are not source edits', () => {
    const trivial = policy({ risk: { lowRequiresTrivialLines: false } });
    expect(assessRisk({ files: [lines(1)] }, ['edit-main-source', 'edit-resource', 'edit-other'], trivial)).toEqual({
      risk: 'medium',
      reasons: ['change types other than source edits: edit-resource, edit-other'],
    });
    expect(assessRisk({ files: [lines(1)] }, ['edit-test-source'], trivial).risk).toBe('low');
  });

  it('cuts a long example line to 80 characters', () => {
    const long = `  int total = ${'alpha + '.repeat(20)}omega;`;
    const result = assessRisk(
      { files: [{ path: MAIN, before: '', after: `${long}\n` }] },
      ['edit-main-source'],
      config,
    );
    const example = `${MAIN}: ${long.trim()}`;
    expect(result.reasons).toEqual([
      `changes code, not only log/comment/import/string-literal lines (e.g. ${example.slice(0, 77)}...)`,
    ]);
    const exact = `${MAIN}: int x${'y'.repeat(80 - MAIN.length - 8)};`;
    expect(exact).toHaveLength(80);
    const fits = assessRisk(
      { files: [{ path: MAIN, before: '', after: `  ${exact.slice(MAIN.length + 2)}\n` }] },
      ['edit-main-source'],
      config,
    );
    expect(fits.reasons).toEqual([`changes code, not only log/comment/import/string-literal lines (e.g. ${exact})`]);
  });
});
