/**
 * What the verification build's test reports say about a candidate fix, judged against
 * the user's own build. Pure.
 *
 * A passing build is not enough: every test that failed in the user's build must have run
 * and passed (not skipped, not missing); every test that passed there must still pass and
 * still run; and no module may run fewer tests than it did. Each stage only counts for the
 * reports it wrote itself (the caller hands over fresh reports only): the failing-tests
 * stage speaks for the tests it selected, the full stage (the user's command) for every
 * module it ran tests in.
 */
import type { TestCaseResult } from '../diagnose/types.js';

export interface StageTests {
  /** `failing-tests` or `full` (the user's command): the latter replaces what earlier stages said per module. */
  name: string;
  /** Reports this stage wrote, and only those. */
  results: TestCaseResult[];
}

export interface TestVerdictInput {
  /** Test results of the user's failed build. */
  baseline: TestCaseResult[];
  /** `com.acme.FooTest#method` that must also run and pass (failures revealed after earlier progress). */
  required?: string[];
  stages: StageTests[];
  /**
   * artifactIds of modules the fix cannot affect whose tests were left out of the full
   * stage (verify.scope affected): their results in the user's build stand, unless a
   * stage ran their tests after all.
   */
  fromYourBuild?: string[];
  /**
   * Test classes (top-level names) that test selection left out of a module that ran
   * tests (verify.tests affected): their results in the user's build stand, unless a
   * stage ran them after all.
   */
  classesFromYourBuild?: { module: string; classes: string[] };
}

export interface TestVerdict {
  /** Tests that passed in the user's build and fail now. */
  regressions: string[];
  /** Why the tests do not show the fix, one sentence each. */
  problems: string[];
}

type Status = TestCaseResult['status'];

export function judgeTestResults(input: TestVerdictInput): TestVerdict {
  const final = new Map<string, TestCaseResult[]>();
  for (const stage of input.stages) {
    if (stage.name === 'full') {
      const modules = new Set(stage.results.map(moduleOf));
      for (const [key, cases] of final) if (modules.has(moduleOf(cases[0]!))) final.delete(key);
    }
    const fresh = group(stage.results);
    for (const [key, cases] of fresh) final.set(key, cases);
  }
  // Modules whose tests the full stage left out: the user's build speaks for all of them.
  const ranInFull = new Set(
    input.stages.filter((stage) => stage.name === 'full').flatMap((stage) => stage.results.map(moduleOf)),
  );
  const carried = new Set((input.fromYourBuild ?? []).filter((module) => !ranInFull.has(module)));
  for (const [key, cases] of final) if (carried.has(moduleOf(cases[0]!))) final.delete(key);
  for (const [key, cases] of group(input.baseline.filter((test) => carried.has(moduleOf(test))))) final.set(key, cases);
  const taken = input.classesFromYourBuild;
  const takenClasses = new Set(taken?.classes ?? []);
  const ranClasses = new Set(
    [...final.values()]
      .filter((cases) => moduleOf(cases[0]!) === taken?.module)
      .map((cases) => topLevelClass(cases[0]!)),
  );
  const carriedClass = (test: TestCaseResult) =>
    moduleOf(test) === taken?.module && takenClasses.has(topLevelClass(test)) && !ranClasses.has(topLevelClass(test));
  for (const [key, cases] of group(input.baseline.filter(carriedClass))) final.set(key, cases);
  const baseline = group(input.baseline);
  const regressions: string[] = [];
  const problems: string[] = [];
  const ranModules = new Set([...final.values()].map((cases) => moduleOf(cases[0]!)));

  for (const [key, cases] of baseline) {
    const before = statusOf(cases);
    if (before === 'skipped') continue;
    const name = nameOf(cases[0]!);
    const now = final.get(key);
    const after = now ? statusOf(now) : undefined;
    if (before === 'failed' || before === 'error') {
      if (after === undefined) problems.push(`${name}, which failed in your build, did not run`);
      else if (after === 'skipped') problems.push(`${name}, which failed in your build, was skipped`);
      else if (after !== 'passed') problems.push(`${name}, which failed in your build, still fails`);
      continue;
    }
    if (after === 'failed' || after === 'error') regressions.push(name);
    else if (after === 'skipped') problems.push(`${name}, which passed in your build, was skipped`);
    else if (after === undefined && ranModules.has(moduleOf(cases[0]!)))
      problems.push(`${name}, which passed in your build, did not run`);
  }

  for (const test of input.required ?? []) {
    if ([...baseline.values()].some((cases) => nameOf(cases[0]!) === test)) continue;
    const now = [...final.values()].find((cases) => nameOf(cases[0]!) === test);
    const after = now ? statusOf(now) : undefined;
    if (after === undefined) problems.push(`${test}, which failed, did not run`);
    else if (after === 'skipped') problems.push(`${test}, which failed, was skipped`);
    else if (after !== 'passed') problems.push(`${test}, which failed, still fails`);
  }

  const before = ranPerModule(input.baseline);
  const after = ranPerModule([...final.values()].flat());
  for (const [module, count] of before) {
    const now = after.get(module) ?? 0;
    if (now < count)
      problems.push(
        `${module ? `module ${module}` : 'the build'} ran ${now} test${now === 1 ? '' : 's'}, fewer than the ${count} that ran in your build`,
      );
  }
  return { regressions: regressions.sort(), problems };
}

function moduleOf(test: TestCaseResult): string {
  return test.module ?? '';
}

function topLevelClass(test: TestCaseResult): string {
  return test.className.split('$')[0]!;
}

function nameOf(test: TestCaseResult): string {
  return `${test.className}#${test.method}`;
}

/** Parameterised invocations share a method name: one entry per test, all its cases. */
function group(results: readonly TestCaseResult[]): Map<string, TestCaseResult[]> {
  const map = new Map<string, TestCaseResult[]>();
  for (const test of results) {
    const key = `${moduleOf(test)}\u0000${test.className}\u0000${test.method}`;
    map.set(key, [...(map.get(key) ?? []), test]);
  }
  return map;
}

/** Failed when any invocation failed; passed when any ran; skipped only when none ran. */
function statusOf(cases: readonly TestCaseResult[]): Status {
  if (cases.some((c) => c.status === 'failed' || c.status === 'error'))
    return cases.some((c) => c.status === 'error') ? 'error' : 'failed';
  return cases.some((c) => c.status === 'passed') ? 'passed' : 'skipped';
}

/** Test cases that ran (not skipped) per module. */
function ranPerModule(results: readonly TestCaseResult[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const test of results)
    if (test.status !== 'skipped') counts.set(moduleOf(test), (counts.get(moduleOf(test)) ?? 0) + 1);
  return counts;
}
