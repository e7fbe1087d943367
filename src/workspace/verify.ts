/**
 * Running a verification plan in a workspace and judging it: the first failing stage
 * ends the run; a test that passed in the user's build and fails now is a regression,
 * which makes the attempt `regressed` even when the targeted test was fixed. When every
 * stage passed, the tests must still show the fix (test-verdict.ts): the failing tests
 * ran and passed, nothing went missing, no module ran fewer tests.
 *
 * Before the first stage, the modules the fix can affect (verify-scope.ts) lose their
 * build outputs, so they are rebuilt from clean whatever was reused; under the affected
 * scope every module gets its Surefire excludes file (all tests, or none when its tests
 * are taken from the user's build), and those modules' results stand in the verdict.
 * A stage with `failingFirst` runs the failing tests first (failing-first-run.ts): by
 * mvnx's class orderer inside default-test, whose reports are watched and which is stopped
 * when they still fail, or by a Surefire execution in the failing modules' poms, whose log
 * says whether those tests stopped the run.
 */
import { appendFile, copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { collectTestResults, reportTimes } from '../diagnose/index.js';
import type { TestCaseResult } from '../diagnose/types.js';
import { runMaven } from '../maven/run.js';
import type { MavenRunResult } from '../maven/types.js';
import type { FailingFirstOutcome } from './failing-first.js';
import { prepareFailingFirst, readFailingFirstExecution, type FailingFirstPlan } from './failing-first-run.js';
import { clearFirstReports, watchFailingFirst } from './failing-first-watch.js';
import { prepareLaunch } from './launch.js';
import { cdsArchiveExists, cdsOptions, dumpTarget, keepDumpedArchive } from './maven-cds.js';
import { appendArgLineFlags, type QuickJvm, type QuickJvmFlag } from './quick-jvm.js';
import { hasOption, parseMavenArgs, rebaseArgs, rebasePath } from './maven-args.js';
import { requireSandbox, type SandboxInfo } from './sandbox.js';
import { judgeTestResults, type StageTests } from './test-verdict.js';
import type { VerificationStage, VerificationStageName } from './verify-plan.js';
import { EXCLUDES_FILE, excludesFileText, type ScopeDecision, type VerifyScope } from './verify-scope.js';
import { excludedTestLines, type Narrowing } from './narrow.js';
import type { Workspace } from './workspace.js';

export { planGoalRun, planVerification, repositoryGoalNote, VerificationPlanError } from './verify-plan.js';
export type { VerificationStage, VerificationStageName, VerificationPlanInput } from './verify-plan.js';

export type VerificationOutcome = 'verified' | 'build-failed' | 'regressed' | 'interrupted' | 'timeout';

export interface StageResult {
  name: VerificationStageName;
  exitCode: number;
  durationMs: number;
  /** Maven's output of the stage, inside the workspace's scratch folder (kept until dispose). */
  logFile: string;
  /** The exact command line the stage ran (after rebasing). */
  args: string[];
  /** A full stage that ran the failing tests first (one Maven run): whether they passed, stopped the build, or were not reached. */
  failingFirst?: FailingFirstOutcome;
}

export interface VerificationResult {
  outcome: VerificationOutcome;
  failedStage?: VerificationStageName;
  stageResults: StageResult[];
  /** `com.acme.FooTest#method` of tests that passed in the baseline and fail now. */
  regressions: string[];
  /** The build passed but its tests do not show the fix (a failing test skipped or missing, fewer tests run). */
  testProblems: string[];
  /** What the loop needs to diagnose the new failure (run it with projectRoot = workspace root). */
  diagnosisInput?: { logFile: string; startedAt: Date; exitCode: number; projectRoot: string };
  /** Why the build was not sandboxed, when it was not. */
  sandboxNote?: string;
  /** The command that decided, when the full stage ran: the run record's verdict. */
  verdict?: VerdictCommand;
}

export interface VerdictCommand {
  /** `affected`: some modules' tests were taken from the user's build. */
  scope: VerifyScope;
  /** The full stage's exact arguments. */
  args: string[];
  /** artifactIds whose test results were taken from the user's build. */
  testsFromYourBuild: string[];
  /** Quick-JVM flags the build ran with. */
  jvmFlags: string[];
  /** Why every module's tests ran when `affected` was asked for. */
  why?: string;
  /** Test classes that ran in the verdict build, those whose results were taken from the user's build, and why (verify.tests). */
  tests?: VerdictTests;
}

export interface VerdictTests {
  /** Test classes with results written by the verification build. */
  ran: string[];
  /** Test classes whose results were taken from the user's build (within modules that ran tests). */
  fromYourBuild: string[];
  /** `selected 12 of 110 test classes that reach DataUtil; 98 taken from your build`, or `all tests ran: <reason>`. */
  why: string;
  /** Sources compiled again in the touched module (relative to it); absent: modules rebuilt from clean. */
  recompiled?: string[];
  /** Why those, or why the whole module. */
  compileWhy?: string;
}

/**
 * What every Maven run in the workspace needs, a verification or another build (the
 * formatter goal, the flaky re-run, the -Werror recompile): repair/engine.ts builds one
 * record of it and hands it to each.
 */
export interface WorkspaceBuildOptions {
  workspace: Workspace;
  executable: string;
  /** Maven's complete environment (as runMaven takes it); default process.env. */
  env?: NodeJS.ProcessEnv;
  sandbox: SandboxInfo;
  /** Extra environment variables the build may see (sandbox.env.pass); the rest of the allowlist is fixed. */
  envPass?: readonly string[];
  /** For the whole run (all stages of a verification together). */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Where the user ran Maven, when not at the project root (relative -f values). */
  userCwd?: string;
}

export interface VerifyInput extends WorkspaceBuildOptions {
  stages: VerificationStage[];
  /** Test results of the user's failed build, read from the original tree. */
  baselineTests: TestCaseResult[];
  /** More `com.acme.FooTest#method` that must run and pass (failures that appeared after earlier progress). */
  requiredTests?: string[];
  onStage?: (name: VerificationStageName) => void;
  /** The candidate's scope, and every module folder of the reactor (each gets its excludes file). */
  scope?: { decision: ScopeDecision; modules: string[] };
  /** Quick-JVM flags (verify.quickJvm): MAVEN_OPTS to run with, `-DargLine=` to add, flags for the poms' own `<argLine>`. */
  jvm?: QuickJvm;
  /** The touched module verified narrowly (narrow.ts), or why all its tests run. */
  narrowing?: Narrowing | { why: string };
}

export async function verifyInWorkspace(input: VerifyInput): Promise<VerificationResult> {
  checkInput(input);
  const deadline = Date.now() + input.timeoutMs;
  const context = stageContext(input);
  const stageResults: StageResult[] = [];
  const stageTests: StageTests[] = [];
  const regressions = new Set<string>();
  const baselinePassed = new Set(input.baselineTests.filter((t) => t.status === 'passed').map(testKey));
  const note = input.sandbox.reason ? { sandboxNote: input.sandbox.reason } : {};
  const stop = (outcome: VerificationOutcome, stage: VerificationStageName) => ({ outcome, failedStage: stage, stageResults, regressions: [...regressions], testProblems: [], ...note });
  const narrowed = input.narrowing && 'module' in input.narrowing ? input.narrowing : undefined;
  if (input.scope) await prepareScope(input.workspace.root, input.scope, narrowed);

  let usedCds: string | undefined;
  for (const [index, stage] of input.stages.entries()) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return stop('timeout', stage.name);
    input.onStage?.(stage.name);
    const plan = stage.failingFirst
      ? await prepareFailingFirst({ root: input.workspace.root, source: input.workspace.source, failingFirst: stage.failingFirst, args: stage.args, baselineTests: input.baselineTests, env: context.env })
      : undefined;
    const { run, result, tests, cds } = await runStage(context, stage, index, remaining, { plan });
    if (cds) usedCds = cds;
    const first = plan?.how === 'execution' ? await readFailingFirstExecution(input.workspace.root, plan, result.logFile, run.startedAt) : undefined;
    if (first) result.failingFirst = first.outcome;
    stageResults.push(result);
    // The watch of the failing classes stops the build itself; any other stop is the user's.
    const stoppedByWatch = plan?.how === 'class-order' && result.failingFirst === 'stopped' && !input.signal?.aborted;
    if (run.interrupted && !run.timedOut && !stoppedByWatch) return stop('interrupted', stage.name);
    if (run.timedOut) return stop('timeout', stage.name);

    // What ran first speaks as a failing-tests stage would; the user's command, after it, replaces that per module.
    for (const ran of [...(first?.tests.length ? [{ name: 'failing-tests', results: first.tests }] : []), ...(tests ? [{ name: stage.name, results: tests }] : [])]) {
      stageTests.push(ran);
      for (const test of ran.results) if ((test.status === 'failed' || test.status === 'error') && baselinePassed.has(testKey(test))) regressions.add(testName(test));
    }
    if (run.exitCode !== 0 || regressions.size > 0) {
      return {
        ...stop(regressions.size > 0 ? 'regressed' : 'build-failed', stage.name),
        regressions: [...regressions].sort(),
        diagnosisInput: { logFile: result.logFile, startedAt: run.startedAt, exitCode: run.exitCode, projectRoot: input.workspace.root },
      };
    }
  }
  // Without the user's own command passing there is no verdict, whatever else passed.
  const full = stageResults.find((s) => s.name === 'full');
  if (!full) return { outcome: 'build-failed', stageResults, regressions: [], testProblems: [], ...note };
  const decision = input.scope?.decision;
  const fromYourBuild = decision?.scope === 'affected' ? decision.testsFromYourBuild.map((m) => m.artifactId) : [];
  const verdictBy: VerdictCommand = {
    scope: fromYourBuild.length > 0 || narrowed ? 'affected' : 'full',
    args: full.args,
    testsFromYourBuild: fromYourBuild,
    jvmFlags: [...(input.jvm?.added ?? []), ...(usedCds ? [`MAVEN_OPTS -XX:SharedArchiveFile=${usedCds}`] : [])],
    ...(decision?.why ? { why: decision.why } : {}),
    tests: verdictTests(stageTests, input.narrowing),
  };
  const verdict = judgeTestResults({
    baseline: input.baselineTests,
    ...(input.requiredTests ? { required: input.requiredTests } : {}),
    stages: stageTests,
    ...(fromYourBuild.length > 0 ? { fromYourBuild } : {}),
    ...(narrowed ? { classesFromYourBuild: { module: narrowed.artifactId, classes: narrowed.excluded } } : {}),
  });
  if (verdict.regressions.length > 0 || verdict.problems.length > 0) {
    return { outcome: 'regressed', failedStage: 'full', stageResults, regressions: verdict.regressions, testProblems: verdict.problems, verdict: verdictBy, ...note };
  }
  return { outcome: 'verified', stageResults, regressions: [], testProblems: [], verdict: verdictBy, ...note };
}

