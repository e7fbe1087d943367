/**
 * Whether a killed run may have left something for this run to put right (killed-runs.ts),
 * found with no more than the build needs anyway: a readdir of TMPDIR and of `.mvnx/runs`,
 * and a stat of the owner marker of each `mvnx-*` folder and run folder found. Only when
 * one is there does the build load killed-runs.js (an ES module graph: 10 ms of CPU and
 * about 90 ms of wall time on a loaded 2-core machine, for every passing build otherwise).
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ownerFromName, OWNER_FILE } from '../maven/owner-marker.js';

/** What a run makes in TMPDIR: its workspace, its log spool, its reused outputs. */
export const TEMP_FOLDER = /^mvnx-(ws|log|outputs)-/;
/** A half-written file or folder of a write-then-rename, named with its writer's pid. */
export const HALF_WRITTEN = /\.(\d+)\.tmp$/;

async function names(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch {
    return [];
  }
}

/** Sync on purpose: existsSync makes no error object for the usual answer (no marker), one syscall each. */
function hasOwnerMarker(folder: string): boolean {
  return existsSync(path.join(folder, OWNER_FILE));
}

/** An unmarked folder whose name carries a pid (made by this mvnx, killed before it marked it, or being marked now). */
function ownedByName(name: string): boolean {
  return ownerFromName(name) !== undefined;
}

/**
 * True when TMPDIR holds an `mvnx-*` folder with an owner marker or a pid in its name, or `.mvnx/runs` a run
 * folder still marked (no record written) or a half-written file; whether its owner is gone
 * is killed-runs.ts's to decide. A live concurrent run's folders answer true too.
 */
export async function mayHaveKilledRuns(runsFolder: string, tmp = os.tmpdir()): Promise<boolean> {
  const [temp, runs] = await Promise.all([names(tmp), names(runsFolder)]);
  return (
    temp.some((name) => TEMP_FOLDER.test(name) && (hasOwnerMarker(path.join(tmp, name)) || ownedByName(name))) ||
    runs.some((name) => name !== 'latest' && (HALF_WRITTEN.test(name) || hasOwnerMarker(path.join(runsFolder, name))))
  );
}
