/**
 * What the failed build never reached, run while the model works (issue 42, item 5): the
 * modules the user's build skipped that need none of the failing ones are built and
 * tested once on the unchanged code, in a spare workspace, as soon as the verification
 * session starts (beside the flaky re-check and the model call). Every candidate's verdict
 * build leaves them out and its verdict takes their results (`verdict.tests.beforeCandidate`).
 *
 * A module that fails there fails on the unchanged code: the fix is not to blame, but the
 * build is not green either. A candidate whose own build passed is then `build-failed`
 * with that module's failures as its diagnosis: the loop sees the failures it was given go
 * away and new ones appear in a module the user's build never reached, which it adopts as
 * progress (judge-progress.ts), exactly as when Maven itself went on to that module, and
 * the verdict says the failures were there before the fix.
 */
import { diagnoseBuild, diagnosisFingerprint, type DiagnosticParser } from '../../diagnose/index.js';
import type { Diagnosis, TestCaseResult } from '../../diagnose/types.js';
import {
  neverReachedModules,
  runNeverReached,
  type NeverReachedModule,
  type NeverReachedRun,
  type SandboxInfo,
  type VerificationFacts,
  type VerdictCommand,
  type Workspace,
} from '../../workspace/index.js';
import type { Verification } from '../loop/ports.js';

export interface BeforeCandidateResult {
  run: NeverReachedRun;
  /** artifactIds whose every goal passed. */
  passed: string[];
  /** artifactIds that failed on the unchanged code. */
  failed: string[];
  /** The run's diagnosis when it failed. */
  diagnosis?: Diagnosis;
}

export interface BeforeCandidate {
  modules: NeverReachedModule[];
  /** Undefined when the run could not speak for them (interrupted, not started). */
  result: Promise<BeforeCandidateResult | undefined>;
  /** The result once the run has ended (undefined before). */
  readonly settled: BeforeCandidateResult | undefined;
  stop(): void;
}

export interface BeforeCandidateInput {
  diagnosis: Diagnosis;
  /** Module folders with a failure in `diagnosis`. */
  failingModules: string[];
  /** The failed build's test results. */
  baselineTests: readonly TestCaseResult[];
  facts: VerificationFacts;
  mavenArgs: string[];
  executable: string;
  env: NodeJS.ProcessEnv;
  sandbox: SandboxInfo;
  envPass?: readonly string[];
  userCwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  parsers?: readonly DiagnosticParser[];
  acquire(): Promise<Workspace>;
  release(workspace: Workspace): void;
  onStart?(modules: NeverReachedModule[]): void;
}

/** Starts the run when the failed build skipped a module that needs none of the failing ones; else undefined. */
export function startBeforeCandidate(input: BeforeCandidateInput): BeforeCandidate | undefined {
  const modules = neverReachedModules({
    graph: input.facts.graph,
    failingModules: input.failingModules,
    reactor: input.diagnosis.modules,
    mavenArgs: input.mavenArgs,
    blockers: input.facts.blockers,
    baselineTests: input.baselineTests,
  });
  if (modules.length === 0) return undefined;
  const controller = new AbortController();
  const signal = AbortSignal.any([input.signal, controller.signal]);
  input.onStart?.(modules);
  const result = (async (): Promise<BeforeCandidateResult | undefined> => {
    const workspace = await input.acquire();
    try {
      const run = await runNeverReached({
        workspace,
        executable: input.executable,
        env: input.env,
        sandbox: input.sandbox,
        ...(input.envPass ? { envPass: input.envPass } : {}),
        timeoutMs: input.timeoutMs,
        signal,
        userCwd: input.userCwd,
        ...(input.facts.jvm ? { jvm: input.facts.jvm } : {}),
        modules,
        mavenArgs: input.mavenArgs,
        allModules: input.facts.graph.projects.map((p) => p.dir),
      });
      if (run.interrupted) return undefined;
      if (run.exitCode === 0) return { run, passed: modules.map((m) => m.artifactId), failed: [] };
      const diagnosis = await diagnoseBuild({
        projectRoot: run.projectRoot,
        logFile: run.logFile,
        runStartedAt: run.startedAt,
        exitCode: run.exitCode,
        ...(input.parsers ? { parsers: input.parsers } : {}),
      });
      const status = (m: NeverReachedModule) => diagnosis.modules.find((r) => r.artifactId === m.artifactId)?.status;
      const failed = modules.filter((m) => status(m) === 'FAILURE').map((m) => m.artifactId);
      // The log names a module by artifactId or by its display name.
      const names = new Set(
        diagnosis.modules.filter((m) => failed.includes(m.artifactId ?? '')).flatMap((m) => [m.name, m.artifactId!]),
      );
      const diagnostics = diagnosis.diagnostics.filter((d) => d.module !== undefined && names.has(d.module));
      return {
        run,
        passed: modules.filter((m) => status(m) === 'SUCCESS').map((m) => m.artifactId),
        failed,
        diagnosis: { ...diagnosis, diagnostics, fingerprint: diagnosisFingerprint(diagnostics) },
      };
    } finally {
      input.release(workspace);
    }
  })().catch(() => undefined);
  let settled: BeforeCandidateResult | undefined;
  void result.then((done) => (settled = done));
  return {
    modules,
    result,
    get settled() {
      return settled;
    },
    stop: () => controller.abort(),
  };
}

