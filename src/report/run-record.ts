import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { access, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errnoPhrase } from '../shared/errors.js';
import { InvalidRunRecordError, parseRunRecord } from './run-record-schema.js';
import type { RunRecord } from './run-record-types.js';
import { markOwner, OWNER_FILE } from '../maven/owner-marker.js';
import { pauseForKillTest, type KillWindow } from '../maven/kill-window-pause.js';
import { runJsonOrKilled, type RunStartFacts } from './killed-runs.js';

// The loop's vocabulary lives in the shared leaf; named here too for readers of the record's types.
export type {
  AgentAttemptStats,
  AttemptOutcome,
  AttemptRecord,
  AttemptSource,
  RunStatus,
  StopReason,
} from '../shared/run-vocabulary.js';
// The record's shape lives in run-record-types.ts, which the zod check reads without this file.
export type {
  DependencyUpdateRecord,
  OutcomeEvent,
  RunOutcome,
  RunBuilt,
  RunPublication,
  RunRecord,
  UpdateBranchPublication,
} from './run-record-types.js';

export function runsDir(projectRoot: string): string {
  return path.join(projectRoot, '.mvnx', 'runs');
}

/** A name in the runs folder that is a run's folder: not `latest`, nor one still being made (`*.<pid>.tmp`). */
export function isRunFolderName(name: string): boolean {
  return name !== 'latest' && !name.endsWith('.tmp');
}

/** Sortable by time, unique enough for concurrent runs on one machine. */
export function newRunId(now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
    .replace('T', '-');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

async function writeAtomically(file: string, content: string | Uint8Array, window?: KillWindow): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, content);
  if (window) pauseForKillTest(window);
  await rename(temp, file);
}

/** What the recorder runs every text through before it reaches a file (the run's Redactor). */
export interface RecordRedaction {
  redact(text: string): string;
  redactDeep<T>(value: T): T;
}

const NO_REDACTION: RecordRedaction = { redact: (text) => text, redactDeep: (value) => value };

/**
 * Writes into `.mvnx/runs/<runId>/` as the run goes, so a crash still leaves evidence;
 * `latest` is written when the record is (write-then-rename), so it never names a run still going.
 * Everything but fix.patch is redacted on the way to disk: the patch is what gets
 * applied, made only of the project's own lines.
 */
export class RunRecorder {
  readonly dir: string;
  private announced = false;

  private constructor(
    readonly projectRoot: string,
    readonly runId: string,
    private readonly redaction: RecordRedaction,
  ) {
    this.dir = path.join(runsDir(projectRoot), runId);
  }

  static async open(
    projectRoot: string,
    runId: string = newRunId(),
    redaction: RecordRedaction = NO_REDACTION,
    start?: RunStartFacts,
  ): Promise<RunRecorder> {
    const recorder = new RunRecorder(projectRoot, runId, redaction);
    // Until run.json is written, the folder names its process: a run killed outright is recorded by the next one.
    // Made under a temporary name and renamed, so that no kill leaves the folder without its marker. `latest` is
    // written when the run finishes (writeRecord), not here.
    await recorder.keep(async () => {
      const making = `${recorder.dir}.${process.pid}.tmp`;
      await mkdir(making, { recursive: true });
      await markOwner(making, start ? redaction.redactDeep({ ...start }) : {});
      await rename(making, recorder.dir).catch(async (error: NodeJS.ErrnoException) => {
        // The run's folder exists already (a record reopened to be written again): it keeps what it holds.
        await rm(making, { recursive: true, force: true });
        if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      });
    });
    return recorder;
  }

  /**
   * Set once a write failed (a read-only mount, no permission, no space): why, as a phrase. The record is mvnx's, not
   * the build's: the run goes on without writing (the diagnosis and any fix still reach the console, Maven's exit
   * code stands), and the caller says this once.
   */
  unwritable: string | undefined;

  private async keep(write: () => Promise<unknown>): Promise<void> {
    if (this.unwritable) return;
    try {
      await write();
    } catch (error) {
      this.unwritable = await whyNotWritable(error, this.dir);
    }
  }

  async writeAttemptExchange(n: number, prompt: string, response: string): Promise<void> {
    // The prompt arrives as sent (already redacted); redacting again changes nothing there.
    await this.keep(async () => {
      await writeFile(path.join(this.dir, `attempt-${n}.prompt.txt`), this.redaction.redact(prompt));
      await writeFile(path.join(this.dir, `attempt-${n}.response.txt`), this.redaction.redact(response));
    });
  }

