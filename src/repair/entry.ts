/**
 * What happens after Maven failed and the tier is not `off`: diagnose, ask the policy,
 * run the loop, act on a verified fix as the tier says, and leave the run record.
 */
import os, { constants as osConstants } from 'node:os';
import { diagnoseBuild, needsWarningRecovery } from '../diagnose/index.js';
import type { MavenSource } from '../maven/discover.js';
import { readSettingsSecrets, resolveMavenUserState } from '../maven/settings.js';
import { wrapperFailure } from '../maven/wrapper.js';
import { Redactor, secretEnvValues } from '../model/index.js';
import type { Diagnosis } from '../diagnose/types.js';
import type { MavenRunResult } from '../maven/types.js';
import type { CliOptions, OptionValues } from '../shared/options.js';
import { decideAttempt, decideVerified, isolationOptOut, loadEffectiveConfig, readReactorCoverage, type EffectiveConfig, type Isolation } from '../policy/index.js';
import { classify, toUnifiedDiff, toUnifiedDiffBytes } from '../patch/index.js';
import { runReporters } from '../plugins/load.js';
import { loadPlugins } from './plugins.js';
import type { LoadedPlugins } from '../plugins/types.js';
import { RunRecorder, type RunRecord } from '../report/run-record.js';
import { createProgress, redactingProgress, type Progress } from '../report/progress.js';
import { renderSummary } from '../report/summary.js';
import { describeSandbox, repositoryGoalNote, SandboxError, type SandboxInfo } from '../workspace/index.js';
import { startRepairSession, type RepairSession } from './engine.js';
import { runRepairLoop, type FailureRecheck, type LoopResult } from './loop.js';
import { applyInPlace, confirm, fixBaseOf } from './tier-actions.js';
import { afterRun, repositoryOf } from './after-run.js';
import { modelTrafficFields } from './traffic-record.js';
import { preloadTelemetry } from '../report/telemetry/index.js';
import { withOutcome } from '../report/outcome.js';
import type { ChangeSet } from '../patch/types.js';

export interface BuildFailureContext {
  cwd: string;
  projectRoot: string;
  mavenExecutable: string;
  /** How it was found (the project's ./mvnw, PATH, ...): a wrapper that fails before Maven starts is said as such. */
  mavenSource?: MavenSource;
  /** The user's Maven arguments, mvnx flags removed. */
  mavenArgs: string[];
  /** `--mvnx-*` flags as given, for loading the config. */
  overrides: OptionValues;
  /** What the CLI reads itself (--mvnx-json, --mvnx-sarif, ...), flags and variables folded. */
  options: CliOptions;
  env: NodeJS.ProcessEnv;
  configFile?: string;
  /** The config the CLI already loaded; loaded again when absent. */
  config?: EffectiveConfig;
  result: MavenRunResult;
}

/**
 * Nothing recognised in the log, and the project's ./mvnw ran: when Maven never started
 * (the wrapper could not download its distribution offline), say which Maven ran and why.
 */
async function explainWrapperFailure(context: BuildFailureContext, diagnosis: Diagnosis): Promise<Diagnosis> {
  if (context.mavenSource !== 'mvnw' || !diagnosis.diagnostics.every((d) => d.category === 'unknown')) return diagnosis;
  const line = await wrapperFailure({ wrapper: context.mavenExecutable, cwd: context.cwd, exitCode: context.result.exitCode, logFile: context.result.log.file }).catch(() => undefined);
  if (!line) return diagnosis;
  const why = 'Maven did not start, so there is no build failure to repair';
  return { ...diagnosis, fixable: false, reason: line, diagnostics: diagnosis.diagnostics.map((d) => ({ ...d, message: line, reason: why })) };
}

export function isCI(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.CI && env.CI !== 'false' && env.CI !== '0');
}

