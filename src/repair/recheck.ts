/**
 * The flaky check (tests.flakyCheck): before any repair of a test failure, the failing
 * tests run once more, alone, on the unchanged code in the workspace. A test that passes
 * then failed for a reason outside the code (timing, order, the environment), and no
 * patch should be made, or paid a model call, for it.
 */
import type { Diagnosis } from '../diagnose/types.js';
import { planVerification, rerunTests, type QuickJvm, type WorkspaceBuildOptions } from '../workspace/index.js';
import type { FailureRecheck } from './loop.js';
import { failingModuleDirs, failingTests } from './verifier.js';

export interface RecheckOptions extends WorkspaceBuildOptions {
  mavenArgs: string[];
  onStage?: (name: string) => void;
  /** verify.quickJvm's flags. */
  jvm?: QuickJvm;
}

/** Only a build whose every fixable failure is a failing test is re-checked: a compile error is no accident. */
export function recheckApplies(diagnosis: Diagnosis): boolean {
  const fixable = diagnosis.diagnostics.filter((d) => d.fixable);
  return fixable.length > 0 && fixable.every((d) => d.kind === 'test' && d.test);
}

export function createFailureRecheck(options: RecheckOptions) {
  const { mavenArgs, ...build } = options;
  return async function recheckFailures(diagnosis: Diagnosis): Promise<FailureRecheck | undefined> {
    if (!recheckApplies(diagnosis)) return undefined;
    const tests = failingTests(diagnosis);
    const stage = planVerification({ mavenArgs, failingModules: failingModuleDirs(diagnosis), failingTests: tests, kinds: ['test'] }).find(
      (candidate) => candidate.name === 'failing-tests',
    );
    if (!stage) return undefined;
    const started = Date.now();
    const rerun = await rerunTests({ ...build, stage });
    if (rerun.interrupted) return undefined;
    const passedAlways = (test: string) => {
      const runs = rerun.tests.filter((result) => `${result.className}#${result.method}` === test);
      return runs.length > 0 && runs.every((result) => result.status === 'passed');
    };
    // A build that still fails (even for another reason) proves nothing flaky.
    const passed = rerun.exitCode === 0 ? tests.filter(passedAlways) : [];
    return { passed, failed: tests.filter((test) => !passed.includes(test)), durationMs: Date.now() - started };
  };
}
