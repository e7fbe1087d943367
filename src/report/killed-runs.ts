/**
 * What a run killed outright (SIGKILL, a CI runner's cancel after its grace period, a
 * crash) leaves, found and put right by the next run (issue 44):
 *
 *   - its folders in TMPDIR (workspace `mvnx-ws-*`, log spool `mvnx-log-*`, reused outputs
 *     `mvnx-outputs-*`) are removed when their owner marker names a process that is gone, or,
 *     with no readable marker, when the pid their name carries (ownedPrefix) is gone;
 *   - its `.mvnx/runs/<id>/` without a `run.json` gets one: a record marked `incomplete`,
 *     stop reason `interrupted`, so `mvnx runs` lists it and `--stats` counts it;
 *   - half-written files (`*.<pid>.tmp` of a write-then-rename) of dead writers go.
 *
 * A folder whose owner may still run (the pid lives and started when the marker says) is
 * left alone: a concurrent run's workspace is never touched.
 */
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  ownerFromName,
  ownerIsGone,
  readOwner,
  readOwnerSync,
  OWNER_FILE,
  type FolderOwner,
} from '../maven/owner-marker.js';
import { HALF_WRITTEN, TEMP_FOLDER } from './killed-runs-probe.js';
import { killByEnvironment, killLeftGroup, STAGE_MARKER } from '../maven/process-tree.js';
import type { RunRecord } from './run-record-types.js';

/** What `RunRecorder.open` writes into the marker of a run's folder, so a killed run still has a record's basics. */
export interface RunStartFacts {
  startedAt: string;
  mavenArgs: string[];
  mavenExitCode: number;
  tier: RunRecord['tier'];
}

export interface KilledRunsCleanup {
  /** TMPDIR folders removed. */
  removedFolders: string[];
  /** Runs recorded as incomplete. */
  recordedRuns: string[];
  /** The killed processes whose leftovers these were. */
  pids: number[];
  /** Processes of their builds still running, now killed (`--mvnx-sandbox=none`). */
  stoppedProcesses: number[];
}

/** The record of a run that was killed before it wrote its own; `foundAt` is when a later run found it. */
export function incompleteRecord(runId: string, owner: FolderOwner & Partial<RunStartFacts>, foundAt: Date): RunRecord {
  const startedAt = typeof owner.startedAt === 'string' ? owner.startedAt : owner.createdAt;
  const reason = `the run (pid ${owner.pid}) was killed before it wrote its record; found by a later run`;
  return {
    runId,
    startedAt,
    finishedAt: startedAt,
    mavenArgs: Array.isArray(owner.mavenArgs) ? owner.mavenArgs.filter((arg) => typeof arg === 'string') : [],
    mavenExitCode: Number.isInteger(owner.mavenExitCode) ? owner.mavenExitCode! : 1,
    tier: owner.tier ?? 'monitor',
    status: 'error',
    stopReason: 'interrupted',
    message: reason,
    diagnostics: [],
    attempts: [],
    applied: false,
    decisions: [reason],
    modelCalls: 0,
    timings: { totalMs: 0, modelMs: 0, applyMs: 0, verifyMs: 0 },
    incomplete: { foundAt: foundAt.toISOString(), pid: owner.pid, reason },
  };
}

/** A run folder without run.json whose owner is gone: the record it stands for; undefined otherwise. */
export async function killedRunRecord(folder: string, foundAt = new Date()): Promise<RunRecord | undefined> {
  const owner = await readOwner(folder);
  if (!owner || !ownerIsGone(owner)) return undefined;
  return incompleteRecord(path.basename(folder), owner, foundAt);
}

/** The same, blocking (record-stream.ts reads a runs folder with synchronous reads). */
export function killedRunRecordSync(folder: string, foundAt = new Date()): RunRecord | undefined {
  const owner = readOwnerSync(folder);
  if (!owner || !ownerIsGone(owner)) return undefined;
  return incompleteRecord(path.basename(folder), owner, foundAt);
}

async function names(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch {
    return [];
  }
}