  /** An agent session step by step (each reply and mvnx's answer), secrets redacted like the exchange. */
  async writeAttemptLog(n: number, log: string): Promise<void> {
    await this.keep(() => writeFile(path.join(this.dir, `attempt-${n}.agent-log.txt`), this.redaction.redact(log)));
  }

  /** Bytes, not text: each file's section is in that file's own encoding. */
  async writeFixPatch(diff: string | Uint8Array): Promise<string> {
    const file = path.join(this.dir, 'fix.patch');
    await this.keep(() => writeAtomically(file, diff));
    return file;
  }

  /** Writes the record redacted, and returns what was written (for the console, --mvnx-json and reporters). */
  async writeRecord(record: RunRecord): Promise<RunRecord> {
    const written = this.redaction.redactDeep(record);
    const json = `${JSON.stringify(written, null, 2)}\n`;
    await this.keep(() => writeAtomically(path.join(this.dir, 'run.json'), json, 'run-record-rename'));
    // A kill between these two leaves a whole record beside a stale marker: the next run removes the marker.
    pauseForKillTest('run-record-owner');
    await this.keep(() => rm(path.join(this.dir, OWNER_FILE), { force: true }));
    // `latest` names the newest FINISHED run, once: a run that started earlier and finishes later still becomes
    // latest, but a later rewrite of this record (a publication) does not take `latest` back from a newer run.
    if (!this.announced) {
      this.announced = true;
      await this.keep(() =>
        writeAtomically(path.join(runsDir(this.projectRoot), 'latest'), `${this.runId}\n`, 'latest-rename'),
      );
    }
    return written;
  }
}

/**
 * Why `target` cannot be written, named by its cause: a recursive mkdir on a read-only mount reports ENOENT for the
 * folder it could not make, so the nearest folder that exists is asked (access W_OK says EROFS or EACCES).
 */
async function whyNotWritable(error: unknown, target: string): Promise<string> {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'EROFS' || code === 'EACCES' || code === 'EPERM') {
    for (let folder = path.dirname(target); ; folder = path.dirname(folder)) {
      const cause = await access(folder, fsConstants.W_OK).then(
        () => undefined,
        (problem: NodeJS.ErrnoException) => (problem.code === 'ENOENT' ? 'missing' : problem),
      );
      if (cause !== 'missing') {
        if (cause) return `${errnoPhrase(cause)} at ${folder}`;
        break;
      }
      if (path.dirname(folder) === folder) break;
    }
  }
  return errnoPhrase(error);
}

export async function readLatestRunId(projectRoot: string): Promise<string | undefined> {
  try {
    return (await readFile(path.join(runsDir(projectRoot), 'latest'), 'utf8')).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The record, checked (InvalidRunRecordError names the wrong field); a missing file rejects with ENOENT. */
export async function readRunRecord(projectRoot: string, runId: string): Promise<RunRecord> {
  const file = path.join(runsDir(projectRoot), runId, 'run.json');
  return parseRunRecord(await readFile(file, 'utf8'), file);
}

/** Told about a run.json that is there but is not a valid record (it is left out of the list). */
export type OnInvalidRecord = (error: InvalidRunRecordError) => void;

/** All readable run records, newest first; unreadable folders are skipped. */
export async function listRunRecords(projectRoot: string, onInvalid?: OnInvalidRecord): Promise<RunRecord[]> {
  return listRunRecordsIn(runsDir(projectRoot), onInvalid);
}

/** The same for any `.mvnx/runs` folder, e.g. one collected from a CI artifact. */
export async function listRunRecordsIn(folder: string, onInvalid?: OnInvalidRecord): Promise<RunRecord[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const records: RunRecord[] = [];
  for (const name of names) {
    if (!isRunFolderName(name)) continue;
    const file = path.join(folder, name, 'run.json');
    // A run killed before it wrote run.json: its incomplete record when its process is gone (killed-runs.ts); an empty
    // folder of an older mvnx, or a run still going, is not a record.
    const found = await runJsonOrKilled(path.join(folder, name));
    if (!found) continue;
    if ('record' in found) {
      records.push(found.record);
      continue;
    }
    try {
      records.push(parseRunRecord(found.text, file));
    } catch (error) {
      if (!(error instanceof InvalidRunRecordError)) throw error;
      onInvalid?.(error);
    }
  }
  return records.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

/** Rewrite an existing record in place (e.g. `mvnx apply` marking it applied). */
export async function updateRunRecord(projectRoot: string, record: RunRecord): Promise<void> {
  await writeAtomically(
    path.join(runsDir(projectRoot), record.runId, 'run.json'),
    `${JSON.stringify(record, null, 2)}\n`,
  );
}
