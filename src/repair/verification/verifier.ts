import {
  diagnoseBuild,
  diagnosisFingerprint,
  type DiagnosticParser,
  type TestCaseResult,
} from '../../diagnose/index.js';
import type { Diagnosis } from '../../diagnose/types.js';
import { moduleOfFile } from '../../maven/reactor.js';
import { applyChangeSet, PatchApplyError } from '../../patch/index.js';
import type { ChangeSet } from '../../patch/types.js';
import {
  cleansFirst,
  decideOneRun,
  decideScope,
  EXCLUDES_FILE,
  narrowVerification,
  type ModuleClassesReader,
  type Narrowing,
  type ScopeDecision,
  type TestsMode,
  planVerification,
  verifyInWorkspace,
  type SandboxInfo,
  type VerificationFacts,
  type VerifyScope,
  type Workspace,
} from '../../workspace/index.js';
import type { Verification } from '../loop/ports.js';
import { speaksFor, withBeforeCandidate, type BeforeCandidate } from './before-candidate.js';
import { checkBehaviour, type BehaviourCheck } from './behaviour-check.js';

export interface VerifierOptions {
  workspace: Workspace;
  executable: string;
  mavenArgs: string[];
  env: NodeJS.ProcessEnv;
  sandbox: SandboxInfo;
  envPass?: readonly string[];
  baselineTests: TestCaseResult[];
  timeoutMs: number;
  signal: AbortSignal;
  /** Where the user ran Maven (relative -f values are resolved from it). */
  userCwd: string;
  onStage?: (name: string) => void;
  /** The reactor, what forbids leaving tests out, quick-JVM flags (read once per repair). */
  facts?: VerificationFacts;
  /** verify.scope (after auto.requireFullVerification); default full. */
  scope?: VerifyScope;
  /** Plugins' parsers, for the diagnosis of a failed candidate build. */
  parsers?: readonly DiagnosticParser[];
  /**
   * false: always the staged plan (failing tests in a Maven run of their own); default: one run where decideOneRun
   * allows it.
   */
  oneRun?: boolean;
  /** verify.tests (after auto.requireFullVerification); default all. */
  tests?: TestsMode;
  /** Reads a narrowed module's compiled classes (the session's, read once from the outputs snapshot). */
  readClasses?: ModuleClassesReader;
  /**
   * The behavioural probe of a candidate that passed while tests failed (behaviour-check.ts), with mvnx's cache folder
   * (where its harness is kept compiled); absent: not probed.
   */
  probe?: { cacheDir: string };
  /** The modules the user's build never reached, tested beside the model (before-candidate.ts). */
  beforeCandidate?: BeforeCandidate;
}

export type Verify = (
  fix: ChangeSet,
  diagnosis: Diagnosis,
  at?: { workspace?: Workspace; signal?: AbortSignal; withoutBeforeCandidate?: boolean },
) => Promise<Verification>;

/**
 * Build a candidate fix in a workspace: reset to the original, apply the whole fix,
 * decide which modules it can affect, run the plan (the user's own command in its
 * affected-scope form with the failing tests first inside it, one Maven run; or, where
 * other modules' tests would come first, touched modules compiled with only the failing
 * tests in a run of their own before it) and,
 * when it fails, diagnose the new failure from the workspace's own log.
 */
