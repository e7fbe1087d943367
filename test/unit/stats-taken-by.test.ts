/**
 * Honest numbers: who took a verified fix. A fix a person applied with `mvnx apply` under
 * assist is "applied by a person", not "applied by auto" (the count before issue 27 said
 * auto-applied 1 of 1), and a merged request is its own line, in --stats and in the HTML report.
 */
import { describe, expect, it } from 'vitest';
import { run as applyCommand } from '../../src/cli/commands/apply.js';
import { computeRolloutStats } from '../../src/report/groups.js';
import { renderReportHtml } from '../../src/report/html.js';
import { readRunRecord, type RunRecord } from '../../src/report/run-record.js';
import { formatRunStats } from '../../src/report/stats-format.js';
import { computeRunStats, takenBy } from '../../src/report/stats.js';
import { fixedRecord, makePublishRepo, writeRun } from '../helpers/publish-repo.js';
import { tempDir } from '../helpers/temp-dir.js';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('who took a fix', () => {
  it('counts a fix applied with mvnx apply under assist as applied by a person, not by auto', async () => {
    const repo = await makePublishRepo(await tempDir('mvnx-taken-'));
    const before = await readFile(path.join(repo.work, 'src/main/java/demo/Calc.java'), 'utf8');
    const suggested = fixedRecord('run-assist', {
      tier: 'assist',
      action: 'suggest',
      applied: false,
      fixBase: [{ path: 'src/main/java/demo/Calc.java', beforeSha256: sha(before) }],
    });
    await writeRun(repo.work, suggested);
    expect(await applyCommand(['run-assist'], { cwd: repo.work, env: {} })).toBe(0);
    const applied = await readRunRecord(repo.work, 'run-assist');
    expect(applied.applied).toBe(true);

    const stats = computeRunStats([applied]);
    expect(stats.autoApplied).toBe(0);
    expect(stats.appliedByPerson).toBe(1);
    expect(takenBy(applied)).toBe('person');
    expect(formatRunStats(stats)).toMatch(/applied by auto\s+0 of 1 fixes \(0%\)/);
    expect(formatRunStats(stats)).toMatch(
      /applied by a person\s+1 of 1 fixes \(100%; mvnx apply, the prompt, or by hand\)/,
    );
  });

  it('separates auto, a person, a merged request and suggested only, in stats and the HTML report', () => {
    const at = '2026-12-03T12:00:00.000Z';
    const records: RunRecord[] = [
      fixedRecord('auto', { outcome: 'applied', outcomeHistory: [{ outcome: 'applied', at, evidence: 'tier auto' }] }),
      fixedRecord('prompt', {
        tier: 'assist',
        action: 'suggest',
        outcome: 'applied',
        outcomeHistory: [{ outcome: 'applied', at, evidence: 'yes at the prompt' }],
        attempts: [{ ...fixedRecord('x').attempts[0]!, fingerprint: 'b2' }],
      }),
      fixedRecord('by-hand', {
        tier: 'assist',
        action: 'suggest',
        applied: false,
        outcome: 'adopted',
        outcomeHistory: [{ outcome: 'adopted', at, evidence: 'commit 1234567' }],
        attempts: [{ ...fixedRecord('x').attempts[0]!, fingerprint: 'b3' }],
      }),
      // Applied in CI's throwaway checkout, then published: taken only when the request merges.
      fixedRecord('merged', {
        outcome: 'merged',
        outcomeHistory: [
          { outcome: 'applied', at, evidence: 'tier auto' },
          { outcome: 'merged', at, evidence: 'pull request #1 merged' },
        ],
        publication: { forge: 'github', url: 'u', number: 1, branch: 'mvnx/fix-b4', autoMerge: 'enabled' },
        attempts: [{ ...fixedRecord('x').attempts[0]!, fingerprint: 'b4' }],
      }),
      fixedRecord('open-request', {
        outcomeHistory: [{ outcome: 'applied', at, evidence: 'tier auto' }],
        outcome: 'applied',
        publication: { forge: 'github', url: 'u', number: 2, branch: 'mvnx/fix-b5', autoMerge: 'off' },
        attempts: [{ ...fixedRecord('x').attempts[0]!, fingerprint: 'b5' }],
      }),
      fixedRecord('suggested', {
        tier: 'assist',
        action: 'suggest',
        applied: false,
        attempts: [{ ...fixedRecord('x').attempts[0]!, fingerprint: 'b6' }],
      }),
    ];
    const stats = computeRolloutStats(records);
    expect({
      auto: stats.autoApplied,
      person: stats.appliedByPerson,
      merged: stats.mergedByRequest,
      suggested: stats.suggestedOnly,
    }).toEqual({ auto: 1, person: 2, merged: 1, suggested: 2 });
    const html = renderReportHtml({ stats, records, advice: [], generatedAt: new Date(at), sources: ['test'] });
    for (const [stat, value] of [
      ['autoApplied', 1],
      ['appliedByPerson', 2],
      ['mergedByRequest', 1],
      ['suggestedOnly', 2],
    ] as const)
      expect(html).toContain(`data-stat="${stat}" data-value="${value}"`);
    expect(html).toContain('applied by a person (mvnx apply, or by hand)');
    expect(html).toContain('merged through a request');
  });
});
