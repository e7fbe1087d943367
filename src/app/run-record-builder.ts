/**
 * The run record, built from what happened: one method per event of a failed build's
 * handling (diagnosed, plugins loaded, the policy's first decision, the session started,
 * the loop finished, the verdict, the apply, the end). Nothing else writes a field of the
 * record, so what the record says can be read here in one place, in the order it happens.
 *
 * Pure: no clock, no disk. The caller passes the times; `RunRecorder` writes the result.
 */
import type { Diagnosis } from '../diagnose/types.js';
import type { ModelTraffic } from '../model/index.js';
import type { ChangeSet } from '../patch/types.js';
import type { LoadedPlugins } from '../plugins/types.js';
import type { AttemptDecision, VerifiedDecision } from '../policy/index.js';
import { withOutcome } from '../report/outcome.js';
import type { DependencyUpdateRecord, RunBuilt, RunRecord } from '../report/run-record.js';
import type { FailureRecheck, LoopResult } from '../repair/index.js';
import { SandboxError, type SandboxInfo } from '../workspace/index.js';
import { fixBaseOf } from './tier-actions.js';

export interface RunStart {
  runId: string;
  /** The user's build: when it started and how it ended. */
  build: { startedAt: Date; exitCode: number };
  mavenArgs: string[];
  tier: RunRecord['tier'];
  diagnosis: Diagnosis;
  /** When mvnx took over after the build. */
  handledAt: Date;
  /** Wall time of the diagnosis. */
  diagnoseMs: number;
  repository?: string;
  /** The commit and tree the user's build ran on (report/publish builtSource), when in git. */
  built?: RunBuilt;
}

export class RunRecordBuilder {
  private readonly record: RunRecord;

  constructor(start: RunStart) {
    this.record = {
      runId: start.runId,
      startedAt: start.build.startedAt.toISOString(),
      finishedAt: start.handledAt.toISOString(),
      mavenArgs: start.mavenArgs,
      mavenExitCode: start.build.exitCode,
      tier: start.tier,
      status: 'unfixed',
      stopReason: 'error',
      diagnostics: start.diagnosis.diagnostics,
      attempts: [],
      applied: false,
      decisions: [...start.diagnosis.warnings.map((w) => `diagnosis: ${w}`)],
      modelCalls: 0,
      timings: { totalMs: 0, modelMs: 0, applyMs: 0, verifyMs: 0, diagnoseMs: start.diagnoseMs },
      ...(start.repository !== undefined ? { repository: start.repository } : {}),
      ...(start.built ? { built: start.built } : {}),
    };
  }

  /** A line of the record's `decisions`: something decided or done, in words. */
  decided(...lines: string[]): void {
    this.record.decisions.push(...lines);
  }

  pluginsLoaded(plugins: LoadedPlugins): void {
    this.decided(`plugins: ${plugins.plugins.map((p) => p.plugin.name).join(', ')}`, ...plugins.notes);
  }

  attemptDecided(decision: AttemptDecision): void {
    this.record.tier = decision.tier;
    this.decided(...decision.reasons);
  }

  /** The user's build was interrupted: nothing to repair. */
  buildInterrupted(): void {
    this.record.status = 'skipped';
    this.record.stopReason = 'interrupted';
  }

  /** The policy (or the diagnosis) said no repair. */
  skipped(diagnosis: Diagnosis, decision: AttemptDecision): void {
    this.record.status = 'skipped';
    this.record.stopReason = diagnosis.fixable ? 'policy-skip' : 'not-fixable';
    this.record.message = diagnosis.fixable ? decision.reasons[0] : (diagnosis.reason ?? decision.reasons[0]);
  }

  /** The handling failed: the message says why, and a sandbox that could not run says which. */
  failed(error: unknown): void {
    this.record.status = 'error';
    this.record.stopReason = 'error';
    this.record.message = (error as Error).message;
    if (error instanceof SandboxError && error.info) this.record.sandbox = sandboxField(error.info);
  }

  sessionStarted(session: { sandbox: SandboxInfo; goalNote?: string; model: RunRecord['model'] }): void {
    this.record.sandbox = sandboxField(session.sandbox);
    if (session.goalNote) this.decided(session.goalNote);
    this.record.model = session.model;
  }

  /** -Werror under -q: the diagnosis the loop starts from holds the recovered warnings. */
  warningsRecovered(note: string, diagnosis: Diagnosis): void {
    this.decided(note);
    this.record.diagnostics = diagnosis.diagnostics;
  }

  /** What the session knew beside the loop: native tool calls, the dependency update. */
  sessionFacts(facts: { toolCalling?: RunRecord['toolCalling']; dependencyUpdate?: DependencyUpdateRecord }): void {
    if (facts.toolCalling) this.record.toolCalling = facts.toolCalling;
    if (facts.dependencyUpdate) this.record.dependencyUpdate = facts.dependencyUpdate;
  }

