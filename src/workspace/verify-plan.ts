/**
 * Which Maven commands check a candidate fix, fastest first. Pure: the same input always
 * gives the same stages, and nothing here touches the disk or runs Maven.
 *
 *   compile        the affected modules only, main and test sources (fails fast on a
 *                  patch that does not even compile)
 *   failing-tests  only the tests that failed, in the affected modules
 *   full           the user's own command: a fix is verified only when this passes
 *
 * No stage is quiet: `-q`/`--quiet` only hides output, and the output of a verification
 * build is never shown but read. Under -q Maven hides every [WARNING] line, and with
 * them the warnings that -Werror turned into errors: a quiet stage would diagnose
 * "warnings found" without saying which.
 */
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
}

export interface VerificationPlanInput {
  mavenArgs: string[];
  /** Module folders relative to the project root, '' for the root module. */
  failingModules: string[];
  /** `com.acme.FooTest#method`, or a class alone to run all of it. */
  failingTests: string[];
  kinds: ('compile' | 'test')[];
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
  const full: VerificationStage = { name: 'full', args: fullArgs(parsed) };
  const stages: VerificationStage[] = [];

  const furthest = Math.max(-1, ...goalsOf(parsed).map(phaseIndex));
  const selection = moduleSelection(parsed, input.failingModules);
  const withoutRedirects = parsed.filter((arg) => !isOptionOfRole(arg, 'log-file'));
  const globalOptions = withoutRedirects.filter(
    (arg) => arg.type === 'option' && !(selection.length > 0 && isOptionOfRole(arg, 'selection')),
  );

  // Compiling more than the user's command would (tests of a `mvn compile`) could fail
  // on code the user never built, so the stage stops where the user's command stops.
  const compileGoal = furthest >= phaseIndex('test-compile') ? 'test-compile' : furthest >= phaseIndex('compile') ? 'compile' : undefined;
  if (input.kinds.length > 0 && compileGoal) {
    stages.push({ name: 'compile', args: [...formatMavenArgs(globalOptions), ...selection, compileGoal] });
  }

  if (input.kinds.includes('test') && input.failingTests.length > 0 && furthest >= phaseIndex('test')) {
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

/** Phases past `verify` write the local repository (install) or publish (deploy). */
const REPOSITORY_PHASES = new Set(['install', 'deploy']);
const isRepositoryGoal = (goal: string) => REPOSITORY_PHASES.has(goal) || goal.startsWith('install:') || goal.startsWith('deploy:');

/**
 * The user's command, with two deliberate exceptions: `-l FILE` is dropped because the
 * verdict and any new diagnosis are read from the captured output, and `install` and
 * `deploy` become `verify` (their plugin goals are dropped) because verifying a candidate
 * must never write the user's local repository, let alone publish it.
 */
function fullArgs(parsed: MavenArg[]): string[] {
  const kept: MavenArg[] = [];
  let replaced = false;
  for (const arg of parsed) {
    if (isOptionOfRole(arg, 'log-file')) continue;
    if (arg.type === 'goal' && isRepositoryGoal(arg.value)) {
      if (!replaced) kept.push({ type: 'goal', value: 'verify' });
      replaced = true;
      continue;
    }
    kept.push(arg);
  }
  return formatMavenArgs(kept);
}

/** Said in the run record when the user's command was changed so verification cannot write the local repository. */
export function repositoryGoalNote(mavenArgs: readonly string[]): string | undefined {
  const goals = goalsOf(parseMavenArgs(mavenArgs)).filter(isRepositoryGoal);
  if (goals.length === 0) return undefined;
  return `verification ran \`verify\` in place of ${goals.map((g) => `\`${g}\``).join(', ')}: a candidate fix never writes your local repository or publishes anything`;
}

/** `-pl a,b -am` when the failing modules are known and the build is a reactor. */
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
  if (!/^[\w.-]+:[\w.-]+(?::[\w.-]+)?:[\w-]+$/.test(input.goal)) throw new VerificationPlanError(`goal ${JSON.stringify(input.goal)} is not of the form groupId:artifactId:version:goal`);
  validate({ mavenArgs: input.mavenArgs, failingModules: input.moduleDirs, failingTests: [], kinds: [] });
  const parsed = parseMavenArgs(input.mavenArgs).filter((arg) => !isQuiet(arg) && !isOptionOfRole(arg, 'log-file'));
  const selection = moduleSelection(parsed, input.moduleDirs).filter((arg) => arg !== '-am');
  const options = parsed.filter((arg) => arg.type === 'option' && !(selection.length > 0 && isOptionOfRole(arg, 'selection')));
  return [...formatMavenArgs(options), ...selection, input.goal];
}

function isOptionOfRole(arg: MavenArg, role: string): boolean {
  return arg.type === 'option' && arg.spec?.role === role;
}

function validate(input: VerificationPlanInput): void {
  if (!input || !Array.isArray(input.mavenArgs) || !Array.isArray(input.failingModules) || !Array.isArray(input.failingTests) || !Array.isArray(input.kinds)) {
    throw new VerificationPlanError('planVerification needs mavenArgs, failingModules, failingTests and kinds as arrays');
  }
  for (const dir of input.failingModules) {
    if (typeof dir !== 'string' || dir.startsWith('/') || /^[A-Za-z]:/.test(dir) || dir.split(/[\\/]/).includes('..') || dir.includes(',')) {
      throw new VerificationPlanError(`failing module ${JSON.stringify(dir)} must be a folder relative to the project root, inside it`);
    }
  }
  for (const test of input.failingTests) {
    if (typeof test !== 'string' || !TEST_ID.test(test)) {
      throw new VerificationPlanError(`failing test ${JSON.stringify(test)} is not of the form com.acme.FooTest#method`);
    }
  }
  for (const kind of input.kinds) {
    if (kind !== 'compile' && kind !== 'test') throw new VerificationPlanError(`unknown failure kind ${JSON.stringify(kind)}; expected compile or test`);
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function sameArgs(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

export { MavenArgsError };
