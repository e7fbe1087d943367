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
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestCaseResult } from '../diagnose/types.js';
import { prepareFailingFirst, readFailingFirstExecution } from './failing-first-run.js';
import { judgeTestResults, type StageTests } from './test-verdict.js';
import type { VerificationStageName } from './verify-plan.js';
import { EXCLUDES_FILE, excludesFileText } from './verify-scope.js';
import { excludedTestLines, type Narrowing } from './narrow.js';
import { checkInput, runStage, stageContext } from './verify-stage.js';
import type {
  StageResult,
  VerdictCommand,
  VerdictTests,
  VerificationOutcome,
  VerificationResult,
  VerifyInput,
} from './verify-types.js';

export { planGoalRun, planVerification, repositoryGoalNote, VerificationPlanError } from './verify-plan.js';
export type { VerificationStage, VerificationStageName, VerificationPlanInput } from './verify-plan.js';
export { rerunTests, stageArgs, STALE_SOURCES_ONLY } from './verify-stage.js';
export type {
  StageResult,
  VerdictCommand,
  VerdictTests,
  VerificationOutcome,
  VerificationResult,
  VerifyInput,
  WorkspaceBuildOptions,
} from './verify-types.js';

export async function verifyInWorkspace(input: VerifyInput): Promise<VerificationResult> {
  checkInput(input);
  const deadline = Date.now() + input.timeoutMs;
  const context = stageContext(input);
  const stageResults: StageResult[] = [];
  const stageTests: StageTests[] = [];
  const regressions = new Set<string>();
  const baselinePassed = new Set(input.baselineTests.filter((t) => t.status === 'passed').map(testKey));
  const note = input.sandbox.reason ? { sandboxNote: input.sandbox.reason } : {};
  const stop = (outcome: VerificationOutcome, stage: VerificationStageName) => ({
    outcome,
    failedStage: stage,
    stageResults,
    regressions: [...regressions],
    testProblems: [],
    ...note,
  });
  const narrowed = input.narrowing && 'module' in input.narrowing ? input.narrowing : undefined;
  if (input.scope) await prepareScope(input.workspace.root, input.scope, narrowed);

  let usedCds: string | undefined;
  for (const [index, stage] of input.stages.entries()) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return stop('timeout', stage.name);
    input.onStage?.(stage.name);
    const plan = stage.failingFirst
      ? await prepareFailingFirst({
          root: input.workspace.root,
          source: input.workspace.source,
          failingFirst: stage.failingFirst,
          args: stage.args,
          baselineTests: input.baselineTests,
          env: context.env,
        })
      : undefined;
    const { run, result, tests, cds } = await runStage(context, stage, index, remaining, { plan });
    if (cds) usedCds = cds;
    const first =
      plan?.how === 'execution'
        ? await readFailingFirstExecution(input.workspace.root, plan, result.logFile, run.startedAt)
        : undefined;
    if (first) result.failingFirst = first.outcome;
    stageResults.push(result);
    // The watch of the failing classes stops the build itself; any other stop is the user's.
    const stoppedByWatch = plan?.how === 'class-order' && result.failingFirst === 'stopped' && !input.signal?.aborted;
    if (run.interrupted && !run.timedOut && !stoppedByWatch) return stop('interrupted', stage.name);
    if (run.timedOut) return stop('timeout', stage.name);

    // What ran first speaks as a failing-tests stage would; the user's command, after it, replaces that per module.
    for (const ran of [
      ...(first?.tests.length ? [{ name: 'failing-tests', results: first.tests }] : []),
      ...(tests ? [{ name: stage.name, results: tests }] : []),
    ]) {
      stageTests.push(ran);
      for (const test of ran.results)
        if ((test.status === 'failed' || test.status === 'error') && baselinePassed.has(testKey(test)))
          regressions.add(testName(test));
    }
    if (run.exitCode !== 0 || regressions.size > 0) {
      return {
        ...stop(regressions.size > 0 ? 'regressed' : 'build-failed', stage.name),
        regressions: [...regressions].sort(),
        diagnosisInput: {
          logFile: result.logFile,
          startedAt: run.startedAt,
          exitCode: run.exitCode,
          projectRoot: input.workspace.root,
        },
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
    return {
      outcome: 'regressed',
      failedStage: 'full',
      stageResults,
      regressions: verdict.regressions,
      testProblems: verdict.problems,
      verdict: verdictBy,
      ...note,
    };
  }
  return { outcome: 'verified', stageResults, regressions: [], testProblems: [], verdict: verdictBy, ...note };
}

/**
 * The affected modules lose their build outputs (rebuilt from clean, whatever was reused);
 * under the affected scope every module of the reactor gets its excludes file, since
 * Surefire fails in a module where the file named by -Dsurefire.excludesFile is missing.
 */
async function prepareScope(
  root: string,
  scope: NonNullable<VerifyInput['scope']>,
  narrowed?: Narrowing,
): Promise<void> {
  // A narrowed module keeps its outputs: narrow.ts removed the classes to compile again.
  for (const dir of scope.decision.affected)
    if (dir !== narrowed?.module) await rm(path.join(root, dir, 'target'), { recursive: true, force: true });
  if (scope.decision.scope !== 'affected' && !narrowed) return;
  const skipped = new Set(scope.decision.testsFromYourBuild.map((m) => m.dir));
  for (const dir of scope.modules) {
    const file = path.join(root, dir, EXCLUDES_FILE);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(
      file,
      excludesFileText(skipped.has(dir)) + (dir === narrowed?.module ? excludedTestLines(narrowed.excluded) : ''),
    );
  }
}

/** What the record says of the tests: the classes the verdict build's reports name, those taken, and why. */
function verdictTests(stages: readonly StageTests[], narrowing: VerifyInput['narrowing']): VerdictTests {
  const ran = [
    ...new Set(
      stages
        .filter((stage) => stage.name === 'full')
        .flatMap((stage) => stage.results.map((test) => test.className.split('$')[0]!)),
    ),
  ].sort();
  if (!narrowing || !('module' in narrowing))
    return { ran, fromYourBuild: [], why: `all tests ran: ${narrowing?.why ?? 'no test selection was made'}` };
  return {
    ran,
    fromYourBuild: narrowing.excluded,
    why: narrowing.why,
    ...(narrowing.recompiled ? { recompiled: narrowing.recompiled } : {}),
    compileWhy: narrowing.recompileWhy,
  };
}

/**
 * The quick-JVM flags appended to the poms' own `<argLine>` in the workspace (idempotent; the workspace's reset
 * restores the poms).
 */
function testKey(test: TestCaseResult): string {
  return `${test.module ?? ''}\u0000${test.className}\u0000${test.method}`;
}

function testName(test: TestCaseResult): string {
  return `${test.className}#${test.method}`;
}
