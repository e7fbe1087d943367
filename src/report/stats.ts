/**
 * `mvnx runs --stats`: the numbers a team lead reads before moving a module from
 * monitor to assist to auto. A pure function of run records, so that the same records
 * always give the same report; the counting itself is the fold in stats-fold.ts.
 */
import { MvnxError } from '../shared/errors.js';
import type { RunRecord } from './run-record.js';
import type { FailureKind, RunStats } from './stats-base.js';
import { fixKey, foldedRun, inWindowOf, replacesFix, RunStatsFold } from './stats-fold.js';

export {
  countedOutcome,
  IN_CI_CHECKOUT,
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

const KINDS: FailureKind[] = ['compile', 'test', 'quality', 'other'];

/** A run belongs to a module when its fix or one of its diagnostics is there. */
export function inModule(record: RunRecord, module: string): boolean {
  return (
    Boolean(record.fixModules?.includes(module)) ||
    (record.diagnostics ?? []).some((diagnostic) => diagnostic.module === module)
  );
}

/** `module`: only runs with a diagnostic in that Maven module (artifactId), for a per-module rollout. */
export function computeRunStats(
  records: readonly RunRecord[],
  options: { since?: Date; module?: string } = {},
): RunStats {
  const counts = inWindowOf(options, inModule);
  const fold = new RunStatsFold();
  for (const record of records) if (counts(record)) fold.add(foldedRun(record));
  return fold.result(options);
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
    if (!known || replacesFix(known, record)) byFix.set(key, record);
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
  throw new MvnxError(
    `--since ${JSON.stringify(text)}: expected an age like 30d, 12h, 2w, 90m or a date like 2024-05-01`,
  );
}

export { KINDS as FAILURE_KINDS };
