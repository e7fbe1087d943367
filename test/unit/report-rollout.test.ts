import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run as runsCommand } from '../../src/cli/commands/runs.js';
import { MvnxError } from '../../src/shared/errors.js';
import { configSchema } from '../../src/policy/schema.js';
import { adviseModules, formatAdvice } from '../../src/report/advice.js';
import { collectRunRecords, repositoryFromFolder } from '../../src/report/collect.js';
import { computeRolloutStats, NO_MODULE, runModule } from '../../src/report/groups.js';
import { renderReportHtml } from '../../src/report/html.js';
import { repositoryFromRemote } from '../../src/report/repository.js';
import type { RunRecord } from '../../src/report/run-record.js';
import { distinctFixes } from '../../src/report/stats.js';
import { attempt, diagnostic, record } from './stats-support.js';

const promote = configSchema.parse({}).rollout.promote;
const NOW = new Date('2024-06-30T12:00:00.000Z');
const day = (n: number) => new Date(Date.UTC(2024, 5, n, 9)).toISOString();
let serial = 0;

function run(
  repository: string,
  module: string,
  tier: RunRecord['tier'],
  overrides: Partial<RunRecord> = {},
): RunRecord {
  serial += 1;
  return record({
    runId: `${repository.replace(/\W/g, '-')}-${serial}`,
    startedAt: day(1 + (serial % 28)),
    repository,
    tier,
    diagnostics: [{ ...diagnostic('test', `failure ${serial}`, `${module}/src/test/java/T.java`), module }],
    ...overrides,
  });
}
function suggestion(
  repository: string,
  module: string,
  outcome: RunRecord['outcome'] | undefined,
  extra: Partial<RunRecord> = {},
): RunRecord {
  serial += 1;
  return run(repository, module, 'assist', {
    status: 'fixed',
    stopReason: 'fixed',
    action: 'suggest',
    fixModules: [module],
    coverage: { [module]: 86.5 },
    attempts: [{ ...attempt(1, 'verified'), fingerprint: `fix-${serial}` }],
    ...(outcome ? { outcome } : {}),
    ...extra,
  });
}

describe('rollout stats', () => {
  it('groups by repository, module and tier, and counts each distinct fix once', () => {
    const same = suggestion('acme/pay', 'ledger', 'adopted');
    const repeat = { ...same, runId: 'repeat', startedAt: day(20), outcome: undefined } as RunRecord;
    const records = [
      same,
      repeat,
      suggestion('acme/pay', 'ledger', 'reverted'),
      run('acme/pay', 'ledger', 'monitor'),
      run('acme/web', 'ui', 'monitor', { stopReason: 'provider-unavailable' }),
    ];
    expect(distinctFixes(records)).toHaveLength(2);
    const stats = computeRolloutStats(records);
    expect(stats.repositories).toEqual(['acme/pay', 'acme/web']);
    expect(stats.groups.map((group) => [group.repository, group.module, group.tier, group.runs])).toEqual([
      ['acme/pay', 'ledger', 'monitor', 1],
      ['acme/pay', 'ledger', 'assist', 3],
      ['acme/web', 'ui', 'monitor', 1],
    ]);
    const assist = stats.groups[1]!;
    // The repeat run of an adopted fix does not make a second suggestion; the older run's outcome speaks for it.
    expect(assist).toMatchObject({
      suggested: 2,
      suggestionsTaken: 2,
      takenShare: 1,
      adopted: 1,
      reverted: 1,
      coverage: 86.5,
    });
    expect(stats.outcomes).toEqual({
      fixes: 2,
      applied: 0,
      adopted: 1,
      superseded: 0,
      reverted: 1,
      merged: 0,
      closed: 0,
      open: 0,
    });
    expect(stats.groups[2]!.providerUnavailable).toBe(1);
  });

  it('puts a run under its fix module, else its first diagnostic module, else the project', () => {
    expect(
      runModule(
        record({
          runId: 'a',
          startedAt: day(1),
          fixModules: ['core'],
          diagnostics: [{ ...diagnostic('test', 'x'), module: 'app' }],
        }),
      ),
    ).toBe('core');
    expect(
      runModule(
        record({ runId: 'b', startedAt: day(1), diagnostics: [{ ...diagnostic('test', 'x'), module: 'app' }] }),
      ),
    ).toBe('app');
    expect(runModule(record({ runId: 'c', startedAt: day(1), diagnostics: [] }))).toBe(NO_MODULE);
  });
});

