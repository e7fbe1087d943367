/**
 * Issue 47: one definition per count, the same in `mvnx runs --stats`, `--advise` and the HTML report. Each sequence
 * is the records as mvnx writes them along the way (the run, publication, reconcile), and every view must say the
 * same about who took the fix and what became of it: distinct fixes, with an apply in a CI checkout taken by nobody.
 */
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/policy/schema.js';
import { adviseModules, formatAdvice } from '../../src/report/advice.js';
import { computeRolloutStats } from '../../src/report/groups.js';
import { renderReportHtml } from '../../src/report/html.js';
import type { RunRecord } from '../../src/report/run-record.js';
import { formatRunStats } from '../../src/report/stats-format.js';
import { IN_CI_CHECKOUT } from '../../src/report/stats.js';
import { BRANCH, fixedRecord } from '../helpers/publish-repo.js';

const AT = '2026-12-03T12:00:00.000Z';
const NOW = new Date('2026-12-04T12:00:00.000Z');
const promote = configSchema.parse({}).rollout.promote;
const CI_APPLY = { outcome: 'applied' as const, at: AT, evidence: `tier auto${IN_CI_CHECKOUT}` };
const publication = (number: number) => ({
  forge: 'github' as const,
  url: `https://github.example/acme/demo/pull/${number}`,
  number,
  branch: BRANCH,
  autoMerge: 'enabled' as const,
});
const run = (runId: string, minutes: number, overrides: Partial<RunRecord>) =>
  fixedRecord(runId, {
    repository: 'acme/demo',
    startedAt: new Date(Date.parse(AT) + minutes * 60_000).toISOString(),
    finishedAt: new Date(Date.parse(AT) + (minutes + 1) * 60_000).toISOString(),
    ...overrides,
  });

interface Counts {
  auto: number;
  person: number;
  request: number;
  suggested: number;
  fixes: number;
  applied: number;
  adopted: number;
  merged: number;
  open: number;
}

/** What each of the three views says, read from its own output. */
function views(records: RunRecord[]) {
  const stats = computeRolloutStats(records);
  const text = formatRunStats(stats);
  const fromStats = {
    auto: Number(/applied by auto\s+(\d+) of/.exec(text)![1]),
    person: Number(/applied by a person\s+(\d+) of/.exec(text)![1]),
    request: Number(/merged through a request\s+(\d+) of/.exec(text)![1]),
    suggested: Number(/suggested only\s+(\d+) of/.exec(text)![1]),
    fixes: stats.outcomes.fixes,
    applied: Number(/(\d+) applied, /.exec(text)![1]),
    adopted: Number(/(\d+) adopted, /.exec(text)![1]),
    merged: Number(/(\d+) merged, /.exec(text)![1]),
    open: Number(/(\d+) open \(of/.exec(text)![1]),
  };
  const advice = formatAdvice(adviseModules({ records, promote, now: NOW }));
  const line =
    /fixes at auto: (\d+) applied by auto, (\d+) applied by a person, (\d+) merged through a request, (\d+) suggested only/.exec(
      advice,
    )!;
  const fromAdvice = { auto: +line[1]!, person: +line[2]!, request: +line[3]!, suggested: +line[4]! };
  const html = renderReportHtml({ stats, records, advice: [], generatedAt: NOW, sources: ['test'] });
  const tile = (stat: string) => Number(new RegExp(`data-stat="${stat}" data-value="(\\d+)"`).exec(html)![1]);
  const fromHtml = {
    auto: tile('autoApplied'),
    person: tile('appliedByPerson'),
    request: tile('mergedByRequest'),
    suggested: tile('suggestedOnly'),
    adopted: tile('outcomes.adopted'),
  };
  return { fromStats, fromAdvice, fromHtml };
}

function expectOneStory(records: RunRecord[], counts: Counts): void {
  const { fromStats, fromAdvice, fromHtml } = views(records);
  expect(fromStats).toEqual(counts);
  const takenBy = { auto: counts.auto, person: counts.person, request: counts.request, suggested: counts.suggested };
  expect(fromAdvice).toEqual(takenBy);
  expect(fromHtml).toEqual({ ...takenBy, adopted: counts.adopted });
}

const none = { auto: 0, person: 0, request: 0, suggested: 0, fixes: 1, applied: 0, adopted: 0, merged: 0, open: 0 };

describe('one definition per count in --stats, --advise and the HTML report', () => {
  it('applied only in a CI checkout, then publication failed (401): suggested only and open, nowhere applied', () => {
    const records = [
      run('ci-401', 0, {
        applied: true,
        outcome: 'applied',
        outcomeHistory: [CI_APPLY],
        decisions: [
          'tier auto: verified fix applied',
          'not published: GitHub answered 401: Bad credentials (the token may not push or open requests here)',
        ],
      }),
    ];
    expectOneStory(records, { ...none, suggested: 1, open: 1 });
  });

  it('while its request is open: suggested only in taken-by and open in the outcomes', () => {
    const records = [
      run('ci-open', 0, { outcome: 'applied', outcomeHistory: [CI_APPLY], publication: publication(1) }),
    ];
    expectOneStory(records, { ...none, suggested: 1, open: 1 });
  });

  it('after a merge: three runs of one fix are one fix merged through its request, in every view', () => {
    const merged = {
      outcome: 'merged' as const,
      outcomeHistory: [CI_APPLY, { outcome: 'merged' as const, at: AT, evidence: 'pull request #1 merged' }],
      publication: publication(1),
    };
    const records = [
      run('first', 0, merged),
      run('second', 10, merged),
      run('third', 20, { outcome: 'applied', outcomeHistory: [CI_APPLY] }),
    ];
    expectOneStory(records, { ...none, request: 1, merged: 1 });
  });

  it('a published fix cherry-picked by hand: adopted, and taken by a person, in every view', () => {
    const records = [
      run('picked', 0, {
        outcome: 'adopted',
        outcomeHistory: [CI_APPLY, { outcome: 'adopted', at: AT, evidence: 'commit 1a2b3c4 "cherry-pick the fix"' }],
        publication: publication(1),
      }),
    ];
    expectOneStory(records, { ...none, person: 1, adopted: 1 });
  });

  it('an apply that stays (tier auto on a developer machine) is still applied by auto', () => {
    const records = [
      run('local', 0, { outcome: 'applied', outcomeHistory: [{ outcome: 'applied', at: AT, evidence: 'tier auto' }] }),
    ];
    expectOneStory(records, { ...none, auto: 1, applied: 1 });
  });
});
