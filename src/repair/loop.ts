/**
 * The repair loop: diagnose -> ask policy -> propose (fixers, then model) -> extract,
 * validate, apply -> verify -> record -> decide the next step. Every step is a port so
 * that this file reads top to bottom; `engine.ts` wires the real implementations.
 */
import type { Diagnosis, Diagnostic } from '../diagnose/types.js';
import { isPlacementProblem } from '../patch/problems.js';
import type { ChangeSet, PatchProblem } from '../patch/types.js';
import type { AttemptRecord, AttemptSource, StopReason } from '../shared/run-vocabulary.js';
import { composeChangeSets } from './compose.js';

export interface Proposal {
  source: AttemptSource;
  /** Relative to the current base (the original tree plus adopted progress). */
  changeSet?: ChangeSet;
  fingerprint?: string;
  problems: PatchProblem[];
  /** The model's own words; context only. */
  summary?: string;
  fixer?: string;
  modelMs?: number;
  /** Model calls this proposal took, when more than one (an agent session). */
  modelCalls?: number;
}

export interface Verification {
  /** `not-applied`: the fix could not be written in the workspace (nothing was built). */
  outcome: 'verified' | 'build-failed' | 'regressed' | 'interrupted' | 'timeout' | 'not-applied';
  /** Why, for `not-applied`. */
  message?: string;
  /** The diagnosis of the patched build when it failed. */
  diagnosis?: Diagnosis;
  regressions: string[];
  applyMs: number;
  verifyMs: number;
  stages: { name: string; exitCode: number; durationMs: number }[];
}

export interface LoopBudget {
  maxAttempts: number;
  maxModelCalls: number;
  maxWallSeconds: number;
}

export class ProviderUnavailable extends Error {}

export interface LoopPorts {
  /** Deterministic candidates for the current diagnosis, best first. */
  fixerProposals(diagnosis: Diagnosis, base: ChangeSet): Promise<Proposal[]>;
  /** One model call (an agent session may take up to `modelCallsLeft`); throws ProviderUnavailable when the provider cannot serve. */
  modelProposal(input: { diagnosis: Diagnosis; base: ChangeSet; history: AttemptRecord[]; n: number; modelCallsLeft: number }): Promise<Proposal>;
  fingerprint(changeSet: ChangeSet): string;
  /** Apply `fix` (relative to the original tree) in a clean workspace and build it. */
  verify(fix: ChangeSet, diagnosis: Diagnosis, n: number): Promise<Verification>;
  budget(diagnosis: Diagnosis, attemptsWithProgress: number): LoopBudget;
  elapsedSeconds(): number;
  interrupted(): boolean;
  onAttempt?(attempt: AttemptRecord): void;
}

export interface LoopResult {
  stopReason: StopReason;
  attempts: AttemptRecord[];
  /** The verified fix, relative to the original tree. */
  fix?: ChangeSet;
  modelCalls: number;
  message?: string;
  timings: { modelMs: number; applyMs: number; verifyMs: number };
}

/** Two built attempts in a row that leave the diagnosis as it was: stop. */
const NO_PROGRESS_STREAK = 2;