export function createVerifier(options: VerifierOptions): Verify {
  const verify: Verify = async (fix, diagnosis, at = {}) => {
    const started = Date.now();
    const { result, taken = [] } = await verifyOnce(fix, diagnosis, at);
    if (taken.length === 0 || !options.beforeCandidate) return result;
    // A rejected candidate needs nothing of the run beside the model: it does not wait for it.
    if (result.outcome !== 'verified') return withBeforeCandidate(result, options.beforeCandidate.settled, taken);
    // The verdict build left those modules out: their results come from the run beside the model (waited for, and
    // counted in this verification's time), or the verification runs again with them.
    const early = await options.beforeCandidate.result;
    const waited = { ...result, verifyMs: Date.now() - started - result.applyMs };
    if (speaksFor(early, taken)) return withBeforeCandidate(waited, early, taken);
    const again = await verify(fix, diagnosis, { ...at, withoutBeforeCandidate: true });
    return { ...again, verifyMs: again.verifyMs + waited.applyMs + waited.verifyMs };
  };
  return verify;

  async function verifyOnce(
    fix: ChangeSet,
    diagnosis: Diagnosis,
    at: Parameters<Verify>[2] & object,
  ): Promise<{ result: Verification; taken?: { dir: string; artifactId: string }[] }> {
    const workspace = at.workspace ?? options.workspace;
    // `at.signal` stops this build alone (a candidate another one beat); the options' signal stops every build.
    const signal = at.signal ? AbortSignal.any([options.signal, at.signal]) : options.signal;
    const applyStarted = Date.now();
    await workspace.reset();
    try {
      await applyChangeSet(workspace.root, fix);
    } catch (error) {
      // What a patch asks for can fail to write (the checks ran on the user's tree): an attempt outcome, not a crash.
      if (!(error instanceof PatchApplyError)) throw error;
      return {
        result: {
          outcome: 'not-applied',
          message: `${error.code}: ${error.message}`,
          regressions: [],
          applyMs: Date.now() - applyStarted,
          verifyMs: 0,
          stages: [],
        },
      };
    }
    const applyMs = Date.now() - applyStarted;

    const verifyStarted = Date.now();
    const failingModules = failingModuleDirs(diagnosis);
    const failing = failingTests(diagnosis);
    const touchedFiles = [
      ...new Set(
        fix.files.flatMap((file) =>
          file.oldPath && file.oldPath !== file.path ? [file.oldPath, file.path] : [file.path],
        ),
      ),
    ];
    const graph = options.facts?.graph;
    const early = at.withoutBeforeCandidate ? undefined : options.beforeCandidate;
    const decision = graph
      ? decideScope({
          scope: options.scope ?? 'full',
          graph,
          touchedFiles,
          failingModules,
          baselineTests: options.baselineTests,
          blockers: options.facts?.blockers ?? [],
          mavenArgs: options.mavenArgs,
          ...(early ? { testedBeforeCandidate: early.modules } : {}),
        })
      : undefined;
    const touchedModules = graph
      ? [...new Set(touchedFiles.flatMap((file) => moduleOfFile(graph, file)?.dir ?? []))]
      : [];
    const narrowing = decision ? await narrowFor(options, workspace, decision, touchedFiles, failing) : undefined;
    const narrowed = narrowing && 'module' in narrowing;
    const stages = planVerification({
      mavenArgs: options.mavenArgs,
      failingModules,
      touchedModules,
      failingTests: failing,
      // A quality failure needs no stage of its own: the full build runs the check.
      kinds: [
        ...new Set(
          diagnosis.diagnostics
            .map((d) => d.kind)
            .filter((k): k is 'compile' | 'test' => k === 'compile' || k === 'test'),
        ),
      ],
      ...(oneRunFor(options, decision, failingModules) ? { oneRun: true } : {}),
      ...(options.scope === 'affected'
        ? {
            final: {
              dropClean: cleansFirst(options.mavenArgs),
              ...(decision?.scope === 'affected'
                ? { excludesFile: EXCLUDES_FILE, ...(decision.reactor ? { modules: decision.reactor } : {}) }
                : narrowed
                  ? { excludesFile: EXCLUDES_FILE }
                  : {}),
            },
          }
        : {}),
    });
    const jvm = options.facts?.jvm;
    const result = await verifyInWorkspace({
      workspace,
      stages,
      executable: options.executable,
      env: options.env,
      sandbox: options.sandbox,
      ...(options.envPass ? { envPass: options.envPass } : {}),
      baselineTests: options.baselineTests,
      // Tests that fail in the diagnosis being worked on (after progress, maybe not in the user's build).
      requiredTests: failing,
      timeoutMs: options.timeoutMs,
      signal,
      userCwd: options.userCwd,
      ...(options.onStage ? { onStage: options.onStage } : {}),
      ...(decision && graph ? { scope: { decision, modules: graph.projects.map((p) => p.dir) } } : {}),
      ...(narrowing ? { narrowing } : {}),
      ...(jvm ? { jvm } : {}),
    });
    let verifyMs = Date.now() - verifyStarted;
    const stageSummaries: Verification['stages'] = result.stageResults.map((stage) => ({
      name: stage.name,
      exitCode: stage.exitCode,
      durationMs: stage.durationMs,
      ...(stage.failingFirst ? { failingFirst: stage.failingFirst } : {}),
    }));

    let after: Diagnosis | undefined;
    if (result.outcome === 'build-failed' && result.diagnosisInput) {
      after = await diagnoseBuild({
        projectRoot: result.diagnosisInput.projectRoot,
        logFile: result.diagnosisInput.logFile,
        runStartedAt: result.diagnosisInput.startedAt,
        exitCode: result.diagnosisInput.exitCode,
        ...(options.parsers ? { parsers: options.parsers } : {}),
      });
    }
    const stoppedByFailingTests = result.stageResults.at(-1)?.failingFirst === 'stopped';
    const notFirst = stages.at(-1)?.failingFirst?.notFirst;
    if (after && stoppedByFailingTests && notFirst) after = withTestsNotRun(after, diagnosis, notFirst);
    const rejectedAt =
      result.outcome === 'verified' || !result.failedStage
        ? undefined
        : after?.diagnostics.some((d) => d.kind === 'compile')
          ? 'compile'
          : stoppedByFailingTests
            ? 'failing-tests'
            : result.failedStage;
    // A candidate that passed while tests failed: does its behaviour change anywhere but at the tests' own inputs?
    const probed =
      result.outcome === 'verified' && options.probe && failing.length > 0
        ? await checkBehaviour({
            workspace,
            fix,
            failing,
            modules: graph ? graph.projects.map((project) => project.dir) : [''],
            cacheDir: options.probe.cacheDir,
            env: options.env,
            pass: options.envPass ?? [],
            sandbox: options.sandbox,
            signal,
            // The probe only refuses: one that cannot run (a file it could not copy) leaves the verdict as it is.
          }).catch((error: unknown): BehaviourCheck => ({ why: String(error) }))
        : undefined;
    if (probed?.stages) stageSummaries.push(...probed.stages);
    if (probed) verifyMs = Date.now() - verifyStarted;
    const taken = decision?.testedBeforeCandidate;
    if (probed?.refused) {
      return {
        result: {
          outcome: 'refused',
          refused: probed.refused,
          regressions: [],
          applyMs,
          verifyMs,
          stages: stageSummaries,
          ...(result.verdict ? { verdict: result.verdict } : {}),
        },
        ...(taken ? { taken } : {}),
      };
    }
    return {
      result: {
        outcome: result.outcome,
        regressions: result.regressions,
        ...(result.testProblems.length > 0 ? { testProblems: result.testProblems } : {}),
        applyMs,
        verifyMs,
        stages: stageSummaries,
        ...(after ? { diagnosis: after } : {}),
        ...(rejectedAt ? { rejectedAt } : {}),
        ...(result.verdict ? { verdict: result.verdict } : {}),
      },
      ...(taken ? { taken } : {}),
    };
  }
}

