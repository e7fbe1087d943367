/**
 * Fleet-scale numbers (issue 28): `mvnx runs --stats --from` and `mvnx report --html` over
 * generated records of many repositories, through the real subcommands and the real files.
 * Functional only (a smaller fleet); `npm run bench:fleet` measures 1,000 x 100.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFleet, type FleetTruth } from '../../src/bench/fleet-records.js';
import { run as report } from '../../src/cli/commands/report.js';
import { run as runs } from '../../src/cli/commands/runs.js';
import { collectRunRecords } from '../../src/report/collect.js';
import { slimRunRecord } from '../../src/report/slim-record.js';

let root: string;
let truth: FleetTruth;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'mvnx-fleet-'));
  truth = await writeFleet(path.join(root, 'repos'), { repositories: 20, runsPerRepository: 15 });
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function captureStdout(work: () => Promise<number>): Promise<{ code: number; out: string }> {
  const write = process.stdout.write.bind(process.stdout);
  let out = '';
  process.stdout.write = ((chunk: string) => ((out += chunk), true)) as typeof process.stdout.write;
  try {
    return { code: await work(), out };
  } finally {
    process.stdout.write = write;
  }
}

describe('rollout numbers over a fleet of repositories', () => {
  it('mvnx runs --stats --from a glob of repositories counts every run once, by stop reason and repository', async () => {
    const { code, out } = await captureStdout(() =>
      runs(['--stats', '--json', '--from', 'repos/*'], { cwd: root, env: {} }),
    );
    expect(code).toBe(0);
    const stats = JSON.parse(out) as {
      runs: number;
      stopReasons: Record<string, number>;
      repositories: string[];
      overall: { fixed: number };
    };
    expect(stats.runs).toBe(truth.runs);
    expect(stats.stopReasons).toEqual(truth.stopReasons);
    expect(stats.overall.fixed).toBe(truth.fixed);
    expect(stats.repositories).toHaveLength(20);
  });

  it('mvnx report --html writes the page with the same numbers', async () => {
    const file = path.join(root, 'report.html');
    const code = await report(['--html', file, '--from', 'repos/*'], { cwd: root, env: {} });
    expect(code).toBe(0);
    const html = await readFile(file, 'utf8');
    expect(html).toContain('acme/repo-0020');
    expect(html).toMatch(new RegExp(`\\b${truth.runs}\\b`));
  });

  it('keeps only what the numbers read of each record: no messages, decisions, stages or requests', async () => {
    const { records } = await collectRunRecords(['repos/**/.mvnx/runs'], root);
    expect(records).toHaveLength(truth.runs);
    const record = records.find((r) => r.stopReason === 'fixed')!;
    expect(record.decisions).toEqual([]);
    expect(record.diagnostics.every((d) => d.message === '')).toBe(true);
    expect(record.attempts[0]).toEqual({ n: 1, source: 'model', outcome: 'verified', fingerprint: expect.any(String) });
    expect(record.modelRequests).toBeUndefined();
    expect(slimRunRecord({ runId: 'x', attempts: 'not a list' }).attempts).toBe('not a list');
  });
});
