/**
 * Wires the loop's ports to the real stages: fixers, the model, the patch checks, the
 * workspace and the budget. Everything that needs cleaning up is released by dispose().
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { collectTestResults, type DiagnosticParser } from '../diagnose/index.js';
import type { Diagnosis } from '../diagnose/types.js';
import { ModelTraffic, promptWindow, type Redactor } from '../model/index.js';
import { applyChangeSet, fingerprintChangeSet } from '../patch/index.js';
import { toPatchPolicy, type EffectiveConfig } from '../policy/index.js';
import type { Progress } from '../report/progress.js';
import type { RunRecorder } from '../report/run-record.js';
import { projectJavaRelease } from '../maven/settings.js';
import {
  detectSandbox,
  planGoalRun,
  requireSandbox,
  runGoalInWorkspace,
  suggestedImage,
  type SandboxInfo,
} from '../workspace/index.js';
import {
  type ChangeChecker,
  createDependencyUpdateRepair,
  createIntegrityCheck,
  createModelProposer,
  dependencyUpdateLine,
  failingTests,
  type LoopPorts,
  overlayReaders,
  recheckApplies,
  recoverHiddenWarnings,
  type VerificationSession,
} from '../repair/index.js';
import type { BuildFailureContext } from './build-failure.js';
import type { AgentTool, Fixer, IntegrityRule } from '../plugins/contracts.js';
import { createParseCache, createSourceView, createTypeIndex } from '../codebase/index.js';
import { flushJavaParses, useJavaParseCache } from '../java/index.js';
import { wireAgent } from './agent-wiring.js';
import { wireLoopPorts } from './loop-ports.js';
import { wireModel } from './session-model.js';
import { wireVerification } from './session-verification.js';
import { quickFixProposals } from './quick-fix-wiring.js';
import { runBudget } from './run-budget.js';
import { guidelinesText } from './model-settings.js';
import { resolveMavenUserState } from '../maven/settings.js';
import type { DependencyUpdateRecord } from '../report/run-record.js';

export interface RepairSession {
  ports: LoopPorts;
  sandbox: SandboxInfo;
  /** The verification builds' session: verifyCandidates verifies several fixes at once. */
  verification: VerificationSession;
  model: { provider: string; name: string; host: string };
  /** Every model request of the run: host, waits, outcome (run.json `modelRequests`). */
  traffic: ModelTraffic;
  /** Agent mode: whether the model took native tool calls, once a session asked. */
  toolCalling(): { native: boolean; reason: string } | undefined;
  /** -Werror under -q: the diagnosis with the hidden warnings read from a recompile, and what was done. */
  recoverWarnings(diagnosis: Diagnosis): Promise<{ diagnosis: Diagnosis; note: string }>;
  /** The run's dependency update, when the failure is one (with the sites its patterns fixed). */
  dependencyUpdate(): DependencyUpdateRecord | undefined;
  dispose(): Promise<void>;
}

