import { describe, expect, it } from 'vitest';
import type { Diagnosis, Diagnostic, ReactorModule } from '../../src/diagnose/types.js';
import { diagnosisFingerprint } from '../../src/diagnose/index.js';
import { judgeProgress } from '../../src/repair/loop/judge-progress.js';
import { withTestsNotRun } from '../../src/repair/verification/verifier.js';

type Spec = Partial<Diagnostic> & { message: string };

function d(spec: Spec): Diagnostic {
  const kind = spec.kind ?? 'compile';
  return {
    kind,
    category: kind === 'test' ? 'test' : 'compile',
    fixable: true,
    file: 'src/main/java/com/acme/App.java',
    ...spec,
    fingerprint:
      spec.fingerprint ??
      `${kind}:${spec.file ?? 'App'}:${spec.test ?? ''}:${spec.message}:${(spec.details ?? []).join()}`,
  };
}

function diagnosis(diagnostics: Diagnostic[], modules: ReactorModule[] = [], fixable = true): Diagnosis {
  return {
    diagnostics,
    fingerprint: diagnostics
      .map((x) => x.fingerprint)
      .sort()
      .join('|'),
    fixable,
    modules,
    warnings: [],
  };
}

const symbol = (line: number, what: string, file = 'src/main/java/com/acme/App.java') =>
  d({ message: 'cannot find symbol', details: [`symbol: ${what}`], line, file });

describe('judgeProgress', () => {
  it.each([
    {
      name: 'one of two errors gone, the other moved down a line by the fix: adopted',
      before: [symbol(8, 'variable lenght'), symbol(20, 'class List')],
      after: [symbol(21, 'class List')],
      adopted: true,
    },
    {
      name: 'the error at the same line only changed its message: not adopted',
      before: [symbol(8, 'variable lenght')],
      after: [symbol(8, 'method length()')],
      adopted: false,
      why: 'the failure at src/main/java/com/acme/App.java:8 only changed its message',
    },
    {
      name: 'one error gone and a new one elsewhere: not adopted',
      before: [symbol(8, 'variable lenght')],
      after: [symbol(30, 'variable total')],
      adopted: false,
      why: 'it caused a new error at src/main/java/com/acme/App.java:30: cannot find symbol',
    },
    {
      name: 'a syntax error fixed reveals attribution errors (javac phases): adopted',
      before: [d({ message: "';' expected", line: 8 })],
      after: [symbol(8, 'variable product'), symbol(12, 'class Money')],
      adopted: true,
    },
    {
      name: 'main sources compile now and test sources show their errors: adopted',
      before: [d({ message: 'incompatible types: String cannot be converted to int', line: 8, scope: 'main' })],
      after: [
        d({ message: 'cannot find symbol', file: 'src/test/java/com/acme/AppTest.java', line: 5, scope: 'test' }),
      ],
      adopted: true,
    },
    {
      name: 'everything compiles now and a test fails: adopted',
      before: [d({ message: 'incompatible types', line: 8 })],
      after: [d({ kind: 'test', message: 'expected: <6> but was: <5>', test: 'com.acme.AppTest#multiplies' })],
      adopted: true,
    },
    {
      name: 'the same test fails with another value: not adopted',
      before: [d({ kind: 'test', message: 'expected: <50> but was: <40>', test: 'com.acme.PriceTest#discount' })],
      after: [d({ kind: 'test', message: 'expected: <50> but was: <0>', test: 'com.acme.PriceTest#discount' })],
      adopted: false,
      why: 'the same failures remain',
    },
    {
      name: 'one failing test passes now and another starts failing: not adopted',
      before: [d({ kind: 'test', message: 'boom', test: 'com.acme.PriceTest#discount' })],
      after: [d({ kind: 'test', message: 'boom', test: 'com.acme.PriceTest#total' })],
      adopted: false,
      why: 'it caused a new failing test com.acme.PriceTest#total',
    },
  ])('$name', ({ before, after, adopted, why }) => {
    const judged = judgeProgress(diagnosis(before), diagnosis(after));
    expect(judged.adopted).toBe(adopted);
    if (why) expect(judged.why).toBe(why);
  });

  it('a module skipped before builds now and shows its own errors: adopted', () => {
    const modules: ReactorModule[] = [
      { name: 'core', artifactId: 'core', dir: 'core' },
      { name: 'app', artifactId: 'app', dir: 'app' },
    ];
    const before = diagnosis(
      [symbol(3, 'class Money', 'core/src/main/java/Core.java')].map((x) => ({ ...x, module: 'core' })),
      modules,
    );
    const after = diagnosis([{ ...symbol(9, 'method greet', 'app/src/main/java/App.java'), module: 'app' }], modules);
    expect(judgeProgress(before, after).adopted).toBe(true);
  });

  it('a new error in a module that built before is not revealed, it is new', () => {
    const modules: ReactorModule[] = [
      { name: 'util', artifactId: 'util', dir: 'util' },
      { name: 'core', artifactId: 'core', dir: 'core' },
    ];
    const before = diagnosis(
      [{ ...symbol(3, 'class Money', 'core/src/main/java/Core.java'), module: 'core' }],
      modules,
    );
    const after = diagnosis([{ ...symbol(4, 'method trim', 'util/src/main/java/Util.java'), module: 'util' }], modules);
    expect(judgeProgress(before, after).adopted).toBe(false);
  });

  it('a build that now fails in a way no patch can fix is not progress', () => {
    const judged = judgeProgress(diagnosis([symbol(8, 'variable x')]), {
      ...diagnosis([]),
      fixable: false,
      reason: 'dependency resolution failed',
    });
    expect(judged).toEqual({
      adopted: false,
      why: 'the build now fails in a way a code patch cannot fix (dependency resolution failed)',
    });
  });
});

