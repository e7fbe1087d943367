/**
 * Reading a `.mvnx/runs` folder record by record, for the fleet-scale numbers (issue 28).
 *
 * One read after another into one reused buffer: measured on 10,000 generated records
 * (bench/results-fleet.md), `readFile` of fs/promises cost about 90 µs of CPU per file, 64
 * callback reads in flight about 50 µs, and open/read/close into a reused buffer 15 µs,
 * against 8 µs for the JSON.parse. Reading is the cost, and the thread pool's hand-offs
 * cost more than they hide for files this small that the page cache holds. Nothing else
 * runs while `mvnx runs --stats` reads, so blocking reads are the plain choice here.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { killedRunRecordSync } from './killed-runs.js';
import { InvalidRunRecordError } from './run-record-schema.js';
import type { RunRecord } from './run-record.js';

/** Larger than any run.json mvnx writes (about 3 KB, 60 KB with long diagnostics); a larger file is read whole. */
const BUFFER_BYTES = 256 * 1024;
let buffer: Buffer | undefined;

/** The file's text, or undefined when there is no such file (a run killed before its first write). */
export function readRecordText(file: string): string | undefined {
  buffer ??= Buffer.allocUnsafe(BUFFER_BYTES);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = readSync(fd, buffer, 0, BUFFER_BYTES, 0);
    if (size < BUFFER_BYTES) return buffer.toString('utf8', 0, size);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
  return readFileSync(file, 'utf8');
}

/**
 * The run folders' names of a runs folder (without `latest`), in the file system's order; none when it cannot be read.
 */
export function runNames(folder: string): string[] {
  try {
    return readdirSync(folder).filter((name) => name !== 'latest');
  } catch {
    return [];
  }
}

export type ParseRecord = (text: string, file: string) => RunRecord;

/**
 * Calls `visit` with each valid record of the folder (and its run folder's name), as read;
 * invalid ones go to `onInvalid`. `only` narrows which run folders are read at all.
 */
export function readRunsFolder(
  folder: string,
  parse: ParseRecord,
  visit: (record: RunRecord, name: string) => void,
  options: { onInvalid?: (error: InvalidRunRecordError) => void; only?: (name: string) => boolean } = {},
): void {
  for (const name of runNames(folder)) {
    if (options.only && !options.only(name)) continue;
    // A plain concatenation: path.join's normalising showed in the profile, once per record of the fleet.
    const file = `${folder}${path.sep}${name}${path.sep}run.json`;
    const text = readRecordText(file);
    if (text === undefined) {
      // A run killed before it wrote its record is listed as such (killed-runs.ts); a folder still being made
      // (`<id>.<pid>.tmp`) or a run still going is not a record.
      const killed = name.endsWith('.tmp') ? undefined : killedRunRecordSync(`${folder}${path.sep}${name}`);
      if (killed) visit(killed, name);
      continue;
    }
    let record: RunRecord;
    try {
      record = parse(text, file);
    } catch (error) {
      if (!(error instanceof InvalidRunRecordError)) throw error;
      options.onInvalid?.(error);
      continue;
    }
    visit(record, name);
  }
}
