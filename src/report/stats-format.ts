/** Plain-text tables for `mvnx runs` and `mvnx runs --stats`; pure, so tests read them exactly. */
import type { RolloutStats } from './groups.js';
import { describeModelSpeed } from './model-speed.js';
import type { RunRecord } from './run-record.js';
import { FAILURE_KINDS, type RunStats } from './stats.js';

/** Columns padded to their widest cell; the last column is not padded. */
export function alignedTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '-';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes}m${String(seconds).padStart(2, '0')}s`;
}

export function formatPercent(share: number | null): string {
  return share === null ? '-' : `${(share * 100).toFixed(0)}%`;
}

/** `2024-05-01 14:03` in UTC, so that a table reads the same on every machine. */
function formatTime(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : time.toISOString().slice(0, 16).replace('T', ' ');
}

function runDurationMs(record: RunRecord): number | undefined {
  const ms = Date.parse(record.finishedAt) - Date.parse(record.startedAt);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** `mvnx runs`: newest first, one line a run. */
export function formatRunList(records: RunRecord[]): string {
  if (records.length === 0) return 'No runs recorded yet (mvnx records a run when a build fails).';
  const rows = records.map((record) => [
    record.runId,
    formatTime(record.startedAt),
    record.tier,
    record.applied ? `${record.status} (applied)` : record.incomplete ? `${record.status} (incomplete)` : record.status,
    record.outcome ?? (record.status === 'fixed' ? 'open' : '-'),
    record.stopReason,
    String(record.attempts?.length ?? 0),
    formatDuration(runDurationMs(record)),
  ]);
  return alignedTable(
    ['run', 'started (UTC)', 'tier', 'status', 'outcome', 'stop reason', 'attempts', 'duration'],
    rows,
  );
}

/** `mvnx runs --stats`: a summary block, then the fix rate per kind, then the stop reasons. */
export function formatRunStats(stats: RunStats): string {
  if (stats.runs === 0) {
    if (stats.module)
      return `No runs recorded for module ${stats.module}${stats.since ? ` since ${stats.since}` : ''}.`;
    return stats.since
      ? `No runs recorded since ${stats.since}.`
      : 'No runs recorded yet (mvnx records a run when a build fails).';
  }
  const window =
    (stats.since ? `since ${stats.since}` : `${stats.firstRunAt ?? '?'} .. ${stats.lastRunAt ?? '?'}`) +
    (stats.module ? `, module ${stats.module}` : '');
  const tiers = Object.entries(stats.tiers)
    .filter(([, count]) => count > 0)
    .map(([tier, count]) => `${tier} ${count}`)
    .join(', ');
  const fixed = stats.autoApplied + stats.appliedByPerson + stats.mergedByRequest + stats.suggestedOnly;
  const summary = alignedTable(
    ['measure', 'value'],
    [
      ['window', window],
      ['runs', String(stats.runs)],
      ['runs per tier', tiers],
      ['attempts', String(stats.attempts)],
      ['regressions', String(stats.regressions)],
      [
        'fix rate',
        `${formatPercent(stats.overall.fixRate)} (${stats.overall.fixed} of ${stats.overall.repaired} repaired)`,
      ],
      ['median time to a verified fix', formatDuration(stats.medianTimeToFixMs)],
      [
        'model calls',
        stats.discardedModelCalls
          ? `${stats.modelCalls} (${stats.discardedModelCalls} discarded unused beside a flaky re-check)`
          : String(stats.modelCalls),
      ],
      ...(stats.incompleteRuns ? [['interrupted runs', interruptedRuns(stats)]] : []),
      ['applied by auto', `${stats.autoApplied} of ${fixed} fixes (${formatPercent(stats.autoAppliedShare)})`],
      [
        'applied by a person',
        `${stats.appliedByPerson} of ${fixed} fixes (${formatPercent(stats.appliedByPersonShare)}; mvnx apply, the prompt, or by hand)`,
      ],
      ['merged through a request', `${stats.mergedByRequest} of ${fixed} fixes (${formatPercent(stats.mergedShare)})`],
      ['suggested only', `${stats.suggestedOnly} of ${fixed} fixes (${formatPercent(stats.suggestedShare)})`],
      [
        'suggestions taken',
        `${stats.suggestionsTaken} of ${stats.suggested} suggested (${formatPercent(stats.takenShare)})`,
      ],
      [
        'fix outcomes',
        `${stats.outcomes.applied} applied, ${stats.outcomes.adopted} adopted, ${stats.outcomes.superseded} superseded, ${stats.outcomes.reverted} reverted, ${stats.outcomes.merged} merged, ${stats.outcomes.closed} closed, ${stats.outcomes.open} open (of ${stats.outcomes.fixes} distinct fixes)`,
      ],
      ['time spent by mvnx', `${formatDuration(stats.timeSpentMs)} (model ${formatDuration(stats.modelMs)})`],
      ...modelCostRows(stats),
    ],
  );
  const kinds = alignedTable(
    ['failure kind', 'runs', 'repaired', 'fixed', 'fix rate'],
    FAILURE_KINDS.map((kind) => {
      const kindStats = stats.byKind[kind];
      return [
        kind,
        String(kindStats.runs),
        String(kindStats.repaired),
        String(kindStats.fixed),
        formatPercent(kindStats.fixRate),
      ];
    }),
  );
  const reasons = alignedTable(
    ['stop reason', 'runs'],
    Object.entries(stats.stopReasons)
      .sort(([a, countA], [b, countB]) => countB - countA || a.localeCompare(b))
      .map(([reason, count]) => [reason, String(count)]),
  );
  return [summary, kinds, reasons].join('\n\n');
}

/** `mvnx runs --stats` over one or many repositories: the totals, then one row per repository, module and tier. */
export function formatRolloutStats(stats: RolloutStats): string {
  const totals = formatRunStats(stats);
  if (stats.runs === 0) return totals;
  const rows = stats.groups.map((group) => [
    group.repository,
    group.module,
    group.tier,
    String(group.runs),
    `${formatPercent(group.fixRate)} (${group.fixed}/${group.repaired})`,
    formatDuration(group.medianTimeToFixMs),
    `${group.suggestionsTaken}/${group.suggested}`,
    `${group.appliedByAuto}/${group.appliedByPerson}/${group.merged}`,
    String(group.adopted),
    String(group.reverted),
    String(group.modelCalls),
    formatDuration(group.timeSpentMs),
  ]);
  const table = alignedTable(
    [
      'repository',
      'module',
      'tier',
      'runs',
      'fix rate',
      'median to fix',
      'taken',
      'auto/person/merged',
      'adopted',
      'reverted',
      'model calls',
      'time spent',
    ],
    rows,
  );
  return `${totals}\n\n${stats.repositories.length} repositor${stats.repositories.length === 1 ? 'y' : 'ies'}, by module and tier:\n${table}`;
}

/** Runs a signal stopped (stop reason interrupted), with those killed outright and found by a later run. */
function interruptedRuns(stats: RunStats): string {
  const interrupted = stats.stopReasons.interrupted ?? 0;
  return `${interrupted} (${stats.incompleteRuns ?? 0} killed before writing a record, found by a later run)`;
}

/** Model time per verified fix, and each model's speed as its server counted it; none without model requests. */
function modelCostRows(stats: RunStats): string[][] {
  if (!stats.modelCost) return [];
  const fixed = stats.overall.fixed;
  return [
    [
      'model time per verified fix',
      `${formatDuration(stats.modelCost.modelMsPerVerifiedFix)} (${formatDuration(stats.modelMs)} over ${fixed} verified fix${fixed === 1 ? '' : 'es'})`,
    ],
    ...stats.modelCost.byModel.map((speed) => [`speed of ${speed.model}`, describeModelSpeed(speed)]),
  ];
}
