/**
 * Run records at fleet scale (issue 28): `mvnx runs --stats --from` and `mvnx report`
 * over thousands of repositories read each run.json, keep only the fields the numbers,
 * charts and advice read (this projection), and drop the rest at once: the prompts'
 * context, decisions, messages, stages and verdicts never stay in memory.
 *
 * The projection is checked like every record read back (run-record-schema.ts), but by a
 * plain structural test of the projected fields first: a zod check per record cost as much
 * as the JSON.parse (bench/results-fleet.md). The plain test accepts only what the schema
 * accepts; whatever it does not accept goes through the schema, which then says what is
 * wrong (or accepts it after all), so a record is valid or invalid exactly as before.
 */
import { ATTEMPT_OUTCOMES, ATTEMPT_SOURCES, RUN_STATUSES, STOP_REASONS } from '../shared/run-vocabulary.js';
import { checkRunRecord, InvalidRunRecordError } from './run-record-schema.js';
import type { RunRecord } from './run-record.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Copies the keys that are set: a plain loop, as this runs once per record of the whole fleet. */
function pick(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (value[key] !== undefined) picked[key] = value[key];
  return picked;
}

const RECORD_KEYS = [
  'runId',
  'startedAt',
  'finishedAt',
  'mavenExitCode',
  'tier',
  'status',
  'stopReason',
  'applied',
  'action',
  'risk',
  'modelCalls',
  'discardedModelCalls',
  'incomplete',
  'repository',
  'fixModules',
  'coverage',
  'outcome',
  'outcomeHistory',
  'reconciledAt',
  'modelWaitMs',
] as const;
const DIAGNOSTIC_KEYS = ['kind', 'module', 'fingerprint'] as const;
const ATTEMPT_KEYS = ['n', 'source', 'outcome', 'fingerprint'] as const;

/** What stats, groups, advice and the HTML report read of a record; everything else is dropped. */
export function slimRunRecord(value: Record<string, unknown>): Record<string, unknown> {
  const slim = pick(value, RECORD_KEYS);
  slim.mavenArgs = [];
  slim.decisions = [];
  slim.timings = pick(isObject(value.timings) ? value.timings : {}, ['totalMs', 'modelMs']);
  const { diagnostics, attempts } = value;
  // An element that is not an object stays as it is, for the check to name it (it used to throw a TypeError).
  slim.diagnostics = Array.isArray(diagnostics)
    ? diagnostics.map((d: unknown) => {
        if (!isObject(d)) return d;
        const kept = pick(d, DIAGNOSTIC_KEYS);
        kept.message = '';
        return kept;
      })
    : diagnostics;
  slim.attempts = Array.isArray(attempts)
    ? attempts.map((a: unknown) => (isObject(a) ? pick(a, ATTEMPT_KEYS) : a))
    : attempts;
  return slim;
}

const RUN_ID = /^[\w.-]+$/;
const TIERS = new Set<unknown>(['off', 'monitor', 'assist', 'auto']);
const STATUSES = new Set<unknown>(RUN_STATUSES);
const STOPS = new Set<unknown>(STOP_REASONS);
const SOURCES = new Set<unknown>(ATTEMPT_SOURCES);
const ATTEMPT_RESULTS = new Set<unknown>(ATTEMPT_OUTCOMES);
const OUTCOMES = new Set<unknown>(['applied', 'adopted', 'superseded', 'reverted', 'merged', 'closed']);

/** True only for a projection the run record schema accepts as it is (never for one it refuses). */
export function plainlyValid(slim: Record<string, unknown>): boolean {
  const { runId, diagnostics, attempts } = slim;
  if (typeof runId !== 'string' || !RUN_ID.test(runId) || typeof slim.startedAt !== 'string') return false;
  if (slim.finishedAt !== undefined && typeof slim.finishedAt !== 'string') return false;
  if (!Number.isSafeInteger(slim.mavenExitCode) || typeof slim.applied !== 'boolean') return false;
  if (!TIERS.has(slim.tier) || !STATUSES.has(slim.status) || !STOPS.has(slim.stopReason)) return false;
  if (slim.outcome !== undefined && !OUTCOMES.has(slim.outcome)) return false;
  if (!Array.isArray(diagnostics) || !Array.isArray(attempts)) return false;
  for (const d of diagnostics)
    if (!isObject(d) || typeof d.kind !== 'string' || typeof d.message !== 'string') return false;
  for (const a of attempts)
    if (!isObject(a) || !Number.isSafeInteger(a.n) || !SOURCES.has(a.source) || !ATTEMPT_RESULTS.has(a.outcome))
      return false;
  return true;
}

/** The slim record in `text` (the content of `file`), or InvalidRunRecordError as run-record-schema.ts words it. */
export function parseSlimRecord(text: string, file: string): RunRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidRunRecordError(file, `not JSON (${(error as Error).message})`);
  }
  if (!isObject(value)) return checkRunRecord(value, file);
  const slim = slimRunRecord(value);
  return plainlyValid(slim) ? (slim as unknown as RunRecord) : checkRunRecord(slim, file);
}
