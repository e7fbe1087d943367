/**
 * What happens after Maven failed and the tier is not `off`: diagnose, ask the policy,
 * run the repair (repair-run.ts), and leave the run record. The record is built from
 * these events by run-record-builder.ts; this file only says when they happen.
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { diagnoseBuild } from '../diagnose/index.js';
import type { Diagnosis } from '../diagnose/types.js';
import { readSettingsSecrets, resolveMavenUserState } from '../maven/settings.js';
import { hasProjectPom } from '../maven/project.js';
import { wrapperFailure } from '../maven/wrapper.js';
import { Redactor, secretEnvValues } from '../model/index.js';
import { decideAttempt, loadEffectiveConfig, type EffectiveConfig } from '../policy/index.js';
import { runReporters } from '../plugins/load-plugins.js';
import type { LoadedPlugins } from '../plugins/types.js';
import { createProgress, redactingProgress } from '../report/progress.js';
import { newRunId, RunRecorder } from '../report/run-record.js';
import { renderSummary } from '../report/summary.js';
import { preloadTelemetry } from '../report/telemetry/index.js';
import { toUnifiedDiff } from '../patch/index.js';
import type { ChangeSet } from '../patch/types.js';
import { errnoPhrase } from '../shared/errors.js';
import { afterRun, builtSourceOf, repositoryOf } from './after-run.js';
import { isCI, type BuildFailureContext } from './build-failure.js';
import { loadPlugins } from './plugin-loading.js';
import { repairFailedBuild } from './repair-run.js';
import { RunRecordBuilder } from './run-record-builder.js';

export { isCI, type BuildFailureContext } from './build-failure.js';

/**
 * Nothing recognised in the log, and the project's ./mvnw ran: when Maven never started
 * (the wrapper could not download its distribution offline), say which Maven ran and why.
 */
async function explainWrapperFailure(context: BuildFailureContext, diagnosis: Diagnosis): Promise<Diagnosis> {
  if (context.mavenSource !== 'mvnw' || !diagnosis.diagnostics.every((d) => d.category === 'unknown')) return diagnosis;
  const line = await wrapperFailure({
    wrapper: context.mavenExecutable,
    cwd: context.cwd,
    exitCode: context.result.exitCode,
    logFile: context.result.log.file,
  }).catch(() => undefined);
  if (!line) return diagnosis;
  const why = 'Maven did not start, so there is no build failure to repair';
  return {
    ...diagnosis,
    fixable: false,
    reason: line,
    diagnostics: diagnosis.diagnostics.map((d) => ({ ...d, message: line, reason: why })),
  };
}

/** mvnx could not keep Maven's log (TMPDIR full, missing, read-only): say so, not "a reason mvnx does not know". */
function explainLostLog(context: BuildFailureContext, diagnosis: Diagnosis): Diagnosis {
  const lost = context.result.log.lost;
  if (!lost || diagnosis.fixable) return diagnosis;
  const line = `mvnx ${lost}, so it could not read the whole failure`;
  return {
    ...diagnosis,
    reason: line,
    diagnostics: diagnosis.diagnostics.map((d) => (d.category === 'unknown' ? { ...d, reason: line } : d)),
  };
}

export async function handleBuildFailure(context: BuildFailureContext): Promise<number> {
  if (!hasProjectPom(context.cwd, context.mavenArgs)) return notAProject(context);
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
  const recorder = await RunRecorder.open(projectRoot, undefined, redactor.forLocalOutput(), {
    startedAt: result.startedAt.toISOString(),
    mavenArgs: context.mavenArgs,
    mavenExitCode: result.exitCode,
    tier: config.tier,
  });
  // The caller's own run (the pre-push hook reads this, never `latest`, which a second run may have taken).
  await tellRunId(context, recorder.runId);
  const handledAt = new Date();

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

  const diagnosis = explainLostLog(
    context,
    await explainWrapperFailure(
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
    ),
  );

  const record = new RunRecordBuilder({
    runId: recorder.runId,
    build: { startedAt: result.startedAt, exitCode: result.exitCode },
    mavenArgs: context.mavenArgs,
    tier: config.tier,
    diagnosis,
    handledAt,
    diagnoseMs: Date.now() - handledAt.getTime(),
    ...(await repositoryOf(projectRoot, context.env)),
    ...(await builtSourceOf(projectRoot)),
  });
  let exitCode = result.exitCode;
  let fix: ChangeSet | undefined;

  try {
    // A plugin that cannot be loaded stops the repair (the run record says why); Maven's exit code stands.
    if (pluginError !== undefined) throw pluginError as Error;
    if (plugins) record.pluginsLoaded(plugins);
    const decision = decideAttempt({ diagnosis, config, mavenArgs: context.mavenArgs });
    record.attemptDecided(decision);
    if (result.interrupted) record.buildInterrupted();
    else if (decision.action === 'skip') record.skipped(diagnosis, decision);
    else
      ({ exitCode, fix } = await repairFailedBuild({
        context,
        config,
        diagnosis,
        record,
        recorder,
        progress,
        redactor,
        interactive,
        ...(plugins ? { plugins } : {}),
      }));
  } catch (error) {
    record.failed(error);
    if (context.env.MVNX_DEBUG) process.stderr.write(`${(error as Error).stack}\n`);
  }
  // From here on only the redacted record is used: the file, reporters, the console, --mvnx-json.
  const written = await recorder.writeRecord(record.finish(new Date(), result.finishedAt, handledAt));
  if (plugins) {
    await runReporters(plugins.reporters, structuredClone(written), { projectRoot, recordDir: recorder.dir }, (line) =>
      process.stderr.write(`${redactor.redactSecrets(line)}\n`),
    );
  }

  // SARIF and review comments leave the machine: they get the redacted record too.
  await afterRun({ context, config, record: written, recorder, ...(fix ? { fix } : {}) });
  // A record that could not be written: the fix still reaches the console (tier assist printed it already).
  if (recorder.unwritable && fix && !written.applied && written.action !== 'suggest')
    process.stderr.write(`\n${redactor.redactSecrets(toUnifiedDiff(fix))}\n`);
  process.stderr.write(
    renderSummary(written, {
      recordDir: recorder.dir,
      projectRoot,
      ...(recorder.unwritable ? { unwritable: recorder.unwritable } : {}),
    }),
  );
  // Maven ends its output with colour resets and no newline: start the record on its own line.
  if (context.options.json) process.stdout.write(`\n${JSON.stringify(written)}\n`);
  return exitCode;
}

