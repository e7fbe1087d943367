/**
 * One stage of a verification run in the workspace: its arguments (rebased into the
 * workspace, quick-JVM flags and Maven's class-data archive), the Maven run, its log kept
 * in the scratch folder and the test reports it wrote itself; and the flaky re-run of the
 * failing tests, which is one such stage on the unchanged code.
 */
import { appendFile, copyFile, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { collectTestResults, reportTimes } from '../diagnose/index.js';
import type { TestCaseResult } from '../diagnose/types.js';
import { runMaven } from '../maven/run.js';
import type { MavenRunResult } from '../maven/types.js';
import type { FailingFirstPlan } from './failing-first-run.js';
import { clearFirstReports, watchFailingFirst } from './failing-first-watch.js';
import { prepareLaunch } from './launch.js';
import { cdsArchiveExists, cdsOptions, dumpTarget, keepDumpedArchive } from './maven-cds.js';
import { appendArgLineFlags, type QuickJvmFlag } from './quick-jvm.js';
import { hasOption, parseMavenArgs, rebaseArgs, rebasePath } from './maven-args.js';
import { requireSandbox, type SandboxInfo } from './sandbox.js';
import type { VerificationStage } from './verify-plan.js';
import type { Workspace } from './workspace.js';
import type { StageResult, VerifyInput } from './verify-types.js';

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
  input: Omit<VerifyInput, 'stages' | 'baselineTests' | 'requiredTests'> & {
    stage: VerificationStage;
    onLaunched?: () => void;
  },
): Promise<{ exitCode: number; tests: TestCaseResult[]; interrupted: boolean }> {
  const asVerify: VerifyInput = { ...input, stages: [input.stage], baselineTests: [] };
  checkInput(asVerify);
  await input.workspace.reset();
  input.onStage?.(input.stage.name);
  // The unchanged code's build: the one that may make Maven's class-data archive (maven-cds.ts).
  const { run, tests } = await runStage(stageContext(asVerify), input.stage, 0, input.timeoutMs, {
    makeCds: true,
    ...(input.onLaunched ? { onLaunched: input.onLaunched } : {}),
  });
  return { exitCode: run.exitCode, tests: tests ?? [], interrupted: run.interrupted || run.timedOut };
}

export interface StageContext {
  input: VerifyInput;
  userCwd: string;
  cwd: string;
  executable: string;
  env: NodeJS.ProcessEnv;
}

export function stageContext(input: VerifyInput): StageContext {
  const { workspace } = input;
  const userCwd = path.resolve(input.userCwd ?? workspace.source);
  return {
    input,
    userCwd,
    cwd: rebasePath(userCwd, workspace.source, workspace.root),
    executable: path.isAbsolute(input.executable)
      ? rebasePath(input.executable, workspace.source, workspace.root)
      : input.executable,
    env: input.env ?? process.env,
  };
}

export interface StageOptions {
  plan?: FailingFirstPlan;
  onLaunched?: () => void;
  /** Make Maven's class-data archive when there is none (only for a build of the unchanged code). */
  makeCds?: boolean;
}

/**
 * One stage in the workspace; for a stage that runs tests, the reports it wrote itself (not older ones still on disk).
 */
export async function runStage(
  context: StageContext,
  stage: VerificationStage,
  index: number,
  timeoutMs: number,
  { plan, onLaunched, makeCds }: StageOptions = {},
) {
  const { input, cwd, executable } = context;
  const { workspace } = input;
  const archive = input.jvm?.mavenOpts !== undefined ? input.jvm.cdsArchive : undefined;
  const useCds = archive !== undefined && cdsArchiveExists(archive) ? archive : undefined;
  const dumpCds = archive !== undefined && !useCds && makeCds ? dumpTarget(workspace.root) : undefined;
  const cdsFlags = useCds ? cdsOptions({ use: useCds }) : dumpCds ? cdsOptions({ dumpTo: dumpCds }) : [];
  const env =
    input.jvm?.mavenOpts !== undefined
      ? { ...context.env, MAVEN_OPTS: [input.jvm.mavenOpts, ...cdsFlags].join(' ') }
      : context.env;
  if (input.jvm?.forkFlagsInPoms) await placeForkFlags(workspace.root, input.jvm.forkFlagsInPoms);
  const order = plan?.how === 'class-order' ? plan : undefined;
  const added = [
    ...(input.jvm?.argLine ? [input.jvm.argLine] : []),
    ...(input.scope ? staleSourcesOnly(stage.args) : []),
    ...(order?.args ?? []),
  ];
  const args = stageArgs(stage, workspace, context.userCwd, input.sandbox, added);
  const runsTests = stage.name !== 'compile';
  if (order) await clearFirstReports(order.watched);
  const before = runsTests ? await reportTimes({ projectRoot: workspace.root }) : undefined;
  const watch = order ? watchFailingFirst(order.watched, order.tests) : undefined;
  const signal =
    watch && input.signal ? AbortSignal.any([input.signal, watch.signal]) : (watch?.signal ?? input.signal);
  const launch = await prepareLaunch({
    sandbox: input.sandbox,
    workspaceRoot: workspace.root,
    scratchDir: workspace.scratchDir,
    cwd,
    executable,
    args,
    env,
    pass: input.envPass ?? [],
    ...(useCds ? { readOnly: [useCds] } : {}),
  });
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
  const result: StageResult = {
    name: stage.name,
    exitCode: run.exitCode,
    durationMs: run.finishedAt.getTime() - run.startedAt.getTime(),
    logFile,
    args,
  };
  if (watch) {
    result.failingFirst = await watch.stop();
    if (watch.signal.aborted)
      await appendFile(
        logFile,
        `[mvnx] stopped the build: the failing tests still fail (${order!.watched.flatMap((m) => m.classes).join(', ')} ran first)\n`,
      );
  }
  // Surefire leaves earlier reports in place (an earlier stage's, or a module it skipped this time).
  const tests = before
    ? await collectTestResults({ projectRoot: workspace.root, since: run.startedAt, unchangedSince: before })
    : undefined;
  return { run, result, tests, ...(useCds ? { cds: useCds } : {}) };
}

/**
 * The stage's arguments pointed at the workspace. Under the sandbox, `-o` is added when
 * the user did not give it: the network is off anyway, and offline Maven fails at once
 * with a clear message instead of waiting for connections that cannot succeed.
 */
export function stageArgs(
  stage: Pick<VerificationStage, 'args'>,
  workspace: Workspace,
  userCwd: string,
  sandbox: SandboxInfo,
  added: readonly string[] = [],
): string[] {
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
export function staleSourcesOnly(args: readonly string[]): string[] {
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

export function checkInput(input: VerifyInput): void {
  if (!input?.workspace?.root || !input.workspace.source || !input.workspace.scratchDir)
    throw new TypeError('verifyInWorkspace needs a workspace made by createWorkspace');
  if (!Array.isArray(input.stages) || input.stages.length === 0)
    throw new TypeError('verifyInWorkspace needs at least one stage (the full build)');
  if (typeof input.executable !== 'string' || input.executable === '')
    throw new TypeError('verifyInWorkspace needs the Maven executable');
  if (!Number.isFinite(input.timeoutMs) || input.timeoutMs <= 0)
    throw new TypeError(`timeoutMs must be a positive number of milliseconds, got ${input.timeoutMs}`);
  if (!Array.isArray(input.baselineTests))
    throw new TypeError('verifyInWorkspace needs the baseline test results (an empty list when there are none)');
  requireSandbox(input.sandbox);
}
