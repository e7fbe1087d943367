/**
 * The modules the user's failed build never reached, built and tested on the unchanged
 * code while the model works (issue 42, item 5).
 *
 * Maven stops a reactor at its first failing module: the modules after it are SKIPPED and
 * their tests never ran. Those that need no failing module (directly or through the
 * reactor) build from the same inputs whatever fix the failing modules get, so their
 * tests can run as soon as the failure is diagnosed, once, in a workspace of their own;
 * every candidate's verdict build then leaves them out (as it leaves out the modules
 * whose tests passed in the user's build) and takes their results from this run.
 *
 * `neverReachedModules` is pure; `runNeverReached` is the one Maven run: the user's
 * command in its affected-scope form (no `clean`, `install`/`deploy` as `verify`),
 * `-pl <those> -am`, `--fail-at-end` so one failing module does not hide another, and
 * every other module's tests left out through the excludes file (they ran and passed in
 * the user's build).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ReactorModule, TestCaseResult } from '../diagnose/types.js';
import { withDependents, type ReactorGraph } from '../maven/reactor.js';
import { cleansFirst, planVerification } from './verify-plan.js';
import { EXCLUDES_FILE, excludesFileText, wholeReactorOneByOne } from './verify-scope.js';
import { runStage, stageContext } from './verify-stage.js';
import type { VerifyInput } from './verify-types.js';

export interface NeverReachedInput {
  graph: ReactorGraph;
  /** Module folders with a failure in the user's build. */
  failingModules: string[];
  /** The failed build's reactor, in build order, with the summary's status per module (none under -q). */
  reactor: ReactorModule[];
  /** The failed build's test results: without a reactor summary, a module none of them came from was not reached. */
  baselineTests: readonly TestCaseResult[];
  /** The user's command. */
  mavenArgs: readonly string[];
  /** Project facts that forbid leaving tests out (verify-scope.ts `testSkipBlockers`). */
  blockers: string[];
}

export interface NeverReachedModule {
  dir: string;
  artifactId: string;
}

/**
 * The modules the failed build skipped that need none of the failing ones; empty when the
 * verdict build could not leave them out (a command that selects or resumes modules, a
 * project that sets its own excludes file, a reactor that could not be read).
 */
export function neverReachedModules(input: NeverReachedInput): NeverReachedModule[] {
  const { graph } = input;
  if (graph.projects.length < 2 || graph.problems.length > 0 || input.blockers.length > 0) return [];
  if (input.failingModules.length === 0 || !wholeReactorOneByOne(input.mavenArgs)) return [];
  const known = new Set(graph.projects.map((p) => p.dir));
  if (input.failingModules.some((dir) => !known.has(dir))) return [];
  const affected = withDependents(graph, input.failingModules);
  // A quiet build (-q) prints no reactor summary: a module without a test result is taken as not reached (at worst
  // a module without tests is built once more, beside the model).
  const summary = input.reactor.some((m) => m.status !== undefined);
  const skipped = new Set(input.reactor.filter((m) => m.status === 'SKIPPED').map((m) => m.artifactId ?? m.name));
  const tested = new Set(input.baselineTests.map((test) => test.module ?? ''));
  const notReached = (artifactId: string) => (summary ? skipped.has(artifactId) : !tested.has(artifactId));
  const count = (artifactId: string) => graph.projects.filter((p) => p.artifactId === artifactId).length;
  return graph.projects
    .filter(
      (p) => p.packaging !== 'pom' && notReached(p.artifactId) && count(p.artifactId) === 1 && !affected.has(p.dir),
    )
    .map((p) => ({ dir: p.dir, artifactId: p.artifactId }));
}

/** The Maven arguments of the run: the verdict build's form, selecting those modules, failing at the end. */
export function neverReachedArgs(mavenArgs: string[], modules: readonly NeverReachedModule[]): string[] {
  const full = planVerification({
    mavenArgs,
    failingModules: [],
    failingTests: [],
    kinds: [],
    final: { dropClean: cleansFirst(mavenArgs), excludesFile: EXCLUDES_FILE, modules: modules.map((m) => m.dir) },
  }).at(-1)!;
  return ['--fail-at-end', ...full.args];
}

export interface NeverReachedRun {
  modules: NeverReachedModule[];
  exitCode: number;
  /** The tests of those modules, from the reports this run wrote. */
  tests: TestCaseResult[];
  /** The run was stopped (interrupted, timed out): its results speak for nothing. */
  interrupted: boolean;
  durationMs: number;
  args: string[];
  /** For a diagnosis of the run when it failed (projectRoot = the workspace's root). */
  logFile: string;
  startedAt: Date;
  projectRoot: string;
}

/**
 * The one run, in a workspace reset to the unchanged code: the selected modules lose their
 * outputs (never built by the user's build, or built before it), every module of the
 * reactor gets its excludes file (all tests left out but the selected modules').
 */
export async function runNeverReached(
  input: Omit<VerifyInput, 'stages' | 'baselineTests' | 'requiredTests' | 'scope'> & {
    modules: NeverReachedModule[];
    mavenArgs: string[];
    /** Every module folder of the reactor. */
    allModules: string[];
  },
): Promise<NeverReachedRun> {
  const { workspace } = input;
  await workspace.reset();
  const selected = new Set(input.modules.map((m) => m.dir));
  for (const dir of selected) await rm(path.join(workspace.root, dir, 'target'), { recursive: true, force: true });
  for (const dir of input.allModules) {
    const file = path.join(workspace.root, dir, EXCLUDES_FILE);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, excludesFileText(!selected.has(dir)));
  }
  const stage = { name: 'full' as const, args: neverReachedArgs(input.mavenArgs, input.modules) };
  const asVerify: VerifyInput = {
    ...input,
    stages: [stage],
    baselineTests: [],
    // The affected-scope form: only stale sources compile (the reused outputs of the modules it needs stand).
    scope: {
      decision: { scope: 'affected', affected: [...selected], testsFromYourBuild: [] },
      modules: input.allModules,
    },
  };
  const { run, result, tests } = await runStage(stageContext(asVerify), stage, 0, input.timeoutMs);
  const artifactIds = new Set(input.modules.map((m) => m.artifactId));
  return {
    modules: input.modules,
    exitCode: run.exitCode,
    tests: (tests ?? []).filter((test) => artifactIds.has(test.module ?? '')),
    interrupted: run.interrupted || run.timedOut,
    durationMs: result.durationMs,
    args: result.args,
    logFile: result.logFile,
    startedAt: run.startedAt,
    projectRoot: workspace.root,
  };
}
