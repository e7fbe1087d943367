/**
 * The fleet's records are folded as they are read (issue 28): no fold keeps a record, the
 * run list keeps at most twice its limit, copies of one run are decided before the fold
 * (also when a copy's folder is named otherwise), and the quick check of a record never
 * accepts what the run record schema refuses. The numbers themselves are checked against
 * the in-memory code's output in report-fleet-golden.test.ts.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetRecord, writeFleet } from '../../src/bench/fleet-records.js';
import { AdviceFold } from '../../src/report/advice.js';
import { foldRunsFolders, runsFoldersOf } from '../../src/report/collect.js';
import { RolloutFold } from '../../src/report/groups.js';
import { ReportChartsFold } from '../../src/report/html.js';
import { NewestRuns } from '../../src/report/newest-runs.js';
import { checkRunRecord, InvalidRunRecordError } from '../../src/report/run-record-schema.js';
import type { RunRecord } from '../../src/report/run-record.js';
import { parseSlimRecord, plainlyValid, slimRunRecord } from '../../src/report/slim-record.js';
import { foldedRun } from '../../src/report/stats-fold.js';
import { configSchema } from '../../src/policy/schema.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'mvnx-fleet-stream-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** Every object reachable from `start` through properties, arrays, maps and sets. */
function reachable(start: unknown): Set<object> {
  const seen = new Set<object>();
  const stack: unknown[] = [start];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (value instanceof Map) for (const [key, entry] of value) stack.push(key, entry);
    else if (value instanceof Set) for (const entry of value) stack.push(entry);
    else for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key]);
  }
  return seen;
}

describe('folding a fleet as it is read', () => {
  it('keeps no record: after 3,000 runs no fold of the stats, advice or report reaches a single one', async () => {
    const repos = path.join(root, 'no-record-kept');
    await writeFleet(repos, { repositories: 30, runsPerRepository: 100 });
    const folders = await runsFoldersOf([path.join(repos, '*')], root);
    let seen = 0;
    const sink = foldRunsFolders(folders, () => {
      const folds = {
        rollout: new RolloutFold({}),
        charts: new ReportChartsFold(),
        advice: new AdviceFold({
          promote: configSchema.parse({}).rollout.promote,
          now: new Date('2026-12-02T00:00:00Z'),
        }),
      };
      return {
        folds,
        add(record: RunRecord) {
          seen += 1;
          const run = foldedRun(record);
          if (folds.rollout.add(record, run)) folds.charts.add(run);
          folds.advice.add(record, run);
        },
      };
    });
    expect(seen).toBe(3000);
    expect(sink.folds.rollout.result().runs).toBe(3000);
    const records = [...reachable(sink.folds)].filter((value) => 'runId' in value || 'stopReason' in value);
    expect(records).toEqual([]);
  });

  it('the run list holds at most twice its limit while 3,000 runs go by, and gives the newest', async () => {
    const folders = await runsFoldersOf([path.join(root, 'no-record-kept', '*')], root);
    const newest = foldRunsFolders(folders, () => new NewestRuns(20));
    const list = newest.result();
    expect(newest.peak).toBeLessThanOrEqual(40);
    expect(list).toHaveLength(20);
    const all = foldRunsFolders(folders, () => new NewestRuns(5000)).result();
    expect(all).toHaveLength(3000);
    expect(list.map((record) => record.runId)).toEqual(all.slice(0, 20).map((record) => record.runId));
  });
});

async function writeRun(folder: string, name: string, record: Record<string, unknown>): Promise<void> {
  await mkdir(path.join(folder, name), { recursive: true });
  await writeFile(path.join(folder, name, 'run.json'), JSON.stringify(record));
}

/** A fixed run with nothing known yet of its fix (index 4 of the generator: no outcome), its own fingerprint per run id. */
const fixedRun = (runId: string, extra: Record<string, unknown> = {}) => {
  const record = fleetRecord(`acme/${runId}`, 4, () => 0.01);
  return { ...record, runId, ...extra };
};

