/**
 * What `mvnx runs --stats` and its fold (stats-fold.ts) both use: the shapes of the
 * numbers, and what is read of one run (its kind, whether and by whom its fix was taken).
 * Apart from stats.ts, which folds with stats-fold.ts, so that neither imports the other
 * back. Import it from stats.ts. Pure.
 */
import type { StopReason } from '../shared/run-vocabulary.js';
import type { ModelCost } from './model-speed.js';
import type { OutcomeEvent, RunOutcome, RunRecord } from './run-record.js';

export type FailureKind = 'compile' | 'test' | 'quality' | 'other';
export type Tier = RunRecord['tier'];

export interface KindStats {
  runs: number;
  /** Runs where a repair was tried: everything except `skipped` (policy said no). */
  repaired: number;
  fixed: number;
  /** fixed / repaired; null when nothing was repaired. */
  fixRate: number | null;
}

export interface RunStats {
  /** ISO time of the window's start, when one was given. */
  since?: string;
  module?: string;
  runs: number;
  attempts: number;
  /** Attempts whose build broke something that passed before. */
  regressions: number;
  byKind: Record<FailureKind, KindStats>;
  /** Over all kinds, same meaning as `byKind`. */
  overall: KindStats;
  /** finishedAt - startedAt of fixed runs; null without fixed runs. */
  medianTimeToFixMs: number | null;
  modelCalls: number;
  /** Of modelCalls, requests whose replies were discarded unused (made beside a flaky re-check); absent when none. */
  discardedModelCalls?: number;
  /** Runs killed before they wrote their record, found by a later run (stop reason interrupted); absent when none. */
  incompleteRuns?: number;
  stopReasons: Partial<Record<StopReason, number>>;
  /**
   * Distinct verified fixes (as `outcomes` counts them) by who took the fix (takenBy): mvnx on its own (tier auto on
   * a developer's machine, assist.autoApplyLowRisk), a person (`mvnx apply`, yes at the prompt, or the change taken
   * by hand), the forge merging its pull/merge request; the rest were only suggested.
   */
  autoApplied: number;
  appliedByPerson: number;
  mergedByRequest: number;
  suggestedOnly: number;
  /** Shares of the distinct fixes; null without fixes. */
  autoAppliedShare: number | null;
  appliedByPersonShare: number | null;
  mergedShare: number | null;
  suggestedShare: number | null;
  tiers: Record<Tier, number>;
  firstRunAt?: string;
  lastRunAt?: string;
  /**
   * What became of the verified fixes, each distinct fix counted once per repository
   * (the same suggestion re-made by later runs of the same broken commit is one fix).
   */
  outcomes: OutcomeCounts;
  /**
   * Distinct verified fixes that were suggested (tier assist), and of those, how many people took (applied or adopted,
   * reverted later included).
   */
  suggested: number;
  suggestionsTaken: number;
  /** suggestionsTaken / suggested; null without suggestions. */
  takenShare: number | null;
  /** mvnx's own time on these runs (diagnosis, attempts, verification), and the model's part of it. */
  timeSpentMs: number;
  modelMs: number;
  /**
   * Model time per verified fix and each model's speed from the servers' counters; absent when no run in the window
   * recorded a model request with the server's counters (Ollama's, since issue 42).
   */
  modelCost?: ModelCost;
}

export interface OutcomeCounts {
  /** Distinct verified fixes. */
  fixes: number;
  applied: number;
  adopted: number;
  superseded: number;
  reverted: number;
  /** Its pull/merge request was merged, or closed without a merge. */
  merged: number;
  closed: number;
  /** Nothing known yet. */
  open: number;
}

/**
 * A run counts under one kind: compile errors stop Maven before tests run, so a run
 * with any compile diagnostic is a compile run; then test; then quality; everything else is other.
 */
export function runKind(record: RunRecord): FailureKind {
  const kinds = new Set((record.diagnostics ?? []).map((diagnostic) => diagnostic.kind));
  if (kinds.has('compile')) return 'compile';
  if (kinds.has('test')) return 'test';
  if (kinds.has('quality')) return 'quality';
  return 'other';
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The words an `applied` event carries when mvnx applied the fix in a CI job's checkout (app/repair-run.ts): that
 * tree is thrown away with the job, so the fix reaches the repository only through its request, or not at all.
 */
export const IN_CI_CHECKOUT = ' in a CI checkout';

/** Evidence of an `applied` event that means mvnx applied the fix without a person (repair/entry.ts writes these). */
const AUTOMATIC_EVIDENCE = new Set(['tier auto', 'assist.autoApplyLowRisk']);

/**
 * Whether an `applied` event wrote the fix where nothing keeps it: a CI checkout, said by its evidence, or, in a
 * record from before the evidence said so, an automatic apply of a fix that was then published (publication runs in
 * CI, where the checkout is thrown away).
 */
function appliedOnlyInCi(event: OutcomeEvent, record: RunRecord): boolean {
  return (
    event.evidence.endsWith(IN_CI_CHECKOUT) || (Boolean(record.publication) && AUTOMATIC_EVIDENCE.has(event.evidence))
  );
}

/**
 * The outcome every count reads (`--stats`, `--advise`, the HTML report): the record's own, except that a fix applied
 * only in a CI checkout is not `applied` but still open (nothing known yet: its request may merge, or nobody takes it).
 */
export function countedOutcome(record: RunRecord): RunOutcome | undefined {
  if (record.outcome !== 'applied') return record.outcome;
  const applies = (record.outcomeHistory ?? []).filter((event) => event.outcome === 'applied');
  if (applies.length > 0 && applies.every((event) => appliedOnlyInCi(event, record))) return undefined;
  return record.outcome;
}

/**
 * Who took a fix: `request` (its pull/merge request was merged), `person` (`mvnx apply`, yes at the prompt, or the
 * same change made by hand: adopted, a cherry-pick of the published commit too), `auto` (mvnx applied it on its own
 * where it stays); undefined when nobody did. An apply in a CI checkout is nobody's taking: until the request merges
 * (or a person takes the change) the fix was only suggested.
 */
export function takenBy(record: RunRecord): 'auto' | 'person' | 'request' | undefined {
  const history = record.outcomeHistory ?? [];
  if (record.outcome === 'merged' || history.some((event) => event.outcome === 'merged')) return 'request';
  if (record.outcome === 'adopted' || history.some((event) => event.outcome === 'adopted')) return 'person';
  const applies = history.filter((event) => event.outcome === 'applied');
  const kept = applies.find((event) => !appliedOnlyInCi(event, record));
  if (kept) return AUTOMATIC_EVIDENCE.has(kept.evidence) ? 'auto' : 'person';
  if (applies.length > 0 || record.publication) return undefined;
  // Records from before outcomes were kept: applied in the run itself means the verdict applied it
  // (mvnx apply has written an outcome event since the rollout loop came).
  if (record.applied) return record.action === 'suggest' ? 'person' : 'auto';
  return undefined;
}

/** Taken by a person, by mvnx or by a merged request, whatever happened after: a reverted fix was taken first. */
export function wasTaken(record: RunRecord): boolean {
  return takenBy(record) !== undefined || record.outcome === 'reverted';
}