export async function handleBuildFailure(context: BuildFailureContext): Promise<number> {
  const { result, projectRoot } = context;
  const config =
    context.config ??
    (await loadEffectiveConfig({
      projectRoot,
      env: context.env,
      overrides: context.overrides,
      ...(context.configFile ? { configFile: context.configFile } : {}),
    }));
  preloadTelemetry(context.env, config.telemetry);
  const interactive = Boolean(process.stderr.isTTY) && !isCI(context.env);
  const redactor = runRedactor(context, config);
  const progress = redactingProgress(createProgress({ interactive }), (text) => redactor.redactSecrets(text));
  const recorder = await RunRecorder.open(projectRoot, undefined, redactor.forLocalOutput());
  const startedAt = new Date();

  // Plugins load first: their parsers read the log too. One that cannot load stops the
  // repair below (the run record says why) after the built-in diagnosis.
  let plugins: LoadedPlugins | undefined;
  let pluginError: unknown;
  if (config.plugins && config.plugins.length > 0) {
    try {
      plugins = await loadPlugins(config.plugins, { projectRoot });
    } catch (error) {
      pluginError = error;
    }
  }

  const diagnosis = await explainWrapperFailure(
    context,
    await diagnoseBuild({
      projectRoot,
      logFile: result.log.file,
      runStartedAt: result.startedAt,
      exitCode: result.exitCode,
      interrupted: result.interrupted,
      timedOut: result.timedOut,
      logTruncated: result.log.truncated,
      ...(plugins && plugins.parsers.length > 0 ? { parsers: plugins.parsers } : {}),
    }),
  );

  const record: RunRecord = {
    runId: recorder.runId,
    startedAt: result.startedAt.toISOString(),
    finishedAt: startedAt.toISOString(),
    mavenArgs: context.mavenArgs,
    mavenExitCode: result.exitCode,
    tier: config.tier,
    status: 'unfixed',
    stopReason: 'error',
    diagnostics: diagnosis.diagnostics,
    attempts: [],
    applied: false,
    decisions: [...diagnosis.warnings.map((w) => `diagnosis: ${w}`)],
    modelCalls: 0,
    timings: { totalMs: 0, modelMs: 0, applyMs: 0, verifyMs: 0, diagnoseMs: Date.now() - startedAt.getTime() },
    ...(await repositoryOf(projectRoot, context.env)),
  };
  let exitCode = result.exitCode;
  let fix: ChangeSet | undefined;

  try {
    // A plugin that cannot be loaded stops the repair (the run record says why); Maven's exit code stands.
    if (pluginError !== undefined) throw pluginError as Error;
    if (plugins) record.decisions.push(`plugins: ${plugins.plugins.map((p) => p.plugin.name).join(', ')}`, ...plugins.notes);
    const decision = decideAttempt({ diagnosis, config, mavenArgs: context.mavenArgs });
    record.tier = decision.tier;
    record.decisions.push(...decision.reasons);
    if (result.interrupted) {
      record.status = 'skipped';
      record.stopReason = 'interrupted';
    } else if (decision.action === 'skip') {
      record.status = 'skipped';
      record.stopReason = diagnosis.fixable ? 'policy-skip' : 'not-fixable';
      record.message = diagnosis.fixable ? decision.reasons[0] : (diagnosis.reason ?? decision.reasons[0]);
    } else {
      ({ exitCode, fix } = await repair({ context, config, diagnosis, record, recorder, progress, redactor, interactive, ...(plugins ? { plugins } : {}) }));
    }
  } catch (error) {
    record.status = 'error';
    record.stopReason = 'error';
    record.message = (error as Error).message;
    if (error instanceof SandboxError && error.info) record.sandbox = sandboxField(error.info);
    if (context.env.MVNX_DEBUG) process.stderr.write(`${(error as Error).stack}\n`);
  }
  const finishedAt = Date.now();
  record.finishedAt = new Date(finishedAt).toISOString();
  // From the end of the user's build: loading the repair stage and the configuration are mvnx's time too.
  record.timings.totalMs = finishedAt - Math.min(startedAt.getTime(), result.finishedAt.getTime());
  // From here on only the redacted record is used: the file, reporters, the console, --mvnx-json.
  const written = await recorder.writeRecord(record);
  if (plugins) {
    await runReporters(plugins.reporters, structuredClone(written), { projectRoot, recordDir: recorder.dir }, (line) => process.stderr.write(`${redactor.redactSecrets(line)}\n`));
  }

  // SARIF and review comments leave the machine: they get the redacted record too.
  await afterRun({ context, config, record: written, recorder, ...(fix ? { fix } : {}) });
  process.stderr.write(renderSummary(written, { recordDir: recorder.dir, projectRoot }));
  // Maven ends its output with colour resets and no newline: start the record on its own line.
  if (context.options.json) process.stdout.write(`\n${JSON.stringify(written)}\n`);
  return exitCode;
}

interface RepairInput {
  context: BuildFailureContext;
  config: EffectiveConfig;
  diagnosis: Diagnosis;
  record: RunRecord;
  recorder: RunRecorder;
  progress: Progress;
  redactor: Redactor;
  interactive: boolean;
  plugins?: LoadedPlugins;
}