  loopFinished(loop: LoopResult, traffic: ModelTraffic | undefined): void {
    this.record.attempts = loop.attempts;
    // A request made beside the re-check and thrown away was still made: counted, and named apart.
    this.record.modelCalls = loop.modelCalls + (loop.discardedModelCalls ?? 0);
    if (loop.discardedModelCalls) this.record.discardedModelCalls = loop.discardedModelCalls;
    Object.assign(this.record, modelTrafficFields(traffic));
    this.record.stopReason = loop.stopReason;
    this.record.timings = { ...this.record.timings, ...loop.timings };
    if (loop.message) this.record.message = loop.message;
    if (loop.recheck) {
      this.record.timings.recheckMs = loop.recheck.durationMs;
      if (loop.recheck.startedAt) this.record.recheckStartedAt = loop.recheck.startedAt;
      this.decided(recheckDecision(loop, loop.recheck));
    }
    if (loop.flakyTests) this.record.flakyTests = loop.flakyTests;
    if (loop.stopReason === 'interrupted') this.record.status = 'unfixed';
  }

  /** The modules the failed build never reached were built and tested on the unchanged code: when, and how long. */
  neverReachedRan(run: { startedAt: Date; durationMs: number }): void {
    this.record.neverReachedStartedAt = run.startedAt.toISOString();
    this.record.timings.neverReachedMs = run.durationMs;
  }

  fixVerified(fix: ChangeSet): void {
    this.record.status = 'fixed';
    this.record.fixBase = fixBaseOf(fix);
  }

  verdictDecided(
    verdict: VerifiedDecision,
    facts: { modules: string[]; coverage: Record<string, number | undefined> },
  ): void {
    if (facts.modules.length > 0) this.record.fixModules = facts.modules;
    const known = Object.entries(facts.coverage).filter((entry): entry is [string, number] => entry[1] !== undefined);
    if (known.length > 0) this.record.coverage = Object.fromEntries(known);
    this.record.action = verdict.action;
    this.record.risk = verdict.risk;
    this.record.tier = verdict.tier;
    this.decided(...verdict.reasons);
  }

  /** The fix was written to the user's tree (or that failed), and the build re-run there. */
  appliedInPlace(outcome: { applied: boolean; message: string; exitCode?: number }, appliedBy: string, at: Date): void {
    this.record.applied = outcome.applied;
    this.decided(outcome.message);
    if (outcome.applied)
      Object.assign(
        this.record,
        withOutcome(this.record, { outcome: 'applied', at: at.toISOString(), evidence: appliedBy }),
      );
    if (outcome.exitCode !== undefined) this.record.inPlaceExitCode = outcome.exitCode;
  }

  /**
   * The record as it ends: `totalMs` counts from the end of the user's build (loading the
   * repair stage and the configuration are mvnx's time too), or from the hand-over when that is earlier.
   */
  finish(finishedAt: Date, buildFinishedAt: Date, handledAt: Date): RunRecord {
    this.record.finishedAt = finishedAt.toISOString();
    this.record.timings.totalMs = finishedAt.getTime() - Math.min(handledAt.getTime(), buildFinishedAt.getTime());
    return this.record;
  }
}

export function sandboxField(info: SandboxInfo): NonNullable<RunRecord['sandbox']> {
  return { kind: info.kind, isolated: info.isolated, ...(info.reason ? { reason: info.reason } : {}) };
}

/** The model requests of the run, and how long busy servers were waited for. */
export function modelTrafficFields(
  traffic: ModelTraffic | undefined,
): Pick<RunRecord, 'modelRequests' | 'modelWaitMs' | 'modelLoad'> {
  if (!traffic) return {};
  const load = traffic.loadRecord();
  const loaded = load ? { modelLoad: load } : {};
  if (traffic.requests.length === 0) return loaded;
  const waited = traffic.waitedMs();
  return { modelRequests: traffic.requests, ...(waited > 0 ? { modelWaitMs: waited } : {}), ...loaded };
}

/** The flaky check's decision line. */
function recheckDecision(loop: LoopResult, recheck: FailureRecheck): string {
  const { passed, failed } = recheck;
  if (loop.flakyTests) {
    const asked = loop.discardedModelCalls
      ? `the model request made beside the re-check was cancelled and its reply not used (${loop.discardedModelCalls} discarded)`
      : 'no model was asked';
    return `flaky: ${loop.message ?? passed.join(', ')}; ${asked} (tests.flakyCheck)`;
  }
  if (passed.length > 0)
    return `flaky check: ${passed.join(', ')} passed when re-run on the unchanged code, ${failed.join(', ')} failed again; repairing`;
  return `flaky check: ${recheckedWhich(recheck)} failed again when re-run on the unchanged code; repairing`;
}

/** Which failing tests the flaky check re-ran, in words: all of them, or the first few (the rest were not needed). */
function recheckedWhich(recheck: FailureRecheck): string {
  const all = recheck.passed.length + recheck.failed.length;
  if (recheck.reran === undefined || recheck.reran >= all) return 'the failing tests';
  return `${recheck.reran} of ${all} failing tests (re-run first; the rest were not needed)`;
}