describe('promotion advice', () => {
  it('promotes an assist module with enough taken, unreverted fixes and coverage, and prints the rule to add', () => {
    const records = Array.from({ length: 10 }, (_, index) =>
      suggestion('acme/pay', 'ledger', index < 8 ? 'adopted' : undefined),
    );
    const [advice] = adviseModules({ records, promote, now: NOW });
    expect(advice).toMatchObject({
      repository: 'acme/pay',
      module: 'ledger',
      tier: 'assist',
      verdict: 'promote',
      to: 'auto',
    });
    expect(advice!.rule).toBe(
      [
        'rules:',
        '  - description: "ledger earned auto: suggested verified fixes 10, taken (applied or adopted) 80% (8 of 10), reverted 0, regressions 0, line coverage 86.5% (mvnx runs --advise, 2024-06-30)"',
        "    paths: ['**']",
        '    modules: [ledger]',
        '    tier: auto',
      ].join('\n'),
    );
    expect(formatAdvice([advice!])).toMatch(/^PROMOTE {2}acme\/pay ledger: assist -> auto: /);
    expect(formatAdvice([advice!])).toMatch(
      /\n {2}fixes at assist: \d+ applied by auto, \d+ applied by a person, 0 merged through a request, \d+ suggested only\n/,
    );
  });

  it('holds and says which numbers fall short: too few, too few taken, a revert, coverage below auto.requireCoverage', () => {
    const records = [
      ...Array.from({ length: 10 }, () => suggestion('acme/pay', 'ledger', 'adopted')),
      suggestion('acme/pay', 'ledger', 'reverted'),
    ];
    const [held] = adviseModules({ records, promote, requireCoverage: 90, now: NOW });
    expect(held!.verdict).toBe('hold');
    expect(held!.summary).toBe(
      'acme/pay ledger: stays at assist: reverted 1 (needs <= 0); line coverage 86.5% (needs >= 90%)',
    );
    expect(held!.rule).toBeUndefined();
    const few = adviseModules({ records: [suggestion('acme/x', 'm', 'adopted')], promote, now: NOW })[0]!;
    expect(few.checks.find((check) => !check.ok)?.name).toBe('suggested verified fixes');
    const noCoverage = adviseModules({
      records: Array.from({ length: 10 }, () => suggestion('acme/y', 'm', 'applied', { coverage: undefined })),
      promote,
      now: NOW,
    })[0]!;
    expect(noCoverage.checks.at(-1)).toMatchObject({ ok: false, value: 'unknown (no jacoco.xml in the runs)' });
  });

  it('moves monitor to assist on fix rate and runs, and auto back to assist after a revert', () => {
    const monitor = Array.from({ length: 20 }, (_, index) =>
      run('acme/web', 'ui', 'monitor', index < 12 ? { status: 'fixed', stopReason: 'fixed', action: 'record' } : {}),
    );
    expect(adviseModules({ records: monitor, promote, now: NOW })[0]).toMatchObject({
      verdict: 'promote',
      to: 'assist',
    });
    expect(adviseModules({ records: monitor.slice(0, 19), promote, now: NOW })[0]!.verdict).toBe('hold');
    const auto = [
      run('acme/web', 'ui', 'auto', {
        status: 'fixed',
        stopReason: 'fixed',
        action: 'apply',
        applied: true,
        outcome: 'reverted',
      }),
    ];
    const [demote] = adviseModules({ records: auto, promote, now: NOW });
    expect(demote).toMatchObject({ verdict: 'demote', to: 'assist' });
    expect(demote!.rule).toContain('ui back to assist: 1 reverted at auto');
  });

  it('reads only the window: windowDays before now, or --since', () => {
    const old = Array.from({ length: 10 }, () =>
      suggestion('acme/pay', 'ledger', 'adopted', { startedAt: '2024-01-05T00:00:00.000Z' }),
    );
    expect(adviseModules({ records: old, promote, now: NOW })).toEqual([]);
    expect(adviseModules({ records: old, promote, now: NOW, since: new Date('2024-01-01') })[0]!.verdict).toBe(
      'promote',
    );
  });
});