/**
 * The run's one Redactor: secret shapes, the secret values of this process's environment
 * and of the settings.xml files the build reads, the project root and home folders.
 */
function runRedactor(context: BuildFailureContext, config: EffectiveConfig): Redactor {
  const maven = resolveMavenUserState({ args: context.mavenArgs, env: context.env, cwd: context.cwd, projectRoot: context.projectRoot });
  const named = config.model.apiKeyEnv ? [config.model.apiKeyEnv] : [];
  return new Redactor({
    enabled: config.redact.enabled,
    projectRoot: context.projectRoot,
    homeDirs: [os.homedir(), maven.userHome, ...(context.env.HOME ? [context.env.HOME] : [])],
    extraPatterns: config.redact.patterns ?? [],
    knownSecrets: [...secretEnvValues(context.env, named), ...secretEnvValues(process.env, named), ...readSettingsSecrets(maven)],
  });
}

function sandboxField(info: SandboxInfo): NonNullable<RunRecord['sandbox']> {
  return { kind: info.kind, isolated: info.isolated, ...(info.reason ? { reason: info.reason } : {}) };
}

/** One stderr line every run whose verification is not isolated: said, never silent. */
function warnIfUnisolated(info: SandboxInfo, isolation: Isolation): void {
  if (info.isolated) return;
  const consequence = isolation.optedOutIn
    ? `the team's ${isolation.optedOutIn} says this environment is the sandbox`
    : 'a candidate fix runs with your rights, network and environment, and is never applied without you';
  process.stderr.write(`mvnx: warning: ${describeSandbox(info)}; ${consequence}\n`);
}

