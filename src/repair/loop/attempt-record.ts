/**
 * The repair loop's attempt records: one is opened for every proposal, filled with what its
 * verification found, and its reasons are worded here (the words the next model prompt and
 * the run record show).
 */
import type { Diagnosis } from '../../diagnose/types.js';
import { fingerprintText } from '../../patch/fingerprint.js';
import { isPlacementProblem } from '../../patch/problems.js';
import type { ChangeSet, PatchProblem } from '../../patch/types.js';
import type { AttemptRecord } from '../../shared/run-vocabulary.js';
import type { Proposal, Verification } from './ports.js';

/** The record of attempt `n`, before anything is built; `fingerprints` from `fingerprintsOf`. */
export function openAttemptRecord(n: number, proposal: Proposal, fingerprints: string[]): AttemptRecord {
  return {
    n,
    source: proposal.source,
    // A call that failed outright still gets one, unique to it, so it never counts as a repeat.
    fingerprint:
      fingerprints[0] ?? fingerprintText(`attempt ${n} (${proposal.source}): ${describeProblems(proposal.problems)}`),
    // What became of a proposal without a change set; a built one gets its outcome later.
    outcome:
      !proposal.changeSet && proposal.problems[0] && isPlacementProblem(proposal.problems[0])
        ? 'not-applicable'
        : 'rejected',
    filesChanged: proposal.changeSet ? proposal.changeSet.files.map((file) => file.path) : [],
    timings: { modelMs: proposal.modelMs, ...(proposal.promptMs !== undefined ? { promptMs: proposal.promptMs } : {}) },
    ...(proposal.summary ? { summary: proposal.summary } : {}),
    ...(proposal.fixer ? { fixer: proposal.fixer } : {}),
    ...(proposal.agent ? { agent: proposal.agent } : {}),
  };
}

/** What the build found, into the record and the run's timings (the outcome is the loop's to set). */
export function recordVerification(
  record: AttemptRecord,
  verification: Verification,
  timings: { applyMs: number; verifyMs: number },
): void {
  timings.applyMs += verification.applyMs;
  timings.verifyMs += verification.verifyMs;
  record.timings.applyMs = verification.applyMs;
  record.timings.verifyMs = verification.verifyMs;
  record.stages = verification.stages;
  record.regressions = verification.regressions;
  if (verification.rejectedAt) record.rejectedAt = verification.rejectedAt;
  if (verification.verdict) record.verdict = verification.verdict;
}

/** The change set's fingerprint first (it is the record's), then the proposal's own. */
export function fingerprintsOf(proposal: Proposal, fingerprint: (changeSet: ChangeSet) => string): string[] {
  const ofChangeSet = proposal.fingerprint ?? (proposal.changeSet ? fingerprint(proposal.changeSet) : undefined);
  return [ofChangeSet, proposal.proposalFingerprint].filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
}

export function describeProblems(problems: PatchProblem[]): string {
  if (problems.length === 0) return 'the reply contained no usable edit';
  return problems.map((problem) => `${problem.code}: ${problem.message}`).join('; ');
}

export function firstMessages(diagnosis: Diagnosis | undefined): string {
  if (!diagnosis || diagnosis.diagnostics.length === 0) return 'no diagnostics';
  return diagnosis.diagnostics
    .slice(0, 3)
    .map((d) => (d.file ? `${d.file}${d.line ? `:${d.line}` : ''} ${d.message}` : d.message))
    .join('; ');
}
