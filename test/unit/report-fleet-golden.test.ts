/**
 * The rollout numbers are public (`mvnx runs --stats`, `--advise`, `mvnx report --html`):
 * reading the records as a stream (issue 28) must not change one character of them. The
 * expected outputs in test/fixtures/fleet-golden/ were written by the code that held every
 * record in memory (main at 5f48701), over this same generated fleet: outcomes, histories,
 * publications, coverage, the same runs collected twice, records without a repository,
 * broken and foreign records. `MVNX_UPDATE_GOLDEN=1` rewrites them (only for a change of
 * meaning that the commit explains).
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeFleet } from '../../src/bench/fleet-records.js';
import { run as report } from '../../src/cli/commands/report.js';
import { run as runs } from '../../src/cli/commands/runs.js';

const GOLDEN = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/fleet-golden');
const UPDATE = process.env.MVNX_UPDATE_GOLDEN === '1';
const NOW = new Date('2026-12-02T06:00:00Z');

let root: string;

async function writeRecord(runsFolder: string, name: string, content: string): Promise<void> {
  await mkdir(path.join(runsFolder, name), { recursive: true });
  await writeFile(path.join(runsFolder, name, 'run.json'), content);
}

/** The generated fleet, plus what real collections hold besides clean records. */
async function buildFleet(): Promise<void> {
  const repos = path.join(root, 'repos');
  await writeFleet(repos, { repositories: 6, runsPerRepository: 40, seed: 7 });
  const runsOf = (repo: string) => path.join(repos, repo, '.mvnx', 'runs');
  const names = (await readdir(runsOf('repo-0001'))).sort();
  const sample = JSON.parse(await readFile(path.join(runsOf('repo-0001'), names[0]!, 'run.json'), 'utf8')) as Record<
    string,
    unknown
  >;

  // Broken and foreign records: not JSON, a stop reason from another mvnx, a wrong type; an empty run folder; `latest`.
  await writeRecord(runsOf('repo-0001'), 'broken-1', '{"runId": "broken-1", "startedAt": ');
  await writeRecord(
    runsOf('repo-0002'),
    'foreign-1',
    JSON.stringify({ ...sample, runId: 'foreign-1', stopReason: 'gpu-melted', schema: 9 }),
  );
  await writeRecord(
    runsOf('repo-0002'),
    'wrong-type-1',
    JSON.stringify({ ...sample, runId: 'wrong-type-1', mavenExitCode: 'one' }),
  );
  await writeRecord(runsOf('repo-0003'), 'array-1', '[1, 2, 3]');
  await mkdir(path.join(runsOf('repo-0003'), 'killed-before-writing'), { recursive: true });
  await writeFile(path.join(runsOf('repo-0003'), 'latest'), `${names.at(-1)}\n`);
  // A record from a newer mvnx: fields this one does not know pass through.
  await writeRecord(
    runsOf('repo-0004'),
    'newer-1',
    JSON.stringify({
      ...sample,
      runId: 'newer-1',
      repository: 'acme/repo-0004',
      gpu: { name: 'A100' },
      attempts: [{ n: 1, source: 'model', outcome: 'verified', fingerprint: 'f-newer', stages: 'later' }],
    }),
  );

  // Records written before `repository` existed: named after the folder holding .mvnx.
  for (const [index, name] of names.slice(0, 5).entries()) {
    const record = JSON.parse(await readFile(path.join(runsOf('repo-0001'), name, 'run.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    delete record.repository;
    await writeRecord(
      path.join(repos, 'legacy-service', '.mvnx', 'runs'),
      `legacy-${index}`,
      JSON.stringify({ ...record, runId: `legacy-${index}` }),
    );
  }

  // The same runs collected again by a later job: some reconciled since (they know more and win), some unchanged.
  const job2 = path.join(root, 'artifacts', 'job-2', '.mvnx', 'runs');
  for (const [index, name] of names.slice(10, 22).entries()) {
    const record = JSON.parse(await readFile(path.join(runsOf('repo-0001'), name, 'run.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    if (index % 2 === 0 && record.status === 'fixed') {
      record.outcome = 'reverted';
      record.reconciledAt = '2026-12-01T12:00:00.000Z';
      record.outcomeHistory = [
        ...((record.outcomeHistory as unknown[]) ?? []),
        { outcome: 'reverted', at: '2026-12-01T11:00:00.000Z', evidence: 'commit 0abc123 "revert"' },
      ];
      if (index === 4) delete record.repository;
    }
    await writeRecord(job2, name, JSON.stringify(record));
  }
  await cp(runsOf('repo-0005'), path.join(root, 'artifacts', 'job-3', '.mvnx', 'runs'), { recursive: true });
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'mvnx-fleet-golden-'));
  await buildFleet();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterAll(async () => {
  vi.useRealTimers();
  await rm(root, { recursive: true, force: true });
});

async function capture(work: () => Promise<number>): Promise<{ code: number; out: string; err: string }> {
  const [stdout, stderr] = [process.stdout.write.bind(process.stdout), process.stderr.write.bind(process.stderr)];
  let out = '';
  let err = '';
  process.stdout.write = ((chunk: string) => ((out += chunk), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => ((err += chunk), true)) as typeof process.stderr.write;
  try {
    return { code: await work(), out, err };
  } finally {
    process.stdout.write = stdout;
    process.stderr.write = stderr;
  }
}

async function matchesGolden(name: string, actual: string): Promise<void> {
  const file = path.join(GOLDEN, name);
  if (UPDATE) {
    await mkdir(GOLDEN, { recursive: true });
    await writeFile(file, actual);
  }
  expect(existsSync(file), `${name} is missing: run with MVNX_UPDATE_GOLDEN=1 on the reference code`).toBe(true);
  expect(actual).toBe(await readFile(file, 'utf8'));
}

const FROM = ['--from', 'repos/*', '--from', 'artifacts/*'];

describe('the rollout numbers over a collected fleet are those of the in-memory code, to the character', () => {
  it.each([
    ['stats.json', ['--stats', '--json', ...FROM]],
    ['stats.txt', ['--stats', ...FROM]],
    ['stats-window-module.json', ['--stats', '--json', '--since', '2026-11-10', '--module', 'module-1', ...FROM]],
    ['stats-window.txt', ['--stats', '--since', '14d', ...FROM]],
    ['advise.json', ['--advise', '--json', ...FROM]],
    ['advise.txt', ['--advise', '--since', '45d', ...FROM]],
    ['list.json', ['--json', '--limit', '7', ...FROM]],
    ['list-window.txt', ['--limit', '12', '--since', '10d', '--module', 'module-3', ...FROM]],
  ])('mvnx runs %s', async (name, args) => {
    const { code, out, err } = await capture(() => runs(args, { cwd: root, env: {} }));
    expect(err).toBe('');
    expect(code).toBe(0);
    await matchesGolden(name, out);
  });

  it.each([
    ['report.html', ['--html', 'out/report.html', ...FROM]],
    [
      'report-window-module.html',
      ['--html', 'out/report-module.html', '--since', '20d', '--module', 'module-2', ...FROM],
    ],
  ])('mvnx report %s', async (name, args) => {
    const { code, err } = await capture(() => report(args, { cwd: root, env: {} }));
    expect(code).toBe(0);
    expect(err).toMatch(/^mvnx: report written to out\/report/);
    await matchesGolden(name, await readFile(path.join(root, args[1]!), 'utf8'));
  });

  it("one project's own records (no --from): the same numbers, and each broken record named on stderr", async () => {
    const cwd = path.join(root, 'repos', 'repo-0002');
    const stats = await capture(() => runs(['--stats', '--json'], { cwd, env: {} }));
    expect(stats.code).toBe(0);
    await matchesGolden('local-stats.json', stats.out);
    expect(stats.err.split('\n').filter(Boolean).sort()).toEqual([
      expect.stringMatching(/^mvnx: skipped .*foreign-1\/run\.json is not a run record: stopReason: /),
      expect.stringMatching(/^mvnx: skipped .*wrong-type-1\/run\.json is not a run record: mavenExitCode: /),
    ]);
    await matchesGolden('local-stderr.txt', stats.err.replaceAll(cwd, '<project>').split('\n').sort().join('\n'));
    const page = await capture(() => report(['--html', 'local.html'], { cwd, env: {} }));
    expect(page.code).toBe(0);
    await matchesGolden(
      'local-report.html',
      (await readFile(path.join(cwd, 'local.html'), 'utf8')).replaceAll(cwd, '<project>'),
    );
  });
});
