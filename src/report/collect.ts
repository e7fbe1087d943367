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
import { readRunsFolder, runNames } from './record-stream.js';
import { parseSlimRecord } from './slim-record.js';

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
    if (++visited > MAX_WALK)
      throw new MvnxError(`--from ${pattern}: more than ${MAX_WALK} folders under ${base}; narrow the pattern`);
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
  return entries.some(
    (entry) =>
      entry.name === 'latest' || (entry.isDirectory() && existsSync(path.join(folder, entry.name, 'run.json'))),
  )
    ? folder
    : undefined;
}

/** Records written before `repository` existed are named after the folder that held `.mvnx/`. */
export function repositoryFromFolder(runsFolder: string): string {
  const parts = path.resolve(runsFolder).split(path.sep);
  const mvnx = parts.lastIndexOf('.mvnx');
  const owner = mvnx > 0 ? parts[mvnx - 1] : parts.at(-2);
  return owner || path.basename(runsFolder);
}

/** Something that takes records one at a time (a fold of stats.ts, groups.ts, advice.ts, html.ts). */
export interface RecordSink {
  add(record: RunRecord): void;
}

/** The runs folders under the sources, in the order given (each once); a source that holds none is an error. */
export async function runsFoldersOf(sources: readonly string[], cwd: string): Promise<string[]> {
  const folders = new Set<string>();
  for (const source of sources) {
    const candidates = GLOB_CHARS.test(source) ? await expandGlob(source, cwd) : [path.resolve(cwd, source)];
    const matched: string[] = [];
    for (const candidate of candidates) {
      const folder = await runsFolderOf(candidate);
      if (folder) matched.push(folder);
    }
    if (matched.length === 0)
      throw new MvnxError(
        `--from ${source}: no .mvnx/runs folder there${GLOB_CHARS.test(source) ? ' (the pattern matched none)' : ''}`,
      );
    for (const folder of matched) folders.add(folder);
  }
  return [...folders];
}

/** What decides between two copies of one run: the later reconcile, then the longer outcome history. */
interface Copy {
  at: string;
  reconciledAt: string;
  history: number;
}

const copyOf = (record: RunRecord, at: string): Copy => ({
  at,
  reconciledAt: record.reconciledAt ?? '',
  history: record.outcomeHistory?.length ?? 0,
});

/** The copy that knows most: reconciled last, else with the longer outcome history; on a tie the one met first. */
const knowsMore = (candidate: Copy, known: Copy) =>
  candidate.reconciledAt !== known.reconciledAt
    ? candidate.reconciledAt > known.reconciledAt
    : candidate.history > known.history;

/**
 * Which copy of each run in `contested` speaks for it (by where it is: folder index and run
 * folder name). Only the run folders `only` lets through are read.
 */
function decideCopies(
  folders: readonly string[],
  only: (folder: number, name: string) => boolean,
  contested: (runId: string) => boolean,
): Map<string, string> {
  const best = new Map<string, Copy>();
  folders.forEach((folder, index) => {
    readRunsFolder(
      folder,
      parseSlimRecord,
      (record, name) => {
        if (!contested(record.runId)) return;
        const copy = copyOf(record, `${index}/${name}`);
        const known = best.get(record.runId);
        if (!known || knowsMore(copy, known)) best.set(record.runId, copy);
      },
      { only: (name) => only(index, name) },
    );
  });
  return new Map([...best].map(([runId, copy]) => [runId, copy.at]));
}

/** Run folder names found in more than one runs folder: the only places two copies of one run can be (see below). */
function namesInSeveralFolders(folders: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const several = new Set<string>();
  for (const folder of folders) for (const name of runNames(folder)) (seen.has(name) ? several : seen).add(name);
  return several;
}

/**
 * Folds every record under the folders into a sink made by `start`, once per runId (the
 * same run collected by several jobs counts once: the copy that knows most). A fold cannot
 * take a record back, so the copies are decided first: a run's folder is named by its runId,
 * so only runs whose folder name is in several runs folders are read beforehand. A record
 * whose runId is not its folder's name (written by hand) can still meet another copy; then
 * the fold starts over with that run decided too.
 */
export function foldRunsFolders<T extends RecordSink>(folders: readonly string[], start: () => T): T {
  const several = namesInSeveralFolders(folders);
  let chosen =
    several.size === 0
      ? new Map<string, string>()
      : decideCopies(
          folders,
          (_, name) => several.has(name),
          () => true,
        );
  /** Runs decided over every copy, not only those in folders of the same name. */
  const decidedOverAll = new Set<string>();
  const choiceless = (runId: string) => !chosen.has(runId) && !decidedOverAll.has(runId);
  for (;;) {
    const sink = start();
    // Two copies of a run can only meet unseen when one sits in a folder not named by its runId: those few are tracked.
    const misplaced = new Set<string>();
    const contested = new Set<string>();
    folders.forEach((folder, index) => {
      const fallback = repositoryFromFolder(folder);
      readRunsFolder(folder, parseSlimRecord, (record, name) => {
        const { runId } = record;
        const choice = chosen.get(runId);
        if (choice !== undefined && choice !== `${index}/${name}`) {
          // A copy the decision did not see (its folder is named otherwise): decide again over all copies.
          if (!several.has(name) && !decidedOverAll.has(runId)) contested.add(runId);
          return;
        }
        if (runId !== name && !decidedOverAll.has(runId)) {
          if (misplaced.has(runId)) return void contested.add(runId);
          misplaced.add(runId);
        }
        sink.add(record.repository ? record : { ...record, repository: fallback });
      });
    });
    // A misplaced copy and one in a folder of its name: decided over all copies (a folder of that name that holds no
    // valid record costs a pass, not a wrong number).
    for (const runId of misplaced)
      if (choiceless(runId) && folders.some((folder) => existsSync(path.join(folder, runId, 'run.json'))))
        contested.add(runId);
    if (contested.size === 0) return sink;
    chosen = new Map([
      ...chosen,
      ...decideCopies(
        folders,
        () => true,
        (runId) => contested.has(runId),
      ),
    ]);
    for (const runId of contested) decidedOverAll.add(runId);
  }
}

/**
 * Every record under the sources, once per runId, newest first: for a few thousand runs (tests, small collections); the
 * commands fold instead.
 */
export async function collectRunRecords(sources: readonly string[], cwd: string): Promise<CollectedRuns> {
  const folders = await runsFoldersOf(sources, cwd);
  const { records } = foldRunsFolders(folders, () => {
    const kept: RunRecord[] = [];
    return { records: kept, add: (record: RunRecord) => void kept.push(record) };
  });
  return { records: records.sort((a, b) => b.startedAt.localeCompare(a.startedAt)), folders };
}