/** --mvnx-run-id-file / MVNX_RUN_ID_FILE: the run's id for its caller; one line when it cannot be written. */
async function tellRunId(context: BuildFailureContext, runId: string): Promise<void> {
  const target = context.options.runIdFile;
  if (!target) return;
  const file = path.resolve(context.cwd, target);
  try {
    await writeFile(file, `${runId}\n`);
  } catch (error) {
    process.stderr.write(`mvnx: could not write the run id to ${file}: ${errnoPhrase(error)}\n`);
  }
}

/**
 * Maven found no pom.xml: there is nothing to repair and no project to keep a record in.
 * One line names Maven's error; nothing is written (--mvnx-json still prints the record).
 */
async function notAProject(context: BuildFailureContext): Promise<number> {
  const { result } = context;
  const handledAt = new Date();
  const diagnosis = await diagnoseBuild({
    projectRoot: context.cwd,
    logFile: result.log.file,
    runStartedAt: result.startedAt,
    exitCode: result.exitCode,
    interrupted: result.interrupted,
    timedOut: result.timedOut,
    logTruncated: result.log.truncated,
  });
  const config = context.config ?? (await loadEffectiveConfig({ projectRoot: context.cwd, env: context.env }));
  const redactor = runRedactor(context, config);
  const record = new RunRecordBuilder({
    runId: newRunId(handledAt),
    build: { startedAt: result.startedAt, exitCode: result.exitCode },
    mavenArgs: context.mavenArgs,
    tier: config.tier,
    diagnosis,
    handledAt,
    diagnoseMs: Date.now() - handledAt.getTime(),
  });
  const decision = decideAttempt({ diagnosis, config, mavenArgs: context.mavenArgs });
  record.attemptDecided(decision);
  record.skipped(diagnosis, decision);
  const finished = redactor.forLocalOutput().redactDeep(record.finish(new Date(), result.finishedAt, handledAt));
  const why = diagnosis.diagnostics.find((d) => d.reason)?.reason ?? 'Maven found no pom.xml, so there is no project';
  process.stderr.write(`mvnx: not repairing: ${redactor.redactSecrets(why)}.\n`);
  if (context.options.json) process.stdout.write(`\n${JSON.stringify(finished)}\n`);
  return result.exitCode;
}

/**
 * The run's one Redactor: secret shapes, the secret values of this process's environment
 * and of the settings.xml files the build reads, the project root and home folders.
 */
function runRedactor(context: BuildFailureContext, config: EffectiveConfig): Redactor {
  const maven = resolveMavenUserState({
    args: context.mavenArgs,
    env: context.env,
    cwd: context.cwd,
    projectRoot: context.projectRoot,
  });
  const named = config.model.apiKeyEnv ? [config.model.apiKeyEnv] : [];
  return new Redactor({
    enabled: config.redact.enabled,
    projectRoot: context.projectRoot,
    homeDirs: [os.homedir(), maven.userHome, ...(context.env.HOME ? [context.env.HOME] : [])],
    extraPatterns: config.redact.patterns ?? [],
    knownSecrets: [
      ...secretEnvValues(context.env, named),
      ...secretEnvValues(process.env, named),
      ...readSettingsSecrets(maven),
    ],
  });
}