function writerIsGone(file: string): boolean {
  const pid = Number(HALF_WRITTEN.exec(file)?.[1]);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Records the killed runs of one project (write-then-rename) and removes their half-written files. */
export async function recordKilledRuns(
  runsFolder: string,
  foundAt = new Date(),
): Promise<{ runs: string[]; pids: number[] }> {
  const runs: string[] = [];
  const pids: number[] = [];
  for (const name of await names(runsFolder)) {
    const folder = path.join(runsFolder, name);
    if (HALF_WRITTEN.test(name)) {
      if (writerIsGone(name)) await rm(folder, { recursive: true, force: true });
      continue;
    }
    const files = await names(folder);
    if (files.length === 0 || !files.includes(OWNER_FILE)) continue;
    if (files.includes('run.json')) {
      // Killed between renaming its record into place and removing its marker: the record is whole; only the marker
      // is left (it would make every later build look here again).
      const owner = await readOwner(folder);
      if (owner && ownerIsGone(owner)) await rm(path.join(folder, OWNER_FILE), { force: true });
      for (const file of files) if (writerIsGone(file)) await rm(path.join(folder, file), { force: true });
      continue;
    }
    const record = await killedRunRecord(folder, foundAt);
    if (!record) continue;
    for (const file of files) if (HALF_WRITTEN.test(file)) await rm(path.join(folder, file), { force: true });
    const temp = path.join(folder, `run.json.${process.pid}.tmp`);
    await writeFile(temp, `${JSON.stringify(record, null, 2)}\n`);
    await rename(temp, path.join(folder, 'run.json'));
    await rm(path.join(folder, OWNER_FILE), { force: true });
    runs.push(name);
    pids.push(record.incomplete!.pid);
  }
  return { runs, pids };
}

/** Removes the TMPDIR folders of mvnx runs that are gone. */
export async function removeKilledRunFolders(
  tmp = os.tmpdir(),
): Promise<{ folders: string[]; pids: number[]; stopped: number[] }> {
  const folders: string[] = [];
  const pids: number[] = [];
  const stopped: number[] = [];
  for (const name of await names(tmp)) {
    if (!TEMP_FOLDER.test(name)) continue;
    const folder = path.join(tmp, name);
    // No marker (killed between making the folder and marking it, or killed while writing the marker): the name says.
    const owner = (await readOwner(folder)) ?? ownerFromName(name);
    if (!owner || !ownerIsGone(owner)) continue;
    // Without a sandbox (`--mvnx-sandbox=none`) nothing ends a workspace's builds with their mvnx (bubblewrap's
    // --die-with-parent does otherwise): each carries its workspace's path in its environment.
    // A log spool names the process group its Maven ran in (the user's build, or a verification build).
    const group = owner.mavenGroup;
    if (typeof group === 'number' && Number.isInteger(group) && group > 1) {
      const ticks = owner.mavenGroupStartTicks;
      stopped.push(...killLeftGroup(group, typeof ticks === 'number' ? ticks : undefined));
    }
    if (name.startsWith('mvnx-ws-'))
      stopped.push(...killByEnvironment(STAGE_MARKER, (value) => value.includes(`${path.sep}${name}${path.sep}`)));
    await rm(folder, { recursive: true, force: true, maxRetries: 3 });
    folders.push(folder);
    pids.push(owner.pid);
  }
  return { folders, pids, stopped };
}

/** Both of the above; never throws (cleaning up after another run must not fail this one). */
export async function cleanUpKilledRuns(runsFolder: string, tmp = os.tmpdir()): Promise<KilledRunsCleanup> {
  const empty = { folders: [] as string[], runs: [] as string[], pids: [] as number[], stopped: [] as number[] };
  const [temp, runs] = await Promise.all([
    removeKilledRunFolders(tmp).catch(() => empty),
    recordKilledRuns(runsFolder).catch(() => empty),
  ]);
  return {
    removedFolders: temp.folders,
    recordedRuns: runs.runs,
    stoppedProcesses: temp.stopped,
    pids: [...new Set([...temp.pids, ...runs.pids])].sort((a, b) => a - b),
  };
}

/** The one line the console gets, or undefined when nothing was found. */
export function killedRunsLine(cleanup: KilledRunsCleanup, tmp = os.tmpdir()): string | undefined {
  const { removedFolders, recordedRuns, pids, stoppedProcesses } = cleanup;
  if (removedFolders.length === 0 && recordedRuns.length === 0) return undefined;
  const parts: string[] = [];
  if (stoppedProcesses.length > 0)
    parts.push(
      `stopped ${stoppedProcesses.length} process${stoppedProcesses.length === 1 ? '' : 'es'} of its builds still running`,
    );
  if (removedFolders.length > 0)
    parts.push(`removed ${removedFolders.length} folder${removedFolders.length === 1 ? '' : 's'} it left in ${tmp}`);
  if (recordedRuns.length > 0)
    parts.push(`recorded run${recordedRuns.length === 1 ? '' : 's'} ${recordedRuns.join(', ')} as interrupted`);
  const who = `${pids.length === 1 ? 'an mvnx run' : `${pids.length} mvnx runs`} killed before finishing (pid ${pids.join(', ')})`;
  return `mvnx: found what ${who} left: ${parts.join('; ')}.`;
}

/** For a reader: the run.json of a folder, else the incomplete record of a killed run, else undefined. */
export async function runJsonOrKilled(folder: string): Promise<{ text: string } | { record: RunRecord } | undefined> {
  try {
    return { text: await readFile(path.join(folder, 'run.json'), 'utf8') };
  } catch {
    const record = await killedRunRecord(folder);
    return record ? { record } : undefined;
  }
}
