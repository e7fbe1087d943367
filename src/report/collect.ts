/**
 * Run records from many places at once, for a platform team: `--from` takes folders and
 * globs of collected `.mvnx/runs` artifacts (`artifacts/** /.mvnx/runs`), or project roots.
 */
import { existsSync, type Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { minimatch } from 'minimatch';
import { MvnxError } from '../shared/errors.js';
import type { RunRecord } from './run-record.js';
import { readSlimRecords } from './slim-record.js';

export interface CollectedRuns {
  records: RunRecord[];
  /** The `.mvnx/runs` folders read, absolute. */
  folders: string[];
}

const GLOB_CHARS = /[*?[\]{}]/;
/** A glob walk gives up past this many folders: a pattern rooted at `/` is a mistake, not a request. */
const MAX_WALK = 50_000;

/** The folder a glob can start from: its leading segments without glob characters. */
function globBase(pattern: string): string {
  const segments = pattern.split('/');
  const first = segments.findIndex((segment) => GLOB_CHARS.test(segment));
  const base = segments.slice(0, first).join('/');
  return base === '' ? (pattern.startsWith('/') ? '/' : '.') : base;
}

async function expandGlob(pattern: string, cwd: string): Promise<string[]> {
  const absolutePattern = path.isAbsolute(pattern) ? pattern : path.join(cwd, pattern).split(path.sep).join('/');
  const base = path.resolve(cwd, globBase(pattern));
  const found: string[] = [];
  let visited = 0;
  const walk = async (dir: string): Promise<void> => {
    if (++visited > MAX_WALK) throw new MvnxError(`--from ${pattern}: more than ${MAX_WALK} folders under ${base}; narrow the pattern`);
    const posix = dir.split(path.sep).join('/');
    if (minimatch(posix, absolutePattern, { dot: true })) {
      found.push(dir);
      // A runs folder, or a root that holds one: the folders below are runs and sources, not more matches.
      if (posix.endsWith('/.mvnx/runs') || existsSync(path.join(dir, '.mvnx', 'runs'))) return;
    }
    // Nothing below can match: a thousand repositories' run folders are not walked for nothing.
    if (dir !== base && !minimatch(posix, absolutePattern, { dot: true, partial: true })) return;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    // Symbolic links are not followed: a link back up would walk forever.
    for (const entry of entries) if (entry.isDirectory()) await walk(path.join(dir, entry.name));
  };
  if (existsSync(base)) await walk(base);
  return found;
}

/** A runs folder itself, a project (or artifact) root holding `.mvnx/runs`, or nothing usable. */
async function runsFolderOf(folder: string): Promise<string | undefined> {
  const nested = path.join(folder, '.mvnx', 'runs');
  if (existsSync(nested)) return nested;
  const info = await stat(folder).catch(() => undefined);
  if (!info?.isDirectory()) return undefined;
  const entries = await readdir(folder, { withFileTypes: true });
  return entries.some((entry) => entry.name === 'latest' || (entry.isDirectory() && existsSync(path.join(folder, entry.name, 'run.json')))) ? folder : undefined;
}

/** Records written before `repository` existed are named after the folder that held `.mvnx/`. */
export function repositoryFromFolder(runsFolder: string): string {
  const parts = path.resolve(runsFolder).split(path.sep);
  const mvnx = parts.lastIndexOf('.mvnx');
  const owner = mvnx > 0 ? parts[mvnx - 1] : parts.at(-2);
  return owner || path.basename(runsFolder);
}

/** The record that knows most: reconciled last, else with the longer outcome history. */
function better(a: RunRecord, b: RunRecord): RunRecord {
  const time = (record: RunRecord) => record.reconciledAt ?? '';
  if (time(a) !== time(b)) return time(a) > time(b) ? a : b;
  return (b.outcomeHistory?.length ?? 0) > (a.outcomeHistory?.length ?? 0) ? b : a;
}

/** Every record under the sources, once per runId (the same run collected by several jobs counts once). */
export async function collectRunRecords(sources: readonly string[], cwd: string): Promise<CollectedRuns> {
  const folders = new Set<string>();
  for (const source of sources) {
    const candidates = GLOB_CHARS.test(source) ? await expandGlob(source, cwd) : [path.resolve(cwd, source)];
    const matched: string[] = [];
    for (const candidate of candidates) {
      const folder = await runsFolderOf(candidate);
      if (folder) matched.push(folder);
    }
    if (matched.length === 0) throw new MvnxError(`--from ${source}: no .mvnx/runs folder there${GLOB_CHARS.test(source) ? ' (the pattern matched none)' : ''}`);
    for (const folder of matched) folders.add(folder);
  }
  const byRun = new Map<string, RunRecord>();
  for (const folder of folders) {
    const fallback = repositoryFromFolder(folder);
    // Slim records (slim-record.ts): the fields the numbers read, so that 100,000 runs fit in memory.
    for (const record of await readSlimRecords(folder)) {
      const named = record.repository ? record : { ...record, repository: fallback };
      const known = byRun.get(named.runId);
      byRun.set(named.runId, known ? better(known, named) : named);
    }
  }
  const records = [...byRun.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  return { records, folders: [...folders] };
}
