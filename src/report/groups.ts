/**
 * The rollout view over many repositories: `mvnx runs --stats` grouped by repository,
 * Maven module and tier. Pure, like stats.ts, whose fold (stats-fold.ts) each group reuses;
 * records are folded one at a time, so a fleet's runs are never all in memory.
 */
import type { RunRecord } from './run-record.js';
import { foldedRun, inWindowOf, RunStatsFold, type FoldedRun } from './stats-fold.js';
import { inModule, type RunStats, type Tier } from './stats.js';

/** A run whose failure and fix name no module (a single-module build without an artifactId in the log). */
export const NO_MODULE = '(project)';
export const UNKNOWN_REPOSITORY = '(unknown)';

/** The module a run counts under: where its verified fix is, else where its failure showed. */
export function runModule(record: RunRecord): string {
  return (
    record.fixModules?.[0] ?? (record.diagnostics ?? []).find((diagnostic) => diagnostic.module)?.module ?? NO_MODULE
  );
}

export const runRepository = (record: RunRecord): string => record.repository ?? UNKNOWN_REPOSITORY;

export interface GroupStats {
  repository: string;
  module: string;
  tier: Tier;
  runs: number;
  repaired: number;
  fixed: number;
  fixRate: number | null;
  medianTimeToFixMs: number | null;
  regressions: number;
  suggested: number;
  suggestionsTaken: number;
  takenShare: number | null;
  applied: number;
  /** Distinct fixes by who took the fix (stats.ts takenBy), counted as `outcomes` counts them. */
  appliedByAuto: number;
  appliedByPerson: number;
  merged: number;
  suggestedOnly: number;
  adopted: number;
  superseded: number;
  reverted: number;
  modelCalls: number;
  timeSpentMs: number;
  /** Provider-unavailable stops, a share of the runs (the model server was not there). */
  providerUnavailable: number;
  /** Newest coverage (percent) the runs recorded for this module, if any. */
  coverage?: number;
  lastRunAt?: string;
}

export interface RolloutStats extends RunStats {
  repositories: string[];
  groups: GroupStats[];
}

const TIER_ORDER: readonly Tier[] = ['off', 'monitor', 'assist', 'auto'];

/** Newest recorded coverage of a module among these runs. */
export function latestCoverage(records: readonly RunRecord[], module: string): number | undefined {
  const coverage = new NewestCoverage(module);
  for (const record of records) coverage.add(record);
  return coverage.value;
}

/** The coverage of a module that the newest run recording one saw; on a tie, the run met first. */
export class NewestCoverage {
  value?: number;
  private startedAt?: string;
  constructor(private readonly module: string) {}

  add(record: RunRecord): void {
    const value = record.coverage?.[this.module];
    if (value === undefined) return;
    if (this.startedAt === undefined || record.startedAt.localeCompare(this.startedAt) > 0) {
      this.value = value;
      this.startedAt = record.startedAt;
    }
  }
}

export interface GroupKey {
  repository: string;
  module: string;
  tier: Tier;
}

/** One repository/module/tier row, folded a run at a time. */
export class GroupFold {
  readonly stats = new RunStatsFold();
  private readonly coverage: NewestCoverage;
  constructor(readonly key: GroupKey) {
    this.coverage = new NewestCoverage(key.module);
  }

  add(run: FoldedRun): void {
    this.stats.add(run);
    this.coverage.add(run.record);
  }

  result(): GroupStats {
    const stats = this.stats.result();
    const coverage = this.coverage.value;
    // Built by assignment, not spreads: a fleet has thousands of groups, and spreads into a literal this wide are V8's
    // slow path.
    const row: GroupStats = {
      repository: this.key.repository,
      module: this.key.module,
      tier: this.key.tier,
      runs: stats.runs,
      repaired: stats.overall.repaired,
      fixed: stats.overall.fixed,
      fixRate: stats.overall.fixRate,
      medianTimeToFixMs: stats.medianTimeToFixMs,
      regressions: stats.regressions,
      suggested: stats.suggested,
      suggestionsTaken: stats.suggestionsTaken,
      takenShare: stats.takenShare,
      applied: stats.outcomes.applied,
      appliedByAuto: stats.autoApplied,
      appliedByPerson: stats.appliedByPerson,
      merged: stats.mergedByRequest,
      suggestedOnly: stats.suggestedOnly,
      adopted: stats.outcomes.adopted,
      superseded: stats.outcomes.superseded,
      reverted: stats.outcomes.reverted,
      modelCalls: stats.modelCalls,
      timeSpentMs: stats.timeSpentMs,
      providerUnavailable: stats.stopReasons['provider-unavailable'] ?? 0,
    };
    if (coverage !== undefined) row.coverage = coverage;
    if (stats.lastRunAt) row.lastRunAt = stats.lastRunAt;
    return row;
  }
}

export function groupOf(records: readonly RunRecord[], key: GroupKey): GroupStats {
  const group = new GroupFold(key);
  for (const record of records) group.add(foldedRun(record));
  return group.result();
}

export const compareGroups = (a: GroupKey, b: GroupKey): number =>
  a.repository.localeCompare(b.repository) ||
  a.module.localeCompare(b.module) ||
  TIER_ORDER.indexOf(a.tier) - TIER_ORDER.indexOf(b.tier);

/**
 * `mvnx runs --stats` folded a record at a time: the whole window's numbers, plus one row
 * per repository, module and tier. Holds counters per group, never the records.
 */
export class RolloutFold {
  private readonly overall = new RunStatsFold();
  private readonly groups = new Map<string, GroupFold>();
  private readonly repositories = new Set<string>();
  private readonly counts: (record: RunRecord) => boolean;

  constructor(private readonly window: { since?: Date; module?: string } = {}) {
    this.counts = inWindowOf(window, inModule);
  }

  /** Whether the record is inside the window (and was counted). */
  add(record: RunRecord, run: FoldedRun = foldedRun(record)): boolean {
    if (!this.counts(record)) return false;
    this.overall.add(run);
    const key = { repository: runRepository(record), module: runModule(record), tier: record.tier };
    const id = `${key.repository}\u0000${key.module}\u0000${key.tier}`;
    let group = this.groups.get(id);
    if (!group) this.groups.set(id, (group = new GroupFold(key)));
    group.add(run);
    this.repositories.add(key.repository);
    return true;
  }

  result(): RolloutStats {
    const groups = [...this.groups.values()].map((group) => group.result()).sort(compareGroups);
    return { ...this.overall.result(this.window), repositories: [...this.repositories].sort(), groups };
  }
}

/** The whole window's numbers, plus one row per repository, module and tier. */
export function computeRolloutStats(
  records: readonly RunRecord[],
  options: { since?: Date; module?: string } = {},
): RolloutStats {
  const fold = new RolloutFold(options);
  for (const record of records) fold.add(record);
  return fold.result();
}
