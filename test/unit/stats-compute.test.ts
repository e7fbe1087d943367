import { describe, expect, it } from 'vitest';
import { MvnxError } from '../../src/shared/errors.js';
import { computeRunStats, median, parseSince, runKind } from '../../src/report/stats.js';
import { formatRunList, formatRunStats } from '../../src/report/stats-format.js';
import { diagnostic, record, teamMonth } from './stats-support.js';

describe('computeRunStats', () => {
  it('sums up a month of runs', () => {
    const stats = computeRunStats(teamMonth());
    expect(stats.runs).toBe(6);
    expect(stats.attempts).toBe(7);
    expect(stats.regressions).toBe(1);
    expect(stats.modelCalls).toBe(6);
    expect(stats.byKind.compile).toEqual({ runs: 3, repaired: 3, fixed: 2, fixRate: 2 / 3 });
    expect(stats.byKind.test).toEqual({ runs: 2, repaired: 2, fixed: 1, fixRate: 0.5 });
    // The dependency outage was skipped by policy: it is counted as a run, never as a failed repair.
    expect(stats.byKind.other).toEqual({ runs: 1, repaired: 0, fixed: 0, fixRate: null });
    expect(stats.overall).toEqual({ runs: 6, repaired: 5, fixed: 3, fixRate: 3 / 5 });
    expect(stats.medianTimeToFixMs).toBe(40_000);
    expect(stats.stopReasons).toEqual({ fixed: 3, 'budget-exhausted': 1, 'not-fixable': 1, 'provider-unavailable': 1 });
    // Who took a fix counts distinct fixes, as the outcomes do (issue 47): 3 fixed runs are 2 fixes.
    expect(stats.autoApplied).toBe(1);
    expect(stats.suggestedOnly).toBe(1);
    expect(stats.autoAppliedShare).toBeCloseTo(1 / 2);
    expect(stats.suggestedShare).toBeCloseTo(1 / 2);
    expect(stats.tiers).toEqual({ off: 0, monitor: 2, assist: 2, auto: 2 });
    expect(stats.firstRunAt).toBe('2024-05-01T09:00:00.000Z');
    expect(stats.lastRunAt).toBe('2024-05-28T14:00:00.000Z');
  });

  it('keeps only the runs that started inside the window', () => {
    const stats = computeRunStats(teamMonth(), { since: new Date('2024-05-10T00:00:00.000Z') });
    expect(stats.since).toBe('2024-05-10T00:00:00.000Z');
    expect(stats.runs).toBe(3);
    expect(stats.medianTimeToFixMs).toBe(60_000);
    expect(stats.autoAppliedShare).toBe(1);
  });

  it('keeps only the runs with a diagnostic in the module asked for', () => {
    const records = teamMonth();
    records[0]!.diagnostics = [{ ...records[0]!.diagnostics[0]!, module: 'payments' }];
    records[3]!.diagnostics = [{ ...records[3]!.diagnostics[0]!, module: 'payments' }];
    const stats = computeRunStats(records, { module: 'payments' });
    expect(stats).toMatchObject({ module: 'payments', runs: 2, autoApplied: 1, suggestedOnly: 0 });
    expect(formatRunStats(computeRunStats(records, { module: 'web' }))).toBe('No runs recorded for module web.');
  });

  it('reports nothing as null rather than as zero percent when there are no runs', () => {
    const stats = computeRunStats([]);
    expect(stats).toMatchObject({
      runs: 0,
      attempts: 0,
      modelCalls: 0,
      medianTimeToFixMs: null,
      autoAppliedShare: null,
      suggestedShare: null,
      stopReasons: {},
    });
    expect(stats.overall.fixRate).toBeNull();
    expect(stats.firstRunAt).toBeUndefined();
    expect(formatRunStats(stats)).toBe('No runs recorded yet (mvnx records a run when a build fails).');
    expect(formatRunList([])).toMatch(/^No runs recorded yet/);
  });

  it('counts a run with compile and stale test diagnostics as compile, and one without diagnostics as other', () => {
    expect(
      runKind(
        record({
          runId: 'a',
          startedAt: '2024-05-01T00:00:00Z',
          diagnostics: [diagnostic('test', 'x'), diagnostic('compile', 'y')],
        }),
      ),
    ).toBe('compile');
    expect(runKind(record({ runId: 'b', startedAt: '2024-05-01T00:00:00Z', diagnostics: [] }))).toBe('other');
  });

  it('leaves a fixed run with an unreadable time out of the median only', () => {
    const broken = {
      ...record({ runId: 'x', startedAt: '2024-05-01T00:00:00Z', status: 'fixed', stopReason: 'fixed' }),
      finishedAt: 'never',
    };
    const stats = computeRunStats([broken]);
    expect(stats.overall.fixed).toBe(1);
    expect(stats.medianTimeToFixMs).toBeNull();
  });
});

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });
});

describe('parseSince', () => {
  const now = new Date('2024-06-01T00:00:00.000Z');
  it.each([
    ['30d', '2024-05-02T00:00:00.000Z'],
    ['12h', '2024-05-31T12:00:00.000Z'],
    ['2w', '2024-05-18T00:00:00.000Z'],
    ['90m', '2024-05-31T22:30:00.000Z'],
    ['2024-05-15', '2024-05-15T00:00:00.000Z'],
  ])('%s', (text, expected) => {
    expect(parseSince(text, now).toISOString()).toBe(expected);
  });

  it.each(['', '30', 'd30', '30 days', '0d', '-3d', '3y', '2024-13-45'])('refuses %j with one line', (text) => {
    let error: unknown;
    try {
      parseSince(text, now);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(MvnxError);
    expect((error as MvnxError).exitCode).toBe(2);
    expect((error as MvnxError).message).toMatch(/^--since .*(30d|at least 1)/);
    expect((error as MvnxError).message).not.toContain('\n');
  });
});

describe('formatRunStats', () => {
  it('prints aligned columns with the numbers a rollout decision needs', () => {
    const text = formatRunStats(computeRunStats(teamMonth()));
    expect(text).toContain('fix rate                       60% (3 of 5 repaired)');
    expect(text).toContain('median time to a verified fix  40.0s');
    expect(text).toContain('applied by auto                1 of 2 fixes (50%)');
    expect(text).toMatch(/^compile\s+3\s+3\s+2\s+67%$/m);
    expect(text).toMatch(/^other\s+1\s+0\s+0\s+-$/m);
    expect(text).toMatch(/^fixed\s+3$/m);
    const kindLines = text.split('\n').filter((line) => /^(failure kind|compile|test|other) /.test(line));
    const runsColumn = kindLines.map((line) => line.indexOf(line.split(/\s{2,}/)[1]!));
    expect(new Set(runsColumn).size).toBe(1);
  });
});

describe('formatRunList', () => {
  it('prints one line a run, newest first as given', () => {
    const text = formatRunList(teamMonth().reverse());
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^run\s+started \(UTC\)\s+tier\s+status\s+outcome\s+stop reason\s+attempts\s+duration$/);
    expect(lines[2]).toMatch(/^r6\s+2024-05-28 14:00\s+monitor\s+unfixed\s+-\s+provider-unavailable\s+0\s+5\.0s$/);
    expect(text).toMatch(/^r4\s+2024-05-10 12:00\s+auto\s+fixed \(applied\)\s+open\s+fixed\s+1\s+1m00s$/m);
    expect(text).toMatch(/^r3 .* 1m35s$/m);
  });
});
