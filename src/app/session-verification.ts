/**
 * The session's verification: the verification session (the workspaces, the outputs reused
 * from the user's build, the scope and the quick-JVM flags), what the extra builds in the
 * workspace share (the formatter goal, the flaky re-run, the -Werror recompile), the
 * verifier of the agent's candidate builds, and the flaky re-check when `tests.flakyCheck` is on.
 */
import type { DiagnosticParser, TestCaseResult } from '../diagnose/index.js';
import type { Diagnosis } from '../diagnose/types.js';
import type { ChangeSet } from '../patch/types.js';
import type { EffectiveConfig } from '../policy/index.js';
import type { Progress } from '../report/progress.js';
import { createFailureRecheck, startVerificationSession } from '../repair/index.js';
import type { SandboxInfo, WorkspaceBuildOptions } from '../workspace/index.js';
import type { BuildFailureContext } from './build-failure.js';

export async function wireVerification(input: {
  context: BuildFailureContext;
  config: EffectiveConfig;
  sandbox: SandboxInfo;
  /** The user's build's test results. */
  baselineTests: TestCaseResult[];
  /** One attempt's time. */
  timeoutMs: number;
  signal: AbortSignal;
  progress: Progress;
  pluginParsers?: readonly DiagnosticParser[];
  /** The failed build's diagnosis: the modules it never reached run beside the model. */
  diagnosis?: Diagnosis;
}) {
  const { context, config, sandbox, baselineTests, timeoutMs, signal, progress } = input;
  const verification = await startVerificationSession({
    projectRoot: context.projectRoot,
    mavenArgs: context.mavenArgs,
    executable: context.mavenExecutable,
    env: context.env,
    userCwd: context.cwd,
    buildStartedAt: context.result.startedAt,
    config,
    sandbox,
    baselineTests,
    timeoutMs,
    signal,
    onStage: (name) => progress.step(`verifying: ${name}`),
    ...(input.pluginParsers ? { parsers: input.pluginParsers } : {}),
    ...(input.diagnosis ? { diagnosis: input.diagnosis } : {}),
    onBeforeCandidate: (modules) =>
      progress.note(
        `meanwhile building and testing ${modules.join(', ')} on the unchanged code: your build stopped before ${modules.length === 1 ? 'it' : 'them'}, and the fix cannot affect ${modules.length === 1 ? 'it' : 'them'}`,
      ),
  });
  const { workspace } = verification;
  // What the extra builds in the workspace share: the formatter goal, the flaky re-run, the -Werror recompile.
  const buildInWorkspace: WorkspaceBuildOptions = {
    workspace,
    executable: context.mavenExecutable,
    env: context.env,
    sandbox,
    envPass: config.sandbox.env.pass,
    timeoutMs,
    signal,
    userCwd: context.cwd,
  };
  // The agent's candidate builds, each in a workspace of its pool, through the same verifier (scope, reused outputs,
  // quick JVMs).
  const verifierFor =
    (buildIn: typeof workspace) => (fix: ChangeSet, diagnosis: Diagnosis, buildSignal?: AbortSignal) =>
      verification.verify(fix, diagnosis, { workspace: buildIn, ...(buildSignal ? { signal: buildSignal } : {}) });
  if (verification.reusedOutputs.length > 0)
    progress.note(`verification reuses the outputs of your build for ${describeModules(verification.reusedOutputs)}`);

  const recheckFailures = config.tests.flakyCheck
    ? createFailureRecheck({
        ...buildInWorkspace,
        mavenArgs: context.mavenArgs,
        ...(verification.facts.jvm ? { jvm: verification.facts.jvm } : {}),
      })
    : undefined;

  return { verification, workspace, buildInWorkspace, verifierFor, recheckFailures };
}

function describeModules(dirs: string[]): string {
  const names = dirs.map((dir) => dir || 'the root module');
  return names.length <= 4 ? names.join(', ') : `${names.length} modules`;
}
