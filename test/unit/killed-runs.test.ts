/**
 * What a run killed outright leaves is found by the next one (issue 44): owner markers name
 * real processes here (a child that has exited, and this test's own process), the folders
 * are real folders.
 */
import { execa } from 'execa';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  OWNER_FILE,
  ownedPrefix,
  ownerFromName,
  ownerIsGone,
  processStartTicks,
  thisProcess,
} from '../../src/maven/owner-marker.js';
import { cleanUpKilledRuns, killedRunsLine } from '../../src/report/killed-runs.js';
import { mayHaveKilledRuns } from '../../src/report/killed-runs-probe.js';
import { listRunRecordsIn } from '../../src/report/run-record.js';
import { formatRunList, formatRunStats } from '../../src/report/stats-format.js';
import { computeRunStats } from '../../src/report/stats.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The pid of a process that ran and is gone (reaped). */
async function deadPid(): Promise<number> {
  const child = execa('node', ['-e', '']);
  const pid = child.pid!;
  await child;
  return pid;
}

async function folderOwnedBy(parent: string, name: string, owner: object): Promise<string> {
  const dir = path.join(parent, name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, OWNER_FILE), JSON.stringify(owner));
  await writeFile(path.join(dir, 'some-file.txt'), 'x');
  return dir;
}

describe('owner markers', () => {
  it('a pid that is free is gone; this process is not; this pid with another start time is (reused pid)', async () => {
    const pid = await deadPid();
    expect(ownerIsGone({ pid, createdAt: '' })).toBe(true);
    expect(ownerIsGone(thisProcess())).toBe(false);
    const ticks = processStartTicks(process.pid);
    expect(ticks).toBeGreaterThan(0);
    expect(ownerIsGone({ pid: process.pid, startTicks: ticks! + 1, createdAt: '' })).toBe(true);
    expect(ownerIsGone({ pid: 1, createdAt: '' })).toBe(false);
    // A pid of another PID namespace (a container sharing TMPDIR) proves nothing here.
    expect(thisProcess().pidNamespace).toMatch(/^pid:\[\d+\]$/);
    expect(ownerIsGone({ pid, createdAt: '', pidNamespace: 'pid:[1]' })).toBe(false);
    expect(ownerIsGone({ pid, createdAt: '', pidNamespace: thisProcess().pidNamespace! })).toBe(true);
  });
});

