/**
 * Run records at fleet scale (issue 28): `mvnx runs --stats --from` and `mvnx report`
 * over thousands of repositories read each run.json, keep only the fields the numbers,
 * charts and advice read (this projection), and drop the rest at once: the prompts'
 * context, decisions, messages, stages and verdicts never stay in memory. Files are read
 * a few at a time in parallel, so the disk, not one read after another, sets the pace.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { InvalidRunRecordError, parseRunRecord } from './run-record-schema.js';
import type { RunRecord } from './run-record.js';

/** Reads in flight at once: enough to hide the file system's latency, few enough for its handles. */
const PARALLEL_READS = 32;

/** Copies the keys that are set: a plain loop, as this runs once per record of the whole fleet. */
function pick(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (value[key] !== undefined) picked[key] = value[key];
  return picked;
}

const RECORD_KEYS = ['runId', 'startedAt', 'finishedAt', 'mavenExitCode', 'tier', 'status', 'stopReason', 'applied', 'action', 'risk', 'modelCalls', 'repository', 'fixModules', 'coverage', 'outcome', 'outcomeHistory', 'reconciledAt', 'modelWaitMs'] as const;
const DIAGNOSTIC_KEYS = ['kind', 'module', 'fingerprint'] as const;
const ATTEMPT_KEYS = ['n', 'source', 'outcome', 'fingerprint'] as const;

/** What stats, groups, advice and the HTML report read of a record; everything else is dropped. */
export function slimRunRecord(value: Record<string, unknown>): Record<string, unknown> {
  const slim = pick(value, RECORD_KEYS);
  slim.mavenArgs = [];
  slim.decisions = [];
  slim.timings = pick((value.timings ?? {}) as Record<string, unknown>, ['totalMs', 'modelMs']);
  const { diagnostics, attempts } = value;
  slim.diagnostics = Array.isArray(diagnostics)
    ? diagnostics.map((d: Record<string, unknown>) => {
        const kept = pick(d, DIAGNOSTIC_KEYS);
        kept.message = '';
        return kept;
      })
    : diagnostics;
  slim.attempts = Array.isArray(attempts) ? attempts.map((a: Record<string, unknown>) => pick(a, ATTEMPT_KEYS)) : attempts;
  return slim;
}

/** Every valid record of one `.mvnx/runs` folder, slimmed; invalid ones go to `onInvalid`. */
export async function readSlimRecords(folder: string, onInvalid?: (error: InvalidRunRecordError) => void): Promise<RunRecord[]> {
  let names: string[];
  try {
    names = (await readdir(folder)).filter((name) => name !== 'latest');
  } catch {
    return [];
  }
  const records: RunRecord[] = [];
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const file = path.join(folder, names[next++]!, 'run.json');
      const text = await readFile(file, 'utf8').catch(() => undefined);
      // A run killed before its first write leaves an empty folder: not a record.
      if (text === undefined) continue;
      try {
        records.push(parseRunRecord(text, file, slimRunRecord));
      } catch (error) {
        if (!(error instanceof InvalidRunRecordError)) throw error;
        onInvalid?.(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, names.length) }, worker));
  return records;
}
