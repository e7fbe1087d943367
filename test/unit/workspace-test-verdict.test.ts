import { describe, expect, it } from 'vitest';
import type { TestCaseResult } from '../../src/diagnose/types.js';
import { judgeTestResults, type StageTests } from '../../src/workspace/test-verdict.js';

function t(name: string, status: TestCaseResult['status'], module = 'core'): TestCaseResult {
  const [className, method] = name.split('#');
  return {
    className: `com.acme.${className!}`,
    method: method!,
    module,
    status,
    reportFile: `${module}/target/surefire-reports/TEST-com.acme.${className!}.xml`,
  };
}

const baseline = [
  t('PriceTest#discount', 'failed'),
  t('PriceTest#total', 'passed'),
  t('TaxTest#vat', 'passed'),
  t('AppTest#starts', 'passed', 'app'),
];

const full = (...results: TestCaseResult[]): StageTests => ({ name: 'full', results });
const failingStage = (...results: TestCaseResult[]): StageTests => ({ name: 'failing-tests', results });

describe('judgeTestResults', () => {
  it('accepts a fix whose tests all ran and passed', () => {
    const verdict = judgeTestResults({
      baseline,
      stages: [
        failingStage(t('PriceTest#discount', 'passed')),
        full(
          t('PriceTest#discount', 'passed'),
          t('PriceTest#total', 'passed'),
          t('TaxTest#vat', 'passed'),
          t('AppTest#starts', 'passed', 'app'),
        ),
      ],
    });
    expect(verdict).toEqual({ regressions: [], problems: [] });
  });

  it('names a failing test that was skipped, one that went missing, a passing test that fails, and a module that ran fewer tests', () => {
    const verdict = judgeTestResults({
      baseline,
      stages: [
        full(t('PriceTest#discount', 'skipped'), t('PriceTest#total', 'failed'), t('AppTest#starts', 'passed', 'app')),
      ],
    });
    expect(verdict.regressions).toEqual(['com.acme.PriceTest#total']);
    expect(verdict.problems).toEqual([
      'com.acme.PriceTest#discount, which failed in your build, was skipped',
      'com.acme.TaxTest#vat, which passed in your build, did not run',
      'module core ran 1 test, fewer than the 3 that ran in your build',
    ]);
  });

  it('a failing test that passed in its own stage but is left out of the full build: the full build speaks for its module', () => {
    const verdict = judgeTestResults({
      baseline,
      stages: [
        failingStage(t('PriceTest#discount', 'passed')),
        full(t('PriceTest#total', 'passed'), t('TaxTest#vat', 'passed'), t('AppTest#starts', 'passed', 'app')),
      ],
    });
    expect(verdict.problems).toEqual([
      'com.acme.PriceTest#discount, which failed in your build, did not run',
      'module core ran 2 tests, fewer than the 3 that ran in your build',
    ]);
  });

  it('a module whose tests the full build no longer ran: only its test count shows it', () => {
    const verdict = judgeTestResults({
      baseline,
      stages: [failingStage(t('PriceTest#discount', 'passed')), full(t('AppTest#starts', 'passed', 'app'))],
    });
    expect(verdict.problems).toEqual([
      'com.acme.PriceTest#total, which passed in your build, did not run',
      'com.acme.TaxTest#vat, which passed in your build, did not run',
      'module core ran 1 test, fewer than the 3 that ran in your build',
    ]);
  });

  it('a failing test that still fails in a build that passed (testFailureIgnore)', () => {
    const verdict = judgeTestResults({
      baseline: [t('PriceTest#discount', 'failed')],
      stages: [full(t('PriceTest#discount', 'failed'))],
    });
    expect(verdict.problems).toEqual(['com.acme.PriceTest#discount, which failed in your build, still fails']);
  });

  it('parameterised invocations: one failing invocation fails the test; more tests than before is fine', () => {
    const verdict = judgeTestResults({
      baseline: [t('PriceTest#rounds', 'failed'), t('PriceTest#rounds', 'passed')],
      stages: [full(t('PriceTest#rounds', 'passed'), t('PriceTest#rounds', 'passed'), t('PriceTest#rounds', 'passed'))],
    });
    expect(verdict).toEqual({ regressions: [], problems: [] });
  });

  it('tests that failed only after earlier progress must also run and pass', () => {
    const verdict = judgeTestResults({
      baseline: [],
      required: ['com.acme.NewTest#appears'],
      stages: [full(t('NewTest#appears', 'skipped'))],
    });
    expect(verdict.problems).toEqual(['com.acme.NewTest#appears, which failed, was skipped']);
  });

  it('tests skipped in the user build are not required to run', () => {
    const verdict = judgeTestResults({ baseline: [t('PriceTest#later', 'skipped')], stages: [full()] });
    expect(verdict).toEqual({ regressions: [], problems: [] });
  });

  describe('modules whose tests are taken from your build (verify.scope affected)', () => {
    it('their results stand: no missing test, no module that ran fewer', () => {
      const verdict = judgeTestResults({
        baseline,
        fromYourBuild: ['app'],
        stages: [
          failingStage(t('PriceTest#discount', 'passed')),
          full(t('PriceTest#discount', 'passed'), t('PriceTest#total', 'passed'), t('TaxTest#vat', 'passed')),
        ],
      });
      expect(verdict).toEqual({ regressions: [], problems: [] });
    });

    it('the affected modules are still judged in full: a failing test still failing, a module running fewer tests', () => {
      const verdict = judgeTestResults({
        baseline,
        fromYourBuild: ['app'],
        stages: [full(t('PriceTest#discount', 'failed'), t('PriceTest#total', 'passed'))],
      });
      expect(verdict.problems).toEqual([
        'com.acme.PriceTest#discount, which failed in your build, still fails',
        'com.acme.TaxTest#vat, which passed in your build, did not run',
        'module core ran 2 tests, fewer than the 3 that ran in your build',
      ]);
    });

    it('without the scope, a module whose tests were left out is judged missing', () => {
      const verdict = judgeTestResults({
        baseline,
        stages: [full(t('PriceTest#discount', 'passed'), t('PriceTest#total', 'passed'), t('TaxTest#vat', 'passed'))],
      });
      expect(verdict.problems).toEqual(['module app ran 0 tests, fewer than the 1 that ran in your build']);
    });

    it("test classes that selection left out of a module that ran (verify.tests affected) keep your build's results; only that module's", () => {
      const ran = full(
        t('PriceTest#discount', 'passed'),
        t('PriceTest#total', 'passed'),
        t('AppTest#starts', 'passed', 'app'),
      );
      expect(
        judgeTestResults({
          baseline,
          stages: [ran],
          classesFromYourBuild: { module: 'core', classes: ['com.acme.TaxTest'] },
        }),
      ).toEqual({ regressions: [], problems: [] });
      // Without it, TaxTest did not run; named for another module, it does not count here.
      const missing = [
        'com.acme.TaxTest#vat, which passed in your build, did not run',
        'module core ran 2 tests, fewer than the 3 that ran in your build',
      ];
      expect(judgeTestResults({ baseline, stages: [ran] }).problems).toEqual(missing);
      expect(
        judgeTestResults({
          baseline,
          stages: [ran],
          classesFromYourBuild: { module: 'app', classes: ['com.acme.TaxTest'] },
        }).problems,
      ).toEqual(missing);
    });

    it('a test class taken from your build that ran after all is judged by its new result', () => {
      const verdict = judgeTestResults({
        baseline,
        stages: [
          full(
            t('PriceTest#discount', 'passed'),
            t('PriceTest#total', 'passed'),
            t('TaxTest#vat', 'failed'),
            t('AppTest#starts', 'passed', 'app'),
          ),
        ],
        classesFromYourBuild: { module: 'core', classes: ['com.acme.TaxTest'] },
      });
      expect(verdict.regressions).toEqual(['com.acme.TaxTest#vat']);
    });

    it("when the full stage ran a carried module's tests after all, those results are judged, not the old ones", () => {
      const verdict = judgeTestResults({
        baseline,
        fromYourBuild: ['app'],
        stages: [
          full(
            t('PriceTest#discount', 'passed'),
            t('PriceTest#total', 'passed'),
            t('TaxTest#vat', 'passed'),
            t('AppTest#starts', 'failed', 'app'),
          ),
        ],
      });
      expect(verdict.regressions).toEqual(['com.acme.AppTest#starts']);
    });

    it("results an earlier stage wrote for a carried module (a class of the same name) give way to your build's", () => {
      const verdict = judgeTestResults({
        baseline,
        fromYourBuild: ['app'],
        stages: [
          failingStage(t('AppTest#starts', 'skipped', 'app')),
          full(t('PriceTest#discount', 'passed'), t('PriceTest#total', 'passed'), t('TaxTest#vat', 'passed')),
        ],
      });
      expect(verdict).toEqual({ regressions: [], problems: [] });
    });
  });
});
