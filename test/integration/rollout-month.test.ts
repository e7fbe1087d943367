/**
 * The rollout loop end to end (issue 20's "done when"): a month of runs across three
 * repositories, whose outcomes come from real git commits, summed up by `mvnx runs
 * --stats`, judged by `mvnx runs --advise` and drawn by `mvnx report --html` — and all
 * three agree, with the advice naming the one module that earned auto.
 *
 * What is real and what is scripted, because the machine has 2 cores: each repository
 * gets ONE real mvnx run (real Maven, the real quick-fixer or the loopback Ollama-API
 * server), the pricing fix is taken with a real `mvnx apply`, and every outcome is read
 * by `mvnx runs --reconcile` from real commits (a suggestion committed by hand, an applied
 * fix reverted with `git revert`, a failure fixed another way). The rest of the month is
 * those reconciled records copied with other dates, fix fingerprints and outcomes, as a
 * CI artifact collection would hold them; the copies are made below, in plain sight.
 */
import { execa } from 'execa';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOllamaMock } from '../helpers/ollama-mock.js';
import type { ModuleAdvice } from '../../src/report/advice.js';
import type { RolloutStats } from '../../src/report/groups.js';
import { gitBlobSha } from '../../src/report/review/plan.js';
import type { RunRecord } from '../../src/report/run-record.js';
import { startGithubApi, type FakeForge, type GithubState } from '../helpers/fake-forge.js';
import { decodePng, inkOf } from '../helpers/png.js';
import { repairFixtures, reply, runMvnx } from '../helpers/repair-project.js';
import { sarifSchemaErrors } from '../helpers/sarif-schema.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CALC = 'src/main/java/com/acme/calc/Calculator.java';
const DAY = 86_400_000;
const verify = (...extra: string[]) => ['-o', '-B', '-q', 'verify', '--mvnx-json', ...extra];

let root: string;
const cleanups: (() => Promise<void>)[] = [];
const git = (cwd: string, ...args: string[]) =>
  execa('git', args, {
    cwd,
    env: {
      GIT_AUTHOR_NAME: 'dev',
      GIT_AUTHOR_EMAIL: 'dev@example.com',
      GIT_COMMITTER_NAME: 'dev',
      GIT_COMMITTER_EMAIL: 'dev@example.com',
    },
  });
const mvnx = (cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) => runMvnx(cwd, args, env);

/** A fixture as its own git repository, with its artifactId renamed so the three modules differ. */
async function repository(fixture: string, name: string, artifactId: string, config: string): Promise<string> {
  const dir = path.join(root, 'repos', name);
  await cp(path.join(repairFixtures, fixture), dir, {
    recursive: true,
    filter: (file) => !/[\\/](target|\.mvnx)([\\/]|$)/.test(file),
  });
  const pom = path.join(dir, 'pom.xml');
  await writeFile(
    pom,
    (await readFile(pom, 'utf8')).replace('<artifactId>calc</artifactId>', `<artifactId>${artifactId}</artifactId>`),
  );
  await writeFile(path.join(dir, '.mvnxrc.yaml'), config);
  await writeFile(path.join(dir, '.gitignore'), '.mvnx/\ntarget/\n');
  await git(dir, 'init', '-q', '-b', 'main');
  await git(dir, 'remote', 'add', 'origin', `git@git.example.com:acme/${name}.git`);
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '-m', 'the broken build');
  return dir;
}

const latestRecord = async (dir: string): Promise<RunRecord> => {
  const id = (await readFile(path.join(dir, '.mvnx/runs/latest'), 'utf8')).trim();
  return JSON.parse(await readFile(path.join(dir, '.mvnx/runs', id, 'run.json'), 'utf8')) as RunRecord;
};

/** A copy of a reconciled record as another day's run of the same module. */
function copyOf(template: RunRecord, index: number, changes: Partial<RunRecord>): RunRecord {
  const startedAt = new Date(Date.now() - (2 * index + 1) * DAY - 3_600_000).toISOString();
  const attempts = template.attempts.map((attempt) =>
    attempt.outcome === 'verified' ? { ...attempt, fingerprint: `${attempt.fingerprint}-copy${index}` } : attempt,
  );
  return {
    ...template,
    runId: `${template.runId}-copy${index}`,
    startedAt,
    finishedAt: new Date(Date.parse(startedAt) + 40_000).toISOString(),
    attempts,
    review: undefined,
    ...changes,
  } as RunRecord;
}

async function collect(dir: string, name: string, copies: RunRecord[]): Promise<void> {
  const target = path.join(root, 'artifacts', name, '.mvnx/runs');
  await mkdir(target, { recursive: true });
  await cp(path.join(dir, '.mvnx/runs'), target, { recursive: true });
  for (const copy of copies) {
    await mkdir(path.join(target, copy.runId), { recursive: true });
    await writeFile(path.join(target, copy.runId, 'run.json'), JSON.stringify(copy, null, 2));
  }
}

