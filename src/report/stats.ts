/**
 * `mvnx runs --stats`: the numbers a team lead reads before moving a module from
 * monitor to assist to auto. A pure function of run records, so that the same records
 * always give the same report.
 */
import { MvnxError } from '../shared/errors.js';
import type { StopReason } from '../shared/run-vocabulary.js';
import type { RunRecord } from './run-record.js';

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
  stopReasons: Partial<Record<StopReason, number>>;
  /**
   * Fixed runs by who took the fix (takenBy): mvnx on its own (tier auto on a developer's
   * machine, assist.autoApplyLowRisk), a person (`mvnx apply`, yes at the prompt, or the
   * change taken by hand), the forge merging its pull/merge request; the rest were only suggested.
   */
  autoApplied: number;
  appliedByPerson: number;
  mergedByRequest: number;
  suggestedOnly: number;
  /** Shares of the fixed runs; null without fixed runs. */
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
  /** Distinct verified fixes that were suggested (tier assist), and of those, how many people took (applied or adopted, reverted later included). */
  suggested: number;
  suggestionsTaken: number;
  /** suggestionsTaken / suggested; null without suggestions. */
  takenShare: number | null;
  /** mvnx's own time on these runs (diagnosis, attempts, verification), and the model's part of it. */
  timeSpentMs: number;
  modelMs: number;
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

const KINDS: FailureKind[] = ['compile', 'test', 'quality', 'other'];

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

function emptyKindStats(): KindStats {
  return { runs: 0, repaired: 0, fixed: 0, fixRate: null };
}

