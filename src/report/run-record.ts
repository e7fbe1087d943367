import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostic } from '../diagnose/types.js';
import type { ModelRequestRecord } from '../model/traffic.js';
import { InvalidRunRecordError, parseRunRecord } from './run-record-schema.js';

import type { AttemptRecord, RunStatus, StopReason } from '../shared/run-vocabulary.js';
// The loop's vocabulary lives in the shared leaf; named here too for readers of the record's types.
export type { AgentAttemptStats, AttemptOutcome, AttemptRecord, AttemptSource, RunStatus, StopReason } from '../shared/run-vocabulary.js';

/** The contract's run record (`.mvnx/runs/<runId>/run.json`). Extra fields are additions. */
export interface RunRecord {
  runId: string;
  startedAt: string;
  finishedAt: string;
  mavenArgs: string[];
  mavenExitCode: number;
  tier: 'off' | 'monitor' | 'assist' | 'auto';
  status: RunStatus;
  stopReason: StopReason;
  diagnostics: Diagnostic[];
  attempts: AttemptRecord[];
  applied: boolean;
  /** What the policy decided and why, in order: a user can always see why. */
  decisions: string[];
  /** verified fix: what to do with it (record | suggest | apply) and its risk. */
  action?: 'record' | 'suggest' | 'apply';
  risk?: 'low' | 'medium' | 'high';
  /** Files the fix was made against, so that a later `mvnx apply` can refuse a changed tree. */
  fixBase?: { path: string; beforeSha256: string | null }[];
  modelCalls: number;
  model?: { provider: string; name: string; host: string };
  /** Every model request: the host that answered, how long it waited for a busy service and why (issue 28). */
  modelRequests?: ModelRequestRecord[];
  /** Time spent waiting for busy model servers, in all (absent when none). */
  modelWaitMs?: number;
  /** Agent mode: whether the model took native tool calls, and how that was learned (once per run). */
  toolCalling?: { native: boolean; reason: string };
  /** What isolated the verification builds (bwrap, podman, docker, none), and why not when isolated is false. */
  sandbox?: { kind: string; isolated: boolean; reason?: string };
  /** stopReason flaky: the failing tests that passed when re-run on the unchanged code. */
  flakyTests?: string[];
  /** The command was re-run in place after an auto apply: its exit code. */
  inPlaceExitCode?: number;
  message?: string;
  /**
   * totalMs: mvnx's own time, from the end of the user's build to the record (loading the repair stage included);
   * recheckMs: the flaky check's re-run of the failing tests, when there was one; promptMs: building the prompts (not in modelMs).
   */
  timings: { totalMs: number; modelMs: number; promptMs?: number; applyMs: number; verifyMs: number; recheckMs?: number; diagnoseMs?: number };
  // Rollout loop (docs/rollout.md): where the run happened and what became of its fix.
  /** `owner/name` from CI or the git remote (credentials stripped), else the project folder's name. */
  repository?: string;
  /** Modules (artifactIds) holding the verified fix's files: what a tier rule with `modules` matches. */
  fixModules?: string[];
  /** JaCoCo line coverage (percent) per module (artifactId) when the fix was decided. */
  coverage?: Record<string, number>;
  /** What became of the verified fix; absent while nothing is known (see report/outcome.ts). */
  outcome?: RunOutcome;
  /** Every outcome change, oldest first, with its evidence. */
  outcomeHistory?: OutcomeEvent[];
  /** Last time `mvnx runs --reconcile` (or a later run) looked at the tree and git log for this run. */
  reconciledAt?: string;
  /** The pull/merge request suggestion posted for this run, when one was. */
  review?: { platform: 'github' | 'gitlab'; url?: string; message: string };
  /** The failure is a dependency update's: which one, and which errors belong to it (docs: README "Dependency updates"). */
  dependencyUpdate?: DependencyUpdateRecord;
  /** The pull/merge request the fix was published as (tier auto in CI, or `mvnx publish`). */
  publication?: RunPublication;
}

export interface DependencyUpdateRecord {
  groupId: string;
  artifactId: string;
  from: string;
  to: string;
  /** The errors (and failing tests) that belong to the update: `path:line: message`, `Class#test: message`. */
  errors: string[];
  /** What the versions were compared with: `HEAD`, `HEAD~1`, `merge-base <sha> (origin/main)`. */
  comparedWith: string;
  /** False when the old version's jar is not in the local repository (the difference shows the new version's members only). */
  oldVersionLocal: boolean;
  /** The Dependabot or Renovate branch, when the build ran on one (a hint, never required). */
  branchHint?: string;
  /** Per error: the failing line, its method and the API difference shown to the model. */
  differences: { site: string; message: string; failingLine?: string; method?: string; lines: string[]; quickFix?: string }[];
  /** Fixes carried from one site to the others (old -> new), and the sites each fixed, once verified. */
  patterns?: { from: string; to: string; sites: string[]; attempt: number; outcome: string }[];
}