/**
 * The affected modules lose their build outputs (rebuilt from clean, whatever was reused);
 * under the affected scope every module of the reactor gets its excludes file, since
 * Surefire fails in a module where the file named by -Dsurefire.excludesFile is missing.
 */
async function prepareScope(root: string, scope: NonNullable<VerifyInput['scope']>, narrowed?: Narrowing): Promise<void> {
  // A narrowed module keeps its outputs: narrow.ts removed the classes to compile again.
  for (const dir of scope.decision.affected) if (dir !== narrowed?.module) await rm(path.join(root, dir, 'target'), { recursive: true, force: true });
  if (scope.decision.scope !== 'affected' && !narrowed) return;
  const skipped = new Set(scope.decision.testsFromYourBuild.map((m) => m.dir));
  for (const dir of scope.modules) {
    const file = path.join(root, dir, EXCLUDES_FILE);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, excludesFileText(skipped.has(dir)) + (dir === narrowed?.module ? excludedTestLines(narrowed.excluded) : ''));
  }
}

/** What the record says of the tests: the classes the verdict build's reports name, those taken, and why. */
function verdictTests(stages: readonly StageTests[], narrowing: VerifyInput['narrowing']): VerdictTests {
  const ran = [...new Set(stages.filter((stage) => stage.name === 'full').flatMap((stage) => stage.results.map((test) => test.className.split('$')[0]!)))].sort();
  if (!narrowing || !('module' in narrowing)) return { ran, fromYourBuild: [], why: `all tests ran: ${narrowing?.why ?? 'no test selection was made'}` };
  return {
    ran,
    fromYourBuild: narrowing.excluded,
    why: narrowing.why,
    ...(narrowing.recompiled ? { recompiled: narrowing.recompiled } : {}),
    compileWhy: narrowing.recompileWhy,
  };
}

