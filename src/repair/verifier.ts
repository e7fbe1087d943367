import { diagnoseBuild, type DiagnosticParser, type TestCaseResult } from '../diagnose/index.js';
import type { Diagnosis } from '../diagnose/types.js';
import { applyChangeSet, PatchApplyError } from '../patch/index.js';
import type { ChangeSet } from '../patch/types.js';
import { planVerification, verifyInWorkspace, type SandboxInfo, type Workspace } from '../workspace/index.js';
import type { Verification } from './loop.js';

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
  /** Plugins' parsers, for the diagnosis of a failed candidate build. */
  parsers?: readonly DiagnosticParser[];
}

/**
 * Build a candidate fix in the workspace: reset to the original, apply the whole fix,
 * run the staged plan (affected modules, failing tests, then the user's own command)
 * and, when it fails, diagnose the new failure from the workspace's own log.
 */
export function createVerifier(options: VerifierOptions) {
  /** `signal` stops this build alone (a candidate fix that another one beat); the options' signal stops every build. */
  return async function verify(fix: ChangeSet, diagnosis: Diagnosis, signal?: AbortSignal): Promise<Verification> {
    const applyStarted = Date.now();
    await options.workspace.reset();
    try {
      await applyChangeSet(options.workspace.root, fix);
    } catch (error) {
      // What a patch asks for can fail to write (the checks ran on the user's tree): an attempt outcome, not a crash.
      if (!(error instanceof PatchApplyError)) throw error;
      return { outcome: 'not-applied', message: `${error.code}: ${error.message}`, regressions: [], applyMs: Date.now() - applyStarted, verifyMs: 0, stages: [] };
    }
    const applyMs = Date.now() - applyStarted;

    const verifyStarted = Date.now();
    const stages = planVerification({
      mavenArgs: options.mavenArgs,
      failingModules: failingModuleDirs(diagnosis),
      failingTests: failingTests(diagnosis),
      // A quality failure needs no stage of its own: the full build runs the check.
      kinds: [...new Set(diagnosis.diagnostics.map((d) => d.kind).filter((k): k is 'compile' | 'test' => k === 'compile' || k === 'test'))],
    });
    const result = await verifyInWorkspace({
      workspace: options.workspace,
      stages,
      executable: options.executable,
      env: options.env,
      sandbox: options.sandbox,
      ...(options.envPass ? { envPass: options.envPass } : {}),
      baselineTests: options.baselineTests,
      // Tests that fail in the diagnosis being worked on (after progress, maybe not in the user's build).
      requiredTests: failingTests(diagnosis),
      timeoutMs: options.timeoutMs,
      signal: signal ? AbortSignal.any([options.signal, signal]) : options.signal,
      userCwd: options.userCwd,
      ...(options.onStage ? { onStage: options.onStage } : {}),
    });
    const verifyMs = Date.now() - verifyStarted;
    const stageSummaries = result.stageResults.map((stage) => ({
      name: stage.name,
      exitCode: stage.exitCode,
      durationMs: stage.durationMs,
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
    return {
      outcome: result.outcome,
      regressions: result.regressions,
      ...(result.testProblems.length > 0 ? { testProblems: result.testProblems } : {}),
      applyMs,
      verifyMs,
      stages: stageSummaries,
      ...(after ? { diagnosis: after } : {}),
    };
  };
}

export function failingModuleDirs(diagnosis: Diagnosis): string[] {
  const dirs = new Set<string>();
  for (const d of diagnosis.diagnostics) {
    const dir = diagnosis.modules.find((m) => m.artifactId === d.module || m.name === d.module)?.dir;
    if (dir !== undefined) dirs.add(dir);
  }
  return [...dirs];
}

export function failingTests(diagnosis: Diagnosis): string[] {
  return [...new Set(diagnosis.diagnostics.flatMap((d) => (d.test ? [d.test] : [])))];
}
