/**
 * Which Maven commands check a candidate fix, fastest first. Pure: the same input always
 * gives the same stages, and nothing here touches the disk or runs Maven.
 *
 *   compile        the touched and failing modules (with what they need), main and
 *                  test sources: fails fast on a patch that does not even compile. Only
 *                  when no failing test is known; otherwise the next stage compiles.
 *   failing-tests  the same modules compiled, then only the tests that failed: a patch
 *                  that does not compile fails here just as early, one that leaves the
 *                  test failing costs no other test
 *   full           the user's own command: a fix is verified only when this passes. With
 *                  `oneRun` (failing-first.ts) it is the only stage, and runs the failing
 *                  tests first inside it (a wrong candidate stops there). Under
 *                  the affected scope (verify-scope.ts) it leaves out the tests of modules
 *                  the fix cannot affect, through a per-module Surefire excludes file,
 *                  and `clean` (the outputs it would delete are fresh ones of the user's
 *                  clean build, or were never copied)
 *
 * No stage is quiet: `-q`/`--quiet` only hides output, and the output of a verification
 * build is never shown but read. Under -q Maven hides every [WARNING] line, and with
 * them the warnings that -Werror turned into errors: a quiet stage would diagnose
 * "warnings found" without saying which.
 */
import path from 'node:path';
import {
  MavenArgsError,
  formatMavenArgs,
  goalsOf,
  hasOption,
  parseMavenArgs,
  propertyName,
  type MavenArg,
} from './maven-args.js';
import { defaultPhaseIndex } from '../maven/facts.js';

export type VerificationStageName = 'compile' | 'failing-tests' | 'full';

export interface VerificationStage {
  name: VerificationStageName;
  args: string[];
  /**
   * The full stage runs these tests first, in these modules, and stops there when they fail
   * (failing-first.ts): the first FAILING_FIRST_SAMPLE failing tests, `notFirst` the rest.
   */
  failingFirst?: { modules: string[]; tests: string[]; notFirst?: string[] };
}

export interface VerificationPlanInput {
  mavenArgs: string[];
  /** Module folders relative to the project root, '' for the root module. */
  failingModules: string[];
  /** Module folders the fix writes to: compiled in the early stages beside the failing ones. */
  touchedModules?: string[];
  /**
   * The affected-scope form of the full stage: without `clean`, with the excludes file, only these modules (`-pl ...
   * -am`).
   */
  final?: { dropClean?: boolean; excludesFile?: string; modules?: string[] };
  /** `com.acme.FooTest#method`, or a class alone to run all of it. */
  failingTests: string[];
  kinds: ('compile' | 'test')[];
  /**
   * One Maven run (failing-first.ts's decideOneRun said so): the failing tests run first
   * inside the full stage, and no compile stage goes before it.
   */
  oneRun?: boolean;
}

export class VerificationPlanError extends Error {
  override name = 'VerificationPlanError';
}

const phaseIndex = defaultPhaseIndex;

/** Properties that would stop the failing-tests stage from running (or judging) exactly those tests. */
const TEST_SELECTION_PROPERTIES = new Set([
  'test',
  'it.test',
  'skipTests',
  'maven.test.skip',
  'maven.test.failure.ignore',
  'surefire.failIfNoSpecifiedTests',
  'failIfNoSpecifiedTests',
]);