export async function startRepairSession(input: {
  context: BuildFailureContext;
  config: EffectiveConfig;
  diagnosis: Diagnosis;
  recorder: RunRecorder;
  progress: Progress;
  signal: AbortSignal;
  /** The run's redaction: every message to the model goes through it. */
  redactor: Redactor;
  /** Plugins' fixers, tried with the built-in ones. */
  pluginFixers?: readonly Fixer[];
  /** Plugins' agent tools. */
  pluginTools?: readonly AgentTool[];
  /** Plugins' log parsers, for the diagnoses of candidate builds. */
  pluginParsers?: readonly DiagnosticParser[];
  /** Plugins' test-integrity rules, run after the built-in ones. */
  pluginIntegrityRules?: readonly IntegrityRule[];
}): Promise<RepairSession> {
  const { context, config, progress, signal } = input;
  const started = Date.now();
  const checker: ChangeChecker = { root: context.projectRoot, policy: toPatchPolicy(config) };
  const original = createSourceView(context.projectRoot);
  // Java parses by content across runs (.mvnx/cache/java-parse): a second failure of the same project parses nothing
  // twice.
  useJavaParseCache(
    createParseCache(context.projectRoot, { withholds: (entry) => input.redactor.redactSecrets(entry) !== entry }),
  );
  // Where this build's jars are: the user's settings.xml, -Dmaven.repo.local (arguments, MAVEN_OPTS,
  // .mvn/maven.config).
  const { localRepository } = resolveMavenUserState({
    args: context.mavenArgs,
    env: context.env,
    cwd: context.cwd,
    projectRoot: context.projectRoot,
  });
  // One reader per base: fixers, prompt context and agent tools share each file's parse (src/java viewJavaFile).
  const readAt = overlayReaders((file) => original.read(file));
  // A dependency whose version changed and whose classes the errors name: said, and its API difference shown.
  const dependencyUpdate = createDependencyUpdateRepair({
    projectRoot: context.projectRoot,
    localRepository,
    env: context.env,
    readOriginal: (file) => original.read(file),
  });
  const updateRecord = await dependencyUpdate.analyse(input.diagnosis);
  if (updateRecord) progress.note(dependencyUpdateLine(updateRecord));

  // Before anything else: a sandbox the team requires by name and that cannot run here
  // ends the repair before the first model call, not after it.
  const sandbox = await detectSandbox(config.sandbox.mode, {
    image: await sandboxImage(config, context.projectRoot),
    env: context.env,
  });
  requireSandbox(sandbox);
  // The provider before the workspace: a provider set-up that throws leaves no workspace behind.
  const { settings, traffic, provider } = wireModel({
    config,
    env: context.env,
    redactor: input.redactor,
    note: (line) => progress.note(line),
    promptSent: (tokens, lastRate) => progress.promptSent(tokens, lastRate),
    promptAnswered: () => progress.promptAnswered?.(),
    runRemainingMs: () => started + budgetFor(input.diagnosis, 0).maxWallSeconds * 1000 - Date.now(),
  });
  // The policy attempts a repair: the model loads now (seconds, from disk), beside the workspace, the quick-fixes
  // and the flaky re-check, instead of at the first model call. The first chat reports any failure itself.
  // tests.flakyCheck `alone` asks nothing of a shared server for a failure that may be flaky, not even the load.
  if (!(config.tests.flakyCheck === 'alone' && recheckApplies(input.diagnosis)))
    provider.preload?.(signal).catch(() => undefined);
  const baselineTests = await collectTestResults({ projectRoot: context.projectRoot, since: context.result.startedAt });

  const budgetFor = runBudget(config);
  const perAttemptMs = budgetFor(input.diagnosis, 0).perAttemptTimeoutSeconds * 1000;

  const fixerProposals = quickFixProposals({
    config,
    root: context.projectRoot,
    pluginFixers: input.pluginFixers ?? [],
    read: readAt,
    context: {
      localRepository,
      dependencyUpdate: dependencyUpdate.fixerData,
      onFixerError: (fixer, error) => progress.note(`quick-fix ${fixer} failed: ${error.message}`),
    },
    checker,
    // A formatter fixer runs the project's own formatter goal in the workspace, on the attempt's tree.
    runGoal: async (goal, moduleDirs, base) => {
      progress.step(`running ${goal} in a workspace`);
      await workspace.reset();
      await applyChangeSet(workspace.root, base);
      return runGoalInWorkspace({
        ...buildInWorkspace,
        args: planGoalRun({ mavenArgs: context.mavenArgs, moduleDirs, goal }),
      });
    },
  });

  const guidelines = await guidelinesText(config);
  const modelProposal = createModelProposer({
    provider,
    editFormat: config.model.editFormat,
    ...guidelines,
    contextTokens: promptWindow(config.model),
    checker,
    read: readAt,
    list: (glob) => original.list(glob),
    types: createTypeIndex({ projectRoot: context.projectRoot, env: context.env, localRepository }),
    keepExchange: (n, prompt, response) => input.recorder.writeAttemptExchange(n, prompt, response),
    extraContext: () => dependencyUpdate.promptPieces(),
    onToken: (text) => progress.tokens(text),
    signal,
    perCallTimeoutMs: config.model.timeoutSeconds * 1000,
  });

  // The workspaces, the outputs reused from the user's build, the scope and the quick-JVM flags.
  const { verification, workspace, buildInWorkspace, verifierFor, recheckFailures } = await wireVerification({
    context,
    config,
    sandbox,
    baselineTests,
    timeoutMs: perAttemptMs,
    signal,
    progress,
    ...(input.pluginParsers ? { pluginParsers: input.pluginParsers } : {}),
    diagnosis: input.diagnosis,
  });

  // The tests that failed: in the user's build, and in any later diagnosis worked on.
  const userFailures = [
    ...failingTests(input.diagnosis),
    ...baselineTests
      .filter((t) => t.status === 'failed' || t.status === 'error')
      .map((t) => `${t.className}#${t.method}`),
  ];
  const checkIntegrity = createIntegrityCheck({
    projectRoot: context.projectRoot,
    original,
    userFailures,
    allowFailingTestEdits: config.tests.allowFailingTestEdits,
    ...(input.pluginIntegrityRules ? { pluginRules: input.pluginIntegrityRules } : {}),
  });

  // Agent mode: candidate builds in a pool of workspaces, command tools, native tool calls (agent-wiring.ts).
  const agent = wireAgent({
    config,
    provider,
    ...guidelines,
    checker,
    original,
    read: readAt,
    workspace,
    projectRoot: context.projectRoot,
    sandbox,
    env: context.env,
    verifierFor,
    fingerprint: fingerprintChangeSet,
    checkIntegrity,
    keepExchange: (n, prompt, response) => input.recorder.writeAttemptExchange(n, prompt, response),
    keepLog: (n, log) => input.recorder.writeAttemptLog(n, log),
    signal,
    ...(input.pluginTools ? { pluginTools: input.pluginTools } : {}),
    onStep: (text) => progress.step(`agent: ${text}`),
    onNote: (text) => progress.note(text),
  });
  const ports = wireLoopPorts({
    config,
    progress,
    signal,
    started,
    modelName: settings.name,
    traffic,
    verification,
    ...(recheckFailures ? { recheckFailures } : {}),
    checkIntegrity,
    fixerProposals,
    modelProposal,
    agentProposal: agent.propose,
    onAttempt: (attempt) => dependencyUpdate.onAttempt(attempt),
    budget: budgetFor,
  });

  return {
    ports,
    sandbox,
    model: { provider: settings.provider, name: settings.name, host: settings.host },
    traffic,
    verification,
    recoverWarnings: (diagnosis) => {
      progress.step('-Werror under -q: compiling again without -q to read the warnings');
      return recoverHiddenWarnings(diagnosis, {
        ...buildInWorkspace,
        mavenArgs: context.mavenArgs,
        ...(input.pluginParsers ? { parsers: input.pluginParsers } : {}),
      });
    },
    toolCalling: () => agent.toolCalling(),
    dependencyUpdate: () => dependencyUpdate.record(),
    dispose: async () => {
      // What the integrity checks parsed and asked after the last prompt (all fields of the failing
      // test classes, the patched files): kept, so the next failure of this project asks again of nothing.
      await flushJavaParses();
      await agent.dispose();
      await verification.dispose();
    },
  };
}

/** sandbox.image, else the image suggested for the project's Java release. */
export async function sandboxImage(config: EffectiveConfig, projectRoot: string): Promise<string> {
  if (config.sandbox.image) return config.sandbox.image;
  const pom = await readFile(path.join(projectRoot, 'pom.xml'), 'utf8').catch(() => '');
  return suggestedImage(projectJavaRelease(pom));
}
