/**
 * `mvnx runs [--from ...]`: the newest runs, `limit` of them, kept while the records stream
 * by (issue 28): a buffer of at most twice the limit, cut back to the limit when full, so a
 * fleet of 100,000 runs never sits in memory for a list of twenty. Pure.
 */
import type { RunRecord } from './run-record.js';
import { checkRunRecord } from './run-record-schema.js';

const newestFirst = (a: RunRecord, b: RunRecord) => b.startedAt.localeCompare(a.startedAt);

export class NewestRuns {
  private kept: RunRecord[] = [];
  /** The most records held at once (a test reads it: the list does not hold the fleet). */
  peak = 0;

  constructor(
    private readonly limit: number,
    private readonly counts: (record: RunRecord) => boolean = () => true,
  ) {}

  add(record: RunRecord): void {
    if (!this.counts(record)) return;
    this.kept.push(record);
    this.peak = Math.max(this.peak, this.kept.length);
    if (this.kept.length >= 2 * this.limit) this.kept = this.kept.sort(newestFirst).slice(0, this.limit);
  }

  /**
   * Newest first. Each record read through the schema once more, so that a slim one prints
   * its fields in the schema's order, as a record read whole does.
   */
  result(): RunRecord[] {
    return this.kept
      .sort(newestFirst)
      .slice(0, this.limit)
      .map((record) => checkRunRecord(record, record.runId));
  }
}