describe('cleanUpKilledRuns', () => {
  it("removes a dead run's TMPDIR folders, records its run as interrupted, and leaves live and unmarked ones alone", async () => {
    const tmp = await tempDir('mvnx-killed-tmp-');
    const runs = await tempDir('mvnx-killed-runs-');
    const pid = await deadPid();
    const dead = { pid, createdAt: '2026-12-05T10:00:00.000Z' };
    await folderOwnedBy(tmp, 'mvnx-ws-dead1', dead);
    await folderOwnedBy(tmp, 'mvnx-log-dead2', dead);
    await folderOwnedBy(tmp, 'mvnx-outputs-dead3', dead);
    await folderOwnedBy(tmp, 'mvnx-ws-alive', thisProcess());
    await mkdir(path.join(tmp, 'mvnx-ws-unmarked'));
    await folderOwnedBy(tmp, 'other-dead', dead);
    await folderOwnedBy(runs, '20261205-100000Z-aaaaaa', {
      ...dead,
      startedAt: '2026-12-05T09:59:00.000Z',
      mavenArgs: ['-o', 'verify'],
      mavenExitCode: 1,
      tier: 'assist',
    });
    await writeFile(path.join(runs, '20261205-100000Z-aaaaaa', `run.json.${pid}.tmp`), '{"runId": "half');
    await folderOwnedBy(runs, '20261205-110000Z-bbbbbb', thisProcess());
    await mkdir(path.join(runs, '20261205-090000Z-cccccc'));
    await writeFile(path.join(runs, `latest.${pid}.tmp`), 'x');
    // Killed while its run folder was being made (under a temporary name, renamed once marked).
    await folderOwnedBy(runs, `20261205-120000Z-dddddd.${pid}.tmp`, dead);

    // Before the next run: `mvnx runs` already lists the killed run (and not the one still going).
    const listed = await listRunRecordsIn(runs);
    expect(listed.map((r) => [r.runId, r.stopReason, r.incomplete?.pid])).toEqual([
      ['20261205-100000Z-aaaaaa', 'interrupted', pid],
    ]);

    const cleanup = await cleanUpKilledRuns(runs, tmp);

    expect((await readdir(tmp)).sort()).toEqual(['mvnx-ws-alive', 'mvnx-ws-unmarked', 'other-dead']);
    expect(cleanup.removedFolders).toHaveLength(3);
    expect(cleanup.recordedRuns).toEqual(['20261205-100000Z-aaaaaa']);
    expect(cleanup.pids).toEqual([pid]);
    expect(killedRunsLine(cleanup, tmp)).toBe(
      `mvnx: found what an mvnx run killed before finishing (pid ${pid}) left: removed 3 folders it left in ${tmp}; recorded run 20261205-100000Z-aaaaaa as interrupted.`,
    );
    expect(await readdir(path.join(runs, '20261205-100000Z-aaaaaa'))).toEqual(['run.json', 'some-file.txt']);
    expect((await readdir(runs)).sort()).toEqual([
      '20261205-090000Z-cccccc',
      '20261205-100000Z-aaaaaa',
      '20261205-110000Z-bbbbbb',
    ]);
    const written = JSON.parse(await readFile(path.join(runs, '20261205-100000Z-aaaaaa', 'run.json'), 'utf8'));
    expect(written).toMatchObject({
      runId: '20261205-100000Z-aaaaaa',
      startedAt: '2026-12-05T09:59:00.000Z',
      mavenArgs: ['-o', 'verify'],
      mavenExitCode: 1,
      tier: 'assist',
      status: 'error',
      stopReason: 'interrupted',
      incomplete: { pid },
    });

    // Read back as a valid record; listed, and counted as interrupted by --stats.
    const records = await listRunRecordsIn(runs);
    expect(records.map((r) => r.runId)).toEqual(['20261205-100000Z-aaaaaa']);
    expect(formatRunList(records)).toContain('error (incomplete)');
    const stats = computeRunStats(records);
    expect(stats.stopReasons.interrupted).toBe(1);
    expect(stats.incompleteRuns).toBe(1);
    expect(formatRunStats(stats)).toMatch(/interrupted runs\s+1 \(1 killed before writing a record/);

    // Said once: the next run finds nothing more.
    expect(killedRunsLine(await cleanUpKilledRuns(runs, tmp), tmp)).toBeUndefined();
  });
});

describe('mayHaveKilledRuns (the passing build loads killed-runs.js only when it says so)', () => {
  it('says no for nothing, finished runs and unmarked folders; yes for each kind of leftover', async () => {
    const tmp = await tempDir('mvnx-probe-tmp-');
    const runs = await tempDir('mvnx-probe-runs-');
    await mkdir(path.join(tmp, 'mvnx-ws-unmarked'));
    await folderOwnedBy(tmp, 'other-marked', thisProcess());
    await mkdir(path.join(runs, '20261205-090000Z-cccccc'));
    await writeFile(path.join(runs, '20261205-090000Z-cccccc', 'run.json'), '{}');
    await writeFile(path.join(runs, 'latest'), '20261205-090000Z-cccccc');
    expect(await mayHaveKilledRuns(runs, tmp)).toBe(false);
    expect(await mayHaveKilledRuns(path.join(runs, 'missing'), path.join(tmp, 'missing'))).toBe(false);

    const marked = await folderOwnedBy(tmp, 'mvnx-log-x', thisProcess());
    expect(await mayHaveKilledRuns(runs, tmp)).toBe(true);
    await rm(marked, { recursive: true });
    const going = await folderOwnedBy(runs, '20261205-100000Z-aaaaaa', thisProcess());
    expect(await mayHaveKilledRuns(runs, tmp)).toBe(true);
    await rm(going, { recursive: true });
    await writeFile(path.join(runs, `latest.${await deadPid()}.tmp`), 'x');
    expect(await mayHaveKilledRuns(runs, tmp)).toBe(true);
  });
});

describe('folders named with their maker (a kill before the marker is written)', () => {
  it('reads the pid and PID namespace back from the name; other names carry none', () => {
    const prefix = ownedPrefix('mvnx-ws-');
    expect(prefix).toMatch(new RegExp(`^mvnx-ws-${process.pid}-n\\d+-$`));
    const owner = ownerFromName(`${prefix}Ab12Cd`);
    expect(owner).toEqual({ pid: process.pid, createdAt: '', pidNamespace: thisProcess().pidNamespace });
    expect(ownerIsGone(owner!)).toBe(false);
    expect(ownerFromName('mvnx-log-123-4abcde')).toEqual({ pid: 123, createdAt: '' });
    for (const name of ['mvnx-ws-unmarked', 'mvnx-ws-123456', 'mvnx-log-not-created', 'mvnx-built-1-x', 'mvnx-ws-0-x'])
      expect(ownerFromName(name), name).toBeUndefined();
  });

  it('removes an unmarked folder of a dead pid; keeps one of a live pid or of another PID namespace', async () => {
    const tmp = await tempDir('mvnx-named-tmp-');
    const pid = await deadPid();
    const namespace = /\d+/.exec(thisProcess().pidNamespace!)![0];
    await mkdir(path.join(tmp, `mvnx-ws-${pid}-n${namespace}-Ab12Cd`));
    await mkdir(path.join(tmp, `mvnx-outputs-${pid}-Zz9Yy8`));
    // A half-written marker (killed while writing it) reads as none: the name decides.
    await mkdir(path.join(tmp, `mvnx-log-${pid}-n${namespace}-Qq1Ww2`));
    await writeFile(path.join(tmp, `mvnx-log-${pid}-n${namespace}-Qq1Ww2`, OWNER_FILE), '{"pid": ');
    await mkdir(path.join(tmp, `mvnx-ws-${process.pid}-n${namespace}-Live01`));
    await mkdir(path.join(tmp, `mvnx-ws-${pid}-n1-Other1`));
    expect(await mayHaveKilledRuns(path.join(tmp, 'no-runs'), tmp)).toBe(true);

    const cleanup = await cleanUpKilledRuns(path.join(tmp, 'no-runs'), tmp);

    expect(cleanup.removedFolders).toHaveLength(3);
    expect(cleanup.pids).toEqual([pid]);
    const kept = [`mvnx-ws-${pid}-n1-Other1`, `mvnx-ws-${process.pid}-n${namespace}-Live01`];
    expect((await readdir(tmp)).sort()).toEqual(kept.sort());
  });

  it('removes the stale marker of a run killed after its record was renamed into place, and no record is made', async () => {
    const runs = await tempDir('mvnx-stale-runs-');
    const pid = await deadPid();
    const folder = await folderOwnedBy(runs, '20261205-100000Z-aaaaaa', { pid, createdAt: '' });
    await writeFile(path.join(folder, 'run.json'), '{"whole": true}\n');
    await folderOwnedBy(runs, '20261205-110000Z-bbbbbb', thisProcess());
    await writeFile(path.join(runs, '20261205-110000Z-bbbbbb', 'run.json'), '{"going": true}\n');
    expect(await mayHaveKilledRuns(runs, path.join(runs, 'no-tmp'))).toBe(true);

    const cleanup = await cleanUpKilledRuns(runs, path.join(runs, 'no-tmp'));

    expect(cleanup.recordedRuns).toEqual([]);
    expect((await readdir(folder)).sort()).toEqual(['run.json', 'some-file.txt']);
    expect(await readFile(path.join(folder, 'run.json'), 'utf8')).toBe('{"whole": true}\n');
    // A live run's marker stays.
    expect(await readdir(path.join(runs, '20261205-110000Z-bbbbbb'))).toContain(OWNER_FILE);
  });
});
