/**
 * The numbers of `mvnx runs --stats` folded one record at a time (issue 28): a fleet of
 * 100,000 runs is read as a stream, so nothing may need all records at once. A fold keeps
 * counters, the durations of fixed runs (for the median) and one small summary per
 * distinct fix; never a record. `computeRunStats` (stats.ts) is this fold over an array,
 * so the streamed and the in-memory numbers are one code. Pure.
 */
import type { StopReason } from '../shared/run-vocabulary.js';
import { isCounted, modelMsPerVerifiedFix, ModelSpeedFold } from './model-speed.js';
import type { RunRecord } from './run-record.js';
import {
  countedOutcome,
  median,
  runKind,
  takenBy,
  wasTaken,
  type FailureKind,
  type KindStats,
  type OutcomeCounts,
  type RunStats,
  type Tier,
} from './stats-base.js';

/** What the numbers read of a distinct fix: the run that speaks for it, reduced to this. */
export interface FixSummary {
  startedAt: string;
  /** countedOutcome: what every count reads. */
  outcome: RunRecord['outcome'];
  suggested: boolean;
  taken: boolean;
  takenBy: 'auto' | 'person' | 'request' | 'suggested';
}

/** The fix's identity: its verified attempt's fingerprint, per repository. */
export function fixKey(record: RunRecord): string {
  const verified = (record.attempts ?? []).find((attempt) => attempt.outcome === 'verified');
  return `${record.repository ?? ''}\u0000${verified?.fingerprint || record.runId}`;
}

/**
 * Which of two runs of the same fix speaks for it: the newest, unless an older one knows
 * more (an outcome the newer one has not reconciled yet). Order-free: the one with an
 * outcome, then the later start; on a tie the one known first stays.
 */
export function replacesFix(
  known: { startedAt: string; outcome?: unknown },
  candidate: { startedAt: string; outcome?: unknown },
): boolean {
  if (Boolean(candidate.outcome) !== Boolean(known.outcome)) return Boolean(candidate.outcome);
  return candidate.startedAt > known.startedAt;
}

export function summarizeFix(record: RunRecord): FixSummary {
  return {
    startedAt: record.startedAt,
    outcome: countedOutcome(record),
    suggested: record.action === 'suggest',
    taken: wasTaken(record),
    takenBy: takenBy(record) ?? 'suggested',
  };
}

/**
 * Adds a fixed run to a map of distinct fixes (`key` from fixKey, `summary` from summarizeFix, made once per record).
 */
export function addFix(fixes: Map<string, FixSummary>, key: string, summary: FixSummary): void {
  const known = fixes.get(key);
  if (!known || replacesFix(known, summary)) fixes.set(key, summary);
}

export function countOutcomes(fixes: Iterable<FixSummary>): OutcomeCounts {
  const outcomes: OutcomeCounts = {
    fixes: 0,
    applied: 0,
    adopted: 0,
    superseded: 0,
    reverted: 0,
    merged: 0,
    closed: 0,
    open: 0,
  };
  for (const fix of fixes) {
    outcomes.fixes += 1;
    outcomes[fix.outcome ?? 'open'] += 1;
  }
  return outcomes;
}

const KIND_INDEX: Record<FailureKind, number> = { compile: 0, test: 1, quality: 2, other: 3 };
const TIER_INDEX: Record<Tier, number> = { off: 0, monitor: 1, assist: 2, auto: 3 };

function kindStats(runs: number, repaired: number, fixed: number): KindStats {
  return { runs, repaired, fixed, fixRate: repaired === 0 ? null : fixed / repaired };
}

/** One record's part in the fold, computed once and shared by every fold it goes into (overall, group, module). */
export interface FoldedRun {
  record: RunRecord;
  kind: number;
  /** Set for fixed runs only. */
  fixKey?: string;
  fix?: FixSummary;
}

export function foldedRun(record: RunRecord): FoldedRun {
  const run: FoldedRun = { record, kind: KIND_INDEX[runKind(record)] };
  if (record.status === 'fixed') {
    run.fixKey = fixKey(record);
    run.fix = summarizeFix(record);
  }
  return run;
}