/** autoMerge: `enabled` (the forge merges once the required checks pass), `refused` (reason says why), `off` (the policy's publish.merge). */
export interface RunPublication {
  forge: 'github' | 'gitlab';
  url: string;
  number: number;
  branch: string;
  autoMerge: 'enabled' | 'refused' | 'off';
  reason?: string;
}

/** `merged` and `closed`: what became of the fix's pull/merge request (merged counts with the applied fixes). */
export type RunOutcome = 'applied' | 'adopted' | 'superseded' | 'reverted' | 'merged' | 'closed';

export interface OutcomeEvent {
  outcome: RunOutcome;
  /** When it happened, as far as the evidence tells (a commit's date, the apply's time). */
  at: string;
  /** One line a reviewer can check: `commit 1a2b3c4 "fix calc"`, `mvnx apply`, `auto`. */
  evidence: string;
  commit?: string;
}

export function runsDir(projectRoot: string): string {
  return path.join(projectRoot, '.mvnx', 'runs');
}

/** Sortable by time, unique enough for concurrent runs on one machine. */
export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z').replace('T', '-');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

async function writeAtomically(file: string, content: string | Uint8Array): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, content);
  await rename(temp, file);
}

/** What the recorder runs every text through before it reaches a file (the run's Redactor). */
export interface RecordRedaction {
  redact(text: string): string;
  redactDeep<T>(value: T): T;
}

const NO_REDACTION: RecordRedaction = { redact: (text) => text, redactDeep: (value) => value };

/**
 * Writes into `.mvnx/runs/<runId>/` as the run goes, so a crash still leaves evidence.
 * Everything but fix.patch is redacted on the way to disk: the patch is what gets
 * applied, made only of the project's own lines.
 */
export class RunRecorder {
  readonly dir: string;

  private constructor(
    readonly projectRoot: string,
    readonly runId: string,
    private readonly redaction: RecordRedaction,
  ) {
    this.dir = path.join(runsDir(projectRoot), runId);
  }

  static async open(projectRoot: string, runId: string = newRunId(), redaction: RecordRedaction = NO_REDACTION): Promise<RunRecorder> {
    const recorder = new RunRecorder(projectRoot, runId, redaction);
    await mkdir(recorder.dir, { recursive: true });
    await writeAtomically(path.join(runsDir(projectRoot), 'latest'), `${runId}\n`);
    return recorder;
  }

  async writeAttemptExchange(n: number, prompt: string, response: string): Promise<void> {
    // The prompt arrives as sent (already redacted); redacting again changes nothing there.
    await writeFile(path.join(this.dir, `attempt-${n}.prompt.txt`), this.redaction.redact(prompt));
    await writeFile(path.join(this.dir, `attempt-${n}.response.txt`), this.redaction.redact(response));
  }

  /** An agent session step by step (each reply and mvnx's answer), secrets redacted like the exchange. */
  async writeAttemptLog(n: number, log: string): Promise<void> {
    await writeFile(path.join(this.dir, `attempt-${n}.agent-log.txt`), this.redaction.redact(log));
  }

  /** Bytes, not text: each file's section is in that file's own encoding. */
  async writeFixPatch(diff: string | Uint8Array): Promise<string> {
    const file = path.join(this.dir, 'fix.patch');
    await writeAtomically(file, diff);
    return file;
  }

  /** Writes the record redacted, and returns what was written (for the console, --mvnx-json and reporters). */
  async writeRecord(record: RunRecord): Promise<RunRecord> {
    const written = this.redaction.redactDeep(record);
    await writeAtomically(path.join(this.dir, 'run.json'), `${JSON.stringify(written, null, 2)}\n`);
    return written;
  }
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
    if (name === 'latest') continue;
    const file = path.join(folder, name, 'run.json');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      // A run killed before its first write leaves an empty folder: not a record.
      continue;
    }
    try {
      records.push(parseRunRecord(text, file));
    } catch (error) {
      if (!(error instanceof InvalidRunRecordError)) throw error;
      onInvalid?.(error);
    }
  }
  return records.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

/** Rewrite an existing record in place (e.g. `mvnx apply` marking it applied). */
export async function updateRunRecord(projectRoot: string, record: RunRecord): Promise<void> {
  await writeAtomically(path.join(runsDir(projectRoot), record.runId, 'run.json'), `${JSON.stringify(record, null, 2)}\n`);
}