/** The quick-JVM flags appended to the poms' own `<argLine>` in the workspace (idempotent; the workspace's reset restores the poms). */
async function placeForkFlags(root: string, { poms, flags }: { poms: string[]; flags: QuickJvmFlag[] }): Promise<void> {
  for (const pom of poms) {
    const file = path.join(root, pom);
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const withFlags = appendArgLineFlags(text, flags);
    if (withFlags !== text) await writeFile(file, withFlags);
  }
}

/**
 * The tests a failed build reported as failing, run once more on the code as it is (the
 * workspace reset to the original): a test that passes now failed for a reason outside
 * the code, and no patch should be made for it. One stage, the failing-tests one.
 */
export async function rerunTests(
  input: Omit<VerifyInput, 'stages' | 'baselineTests' | 'requiredTests'> & { stage: VerificationStage; onLaunched?: () => void },
): Promise<{ exitCode: number; tests: TestCaseResult[]; interrupted: boolean }> {
  const asVerify: VerifyInput = { ...input, stages: [input.stage], baselineTests: [] };
  checkInput(asVerify);
  await input.workspace.reset();
  input.onStage?.(input.stage.name);
  // The unchanged code's build: the one that may make Maven's class-data archive (maven-cds.ts).
  const { run, tests } = await runStage(stageContext(asVerify), input.stage, 0, input.timeoutMs, { makeCds: true, ...(input.onLaunched ? { onLaunched: input.onLaunched } : {}) });
  return { exitCode: run.exitCode, tests: tests ?? [], interrupted: run.interrupted || run.timedOut };
}