/** The counters of one set of runs (all of them, or one repository/module/tier group). */
export class RunStatsFold {
  runs = 0;
  // Plain arrays of small integers: a typed array's backing store costs more than the counts in twelve thousand groups.
  private readonly kinds = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]; // runs, repaired, fixed per kind
  private readonly tiers = [0, 0, 0, 0];
  private readonly stops = new Map<StopReason, { count: number; newest: string }>();
  private readonly fixDurations: number[] = [];
  readonly fixes = new Map<string, FixSummary>();
  private attempts = 0;
  private regressions = 0;
  private modelCalls = 0;
  private discardedModelCalls = 0;
  private incompleteRuns = 0;
  private timeSpentMs = 0;
  private modelMs = 0;
  /**
   * Made at the first record whose model requests carry the server's counters: the numbers of fleets without them read
   * as they always have.
   */
  private modelSpeed: ModelSpeedFold | undefined;
  firstRunAt?: string;
  lastRunAt?: string;

  add(run: FoldedRun): void {
    const { record } = run;
    this.runs += 1;
    this.kinds[run.kind * 3]! += 1;
    if (record.status !== 'skipped') this.kinds[run.kind * 3 + 1]! += 1;
    if (record.status === 'fixed') this.kinds[run.kind * 3 + 2]! += 1;
    if (record.tier in TIER_INDEX) this.tiers[TIER_INDEX[record.tier]]! += 1;
    // Keys in the order of each reason's newest run, as a list newest first would meet them.
    const stop = this.stops.get(record.stopReason);
    if (!stop) this.stops.set(record.stopReason, { count: 1, newest: record.startedAt });
    else {
      stop.count += 1;
      if (record.startedAt.localeCompare(stop.newest) > 0) stop.newest = record.startedAt;
    }
    const recordAttempts = record.attempts ?? [];
    this.attempts += recordAttempts.length;
    for (const attempt of recordAttempts) if (attempt.outcome === 'regressed') this.regressions += 1;
    this.modelCalls += record.modelCalls ?? 0;
    this.discardedModelCalls += record.discardedModelCalls ?? 0;
    if (record.incomplete) this.incompleteRuns += 1;
    this.timeSpentMs += record.timings?.totalMs ?? 0;
    this.modelMs += record.timings?.modelMs ?? 0;
    if (record.modelRequests?.some(isCounted)) (this.modelSpeed ??= new ModelSpeedFold()).add(record.modelRequests);
    if (this.firstRunAt === undefined || record.startedAt < this.firstRunAt) this.firstRunAt = record.startedAt;
    if (this.lastRunAt === undefined || record.startedAt > this.lastRunAt) this.lastRunAt = record.startedAt;
    if (run.fix) {
      const start = Date.parse(record.startedAt);
      const end = Date.parse(record.finishedAt);
      if (Number.isFinite(start) && Number.isFinite(end) && end >= start) this.fixDurations.push(end - start);
      addFix(this.fixes, run.fixKey!, run.fix);
    }
  }

  private kind(index: number): KindStats {
    return kindStats(this.kinds[index * 3]!, this.kinds[index * 3 + 1]!, this.kinds[index * 3 + 2]!);
  }

  result(window: { since?: Date; module?: string } = {}): RunStats {
    const outcomes = countOutcomes(this.fixes.values());
    let suggested = 0;
    let suggestionsTaken = 0;
    // One definition with `outcomes`: each distinct fix once, as the run that speaks for it says.
    const taken = { auto: 0, person: 0, request: 0, suggested: 0 };
    for (const fix of this.fixes.values()) {
      taken[fix.takenBy] += 1;
      if (!fix.suggested) continue;
      suggested += 1;
      if (fix.taken) suggestionsTaken += 1;
    }
    const fixes = taken.auto + taken.person + taken.request + taken.suggested;
    const share = (count: number) => (fixes === 0 ? null : count / fixes);
    const stopReasons: Partial<Record<StopReason, number>> = {};
    for (const [reason, stop] of [...this.stops].sort(([, a], [, b]) => b.newest.localeCompare(a.newest)))
      stopReasons[reason] = stop.count;
    let runs = 0;
    let repaired = 0;
    let fixed = 0;
    for (let index = 0; index < 4; index++) {
      runs += this.kinds[index * 3]!;
      repaired += this.kinds[index * 3 + 1]!;
      fixed += this.kinds[index * 3 + 2]!;
    }
    // Built by assignment, not spreads (see groups.ts): the keys in the order `mvnx runs --stats --json` has always
    // printed them.
    const stats = {} as RunStats;
    if (window.since) stats.since = window.since.toISOString();
    if (window.module) stats.module = window.module;
    stats.runs = this.runs;
    stats.attempts = this.attempts;
    stats.regressions = this.regressions;
    stats.byKind = { compile: this.kind(0), test: this.kind(1), quality: this.kind(2), other: this.kind(3) };
    stats.overall = kindStats(runs, repaired, fixed);
    stats.medianTimeToFixMs = median(this.fixDurations);
    stats.modelCalls = this.modelCalls;
    // Only when there are any: the numbers of fleets without them read as they always have.
    if (this.discardedModelCalls > 0) stats.discardedModelCalls = this.discardedModelCalls;
    if (this.incompleteRuns > 0) stats.incompleteRuns = this.incompleteRuns;
    stats.stopReasons = stopReasons;
    stats.autoApplied = taken.auto;
    stats.appliedByPerson = taken.person;
    stats.mergedByRequest = taken.request;
    stats.suggestedOnly = taken.suggested;
    stats.autoAppliedShare = share(taken.auto);
    stats.appliedByPersonShare = share(taken.person);
    stats.mergedShare = share(taken.request);
    stats.suggestedShare = share(taken.suggested);
    stats.tiers = { off: this.tiers[0]!, monitor: this.tiers[1]!, assist: this.tiers[2]!, auto: this.tiers[3]! };
    if (this.firstRunAt !== undefined) {
      stats.firstRunAt = this.firstRunAt;
      stats.lastRunAt = this.lastRunAt!;
    }
    stats.outcomes = outcomes;
    stats.suggested = suggested;
    stats.suggestionsTaken = suggestionsTaken;
    stats.takenShare = suggested === 0 ? null : suggestionsTaken / suggested;
    stats.timeSpentMs = this.timeSpentMs;
    stats.modelMs = this.modelMs;
    if (this.modelSpeed)
      stats.modelCost = {
        modelMsPerVerifiedFix: modelMsPerVerifiedFix(this.modelMs, fixed),
        byModel: this.modelSpeed.result(),
      };
    return stats;
  }
}

/** The window of `--since` and `--module` (stats.ts inModule): whether a record counts. */
export function inWindowOf(
  window: { since?: Date; module?: string },
  inModule: (record: RunRecord, module: string) => boolean,
): (record: RunRecord) => boolean {
  const sinceMs = window.since?.getTime();
  return (record) =>
    (sinceMs === undefined || Date.parse(record.startedAt) >= sinceMs) &&
    (window.module === undefined || inModule(record, window.module));
}