function addRun(stats: KindStats, record: RunRecord): void {
  stats.runs += 1;
  if (record.status !== 'skipped') stats.repaired += 1;
  if (record.status === 'fixed') stats.fixed += 1;
  stats.fixRate = stats.repaired === 0 ? null : stats.fixed / stats.repaired;
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function durationMs(record: RunRecord): number | undefined {
  const start = Date.parse(record.startedAt);
  const end = Date.parse(record.finishedAt);
  return Number.isFinite(start) && Number.isFinite(end) && end >= start ? end - start : undefined;
}

/** A run belongs to a module when its fix or one of its diagnostics is there. */
export function inModule(record: RunRecord, module: string): boolean {
  return Boolean(record.fixModules?.includes(module)) || (record.diagnostics ?? []).some((diagnostic) => diagnostic.module === module);
}

/** `module`: only runs with a diagnostic in that Maven module (artifactId), for a per-module rollout. */
export function computeRunStats(records: RunRecord[], options: { since?: Date; module?: string } = {}): RunStats {
  const sinceMs = options.since?.getTime();
  const inWindow = records.filter(
    (record) =>
      (sinceMs === undefined || Date.parse(record.startedAt) >= sinceMs) &&
      (options.module === undefined || inModule(record, options.module)),
  );

  const byKind = { compile: emptyKindStats(), test: emptyKindStats(), quality: emptyKindStats(), other: emptyKindStats() };
  const overall = emptyKindStats();
  const tiers: Record<Tier, number> = { off: 0, monitor: 0, assist: 0, auto: 0 };
  const stopReasons: Partial<Record<StopReason, number>> = {};
  const fixDurations: number[] = [];
  let attempts = 0;
  let regressions = 0;
  let modelCalls = 0;
  const taken = { auto: 0, person: 0, request: 0, suggested: 0 };

  for (const record of inWindow) {
    addRun(byKind[runKind(record)], record);
    addRun(overall, record);
    if (record.tier in tiers) tiers[record.tier] += 1;
    stopReasons[record.stopReason] = (stopReasons[record.stopReason] ?? 0) + 1;
    const recordAttempts = record.attempts ?? [];
    attempts += recordAttempts.length;
    regressions += recordAttempts.filter((attempt) => attempt.outcome === 'regressed').length;
    modelCalls += record.modelCalls ?? 0;
    if (record.status === 'fixed') {
      taken[takenBy(record) ?? 'suggested'] += 1;
      const duration = durationMs(record);
      if (duration !== undefined) fixDurations.push(duration);
    }
  }

  const fixes = distinctFixes(inWindow);
  const outcomes: OutcomeCounts = { fixes: fixes.length, applied: 0, adopted: 0, superseded: 0, reverted: 0, merged: 0, closed: 0, open: 0 };
  for (const fix of fixes) outcomes[fix.outcome ?? 'open'] += 1;
  const suggestions = fixes.filter((fix) => fix.action === 'suggest');
  const suggestionsTaken = suggestions.filter((fix) => wasTaken(fix)).length;

  const fixedRuns = taken.auto + taken.person + taken.request + taken.suggested;
  const share = (count: number) => (fixedRuns === 0 ? null : count / fixedRuns);
  const starts = inWindow.map((record) => record.startedAt).sort();
  return {
    ...(options.since ? { since: options.since.toISOString() } : {}),
    ...(options.module ? { module: options.module } : {}),
    runs: inWindow.length,
    attempts,
    regressions,
    byKind,
    overall,
    medianTimeToFixMs: median(fixDurations),
    modelCalls,
    stopReasons,
    autoApplied: taken.auto,
    appliedByPerson: taken.person,
    mergedByRequest: taken.request,
    suggestedOnly: taken.suggested,
    autoAppliedShare: share(taken.auto),
    appliedByPersonShare: share(taken.person),
    mergedShare: share(taken.request),
    suggestedShare: share(taken.suggested),
    tiers,
    ...(starts.length > 0 ? { firstRunAt: starts[0]!, lastRunAt: starts[starts.length - 1]! } : {}),
    outcomes,
    suggested: suggestions.length,
    suggestionsTaken,
    takenShare: suggestions.length === 0 ? null : suggestionsTaken / suggestions.length,
    timeSpentMs: inWindow.reduce((sum, record) => sum + (record.timings?.totalMs ?? 0), 0),
    modelMs: inWindow.reduce((sum, record) => sum + (record.timings?.modelMs ?? 0), 0),
  };
}

/** Taken by a person or by mvnx, whatever happened after: a reverted fix was taken first; a merged request counts as applied. */
export function wasTaken(record: RunRecord): boolean {
  return record.outcome === 'applied' || record.outcome === 'adopted' || record.outcome === 'reverted' || record.outcome === 'merged' || record.applied;
}

/** Evidence of an `applied` event that means mvnx applied the fix without a person (repair/entry.ts writes these). */
const AUTOMATIC_EVIDENCE = new Set(['tier auto', 'assist.autoApplyLowRisk']);

/**
 * Who took a fix: `request` (its pull/merge request was merged), `auto` (mvnx applied it on
 * its own), `person` (`mvnx apply`, yes at the prompt, or the same change made by hand);
 * undefined when nobody did. A fix published as a request was applied in place only in CI's
 * throwaway checkout: until the request merges it is a suggestion.
 */
export function takenBy(record: RunRecord): 'auto' | 'person' | 'request' | undefined {
  const history = record.outcomeHistory ?? [];
  if (record.outcome === 'merged' || history.some((event) => event.outcome === 'merged')) return 'request';
  if (record.publication) return undefined;
  const applied = history.find((event) => event.outcome === 'applied');
  if (applied) return AUTOMATIC_EVIDENCE.has(applied.evidence) ? 'auto' : 'person';
  if (history.some((event) => event.outcome === 'adopted') || record.outcome === 'adopted') return 'person';
  // Records from before outcomes were kept: applied in the run itself means the verdict applied it
  // (mvnx apply has written an outcome event since the rollout loop came).
  if (record.applied) return record.action === 'suggest' ? 'person' : 'auto';
  return undefined;
}

/** The fix's identity: its verified attempt's fingerprint, per repository. */
function fixKey(record: RunRecord): string {
  const verified = (record.attempts ?? []).find((attempt) => attempt.outcome === 'verified');
  return `${record.repository ?? ''}\u0000${verified?.fingerprint || record.runId}`;
}

/**
 * Fixed runs, one per distinct fix: the newest run of a fix speaks for it, unless an
 * older one knows more (an outcome the newer one has not reconciled yet).
 */
export function distinctFixes(records: readonly RunRecord[]): RunRecord[] {
  const byFix = new Map<string, RunRecord>();
  for (const record of records) {
    if (record.status !== 'fixed') continue;
    const key = fixKey(record);
    const known = byFix.get(key);
    if (!known) {
      byFix.set(key, record);
      continue;
    }
    const [newer, older] = record.startedAt > known.startedAt ? [record, known] : [known, record];
    byFix.set(key, newer.outcome || !older.outcome ? newer : older);
  }
  return [...byFix.values()];
}

const UNIT_MS: Record<string, number> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/** `30d`, `12h`, `2w`, `90m` back from `now`, or an ISO date such as `2024-05-01`. */
export function parseSince(text: string, now: Date = new Date()): Date {
  const relative = /^(\d+)([mhdw])$/.exec(text.trim());
  if (relative) {
    const amount = Number(relative[1]);
    if (amount <= 0) throw new MvnxError(`--since ${text}: the amount must be at least 1`);
    return new Date(now.getTime() - amount * UNIT_MS[relative[2]!]!);
  }
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+Z?)?$/.test(text.trim())) {
    const absolute = new Date(text.trim());
    if (!Number.isNaN(absolute.getTime())) return absolute;
  }
  throw new MvnxError(`--since ${JSON.stringify(text)}: expected an age like 30d, 12h, 2w, 90m or a date like 2024-05-01`);
}

export { KINDS as FAILURE_KINDS };