interface Month {
  billing: RunRecord;
  pricing: RunRecord;
  web: RunRecord;
  github: FakeForge;
  githubState: GithubState;
  sarif: unknown;
}
let month: Month;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'mvnx-month-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));

  // --- acme/billing, module ledger, assist: a quick-fix suggested on the pull request, committed by hand.
  const billing = await repository(
    'calc-semicolon',
    'billing',
    'ledger',
    'tier: assist\nauto:\n  requireCoverage: 80\n',
  );
  await mkdir(path.join(billing, 'target/site/jacoco'), { recursive: true });
  await writeFile(
    path.join(billing, 'target/site/jacoco/jacoco.xml'),
    '<?xml version="1.0"?><report name="ledger"><counter type="LINE" missed="10" covered="90"/></report>\n',
  );
  const source = await readFile(path.join(billing, CALC), 'utf8');
  const githubState: GithubState = {
    owner: 'acme',
    repo: 'billing',
    pullNumber: 12,
    token: 'ghs_monthmonthmonthmonthmonthmonth1234',
    files: [
      {
        filename: CALC,
        sha: gitBlobSha(source),
        status: 'modified',
        patch:
          '@@ -10,3 +10,3 @@\n     public int multiply(int a, int b) {\n-        return a * b;\n+        int result = a * b\n         return result;',
      },
    ],
    reviews: [],
    comments: [],
  };
  const github = await startGithubApi(githubState);
  cleanups.push(github.close);
  const event = path.join(root, 'event.json');
  await writeFile(event, JSON.stringify({ pull_request: { number: 12, head: { sha: 'feedc0de' } } }));
  const billingRun = await mvnx(billing, verify('--mvnx-sarif=out/mvnx.sarif'), {
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/billing',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: event,
    GITHUB_API_URL: github.url,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: '4242',
    GITHUB_TOKEN: githubState.token,
  });
  expect(billingRun.record?.status, billingRun.stderr).toBe('fixed');
  const fixPatch = path.join(billing, '.mvnx/runs', billingRun.record!.runId, 'fix.patch');
  await git(billing, 'apply', fixPatch);
  await git(billing, 'commit', '-q', '-am', 'Apply suggestion from mvnx');
  const sarif = JSON.parse(await readFile(path.join(billing, 'out/mvnx.sarif'), 'utf8')) as unknown;

  // --- acme/pricing, module pricing, assist: the model's fix taken with mvnx apply, committed, then reverted.
  const pricing = await repository('calc-logic-bug', 'pricing', 'pricing', 'tier: assist\nfixers:\n  enabled: false\n');
  const ollama = await startOllamaMock({ replies: [await reply('logic-bug-fix')] });
  cleanups.push(ollama.close);
  const pricingRun = await mvnx(pricing, verify(`--mvnx-host=${ollama.url}`));
  expect(pricingRun.record?.status, pricingRun.stderr).toBe('fixed');
  const apply = await mvnx(pricing, ['apply']);
  expect(apply.exitCode, apply.stderr).toBe(0);
  await git(pricing, 'commit', '-q', '-am', 'fix multiply (mvnx)');
  await git(pricing, 'revert', '--no-edit', 'HEAD');

  // --- acme/web, module webcalc, monitor: the fix is recorded; the developer fixes it another way.
  const web = await repository('calc-semicolon', 'web', 'webcalc', 'tier: monitor\n');
  const webRun = await mvnx(web, verify());
  expect(webRun.record?.status, webRun.stderr).toBe('fixed');
  const webSource = await readFile(path.join(web, CALC), 'utf8');
  await writeFile(
    path.join(web, CALC),
    webSource.replace('int result = a * b\n', 'int result = Math.multiplyExact(a, b);\n'),
  );
  await git(web, 'commit', '-q', '-am', 'multiply without overflow');

  for (const dir of [billing, pricing, web]) {
    const reconcile = await mvnx(dir, ['runs', '--reconcile']);
    expect(reconcile.exitCode, reconcile.stderr).toBe(0);
  }
  month = {
    billing: await latestRecord(billing),
    pricing: await latestRecord(pricing),
    web: await latestRecord(web),
    github,
    githubState,
    sarif,
  };

  // --- The rest of the month, copied from those records (see the header).
  const billingCopies = Array.from({ length: 11 }, (_, index) =>
    copyOf(
      month.billing,
      index,
      index < 8
        ? { outcome: 'adopted' }
        : index === 8
          ? { outcome: 'applied', applied: true }
          : { outcome: undefined, outcomeHistory: undefined },
    ),
  );
  const pricingCopies = Array.from({ length: 3 }, (_, index) =>
    copyOf(month.pricing, index, { outcome: 'adopted', applied: false }),
  );
  const webCopies = Array.from({ length: 4 }, (_, index) =>
    copyOf(
      month.web,
      index,
      index < 2
        ? { status: 'unfixed', stopReason: 'budget-exhausted', action: undefined, outcome: undefined, attempts: [] }
        : { outcome: undefined },
    ),
  );
  await collect(billing, 'billing', billingCopies);
  await collect(pricing, 'pricing', pricingCopies);
  await collect(web, 'web', webCopies);
}, 600_000);