interface StageContext {
  input: VerifyInput;
  userCwd: string;
  cwd: string;
  executable: string;
  env: NodeJS.ProcessEnv;
}

function stageContext(input: VerifyInput): StageContext {
  const { workspace } = input;
  const userCwd = path.resolve(input.userCwd ?? workspace.source);
  return {
    input,
    userCwd,
    cwd: rebasePath(userCwd, workspace.source, workspace.root),
    executable: path.isAbsolute(input.executable) ? rebasePath(input.executable, workspace.source, workspace.root) : input.executable,
    env: input.env ?? process.env,
  };
}

interface StageOptions {
  plan?: FailingFirstPlan;
  onLaunched?: () => void;
  /** Make Maven's class-data archive when there is none (only for a build of the unchanged code). */
  makeCds?: boolean;
}

/** One stage in the workspace; for a stage that runs tests, the reports it wrote itself (not older ones still on disk). */
async function runStage(context: StageContext, stage: VerificationStage, index: number, timeoutMs: number, { plan, onLaunched, makeCds }: StageOptions = {}) {
  const { input, cwd, executable } = context;
  const { workspace } = input;
  const archive = input.jvm?.mavenOpts !== undefined ? input.jvm.cdsArchive : undefined;
  const useCds = archive !== undefined && cdsArchiveExists(archive) ? archive : undefined;
  const dumpCds = archive !== undefined && !useCds && makeCds ? dumpTarget(workspace.root) : undefined;
  const cdsFlags = useCds ? cdsOptions({ use: useCds }) : dumpCds ? cdsOptions({ dumpTo: dumpCds }) : [];
  const env = input.jvm?.mavenOpts !== undefined ? { ...context.env, MAVEN_OPTS: [input.jvm.mavenOpts, ...cdsFlags].join(' ') } : context.env;
  if (input.jvm?.forkFlagsInPoms) await placeForkFlags(workspace.root, input.jvm.forkFlagsInPoms);
  const order = plan?.how === 'class-order' ? plan : undefined;
  const added = [...(input.jvm?.argLine ? [input.jvm.argLine] : []), ...(input.scope ? staleSourcesOnly(stage.args) : []), ...(order?.args ?? [])];
  const args = stageArgs(stage, workspace, context.userCwd, input.sandbox, added);
  const runsTests = stage.name !== 'compile';
  if (order) await clearFirstReports(order.watched);
  const before = runsTests ? await reportTimes({ projectRoot: workspace.root }) : undefined;
  const watch = order ? watchFailingFirst(order.watched, order.tests) : undefined;
  const signal = watch && input.signal ? AbortSignal.any([input.signal, watch.signal]) : (watch?.signal ?? input.signal);
  const launch = await prepareLaunch({ sandbox: input.sandbox, workspaceRoot: workspace.root, scratchDir: workspace.scratchDir, cwd, executable, args, env, pass: input.envPass ?? [], ...(useCds ? { readOnly: [useCds] } : {}) });
  const run = await runMaven({
    executable,
    args,
    cwd,
    env: launch.env,
    echo: false,
    timeoutMs,
    ...(signal ? { signal } : {}),
    // Stop Maven's whole tree ourselves on Ctrl-C: it runs in its own process group,
    // where the terminal's signal does not reach it.
    forwardSignals: true,
    killGroupOnExit: true,
    wrap: launch.wrap,
    ...(onLaunched ? { onSpawn: onLaunched } : {}),
  });
  await launch.after(run);
  if (dumpCds) await keepDumpedArchive(dumpCds, archive!);
  const logFile = await keepLog(run, workspace.scratchDir, `${index + 1}-${stage.name}.log`);
  const result: StageResult = { name: stage.name, exitCode: run.exitCode, durationMs: run.finishedAt.getTime() - run.startedAt.getTime(), logFile, args };
  if (watch) {
    result.failingFirst = await watch.stop();
    if (watch.signal.aborted) await appendFile(logFile, `[mvnx] stopped the build: the failing tests still fail (${order!.watched.flatMap((m) => m.classes).join(', ')} ran first)\n`);
  }
  // Surefire leaves earlier reports in place (an earlier stage's, or a module it skipped this time).
  const tests = before ? await collectTestResults({ projectRoot: workspace.root, since: run.startedAt, unchangedSince: before }) : undefined;
  return { run, result, tests, ...(useCds ? { cds: useCds } : {}) };
}

