import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidRunRecordError, parseRunRecord } from '../../src/report/run-record-schema.js';
import { listRunRecordsIn } from '../../src/report/run-record.js';

const valid = {
  runId: '20240601-100000Z-abc123',
  startedAt: '2024-06-01T10:00:00.000Z',
  finishedAt: '2024-06-01T10:01:00.000Z',
  mavenArgs: ['verify'],
  mavenExitCode: 1,
  tier: 'assist',
  status: 'unfixed',
  stopReason: 'no-progress',
  diagnostics: [{ kind: 'compile', message: "';' expected", file: 'src/main/java/A.java', line: 3 }],
  attempts: [
    { n: 1, source: 'model', fingerprint: 'ab', outcome: 'build-failed', filesChanged: ['src/main/java/A.java'] },
  ],
  applied: false,
  decisions: [],
  modelCalls: 1,
  timings: { totalMs: 1, modelMs: 0, applyMs: 0, verifyMs: 0 },
  // A field from a newer mvnx: kept, not refused.
  futureField: { any: 'thing' },
};

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe('parseRunRecord', () => {
  it('reads a valid record back exactly as written, extra fields included', () => {
    expect(parseRunRecord(JSON.stringify(valid), 'run.json')).toEqual(valid);
  });

  it.each([
    [{ ...valid, status: 'done' }, 'status: '],
    [{ ...valid, stopReason: undefined }, 'stopReason: '],
    [{ ...valid, attempts: [{ ...valid.attempts[0], outcome: 'great' }] }, 'attempts.0.outcome: '],
    [{ ...valid, runId: '../../etc' }, 'runId: '],
    [{ ...valid, fixBase: 'A.java' }, 'fixBase: '],
    [[1, 2], '(the whole file): '],
  ])('refuses %j, naming the field', (value, where) => {
    const error = (() => {
      try {
        parseRunRecord(JSON.stringify(value), '/p/.mvnx/runs/x/run.json');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidRunRecordError);
    expect((error as Error).message).toContain(`/p/.mvnx/runs/x/run.json is not a run record: ${where}`);
  });

  it('lists the valid records of a folder and reports the invalid ones instead of returning them', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'mvnx-records-'));
    folders.push(folder);
    for (const [name, text] of [
      ['a', JSON.stringify(valid)],
      ['b', JSON.stringify({ ...valid, tier: 'yolo' })],
      ['c', ''],
    ]) {
      await mkdir(path.join(folder, name!));
      await writeFile(path.join(folder, name!, 'run.json'), text!);
    }
    await mkdir(path.join(folder, 'empty'));
    const invalid: string[] = [];
    const records = await listRunRecordsIn(folder, (error) => invalid.push(error.message));
    expect(records).toEqual([valid]);
    invalid.sort();
    expect(invalid).toHaveLength(2);
    expect(invalid[0]).toContain(`${path.join(folder, 'b', 'run.json')} is not a run record: tier: `);
    expect(invalid[1]).toContain(`${path.join(folder, 'c', 'run.json')} is not a run record: not JSON`);
  });
});
