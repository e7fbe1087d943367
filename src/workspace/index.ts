/** The isolated workspace: a private copy of the project, sandboxed Maven verification, regression detection. */
export { createWorkspace, WorkspaceError, type Workspace, type WorkspaceOptions } from './workspace.js';
export { registerCleanup, liveCleanupPaths } from './cleanup.js';
export {
  detectSandbox,
  describeSandbox,
  requireSandbox,
  suggestedImage,
  SandboxError,
  SANDBOX_MODES,
  type SandboxInfo,
  type SandboxKind,
  type SandboxMode,
} from './sandbox.js';
export { buildEnvironment, isSecretName, BASE_ENV_ALLOWLIST } from './sandbox-env.js';
export {
  MAVEN_OPTIONS,
  MavenArgsError,
  parseMavenArgs,
  formatMavenArgs,
  goalsOf,
  rebaseArgs,
  rebasePath,
  type MavenArg,
  type MavenOptionSpec,
} from './maven-args.js';
export { judgeTestResults, type StageTests, type TestVerdict, type TestVerdictInput } from './test-verdict.js';
export { runGoalInWorkspace, type GoalRun, type GoalRunInput } from './run-goal.js';
export {
  planGoalRun,
  planVerification,
  rerunTests,
  repositoryGoalNote,
  verifyInWorkspace,
  VerificationPlanError,
  type VerificationOutcome,
  type VerificationResult,
  type VerificationStage,
  type VerificationStageName,
  type VerificationPlanInput,
  type StageResult,
  type VerifyInput,
  type WorkspaceBuildOptions,
} from './verify.js';
export { cleansFirst, failingFirstSample } from './verify-plan.js';
export {
  decideOneRun,
  FAILING_FIRST_EXECUTION,
  type FailingFirstOutcome,
  type OneRunDecision,
} from './failing-first.js';
export {
  classesOfOutputs,
  narrowVerification,
  type ModuleClassesReader,
  type Narrowing,
  type TestsMode,
} from './narrow.js';
export { decideScope, EXCLUDES_FILE, type ScopeDecision, type VerifyScope } from './verify-scope.js';
export {
  neverReachedModules,
  runNeverReached,
  type NeverReachedModule,
  type NeverReachedRun,
} from './never-reached.js';
export { readVerificationFacts, type VerificationFacts } from './verify-facts.js';
export { takeOutputs, type OutputSnapshot } from './reuse-outputs.js';
export { QUICK_JVM_FLAGS, type QuickJvm } from './quick-jvm.js';
export type { VerdictCommand } from './verify.js';
export { findProgram, runCommandInWorkspace, type CommandInput, type CommandRun } from './command.js';
export { testClassPathOf } from './class-order.js';
export {
  runBehaviourProbe,
  PROBE_DIR,
  type ProbeCall,
  type ProbeInput,
  type ProbeRun,
  type ProbeTarget,
} from './behaviour-probe.js';
export {
  runTestsTwice,
  launcherJarFor,
  parseRepeatOutput,
  REPEAT_DIR,
  type RepeatInput,
  type RepeatResult,
  type RepeatRun,
  type CapturedCall,
} from './test-repeat.js';
export { instrumentedSource, type CaptureFile, type CaptureSite } from './call-capture.js';
