/**
 * What a candidate's verification says of the modules tested beside the model (issue 42,
 * item 5): the verdict names them apart from those of the user's build; a failure there
 * makes a passing candidate `build-failed` with that failure as its diagnosis, never a
 * regression; a run that cannot speak for a module is not used.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnosis } from '../../src/diagnose/types.js';
import type { Verification } from '../../src/repair/loop/ports.js';
import {
  speaksFor,
  withBeforeCandidate,
  type BeforeCandidateResult,
} from '../../src/repair/verification/before-candidate.js';

const verified: Verification = {
  outcome: 'verified',
  regressions: [],
  applyMs: 10,
  verifyMs: 1000,
  stages: [{ name: 'full', exitCode: 0, durationMs: 1000 }],
  verdict: {
    scope: 'affected',
    args: ['-pl', 'app', '-am', 'verify'],
    testsFromYourBuild: ['util', 'report'],
    jvmFlags: [],
    tests: { ran: ['com.acme.app.AppTest'], fromYourBuild: [], why: 'all tests ran: verify.tests is all' },
  },
};
const run = (failing: boolean): BeforeCandidateResult['run'] => ({
  modules: [{ dir: 'report', artifactId: 'report' }],
  exitCode: failing ? 1 : 0,
  tests: [
    { className: 'com.acme.report.ReportTest', method: 'a', module: 'report', status: 'passed', reportFile: 'r.xml' },
    {
      className: 'com.acme.report.BrokenTest$Inner',
      method: 'b',
      module: 'report',
      status: failing ? 'failed' : 'passed',
      reportFile: 'b.xml',
    },
  ],
  interrupted: false,
  durationMs: 4200,
  args: ['--fail-at-end', '-pl', 'report', '-am', 'verify'],
  logFile: '/tmp/log',
  startedAt: new Date(0),
  projectRoot: '/tmp/ws',
});
const failure: Diagnosis = {
  diagnostics: [
    {
      kind: 'test',
      module: 'report',
      test: 'com.acme.report.BrokenTest$Inner#b',
      message: 'expected 4',
      fingerprint: 'f1',
      fixable: true,
    } as Diagnosis['diagnostics'][number],
  ],
  fingerprint: 'x',
  fixable: true,
  modules: [{ name: 'Report', artifactId: 'report', status: 'FAILURE' }],
  warnings: [],
};
const taken = [{ artifactId: 'report' }];

describe('withBeforeCandidate', () => {
  it('a passing run: the verdict names the modules, their classes and the run; they leave testsFromYourBuild', () => {
    const result = withBeforeCandidate(verified, { run: run(false), passed: ['report'], failed: [] }, taken);
    expect(result.outcome).toBe('verified');
    expect(result.verdict!.testsFromYourBuild).toEqual(['util']);
    expect(result.verdict!.tests!.beforeCandidate).toEqual({
      modules: ['report'],
      ran: ['com.acme.report.BrokenTest', 'com.acme.report.ReportTest'],
      failed: [],
      args: ['--fail-at-end', '-pl', 'report', '-am', 'verify'],
      durationMs: 4200,
      why: 'module report: never reached by your build, and needs none of the failing modules: built and tested once on the unchanged code while the model worked',
    });
    expect(result.verdict!.tests!.ran).toEqual(['com.acme.app.AppTest']);
  });

  it('a module that failed on the unchanged code: a passing candidate is build-failed with that failure, not a regression', () => {
    const result = withBeforeCandidate(
      verified,
      { run: run(true), passed: [], failed: ['report'], diagnosis: failure },
      taken,
    );
    expect(result.outcome).toBe('build-failed');
    expect(result.regressions).toEqual([]);
    expect(result.rejectedAt).toBe('full');
    expect(result.diagnosis!.diagnostics.map((d) => d.test)).toEqual(['com.acme.report.BrokenTest$Inner#b']);
    expect(result.testProblems).toEqual([
      'module report fails on your unchanged code too (built beside the model, before this fix): not caused by the fix, but the build is not green',
    ]);
    expect(result.verdict!.tests!.beforeCandidate!.failed).toEqual(['com.acme.report.BrokenTest$Inner#b']);
    expect(result.verdict!.tests!.beforeCandidate!.why).toContain('module report failed there, before any fix');
  });

  it("a candidate that failed on its own keeps its outcome and diagnosis; the verdict still names the run's failure", () => {
    const own: Verification = { ...verified, outcome: 'regressed', regressions: ['com.acme.app.AppTest#x'] };
    const result = withBeforeCandidate(
      own,
      { run: run(true), passed: [], failed: ['report'], diagnosis: failure },
      taken,
    );
    expect(result.outcome).toBe('regressed');
    expect(result.regressions).toEqual(['com.acme.app.AppTest#x']);
    expect(result.diagnosis).toBeUndefined();
    expect(result.verdict!.tests!.beforeCandidate!.failed).toHaveLength(1);
  });

  it('a rejected candidate judged before the run ended: the modules leave testsFromYourBuild, nothing else is said', () => {
    const own: Verification = { ...verified, outcome: 'regressed', regressions: ['com.acme.app.AppTest#x'] };
    const result = withBeforeCandidate(own, undefined, taken);
    expect(result.outcome).toBe('regressed');
    expect(result.verdict!.testsFromYourBuild).toEqual(['util']);
    expect(result.verdict!.tests!.beforeCandidate).toBeUndefined();
  });
});

describe('speaksFor', () => {
  it('only a run in which each taken module passed or failed', () => {
    expect(speaksFor({ run: run(false), passed: ['report'], failed: [] }, taken)).toBe(true);
    expect(speaksFor({ run: run(true), passed: [], failed: ['report'] }, taken)).toBe(true);
    // Skipped there (a module it needs failed), or the run was interrupted.
    expect(speaksFor({ run: run(true), passed: [], failed: [] }, taken)).toBe(false);
    expect(speaksFor(undefined, taken)).toBe(false);
  });
});