describe('one run collected several times counts once, as the copy that knows most', () => {
  it('decides copies whose folders share the run id before the fold: the later reconcile wins, on a tie the first folder', async () => {
    const a = path.join(root, 'copies', 'job-1', '.mvnx', 'runs');
    const b = path.join(root, 'copies', 'job-2', '.mvnx', 'runs');
    await writeRun(a, 'run-1', fixedRun('run-1'));
    await writeRun(b, 'run-1', fixedRun('run-1', { outcome: 'reverted', reconciledAt: '2026-12-01T00:00:00Z' }));
    await writeRun(a, 'run-2', fixedRun('run-2', { outcome: 'adopted' }));
    await writeRun(b, 'run-2', fixedRun('run-2', { outcome: 'applied' }));
    const { outcomes, runs } = foldRunsFolders([a, b], () => new RolloutFold({})).result();
    expect(runs).toBe(2);
    expect(outcomes).toMatchObject({ reverted: 1, adopted: 1, applied: 0 });
  });

  it('starts over when a copy sits in a folder named otherwise (a record moved by hand), and still takes the copy that knows most', async () => {
    const a = path.join(root, 'moved', 'job-1', '.mvnx', 'runs');
    const b = path.join(root, 'moved', 'job-2', '.mvnx', 'runs');
    await writeRun(a, 'run-9', fixedRun('run-9'));
    await writeRun(
      b,
      'copied-by-hand',
      fixedRun('run-9', {
        outcome: 'merged',
        reconciledAt: '2026-12-01T00:00:00Z',
        outcomeHistory: [{ outcome: 'merged', at: '2026-11-30T00:00:00Z', evidence: 'pull request #3 merged' }],
      }),
    );
    await writeRun(b, 'run-10', fixedRun('run-10'));
    let starts = 0;
    const stats = foldRunsFolders([a, b], () => (starts++, new RolloutFold({}))).result();
    expect(starts).toBe(2);
    expect(stats.runs).toBe(2);
    expect(stats.outcomes.merged).toBe(1);
    expect(stats.mergedByRequest).toBe(1);
  });
});

describe('the quick check of a projected record', () => {
  const good = slimRunRecord(fixedRun('good-1', { outcome: 'applied' }));
  const mutations: Record<string, (record: Record<string, unknown>) => void> = {
    'runId with a slash': (r) => void (r.runId = '../etc'),
    'runId a number': (r) => void (r.runId = 7),
    'no startedAt': (r) => void delete r.startedAt,
    'finishedAt a number': (r) => void (r.finishedAt = 5),
    'exit code a string': (r) => void (r.mavenExitCode = '1'),
    'exit code 1.5': (r) => void (r.mavenExitCode = 1.5),
    'huge exit code': (r) => void (r.mavenExitCode = 2 ** 60),
    'unknown tier': (r) => void (r.tier = 'yolo'),
    'unknown status': (r) => void (r.status = 'maybe'),
    'stop reason of a newer mvnx': (r) => void (r.stopReason = 'gpu-melted'),
    'unknown outcome': (r) => void (r.outcome = 'ignored'),
    'applied a string': (r) => void (r.applied = 'yes'),
    'diagnostics missing': (r) => void delete r.diagnostics,
    'a diagnostic null': (r) => void (r.diagnostics = [null]),
    'a diagnostic without kind': (r) => void (r.diagnostics = [{ message: '' }]),
    'attempts an object': (r) => void (r.attempts = {}),
    'an attempt null': (r) => void (r.attempts = [null]),
    'an attempt with n 1.5': (r) => void (r.attempts = [{ n: 1.5, source: 'model', outcome: 'verified' }]),
    'an attempt from an unknown source': (r) => void (r.attempts = [{ n: 1, source: 'oracle', outcome: 'verified' }]),
    'an attempt with an unknown outcome': (r) => void (r.attempts = [{ n: 1, source: 'model', outcome: 'great' }]),
    'an extra field of a newer mvnx': (r) => void (r.gpu = { name: 'A100' }),
    'outcome absent': (r) => void delete r.outcome,
  };

  it.each(Object.entries(mutations))('%s: valid for the quick check only where the schema says valid', (_, mutate) => {
    const record = structuredClone(good);
    mutate(record);
    const schemaAccepts = (() => {
      try {
        checkRunRecord(record, 'run.json');
        return true;
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidRunRecordError);
        return false;
      }
    })();
    if (plainlyValid(record)) expect(schemaAccepts).toBe(true);
    const read = () => parseSlimRecord(JSON.stringify(record), 'run.json');
    if (schemaAccepts) expect(read().runId).toBe(record.runId);
    else expect(read).toThrow(InvalidRunRecordError);
  });

  it('a clean record passes the quick check (the schema is not asked), and a broken one is named as the schema words it', () => {
    expect(plainlyValid(good)).toBe(true);
    expect(() => parseSlimRecord(JSON.stringify({ ...good, diagnostics: [null] }), 'x/run.json')).toThrow(
      'x/run.json is not a run record: diagnostics.0: Invalid input: expected object, received null',
    );
    expect(() => parseSlimRecord('[1]', 'y/run.json')).toThrow(
      'y/run.json is not a run record: (the whole file): Invalid input: expected object, received array',
    );
    expect(() => parseSlimRecord('{"runId": ', 'z/run.json')).toThrow(/^z\/run\.json is not a run record: not JSON \(/);
  });
});
