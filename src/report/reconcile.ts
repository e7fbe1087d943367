/**
 * `mvnx runs --reconcile` and the cheap pass after every recorded run: read what became
 * of each verified fix from the working tree and `git log`, and write it into run.json.
 * The decisions are report/outcome.ts; this module only gathers the evidence.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { findGitRoot } from '../maven/project.js';
import { decideOutcome, readFixFiles, withOutcome, type FixFile, type Observation } from './outcome.js';
import { listRunRecords, runsDir, updateRunRecord, type OutcomeEvent, type RunRecord } from './run-record.js';

export interface ReconcileOptions {
  now?: Date;
  /** Only runs that started at most this many days ago (default 90). */
  maxAgeDays?: number;
  /** At most this many runs, newest first (default 50). */
  maxRuns?: number;
  /** Commits read per run at most (default 40): the evidence is in the first few anyway. */
  maxCommits?: number;
  /** Leave this run alone (the run being written right now). */
  skipRunId?: string;
  /**
   * Reads a published fix's pull/merge request state from the forge (report/publish/request-state.ts); absent outside
   * CI.
   */
  requestState?: (
    publication: NonNullable<RunRecord['publication']>,
  ) => Promise<'open' | 'closed' | 'merged' | undefined>;
}

export interface ReconcileChange {
  runId: string;
  from?: RunRecord['outcome'];
  events: OutcomeEvent[];
}

export interface ReconcileReport {
  /** Runs with a verified fix that were looked at. */
  checked: number;
  changes: ReconcileChange[];
  /** Why the git history was not read, when it was not. */
  note?: string;
}

interface GitContext {
  root: string;
  /** The project root relative to the git root, forward slashes, '' at the top. */
  prefix: string;
}

async function git(context: GitContext, args: string[]): Promise<string | undefined> {
  const result = await execa('git', args, { cwd: context.root, reject: false, stdin: 'ignore' });
  return result.exitCode === 0 ? result.stdout : undefined;
}

async function gitContext(projectRoot: string): Promise<GitContext | undefined> {
  const root = await findGitRoot(projectRoot);
  if (!root) return undefined;
  const context = { root, prefix: path.relative(root, projectRoot).split(path.sep).join('/') };
  // A folder named .git that git does not accept (or no git on PATH) means: no history.
  return (await git(context, ['rev-parse', '--verify', '-q', 'HEAD'])) === undefined ? undefined : context;
}

const inRepo = (context: GitContext, file: string) => (context.prefix ? `${context.prefix}/${file}` : file);

async function commitObservations(
  context: GitContext,
  record: RunRecord,
  files: readonly FixFile[],
  maxCommits: number,
): Promise<Observation[]> {
  const paths = files.map((file) => inRepo(context, file.path));
  const log = await git(context, [
    'log',
    '--reverse',
    `--since=${record.startedAt}`,
    '--format=%H%x1f%cI%x1f%s',
    '--',
    ...paths,
  ]);
  if (!log) return [];
  const observations: Observation[] = [];
  for (const line of log.split('\n').filter(Boolean).slice(-maxCommits)) {
    const [commit, at, subject] = line.split('\x1f') as [string, string, string];
    const contents = new Map<string, string | null>();
    for (const file of files)
      contents.set(file.path, (await git(context, ['show', `${commit}:${inRepo(context, file.path)}`])) ?? null);
    observations.push({ at: new Date(at).toISOString(), commit, subject, files: contents });
  }
  return observations;
}

async function treeObservation(projectRoot: string, files: readonly FixFile[], now: Date): Promise<Observation> {
  const contents = new Map<string, string | null>();
  for (const file of files)
    contents.set(file.path, await readFile(path.join(projectRoot, file.path), 'utf8').catch(() => null));
  return { at: now.toISOString(), files: contents };
}

/**
 * The request's state as an outcome event, when the forge says it merged or closed and the record does not know yet.
 */
async function requestOutcome(
  record: RunRecord,
  options: ReconcileOptions,
  now: Date,
): Promise<OutcomeEvent | undefined> {
  const publication = record.publication;
  if (!publication || !options.requestState || record.outcome === 'merged' || record.outcome === 'closed')
    return undefined;
  const state = await options.requestState(publication).catch(() => undefined);
  if (state !== 'merged' && state !== 'closed') return undefined;
  const name = `${publication.forge === 'github' ? 'pull request #' : 'merge request !'}${publication.number}`;
  return { outcome: state, at: now.toISOString(), evidence: `${name} ${state} (${publication.url})` };
}

/** Brings the outcome of the project's recent verified fixes up to date; returns what changed. */
export async function reconcileRuns(projectRoot: string, options: ReconcileOptions = {}): Promise<ReconcileReport> {
  const now = options.now ?? new Date();
  const oldest = now.getTime() - (options.maxAgeDays ?? 90) * 86_400_000;
  const all = await listRunRecords(projectRoot);
  const candidates = all
    .filter(
      (record) =>
        record.runId !== options.skipRunId &&
        record.status === 'fixed' &&
        record.outcome !== 'reverted' &&
        record.outcome !== 'superseded',
    )
    .filter((record) => Date.parse(record.startedAt) >= oldest)
    .slice(0, options.maxRuns ?? 50);
  const context = candidates.length > 0 ? await gitContext(projectRoot) : undefined;
  const report: ReconcileReport = { checked: 0, changes: [] };
  if (candidates.length > 0 && !context)
    report.note = 'not a git repository (or no commit yet): outcomes are read from the working tree only';

  for (let record of candidates) {
    let patch: string;
    try {
      patch = await readFile(path.join(runsDir(projectRoot), record.runId, 'fix.patch'), 'utf8');
    } catch {
      continue;
    }
    const requestEvent = await requestOutcome(record, options, now);
    if (requestEvent) {
      report.changes.push({
        runId: record.runId,
        ...(record.outcome ? { from: record.outcome } : {}),
        events: [requestEvent],
      });
      record = withOutcome(record, requestEvent);
      await updateRunRecord(projectRoot, record);
    }
    const files = readFixFiles(patch);
    if (files.length === 0) continue;
    report.checked += 1;
    const observations = [
      ...(context ? await commitObservations(context, record, files, options.maxCommits ?? 40) : []),
      await treeObservation(projectRoot, files, now),
    ];
    const events = decideOutcome({ record, files, observations, otherRecords: all });
    const updated = { ...withOutcome(record, ...events), reconciledAt: now.toISOString() };
    await updateRunRecord(projectRoot, updated);
    if (events.length > 0)
      report.changes.push({ runId: record.runId, ...(record.outcome ? { from: record.outcome } : {}), events });
  }
  return report;
}