describe('collecting records from many folders', () => {
  let root: string;
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(root, { recursive: true, force: true });
  });

  async function writeRecord(runsFolder: string, value: RunRecord): Promise<void> {
    await mkdir(path.join(runsFolder, value.runId), { recursive: true });
    await writeFile(path.join(runsFolder, value.runId, 'run.json'), JSON.stringify(value));
  }

  it('expands globs, names old records after their folder, and keeps one copy of a run collected twice', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'mvnx-collect-'));
    const a = suggestion('acme/pay', 'ledger', undefined);
    const named = { ...a, repository: undefined } as unknown as RunRecord;
    await writeRecord(path.join(root, 'artifacts/pay-service/job-1/.mvnx/runs'), named);
    await writeRecord(path.join(root, 'artifacts/pay-service/job-2/.mvnx/runs'), {
      ...named,
      outcome: 'adopted',
      reconciledAt: day(29),
    });
    await writeRecord(path.join(root, 'artifacts/web/.mvnx/runs'), run('acme/web', 'ui', 'monitor'));

    const collected = await collectRunRecords(['artifacts/**/.mvnx/runs'], root);
    expect(collected.folders).toHaveLength(3);
    expect(collected.records).toHaveLength(2);
    expect(collected.records.find((entry) => entry.runId === a.runId)).toMatchObject({
      outcome: 'adopted',
      repository: 'job-2',
    });
    expect(repositoryFromFolder('/x/artifacts/pay/.mvnx/runs')).toBe('pay');
    expect((await collectRunRecords([path.join(root, 'artifacts/web')], root)).records).toHaveLength(1);
    await expect(collectRunRecords(['nothing/**/.mvnx/runs'], root)).rejects.toThrow(
      '--from nothing/**/.mvnx/runs: no .mvnx/runs folder there (the pattern matched none)',
    );
    await expect(collectRunRecords(['missing-folder'], root)).rejects.toThrow(MvnxError);

    let output = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      output += String(chunk);
      return true;
    });
    expect(await runsCommand(['--stats', '--json', '--from', 'artifacts/**/.mvnx/runs'], { cwd: root, env: {} })).toBe(
      0,
    );
    expect(JSON.parse(output)).toMatchObject({ runs: 2, repositories: ['acme/web', 'job-2'] });
    await expect(runsCommand(['--reconcile', '--from', 'artifacts'], { cwd: root, env: {} })).rejects.toThrow(
      /--reconcile reads this project's tree/,
    );
  });
});

describe('repository names', () => {
  it.each([
    ['git@github.com:acme/payments.git', 'acme/payments'],
    ['https://oauth2:glpat-secret123@gitlab.example.com/group/sub/payments.git', 'group/sub/payments'],
    ['ssh://git@host:2222/acme/web', 'acme/web'],
    ['/srv/git/payments.git', 'payments'],
    ['file:///srv/git/web/', 'web'],
  ])('%s is %s, never with credentials', (url, name) => {
    expect(repositoryFromRemote(url)).toBe(name);
  });
});

describe('the HTML report', () => {
  it('is one page without script or any outside address, and its numbers carry their raw values', () => {
    const records = [suggestion('acme/pay', 'ledger', 'adopted'), run('acme/<web>', 'ui', 'monitor')];
    const stats = computeRolloutStats(records);
    const html = renderReportHtml({
      stats,
      records,
      advice: adviseModules({ records, promote, now: NOW }),
      generatedAt: NOW,
      sources: ['artifacts/**/.mvnx/runs'],
    });
    expect(html).not.toMatch(/<script|<link|<img|<iframe|url\(/i);
    expect(html.match(/(?:src|href)=/g)).toBeNull();
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).toContain('acme/&lt;web&gt;');
    expect(html).toContain(`data-stat="runs" data-value="2"`);
    expect(html).toContain(`data-stat="takenShare" data-value="1"`);
    for (const id of ['chart-time', 'chart-kind', 'chart-module', 'chart-acceptance', 'chart-stops'])
      expect(html).toContain(`id="${id}"`);
  });
});

describe('mvnx report', () => {
  it.each([
    [[], /say where to write the page with --html FILE/],
    [['--html'], /--html needs a file/],
    [['--html', 'x.html', '--stats'], /--stats is an option of mvnx runs/],
    [['--html', 'x.html', '--bogus'], /mvnx report: unknown argument --bogus/],
    [
      ['--html', 'x.html', '--limit', '3'],
      /mvnx report: --limit is an option of mvnx runs; usage: mvnx report --html FILE/,
    ],
    [['--html', 'x.html', 'extra'], /mvnx report: .*extra/],
    [['--html', 'x.html', '--since', 'soon'], /--since "soon": expected/],
  ])('refuses %j with one line and exit 2', async (args, message) => {
    const { run: report } = await import('../../src/cli/commands/report.js');
    const failure = report(args, { cwd: tmpdir(), env: {} });
    await expect(failure).rejects.toBeInstanceOf(MvnxError);
    await expect(failure).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(message) });
  });
});
