/**
 * One repair of a failed build, once the policy said to try: start the session, run the
 * loop, then act on a verified fix as the tier says (record, suggest, apply). Ctrl-C and
 * SIGTERM stop the loop and decide the exit code, as a shell reports a command it stopped.
 */
import { constants as osConstants } from 'node:os';
import { needsWarningRecovery } from '../diagnose/index.js';
import type { Diagnosis } from '../diagnose/types.js';
import type { Redactor } from '../model/index.js';
import { classify, toUnifiedDiff, toUnifiedDiffBytes } from '../patch/index.js';
import type { ChangeSet } from '../patch/types.js';
import type { LoadedPlugins } from '../plugins/types.js';
import {
  decideVerified,
  isolationOptOut,
  readReactorCoverage,
  type EffectiveConfig,
  type Isolation,
} from '../policy/index.js';
import type { Progress } from '../report/progress.js';
import type { RunRecorder } from '../report/run-record.js';
import { IN_CI_CHECKOUT } from '../report/stats.js';
import { runRepairLoop, type LoopResult } from '../repair/index.js';
import { describeSandbox, repositoryGoalNote, type SandboxInfo } from '../workspace/index.js';
import { isCI, type BuildFailureContext } from './build-failure.js';
import { startRepairSession, type RepairSession } from './repair-session.js';
import type { RunRecordBuilder } from './run-record-builder.js';
import { applyInPlace, confirm } from './tier-actions.js';

export interface RepairInput {
  context: BuildFailureContext;
  config: EffectiveConfig;
  diagnosis: Diagnosis;
  record: RunRecordBuilder;
  recorder: RunRecorder;
  progress: Progress;
  redactor: Redactor;
  interactive: boolean;
  plugins?: LoadedPlugins;
}

/** One stderr line every run whose verification is not isolated: said, never silent. */
function warnIfUnisolated(info: SandboxInfo, isolation: Isolation): void {
  if (info.isolated) return;
  const consequence = isolation.optedOutIn
    ? `the team's ${isolation.optedOutIn} says this environment is the sandbox`
    : 'a candidate fix runs with your rights, network and environment, and is never applied without you';
  process.stderr.write(`mvnx: warning: ${describeSandbox(info)}; ${consequence}\n`);
}

export async function repairFailedBuild(input: RepairInput): Promise<{ exitCode: number; fix?: ChangeSet }> {
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
      ...(input.plugins
        ? {
            pluginFixers: input.plugins.fixers,
            pluginTools: input.plugins.tools,
            pluginParsers: input.plugins.parsers,
            pluginIntegrityRules: input.plugins.integrityRules,
          }
        : {}),
    });
    const optedOutIn = isolationOptOut(config.sources['sandbox.mode'], config.sandbox.mode);
    isolation = {
      isolated: session.sandbox.isolated,
      ...(session.sandbox.reason ? { reason: session.sandbox.reason } : {}),
      ...(optedOutIn ? { optedOutIn } : {}),
    };
    const goalNote = repositoryGoalNote(context.mavenArgs);
    warnIfUnisolated(session.sandbox, isolation);
    record.sessionStarted({ sandbox: session.sandbox, model: session.model, ...(goalNote ? { goalNote } : {}) });
    if (needsWarningRecovery(diagnosis)) {
      const recovered = await session.recoverWarnings(diagnosis);
      diagnosis = recovered.diagnosis;
      record.warningsRecovered(recovered.note, diagnosis);
    }
    const start = diagnosis;
    const { ports } = session;
    loop = await progress.run('repairing the failed build', () => runRepairLoop(start, ports));
    const toolCalling = session.toolCalling();
    const dependencyUpdate = session.dependencyUpdate();
    record.sessionFacts({ ...(toolCalling ? { toolCalling } : {}), ...(dependencyUpdate ? { dependencyUpdate } : {}) });
  } finally {
    await session?.dispose();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  record.loopFinished(loop, session?.traffic);
  // Disposed, the session has awaited the never-reached modules' run: its result is settled (undefined if interrupted).
  const neverReached = await session?.verification.beforeCandidate?.result;
  if (neverReached) record.neverReachedRan(neverReached.run);
  if (loop.stopReason === 'interrupted') return { exitCode: 128 + (osConstants.signals[stoppedBy ?? 'SIGINT'] ?? 2) };
  if (!loop.fix) return { exitCode: context.result.exitCode };

  record.fixVerified(loop.fix);
  await recorder.writeFixPatch(toUnifiedDiffBytes(loop.fix));

  const changeTypes = classify(loop.fix);
  const touchedModules = modulesOf(
    loop.fix.files.map((f) => f.path),
    diagnosis,
  );
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
  record.verdictDecided(verdict, { modules: touchedModules, coverage });

  let apply = verdict.action === 'apply';
  // In CI the tree is the job's checkout, thrown away after it: the counts must not read that apply as taken.
  const where = isCI(context.env) ? IN_CI_CHECKOUT : '';
  let appliedBy = `${verdict.tier === 'auto' ? 'tier auto' : 'assist.autoApplyLowRisk'}${where}`;
  if (verdict.action === 'suggest') {
    // Shown redacted; fix.patch and the apply below keep the real text.
    process.stderr.write(`\n${input.redactor.redactSecrets(toUnifiedDiff(loop.fix))}\n`);
    if (verdict.prompt && process.stdin.isTTY) {
      apply = await confirm('mvnx: apply this verified fix to your files?');
      appliedBy = 'yes at the prompt';
      record.decided(apply ? 'you chose to apply the fix' : 'you chose not to apply the fix');
    }
  }
  if (!apply) return { exitCode: context.result.exitCode, fix: loop.fix };

  const outcome = await applyInPlace({
    projectRoot: context.projectRoot,
    fix: loop.fix,
    rerun: { executable: context.mavenExecutable, args: context.mavenArgs, cwd: context.cwd, env: context.env },
  });
  record.appliedInPlace(outcome, appliedBy, new Date());
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
