/**
 * The flaky check (tests.flakyCheck): before any repair of a test failure, the failing
 * tests run once more, alone, on the unchanged code in the workspace. A test that passes
 * then failed for a reason outside the code (timing, order, the environment), and no
 * patch should be made, or paid a model call, for it.
 */
import type { Diagnosis } from '../../diagnose/types.js';
import {
  failingFirstSample,
  planVerification,
  rerunTests,
  type QuickJvm,
  type WorkspaceBuildOptions,
} from '../../workspace/index.js';
import type { FailureRecheck, RecheckEvents } from '../loop/ports.js';
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

/**
 * How many failing tests the re-check runs first (failingFirstSample: beyond three, three
 * of the class with the most failures, one class to load). A build whose first failures
 * fail again is no accident, whatever the rest would do (a re-run that fails proves
 * nothing flaky, as before), so the rest run only when those passed: a failure of 155
 * tests costs the re-check of three. The outcome is the one re-running them all would give.
 */
export const RECHECK_FIRST = 3;

export function createFailureRecheck(options: RecheckOptions) {
  const { mavenArgs, ...build } = options;
  return async function recheckFailures(
    diagnosis: Diagnosis,
    events: RecheckEvents = {},
  ): Promise<FailureRecheck | undefined> {
    if (!recheckApplies(diagnosis)) return undefined;
    const tests = failingTests(diagnosis);
    const failingModules = failingModuleDirs(diagnosis);
    const rerun = async (some: string[]) => {
      const stage = planVerification({ mavenArgs, failingModules, failingTests: some, kinds: ['test'] }).find(
        (candidate) => candidate.name === 'failing-tests',
      );
      const signals = [build.signal, events.signal].filter((one): one is AbortSignal => one !== undefined);
      const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
      return stage
        ? await rerunTests({
            ...build,
            ...(signal ? { signal } : {}),
            stage,
            ...(events.launched ? { onLaunched: events.launched } : {}),
          })
        : undefined;
    };
    const started = Date.now();
    const runs = [];
    const first = failingFirstSample(tests, RECHECK_FIRST);
    for (const some of [first, tests.filter((test) => !first.includes(test))]) {
      if (some.length === 0) break;
      const run = await rerun(some);
      if (!run || run.interrupted) return undefined;
      runs.push(run);
      if (run.exitCode !== 0) break;
    }
    // Each test's results in the reports the re-runs wrote (not what was asked).
    const statuses = new Map<string, string[]>();
    for (const result of runs.flatMap((run) => run.tests)) {
      const name = `${result.className}#${result.method}`;
      statuses.set(name, [...(statuses.get(name) ?? []), result.status]);
    }
    const passedAlways = (test: string) => statuses.get(test)?.every((status) => status === 'passed') ?? false;
    // A build that still fails (even for another reason) proves nothing flaky.
    const passed = runs.every((run) => run.exitCode === 0) ? tests.filter(passedAlways) : [];
    const reran = tests.filter((test) => statuses.has(test)).length;
    return {
      passed,
      failed: tests.filter((test) => !passed.includes(test)),
      reran,
      durationMs: Date.now() - started,
      startedAt: new Date(started).toISOString(),
    };
  };
}