afterAll(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

describe('a month of runs across three repositories', () => {
  it('read the outcomes from real commits: adopted, applied then reverted, superseded', () => {
    expect(month.billing).toMatchObject({
      repository: 'acme/billing',
      tier: 'assist',
      action: 'suggest',
      outcome: 'adopted',
      fixModules: ['ledger'],
      coverage: { ledger: 90 },
    });
    expect(month.billing.outcomeHistory?.[0]?.evidence).toBe(
      'the same change is in commit ' +
        month.billing.outcomeHistory?.[0]?.commit?.slice(0, 7) +
        ' "Apply suggestion from mvnx"',
    );
    expect(month.pricing).toMatchObject({ repository: 'acme/pricing', applied: true, outcome: 'reverted' });
    expect(month.pricing.outcomeHistory?.map((event) => event.outcome)).toEqual(['applied', 'reverted']);
    expect(month.pricing.outcomeHistory?.[1]?.evidence).toMatch(
      /^commit [0-9a-f]{7} "Revert "fix multiply \(mvnx\)"" put the old lines back$/,
    );
    expect(month.web).toMatchObject({
      repository: 'acme/web',
      tier: 'monitor',
      action: 'record',
      outcome: 'superseded',
    });
  });

  it('posted the billing suggestion on the pull request and wrote valid SARIF with the fix', () => {
    expect(month.github.failures).toEqual([]);
    expect(month.billing.review).toMatchObject({
      platform: 'github',
      message: 'posted a review with 1 suggestion(s) on pull request #12',
    });
    expect(month.githubState.comments).toEqual([
      expect.objectContaining({
        path: CALC,
        line: 11,
        side: 'RIGHT',
        commit_id: 'feedc0de',
        body: expect.stringContaining('```suggestion\n        int result = a * b;\n```'),
      }),
    ]);
    expect(sarifSchemaErrors(month.sarif)).toEqual([]);
    const result = (month.sarif as { runs: { results: { ruleId: string; fixes?: unknown[] }[] }[] }).runs[0]!
      .results[0]!;
    expect(result.ruleId).toBe('mvnx/compile');
    expect(result.fixes).toHaveLength(1);
  });

  it('--stats, --advise and the HTML page agree, and the advice names the module that earned auto', async () => {
    const from = ['--from', 'artifacts/**/.mvnx/runs'];
    const statsRun = await mvnx(root, ['runs', '--stats', '--json', ...from]);
    expect(statsRun.exitCode, statsRun.stderr).toBe(0);
    const stats = JSON.parse(statsRun.stdout) as RolloutStats;
    const adviceRun = await mvnx(root, ['runs', '--advise', '--json', ...from]);
    expect(adviceRun.exitCode, adviceRun.stderr).toBe(0);
    const advice = JSON.parse(adviceRun.stdout) as ModuleAdvice[];
    const report = await mvnx(root, ['report', '--html', 'out/rollout.html', ...from]);
    expect(report.exitCode, report.stderr).toBe(0);

    // The numbers of the month.
    expect(stats.repositories).toEqual(['acme/billing', 'acme/pricing', 'acme/web']);
    expect(stats.runs).toBe(21);
    const group = (repository: string) => stats.groups.find((entry) => entry.repository === repository)!;
    expect(stats.groups.map((entry) => [entry.repository, entry.module, entry.tier])).toEqual([
      ['acme/billing', 'ledger', 'assist'],
      ['acme/pricing', 'pricing', 'assist'],
      ['acme/web', 'webcalc', 'monitor'],
    ]);
    expect(group('acme/billing')).toMatchObject({
      runs: 12,
      fixed: 12,
      suggested: 12,
      suggestionsTaken: 10,
      adopted: 9,
      applied: 1,
      reverted: 0,
      coverage: 90,
    });
    expect(group('acme/pricing')).toMatchObject({
      runs: 4,
      suggested: 4,
      suggestionsTaken: 4,
      reverted: 1,
      modelCalls: 4,
    });
    expect(group('acme/web')).toMatchObject({ runs: 5, fixed: 3, repaired: 5, superseded: 1, suggested: 0 });

    // The advice: billing's ledger earned auto; pricing had a revert; web has too few runs.
    const promoted = advice.filter((entry) => entry.verdict === 'promote');
    expect(promoted.map((entry) => [entry.repository, entry.module, entry.tier, entry.to])).toEqual([
      ['acme/billing', 'ledger', 'assist', 'auto'],
    ]);
    expect(promoted[0]!.rule).toMatch(/modules: \[ledger\]\n {4}tier: auto$/);
    expect(advice.find((entry) => entry.module === 'pricing')!.summary).toContain('reverted 1 (needs <= 0)');
    expect(advice.find((entry) => entry.module === 'webcalc')!.summary).toContain('runs at monitor 5 (needs >= 20)');
    for (const entry of advice) {
      const same = stats.groups.find(
        (candidate) =>
          candidate.repository === entry.repository &&
          candidate.module === entry.module &&
          candidate.tier === entry.tier,
      );
      expect(entry.stats).toEqual(same);
    }
    const text = await mvnx(root, ['runs', '--advise', ...from]);
    expect(text.stdout).toContain('PROMOTE  acme/billing ledger: assist -> auto');
    expect(text.stdout).toContain('    modules: [ledger]');

    // The page, opened in a real headless Chromium.
    const browser: Browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu'],
      headless: true,
    });
    try {
      const page = await browser.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.setViewport({ width: 1200, height: 900 });
      await page.goto(`file://${path.join(root, 'out/rollout.html')}`, { waitUntil: 'load' });
      expect(requested).toEqual([`file://${path.join(root, 'out/rollout.html')}`]);

      const tiles = await page.$$eval('[data-stat]', (nodes) =>
        nodes.map((node) => [node.getAttribute('data-stat'), node.getAttribute('data-value'), node.textContent]),
      );
      expect(tiles.length).toBeGreaterThanOrEqual(10);
      for (const [stat, value] of tiles) {
        const expected = stat!
          .split('.')
          .reduce<unknown>((object: unknown, key: string) => (object as Record<string, unknown>)[key], stats);
        expect(value === 'null' ? null : Number(value), stat!).toBe(expected);
      }
      expect(tiles.find(([stat]) => stat === 'runs')?.[2]).toBe('21');
      const rows = await page.$$eval('tr[data-group]', (nodes) =>
        nodes.map((row) => ({
          group: row.getAttribute('data-group'),
          cells: [...row.querySelectorAll('td[data-field]')].map((cell) => [
            cell.getAttribute('data-field'),
            cell.getAttribute('data-value'),
          ]),
        })),
      );
      expect(rows.map((row) => row.group)).toEqual(
        stats.groups.map((entry) => `${entry.repository}|${entry.module}|${entry.tier}`),
      );
      rows.forEach((row, index) => {
        for (const [field, value] of row.cells)
          expect(value === 'null' ? null : Number(value), `${row.group} ${field}`).toBe(
            (stats.groups[index] as unknown as Record<string, unknown>)[field!],
          );
      });
      const verdicts = await page.$$eval('.advice', (nodes) =>
        nodes.map((node) => [
          node.getAttribute('data-module'),
          node.getAttribute('data-verdict'),
          node.getAttribute('data-to'),
        ]),
      );
      expect(verdicts).toEqual(advice.map((entry) => [entry.module, entry.verdict, entry.to ?? null]));
      expect(await page.$eval('.advice.promote pre', (node) => node.textContent)).toBe(promoted[0]!.rule);

      // Every chart rendered: a screenshot of its area has ink in several colours.
      const charts = await page.$$('figure.chart svg');
      expect(charts).toHaveLength(5);
      for (const chart of charts) {
        const box = await chart.boundingBox();
        expect(box!.width).toBeGreaterThan(200);
        const ink = inkOf(decodePng(await chart.screenshot({ type: 'png' })));
        expect(ink.inkShare, await chart.evaluate((node) => node.getAttribute('aria-label'))).toBeGreaterThan(0.02);
        expect(ink.colours).toBeGreaterThanOrEqual(3);
      }
      await page.screenshot({ path: path.join(root, 'out/rollout.png'), fullPage: true });
      // To look at the page yourself: MVNX_KEEP_REPORT=/some/folder keeps the page and its screenshot.
      if (process.env.MVNX_KEEP_REPORT)
        await cp(path.join(root, 'out'), process.env.MVNX_KEEP_REPORT, { recursive: true });
    } finally {
      await browser.close();
    }
    expect((await readdir(path.join(root, 'out'))).sort()).toEqual(['rollout.html', 'rollout.png']);
  });
});