export async function runRepairLoop(initial: Diagnosis, ports: LoopPorts): Promise<LoopResult> {
  const attempts: AttemptRecord[] = [];
  const tried = new Set<string>();
  const timings = { modelMs: 0, applyMs: 0, verifyMs: 0 };
  let diagnosis = initial;
  let base: ChangeSet = { files: [] };
  let modelCalls = 0;
  let progress = 0;
  let unchangedStreak = 0;
  let queue = await ports.fixerProposals(diagnosis, base);
  const end = (stopReason: StopReason, extra: Partial<LoopResult> = {}): LoopResult => ({
    stopReason,
    attempts,
    modelCalls,
    timings,
    ...extra,
  });

  for (let n = 1; ; n++) {
    if (ports.interrupted()) return end('interrupted');
    const budget = ports.budget(diagnosis, progress);
    if (n > budget.maxAttempts) return end('budget-exhausted', { message: `used all ${budget.maxAttempts} attempts` });
    if (ports.elapsedSeconds() > budget.maxWallSeconds) {
      return end('budget-exhausted', { message: `ran past the ${budget.maxWallSeconds}s wall-time budget` });
    }

    // Propose: deterministic fixers first, then the model.
    let proposal: Proposal;
    const fromFixer = queue.shift();
    if (fromFixer) {
      proposal = fromFixer;
    } else {
      if (modelCalls >= budget.maxModelCalls) {
        return end('budget-exhausted', { message: `used all ${budget.maxModelCalls} model calls` });
      }
      try {
        modelCalls++;
        proposal = await ports.modelProposal({ diagnosis, base, history: attempts, n, modelCallsLeft: budget.maxModelCalls - modelCalls + 1 });
        modelCalls += Math.max(1, proposal.modelCalls ?? 1) - 1;
      } catch (error) {
        if (error instanceof ProviderUnavailable) {
          modelCalls--;
          return end('provider-unavailable', { message: error.message });
        }
        throw error;
      }
      timings.modelMs += proposal.modelMs ?? 0;
    }
    if (ports.interrupted()) return end('interrupted');

    const record: AttemptRecord = {
      n,
      source: proposal.source,
      fingerprint: '',
      outcome: 'rejected',
      filesChanged: proposal.changeSet ? proposal.changeSet.files.map((file) => file.path) : [],
      timings: { modelMs: proposal.modelMs },
      ...(proposal.summary ? { summary: proposal.summary } : {}),
      ...(proposal.fixer ? { fixer: proposal.fixer } : {}),
    };
    attempts.push(record);

    // Extracted, validated and placed by the proposer; refusals go back without a build.
    if (!proposal.changeSet) {
      const first = proposal.problems[0];
      record.outcome = first && isPlacementProblem(first) ? 'not-applicable' : 'rejected';
      record.reason = describeProblems(proposal.problems);
      ports.onAttempt?.(record);
      continue;
    }
    record.fingerprint = proposal.fingerprint ?? ports.fingerprint(proposal.changeSet);
    if (tried.has(record.fingerprint)) {
      record.reason = 'the same change was already tried';
      ports.onAttempt?.(record);
      if (proposal.source === 'fixer') continue;
      return end('duplicate-patch', { message: `attempt ${n} repeated an earlier patch` });
    }
    tried.add(record.fingerprint);

    // Verify the base plus this change in a clean workspace.
    const candidateFix = composeChangeSets(base, proposal.changeSet);
    const verification = await ports.verify(candidateFix, diagnosis, n);
    timings.applyMs += verification.applyMs;
    timings.verifyMs += verification.verifyMs;
    record.timings.applyMs = verification.applyMs;
    record.timings.verifyMs = verification.verifyMs;
    record.stages = verification.stages;
    record.regressions = verification.regressions;
    record.filesChanged = candidateFix.files.map((file) => file.path);

    if (verification.outcome === 'not-applied') {
      // The workspace refused the write (a link, a FIFO, a file that is not there): back to the proposer.
      record.outcome = 'not-applicable';
      record.reason = `the fix could not be applied in the workspace: ${verification.message ?? 'unknown reason'}`;
      ports.onAttempt?.(record);
      continue;
    }
    if (verification.outcome === 'verified') {
      record.outcome = 'verified';
      ports.onAttempt?.(record);
      return end('fixed', { fix: candidateFix });
    }
    if (verification.outcome === 'interrupted') {
      record.outcome = 'build-failed';
      record.reason = 'interrupted during verification';
      ports.onAttempt?.(record);
      return end('interrupted');
    }
    if (verification.outcome === 'regressed') {
      record.outcome = 'regressed';
      record.reason = `broke tests that passed before: ${verification.regressions.join(', ')}`;
      ports.onAttempt?.(record);
      continue;
    }

    record.outcome = 'build-failed';
    record.reason =
      verification.outcome === 'timeout'
        ? 'verification timed out'
        : `the patched build still fails: ${firstMessages(verification.diagnosis)}`;
    const after = verification.diagnosis;
    record.diagnosisFingerprint = after?.fingerprint;
    ports.onAttempt?.(record);

    if (!after || after.fingerprint === diagnosis.fingerprint) {
      unchangedStreak++;
      if (unchangedStreak >= NO_PROGRESS_STREAK) {
        return end('no-progress', { message: `the failure was unchanged after ${unchangedStreak} attempts in a row` });
      }
      continue;
    }
    unchangedStreak = 0;
    if (madeProgress(diagnosis, after)) {
      // Keep what worked; the next attempt starts from the patched tree.
      progress++;
      base = candidateFix;
      diagnosis = after;
      queue = await ports.fixerProposals(diagnosis, base);
    }
  }
}

/**
 * Progress: some failure that was there is gone and the build is still fixable. A test
 * that still fails with another value (`was: <0>` instead of `was: <50>`) is the same
 * failure, so test failures are compared by test, not by message.
 */
function madeProgress(before: Diagnosis, after: Diagnosis): boolean {
  if (!after.fixable) return false;
  const remaining = new Set(after.diagnostics.map(failureIdentity));
  return before.diagnostics.some((d) => !remaining.has(failureIdentity(d)));
}

function failureIdentity(d: Diagnostic): string {
  return d.kind === 'test' && d.test ? `test:${d.test}` : d.fingerprint;
}

export function describeProblems(problems: PatchProblem[]): string {
  if (problems.length === 0) return 'the reply contained no usable edit';
  return problems.map((problem) => `${problem.code}: ${problem.message}`).join('; ');
}

function firstMessages(diagnosis: Diagnosis | undefined): string {
  if (!diagnosis || diagnosis.diagnostics.length === 0) return 'no diagnostics';
  return diagnosis.diagnostics
    .slice(0, 3)
    .map((d) => (d.file ? `${d.file}${d.line ? `:${d.line}` : ''} ${d.message}` : d.message))
    .join('; ');
}