/**
 * One Maven run per candidate (failing-first.ts), unless another module's tests would run
 * before the failing module's in the verdict build; needs the reactor (facts).
 */
function oneRunFor(options: VerifierOptions, decision: ScopeDecision | undefined, failingModules: string[]): boolean {
  const graph = options.facts?.graph;
  if (!graph || options.oneRun === false) return false;
  const affectedForm = options.scope === 'affected' && decision?.scope === 'affected';
  return decideOneRun({
    graph,
    failingModules,
    baselineTests: options.baselineTests,
    testsFromYourBuild: affectedForm ? decision.testsFromYourBuild.map((m) => m.dir) : [],
    ...(affectedForm && decision.reactor ? { selected: decision.reactor } : {}),
  }).oneRun;
}

/**
 * verify.tests affected: the touched module keeps its outputs, compiles only what the fix
 * can change and runs only the tests that can reach it (workspace/narrow.ts). Needs the
 * affected scope, whose verdict build leaves out `clean`.
 */
async function narrowFor(
  options: VerifierOptions,
  workspace: Workspace,
  decision: ScopeDecision,
  touchedFiles: string[],
  failing: string[],
): Promise<Narrowing | { why: string }> {
  if (options.tests !== 'affected') return { why: 'verify.tests is all' };
  if (options.scope !== 'affected') return { why: 'verify.scope is full' };
  const module =
    decision.affected.length === 1
      ? options.facts?.graph.projects.find((p) => p.dir === decision.affected[0])
      : undefined;
  return narrowVerification({
    root: workspace.root,
    source: workspace.source,
    tests: options.tests ?? 'all',
    decision,
    reusedOutputs: workspace.reusedOutputs,
    touchedFiles,
    failingTests: failing,
    baselineTests: options.baselineTests,
    blockers: options.facts?.blockers ?? [],
    artifactId: module?.artifactId ?? '',
    ...(options.readClasses ? { readClasses: options.readClasses } : {}),
  });
}

export function failingModuleDirs(diagnosis: Diagnosis): string[] {
  const dirs = new Set<string>();
  for (const d of diagnosis.diagnostics) {
    const dir = diagnosis.modules.find((m) => m.artifactId === d.module || m.name === d.module)?.dir;
    if (dir !== undefined) dirs.add(dir);
  }
  return [...dirs];
}

/**
 * The diagnosis of a build that the first failing tests stopped, with the failures of the
 * failing tests that did not run (`notRun`) carried over from the diagnosis worked on: they
 * were not seen to pass, so they neither count as gone (judgeProgress would take 145 of 155
 * failures as fixed) nor drop out of the next prompt when the candidate is kept.
 */
export function withTestsNotRun(after: Diagnosis, before: Diagnosis, notRun: readonly string[]): Diagnosis {
  const skipped = new Set(notRun);
  const seen = new Set(failingTests(after));
  const carried = before.diagnostics.filter(
    (d) => d.kind === 'test' && d.test !== undefined && skipped.has(d.test) && !seen.has(d.test),
  );
  if (carried.length === 0) return after;
  const diagnostics = [...after.diagnostics, ...carried];
  return { ...after, diagnostics, fingerprint: diagnosisFingerprint(diagnostics) };
}

export function failingTests(diagnosis: Diagnosis): string[] {
  return [...new Set(diagnosis.diagnostics.flatMap((d) => (d.test ? [d.test] : [])))];
}