/** Whether the run speaks for every one of `taken` (each passed or failed, none skipped or unknown). */
export function speaksFor(
  result: BeforeCandidateResult | undefined,
  taken: readonly { artifactId: string }[],
): boolean {
  return (
    result !== undefined &&
    taken.every((m) => result.passed.includes(m.artifactId) || result.failed.includes(m.artifactId))
  );
}

/**
 * A verification whose verdict build left `taken` out, with their results from the run: the verdict names them, and
 * a candidate whose own build passed is not verified while one of them fails (the build is not green), though the
 * fix is not to blame.
 */
export function withBeforeCandidate(
  verification: Verification,
  result: BeforeCandidateResult | undefined,
  taken: readonly { artifactId: string }[],
): Verification {
  const names = new Set(taken.map((m) => m.artifactId));
  // A rejected candidate, judged before the run ended: those modules' tests were neither run nor taken from your build.
  if (!result) {
    if (!verification.verdict) return verification;
    const testsFromYourBuild = verification.verdict.testsFromYourBuild.filter((module) => !names.has(module));
    return { ...verification, verdict: { ...verification.verdict, testsFromYourBuild } };
  }
  const failed = result.failed.filter((module) => names.has(module));
  const failedTests = result.run.tests
    .filter((t) => failed.includes(t.module ?? '') && (t.status === 'failed' || t.status === 'error'))
    .map((t) => `${t.className}#${t.method}`);
  const verdict = verification.verdict
    ? withVerdict(verification.verdict, result, names, failed, failedTests)
    : undefined;
  const withRecord = { ...verification, ...(verdict ? { verdict } : {}) };
  if (verification.outcome !== 'verified' || failed.length === 0) return withRecord;
  const failedNames = new Set(
    (result.diagnosis?.modules ?? []).filter((m) => failed.includes(m.artifactId ?? '')).flatMap((m) => [m.name]),
  );
  const diagnostics = (result.diagnosis?.diagnostics ?? []).filter(
    (d) => failed.includes(d.module ?? '') || failedNames.has(d.module ?? ''),
  );
  const diagnosis: Diagnosis | undefined = result.diagnosis
    ? { ...result.diagnosis, diagnostics, fingerprint: diagnosisFingerprint(diagnostics) }
    : undefined;
  return {
    ...withRecord,
    outcome: 'build-failed',
    rejectedAt: 'full',
    testProblems: [
      ...(verification.testProblems ?? []),
      `${describe(failed)} fails on your unchanged code too (built beside the model, before this fix): not caused by the fix, but the build is not green`,
    ],
    ...(diagnosis ? { diagnosis } : {}),
  };
}

function withVerdict(
  verdict: VerdictCommand,
  result: BeforeCandidateResult,
  names: Set<string>,
  failed: string[],
  failedTests: string[],
): VerdictCommand {
  const modules = [...names].sort();
  const ran = [
    ...new Set(result.run.tests.filter((t) => names.has(t.module ?? '')).map((t) => t.className.split('$')[0]!)),
  ].sort();
  const tests = verdict.tests ?? { ran: [], fromYourBuild: [], why: 'all tests ran' };
  return {
    ...verdict,
    testsFromYourBuild: verdict.testsFromYourBuild.filter((module) => !names.has(module)),
    tests: {
      ...tests,
      beforeCandidate: {
        modules,
        ran,
        failed: failedTests,
        args: result.run.args,
        durationMs: result.run.durationMs,
        why:
          `${describe(modules)}: never reached by your build, and ${modules.length === 1 ? 'needs' : 'need'} none of the failing modules: ` +
          `built and tested once on the unchanged code while the model worked` +
          (failed.length > 0 ? `; ${describe(failed)} failed there, before any fix` : ''),
      },
    },
  };
}

function describe(modules: readonly string[]): string {
  return `module${modules.length === 1 ? '' : 's'} ${modules.join(', ')}`;
}