/**
 * The stage's arguments pointed at the workspace. Under the sandbox, `-o` is added when
 * the user did not give it: the network is off anyway, and offline Maven fails at once
 * with a clear message instead of waiting for connections that cannot succeed.
 */
export function stageArgs(stage: Pick<VerificationStage, 'args'>, workspace: Workspace, userCwd: string, sandbox: SandboxInfo, added: readonly string[] = []): string[] {
  const args = rebaseArgs(stage.args, workspace.source, workspace.root, userCwd);
  const offline = sandbox.isolated && !hasOption(parseMavenArgs(args), 'offline');
  return [...(offline ? ['-o'] : []), ...added, ...args];
}

/**
 * With the scope prepared, every target/ left in the workspace belongs to a module the
 * fix cannot affect, whose outputs are fresh for exactly its inputs and those of the
 * modules it needs (reuse-outputs.ts); every module the fix can affect starts without
 * target/. Recompiling only stale sources is then exact, while the compiler plugin's
 * incremental mode would recompile every module downstream of a jar the reactor just
 * packaged again ("changed dependency"), whose content did not change. Not when the
 * command decides the setting itself.
 */
export const STALE_SOURCES_ONLY = '-Dmaven.compiler.useIncrementalCompilation=false';
function staleSourcesOnly(args: readonly string[]): string[] {
  return args.some((arg) => arg.includes('useIncrementalCompilation')) ? [] : [STALE_SOURCES_ONLY];
}

/** Moves the spooled log beside the workspace, so one dispose() removes everything. */
async function keepLog(run: MavenRunResult, scratchDir: string, name: string): Promise<string> {
  const target = path.join(scratchDir, name);
  try {
    await rename(run.log.file, target);
  } catch {
    await copyFile(run.log.file, target);
  }
  await run.log.dispose();
  return target;
}

function testKey(test: TestCaseResult): string {
  return `${test.module ?? ''}\u0000${test.className}\u0000${test.method}`;
}

function testName(test: TestCaseResult): string {
  return `${test.className}#${test.method}`;
}

function checkInput(input: VerifyInput): void {
  if (!input?.workspace?.root || !input.workspace.source || !input.workspace.scratchDir) throw new TypeError('verifyInWorkspace needs a workspace made by createWorkspace');
  if (!Array.isArray(input.stages) || input.stages.length === 0) throw new TypeError('verifyInWorkspace needs at least one stage (the full build)');
  if (typeof input.executable !== 'string' || input.executable === '') throw new TypeError('verifyInWorkspace needs the Maven executable');
  if (!Number.isFinite(input.timeoutMs) || input.timeoutMs <= 0) throw new TypeError(`timeoutMs must be a positive number of milliseconds, got ${input.timeoutMs}`);
  if (!Array.isArray(input.baselineTests)) throw new TypeError('verifyInWorkspace needs the baseline test results (an empty list when there are none)');
  requireSandbox(input.sandbox);
}
