/**
 * The rollout view over many repositories: `mvnx runs --stats` grouped by repository,
 * Maven module and tier. Pure, like stats.ts, whose numbers each group reuses.
 */
import type { RunRecord } from './run-record.js';
import { computeRunStats, inModule, type RunStats, type Tier } from './stats.js';

/** A run whose failure and fix name no module (a single-module build without an artifactId in the log). */
export const NO_MODULE = '(project)';
export const UNKNOWN_REPOSITORY = '(unknown)';

/** The module a run counts under: where its verified fix is, else where its failure showed. */
export function runModule(record: RunRecord): string {
  return record.fixModules?.[0] ?? (record.diagnostics ?? []).find((diagnostic) => diagnostic.module)?.module ?? NO_MODULE;
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
  /** Fixed runs by who took the fix (stats.ts takenBy). */
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
  const withCoverage = records.filter((record) => record.coverage?.[module] !== undefined).sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  return withCoverage[0]?.coverage?.[module];
}

export function groupOf(records: readonly RunRecord[], key: { repository: string; module: string; tier: Tier }): GroupStats {
  const stats = computeRunStats([...records]);
  const coverage = latestCoverage(records, key.module);
  return {
    ...key,
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
    ...(coverage !== undefined ? { coverage } : {}),
    ...(stats.lastRunAt ? { lastRunAt: stats.lastRunAt } : {}),
  };
}

/** Records split by repository, module and tier. */
export function splitByGroup(records: readonly RunRecord[]): Map<string, { key: { repository: string; module: string; tier: Tier }; records: RunRecord[] }> {
  const groups = new Map<string, { key: { repository: string; module: string; tier: Tier }; records: RunRecord[] }>();
  for (const record of records) {
    const key = { repository: runRepository(record), module: runModule(record), tier: record.tier };
    const id = `${key.repository}\u0000${key.module}\u0000${key.tier}`;
    const group = groups.get(id) ?? { key, records: [] };
    group.records.push(record);
    groups.set(id, group);
  }
  return groups;
}

/** The whole window's numbers, plus one row per repository, module and tier. */
export function computeRolloutStats(records: readonly RunRecord[], options: { since?: Date; module?: string } = {}): RolloutStats {
  const overall = computeRunStats([...records], options);
  const sinceMs = options.since?.getTime();
  const inWindow = records.filter(
    (record) =>
      (sinceMs === undefined || Date.parse(record.startedAt) >= sinceMs) &&
      (options.module === undefined || inModule(record, options.module)),
  );
  const groups = [...splitByGroup(inWindow).values()]
    .map(({ key, records: groupRecords }) => groupOf(groupRecords, key))
    .sort((a, b) => a.repository.localeCompare(b.repository) || a.module.localeCompare(b.module) || TIER_ORDER.indexOf(a.tier) - TIER_ORDER.indexOf(b.tier));
  return { ...overall, repositories: [...new Set(inWindow.map(runRepository))].sort(), groups };
}