const TEST_ID = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*(#[^\s,#]+)?$/;

export function planVerification(input: VerificationPlanInput): VerificationStage[] {
  validate(input);
  const parsed = parseMavenArgs(input.mavenArgs).filter((arg) => !isQuiet(arg));
  const full: VerificationStage = { name: 'full', args: fullArgs(parsed, input.final) };
  const stages: VerificationStage[] = [];

  const furthest = Math.max(-1, ...goalsOf(parsed).map(phaseIndex));
  const selection = moduleSelection(parsed, [...input.failingModules, ...(input.touchedModules ?? [])]);
  const withoutRedirects = parsed.filter((arg) => !isOptionOfRole(arg, 'log-file'));
  const globalOptions = withoutRedirects.filter(
    (arg) => arg.type === 'option' && !(selection.length > 0 && isOptionOfRole(arg, 'selection')),
  );

  // Compiling more than the user's command would (tests of a `mvn compile`) could fail
  // on code the user never built, so the stage stops where the user's command stops.
  const compileGoal =
    furthest >= phaseIndex('test-compile') ? 'test-compile' : furthest >= phaseIndex('compile') ? 'compile' : undefined;
  const runsFailingTests =
    input.kinds.includes('test') && input.failingTests.length > 0 && furthest >= phaseIndex('test');
  if (input.oneRun) {
    const single = oneRunStage(input, full, globalOptions, runsFailingTests);
    if (single) return [single];
  }
  // The failing-tests stage compiles the same modules first: a separate compile stage would only start Maven once more.
  if (input.kinds.length > 0 && compileGoal && !runsFailingTests) {
    stages.push({ name: 'compile', args: [...formatMavenArgs(globalOptions), ...selection, compileGoal] });
  }

  if (runsFailingTests) {
    const testOptions = globalOptions.filter((arg) => !TEST_SELECTION_PROPERTIES.has(propertyName(arg) ?? ''));
    stages.push({
      name: 'failing-tests',
      args: [
        ...formatMavenArgs(testOptions),
        ...selection,
        `-Dtest=${unique(input.failingTests).join(',')}`,
        // Modules pulled in by -am have none of the selected tests.
        '-Dsurefire.failIfNoSpecifiedTests=false',
        'test',
      ],
    });
  }

  return [...stages.filter((stage) => !sameArgs(stage.args, full.args)), full];
}

/**
 * The full stage alone, with the failing tests first when there are some: a wrong
 * candidate stops at its compile or at those tests as early as the staged plan would.
 * Undefined (the staged plan then) when the user's command selects, skips or ignores
 * tests itself: the failing tests would not be judged as they are in the staged plan.
 */
function oneRunStage(
  input: VerificationPlanInput,
  full: VerificationStage,
  globalOptions: MavenArg[],
  runsFailingTests: boolean,
): VerificationStage | undefined {
  if (!runsFailingTests) return input.kinds.length > 0 ? full : undefined;
  if (
    input.failingModules.length === 0 ||
    globalOptions.some((arg) => TEST_SELECTION_PROPERTIES.has(propertyName(arg) ?? ''))
  )
    return undefined;
  const tests = unique(input.failingTests);
  const first = failingFirstSample(tests);
  const notFirst = tests.filter((test) => !first.includes(test));
  return {
    ...full,
    failingFirst: { modules: unique(input.failingModules), tests: first, ...(notFirst.length > 0 ? { notFirst } : {}) },
  };
}

/**
 * The failing tests that run first: all of them up to `limit`; beyond, the
 * first of those of the class with the most failures (the first such class on a tie). A
 * wrong candidate is caught by a few failing tests as surely as by all, and each class
 * costs the first test JVM its loading: on jsoup, a wrong constant in Printer failed 150
 * tests in 30 classes; all of them first made its rejection 0.9 s dearer than a single
 * failing test's, and the first ten (six classes) still 0.3 s. The rest run in the user's
 * command after them, where the verdict needs every one to pass; a build the sample
 * stopped keeps the rest as still failing in its diagnosis (repair/verifier.ts), as
 * nothing showed otherwise.
 */
export function failingFirstSample(tests: readonly string[], limit = FAILING_FIRST_SAMPLE): string[] {
  if (tests.length <= limit) return [...tests];
  const byClass = new Map<string, string[]>();
  for (const test of tests) {
    const owner = test.split('#')[0]!;
    byClass.set(owner, [...(byClass.get(owner) ?? []), test]);
  }
  const most = [...byClass.values()].reduce((best, group) => (group.length > best.length ? group : best));
  return most.slice(0, limit);
}

/** At most this many failing tests run first (failingFirstSample). */
export const FAILING_FIRST_SAMPLE = 10;

/** Phases past `verify` write the local repository (install) or publish (deploy). */
const REPOSITORY_PHASES = new Set(['install', 'deploy']);
const isRepositoryGoal = (goal: string) =>
  REPOSITORY_PHASES.has(goal) || goal.startsWith('install:') || goal.startsWith('deploy:');

/**
 * The user's command, with two deliberate exceptions: `-l FILE` is dropped because the
 * verdict and any new diagnosis are read from the captured output, and `install` and
 * `deploy` become `verify` (their plugin goals are dropped) because verifying a candidate
 * must never write the user's local repository, let alone publish it. The affected-scope
 * form also drops `clean` and adds the excludes file.
 */
function fullArgs(parsed: MavenArg[], final: VerificationPlanInput['final'] = {}): string[] {
  const kept: MavenArg[] = [];
  let replaced = false;
  for (const arg of parsed) {
    if (isOptionOfRole(arg, 'log-file')) continue;
    if (final.dropClean && arg.type === 'goal' && isCleanGoal(arg.value)) continue;
    if (arg.type === 'goal' && isRepositoryGoal(arg.value)) {
      if (!replaced) kept.push({ type: 'goal', value: 'verify' });
      replaced = true;
      continue;
    }
    kept.push(arg);
  }
  const args = formatMavenArgs(kept);
  const added = [
    ...(final.modules && final.modules.length > 0 ? moduleSelection(parsed, final.modules) : []),
    ...(final.excludesFile ? [`-Dsurefire.excludesFile=${final.excludesFile}`] : []),
  ];
  if (added.length === 0) return args;
  // Before the goals, beside the user's options.
  const firstGoal = kept.findIndex((arg) => arg.type === 'goal');
  const at = firstGoal < 0 ? args.length : formatMavenArgs(kept.slice(0, firstGoal)).length;
  return [...args.slice(0, at), ...added, ...args.slice(at)];
}

const isCleanGoal = (goal: string) =>
  goal === 'clean' ||
  goal === 'clean:clean' ||
  /^(org\.apache\.maven\.plugins:)?maven-clean-plugin(:[^:]+)?:clean$/.test(goal);

/** Whether the command cleans (its outputs are then reused only when its own build wrote them). */
export function cleansFirst(mavenArgs: readonly string[]): boolean {
  return goalsOf(parseMavenArgs(mavenArgs)).some(isCleanGoal);
}

/** Said in the run record when the user's command was changed so verification cannot write the local repository. */
export function repositoryGoalNote(mavenArgs: readonly string[]): string | undefined {
  const goals = goalsOf(parseMavenArgs(mavenArgs)).filter(isRepositoryGoal);
  if (goals.length === 0) return undefined;
  return `verification ran \`verify\` in place of ${goals.map((g) => `\`${g}\``).join(', ')}: a candidate fix never writes your local repository or publishes anything`;
}

/** `-pl a,b -am` when the modules are known and the build is a reactor. */
function moduleSelection(parsed: MavenArg[], modules: string[]): string[] {
  if (!modules.some((dir) => dir !== '') || hasOption(parsed, 'non-recursive')) return [];
  return ['-pl', unique(modules.map((dir) => (dir === '' ? '.' : dir))).join(','), '-am'];
}

function isQuiet(arg: MavenArg): boolean {
  return arg.type === 'option' && arg.spec?.long === 'quiet';
}

/**
 * One plugin goal (`groupId:artifactId:version:apply`) run with the user's options (not
 * their goals, not quiet) on the given modules: how a formatter fixer runs the project's
 * own formatter.
 */
export function planGoalRun(input: { mavenArgs: string[]; moduleDirs: string[]; goal: string }): string[] {
  if (!/^[\w.-]+:[\w.-]+(?::[\w.-]+)?:[\w-]+$/.test(input.goal))
    throw new VerificationPlanError(
      `goal ${JSON.stringify(input.goal)} is not of the form groupId:artifactId:version:goal`,
    );
  validate({ mavenArgs: input.mavenArgs, failingModules: input.moduleDirs, failingTests: [], kinds: [] });
  const parsed = parseMavenArgs(input.mavenArgs).filter((arg) => !isQuiet(arg) && !isOptionOfRole(arg, 'log-file'));
  const selection = moduleSelection(parsed, input.moduleDirs).filter((arg) => arg !== '-am');
  const options = parsed.filter(
    (arg) => arg.type === 'option' && !(selection.length > 0 && isOptionOfRole(arg, 'selection')),
  );
  return [...formatMavenArgs(options), ...selection, input.goal];
}

function isOptionOfRole(arg: MavenArg, role: string): boolean {
  return arg.type === 'option' && arg.spec?.role === role;
}

function validate(input: VerificationPlanInput): void {
  if (
    !input ||
    !Array.isArray(input.mavenArgs) ||
    !Array.isArray(input.failingModules) ||
    !Array.isArray(input.failingTests) ||
    !Array.isArray(input.kinds)
  ) {
    throw new VerificationPlanError(
      'planVerification needs mavenArgs, failingModules, failingTests and kinds as arrays',
    );
  }
  if (input.touchedModules !== undefined && !Array.isArray(input.touchedModules))
    throw new VerificationPlanError('touchedModules must be an array of module folders');
  for (const [role, dirs] of [
    ['failing', input.failingModules],
    ['touched', input.touchedModules ?? []],
    ['selected', input.final?.modules ?? []],
  ] as const) {
    for (const dir of dirs) {
      if (
        typeof dir !== 'string' ||
        dir.startsWith('/') ||
        /^[A-Za-z]:/.test(dir) ||
        dir.split(/[\\/]/).includes('..') ||
        dir.includes(',')
      ) {
        throw new VerificationPlanError(
          `${role} module ${JSON.stringify(dir)} must be a folder relative to the project root, inside it`,
        );
      }
    }
  }
  for (const test of input.failingTests) {
    if (typeof test !== 'string' || !TEST_ID.test(test)) {
      throw new VerificationPlanError(
        `failing test ${JSON.stringify(test)} is not of the form com.acme.FooTest#method`,
      );
    }
  }
  const excludes = input.final?.excludesFile;
  if (
    excludes !== undefined &&
    (typeof excludes !== 'string' ||
      excludes === '' ||
      path.isAbsolute(excludes) ||
      excludes.split('/').includes('..') ||
      /\s|,/.test(excludes))
  ) {
    throw new VerificationPlanError(
      `the excludes file ${JSON.stringify(excludes)} must be a plain path relative to each module`,
    );
  }
  for (const kind of input.kinds) {
    if (kind !== 'compile' && kind !== 'test')
      throw new VerificationPlanError(`unknown failure kind ${JSON.stringify(kind)}; expected compile or test`);
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function sameArgs(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

export { MavenArgsError };