async function repair(input: RepairInput): Promise<{ exitCode: number; fix?: ChangeSet }> {
  const { context, config, record, recorder, progress } = input;
  const abort = new AbortController();
  // The signal decides the exit code, as a shell reports a command it stopped: 130 for SIGINT, 143 for SIGTERM.
  let stoppedBy: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    stoppedBy ??= signal;
    abort.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let loop: LoopResult;
  let diagnosis = input.diagnosis;
  // Inside the try: a session that fails to start (a required sandbox missing, a bad
  // provider setting) must not leave these signal handlers swallowing Ctrl-C.
  let session: RepairSession | undefined;
  let isolation: Isolation;
  try {
    session = await startRepairSession({
      context,
      config,
      diagnosis,
      recorder,
      progress,
      redactor: input.redactor,
      signal: abort.signal,
      ...(input.plugins ? { pluginFixers: input.plugins.fixers, pluginTools: input.plugins.tools, pluginParsers: input.plugins.parsers } : {}),
    });
    const optedOutIn = isolationOptOut(config.sources['sandbox.mode'], config.sandbox.mode);
    isolation = { isolated: session.sandbox.isolated, ...(session.sandbox.reason ? { reason: session.sandbox.reason } : {}), ...(optedOutIn ? { optedOutIn } : {}) };
    record.sandbox = sandboxField(session.sandbox);
    warnIfUnisolated(session.sandbox, isolation);
    const goalNote = repositoryGoalNote(context.mavenArgs);
    if (goalNote) record.decisions.push(goalNote);
    record.model = session.model;
    if (needsWarningRecovery(diagnosis)) {
      const recovered = await session.recoverWarnings(diagnosis);
      record.decisions.push(recovered.note);
      diagnosis = recovered.diagnosis;
      record.diagnostics = diagnosis.diagnostics;
    }
    const start = diagnosis;
    const { ports } = session;
    loop = await progress.run('repairing the failed build', () => runRepairLoop(start, ports));
    const toolCalling = session.toolCalling();
    if (toolCalling) record.toolCalling = toolCalling;
    const dependencyUpdate = session.dependencyUpdate();
    if (dependencyUpdate) record.dependencyUpdate = dependencyUpdate;
  } finally {
    await session?.dispose();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  record.attempts = loop.attempts;
  record.modelCalls = loop.modelCalls;
  Object.assign(record, modelTrafficFields(session?.traffic));
  record.stopReason = loop.stopReason;
  record.timings = { ...record.timings, ...loop.timings };
  if (loop.message) record.message = loop.message;
  if (loop.recheck) {
    record.timings.recheckMs = loop.recheck.durationMs;
    const { passed, failed } = loop.recheck;
    if (loop.flakyTests) record.decisions.push(`flaky: ${loop.message ?? passed.join(', ')}; no model was asked (tests.flakyCheck)`);
    else if (passed.length > 0) record.decisions.push(`flaky check: ${passed.join(', ')} passed when re-run on the unchanged code, ${failed.join(', ')} failed again; repairing`);
    else record.decisions.push(`flaky check: ${recheckedWhich(loop.recheck)} failed again when re-run on the unchanged code; repairing`);
  }
  if (loop.flakyTests) record.flakyTests = loop.flakyTests;
  if (loop.stopReason === 'interrupted') {
    record.status = 'unfixed';
    return { exitCode: 128 + (osConstants.signals[stoppedBy ?? 'SIGINT'] ?? 2) };
  }
  if (!loop.fix) return { exitCode: context.result.exitCode };

  record.status = 'fixed';
  record.fixBase = fixBaseOf(loop.fix);
  await recorder.writeFixPatch(toUnifiedDiffBytes(loop.fix));

  const changeTypes = classify(loop.fix);
  const touchedModules = modulesOf(loop.fix.files.map((f) => f.path), diagnosis);
  const verifiedAttempt = loop.attempts.find((attempt) => attempt.outcome === 'verified');
  const failingTestEdits = verifiedAttempt?.failingTestEdits ?? [];
  const coverage = await readReactorCoverage(context.projectRoot, diagnosis.modules);
  const verdict = decideVerified({
    config,
    changeSet: loop.fix,
    changeTypes,
    modules: touchedModules,
    failingTestEdits,
    coverage,
    interactive: input.interactive,
    isolation,
    ...(verifiedAttempt?.verdict ? { verdictScope: verifiedAttempt.verdict.scope } : {}),
  });
  if (touchedModules.length > 0) record.fixModules = touchedModules;
  const known = Object.entries(coverage).filter((entry): entry is [string, number] => entry[1] !== undefined);
  if (known.length > 0) record.coverage = Object.fromEntries(known);
  record.action = verdict.action;
  record.risk = verdict.risk;
  record.tier = verdict.tier;
  record.decisions.push(...verdict.reasons);

  let apply = verdict.action === 'apply';
  let appliedBy = verdict.tier === 'auto' ? 'tier auto' : 'assist.autoApplyLowRisk';
  if (verdict.action === 'suggest') {
    // Shown redacted; fix.patch and the apply below keep the real text.
    process.stderr.write(`\n${input.redactor.redactSecrets(toUnifiedDiff(loop.fix))}\n`);
    if (verdict.prompt && process.stdin.isTTY) {
      apply = await confirm('mvnx: apply this verified fix to your files?');
      appliedBy = 'yes at the prompt';
      record.decisions.push(apply ? 'you chose to apply the fix' : 'you chose not to apply the fix');
    }
  }
  if (!apply) return { exitCode: context.result.exitCode, fix: loop.fix };

  const outcome = await applyInPlace({
    projectRoot: context.projectRoot,
    fix: loop.fix,
    rerun: { executable: context.mavenExecutable, args: context.mavenArgs, cwd: context.cwd, env: context.env },
  });
  record.applied = outcome.applied;
  record.decisions.push(outcome.message);
  if (outcome.applied) Object.assign(record, withOutcome(record, { outcome: 'applied', at: new Date().toISOString(), evidence: appliedBy }));
  if (outcome.exitCode !== undefined) record.inPlaceExitCode = outcome.exitCode;
  return { exitCode: outcome.applied && outcome.exitCode === 0 ? 0 : context.result.exitCode, fix: loop.fix };
}

/** artifactIds of the modules holding these files: the longest module folder prefix wins. */
function modulesOf(files: string[], diagnosis: Diagnosis): string[] {
  const modules = new Set<string>();
  const folders = diagnosis.modules
    .filter((m) => m.dir !== undefined && m.artifactId)
    .sort((a, b) => (b.dir ?? '').length - (a.dir ?? '').length);
  for (const file of files) {
    const owner = folders.find((m) => m.dir === '' || file.startsWith(`${m.dir}/`));
    if (owner?.artifactId) modules.add(owner.artifactId);
  }
  return [...modules];
}

/** Which failing tests the flaky check re-ran, in words: all of them, or the first few (the rest were not needed). */
function recheckedWhich(recheck: FailureRecheck): string {
  const all = recheck.passed.length + recheck.failed.length;
  if (recheck.reran === undefined || recheck.reran >= all) return 'the failing tests';
  return `${recheck.reran} of ${all} failing tests (re-run first; the rest were not needed)`;
}