describe('withTestsNotRun (a build the first failing tests stopped)', () => {
  const failingTest = (test: string, message = 'expected: <6> but was: <5>') => d({ kind: 'test', message, test });
  const before = diagnosis([
    failingTest('a.T#one'),
    failingTest('a.T#two'),
    failingTest('a.U#three'),
    symbol(3, 'variable x'),
  ]);

  it('carries the failures of the tests that did not run over from the diagnosis worked on, so they count neither as gone nor as new', () => {
    const stopped = diagnosis([failingTest('a.T#one', 'expected: <6> but was: <7>'), failingTest('a.T#two')]);
    const tests = diagnosis(before.diagnostics.filter((x) => x.kind === 'test'));
    const merged = withTestsNotRun(stopped, tests, ['a.U#three']);
    expect(merged.diagnostics.map((x) => x.test)).toEqual(['a.T#one', 'a.T#two', 'a.U#three']);
    expect(merged.fingerprint).toBe(diagnosisFingerprint(merged.diagnostics));
    expect(merged.fingerprint).not.toBe(stopped.fingerprint);
    expect(judgeProgress(tests, merged)).toEqual({ adopted: false, why: 'the same failures remain' });
    // Without the carry, the test that never ran would count as fixed, and the candidate would be kept.
    expect(judgeProgress(tests, stopped).adopted).toBe(true);
  });

  it('a test that ran keeps its own failure; only test failures are carried; nothing to carry leaves the diagnosis as it was', () => {
    const stopped = diagnosis([failingTest('a.U#three', 'expected: <1> but was: <2>')]);
    const merged = withTestsNotRun(stopped, before, ['a.U#three', 'a.T#two']);
    expect(merged.diagnostics.map((x) => [x.test, x.message])).toEqual([
      ['a.U#three', 'expected: <1> but was: <2>'],
      ['a.T#two', 'expected: <6> but was: <5>'],
    ]);
    expect(withTestsNotRun(stopped, before, [])).toBe(stopped);
    expect(withTestsNotRun(stopped, before, ['src/main/java/com/acme/App.java'])).toBe(stopped);
  });
});
