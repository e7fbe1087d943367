/**
 * What a verification in a workspace takes and gives: the options every build in the
 * workspace shares, the stages and what they found, the verdict's command and tests.
 */
import type { TestCaseResult } from '../diagnose/types.js';
import type { BeforeCandidateTests } from '../shared/run-vocabulary.js';
import type { FailingFirstOutcome } from './failing-first.js';
import type { QuickJvm } from './quick-jvm.js';
import type { SandboxInfo } from './sandbox.js';
import type { VerificationStage, VerificationStageName } from './verify-plan.js';
import { type ScopeDecision, type VerifyScope } from './verify-scope.js';
import type { Narrowing } from './narrow.js';
import type { Workspace } from './workspace.js';

export type VerificationOutcome = 'verified' | 'build-failed' | 'regressed' | 'interrupted' | 'timeout';

export interface StageResult {
  name: VerificationStageName;
  exitCode: number;
  durationMs: number;
  /** Maven's output of the stage, inside the workspace's scratch folder (kept until dispose). */
  logFile: string;
  /** The exact command line the stage ran (after rebasing). */
  args: string[];
  /**
   * A full stage that ran the failing tests first (one Maven run): whether they passed, stopped the build, or were not
   * reached.
   */
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
  /**
   * Test classes that ran in the verdict build, those whose results were taken from the user's build, and why
   * (verify.tests).
   */
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
  /**
   * Modules the user's build never reached that the fix cannot affect: their tests ran once on the unchanged code,
   * beside the model (never-reached.ts), and count in this verdict.
   */
  beforeCandidate?: BeforeCandidateTests;
}

export type { BeforeCandidateTests };

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
  /**
   * Quick-JVM flags (verify.quickJvm): MAVEN_OPTS to run with, `-DargLine=` to add, flags for the poms' own
   * `<argLine>`.
   */
  jvm?: QuickJvm;
  /** The touched module verified narrowly (narrow.ts), or why all its tests run. */
  narrowing?: Narrowing | { why: string };
}
