/**
 * Reading run.json back (`mvnx apply`, `mvnx runs`, `mvnx report`, reconcile): a file on
 * disk is input like any other, so it is checked against the contract's fields before
 * anything acts on it. Fields beyond the contract pass through unchanged (records grow by
 * additions, and older records lack newer fields), so a valid record reads back as written.
 */
import { z } from 'zod';
import { ATTEMPT_OUTCOMES, ATTEMPT_SOURCES, RUN_STATUSES, STOP_REASONS } from '../shared/run-vocabulary.js';
import type { RunRecord } from './run-record-types.js';

const attemptSchema = z.looseObject({
  n: z.number().int(),
  source: z.enum(ATTEMPT_SOURCES),
  outcome: z.enum(ATTEMPT_OUTCOMES),
  filesChanged: z.array(z.string()).optional(),
  reason: z.string().optional(),
});

const runRecordSchema = z.looseObject({
  runId: z.string().regex(/^[\w.-]+$/, 'a run id (letters, digits, ".", "_", "-")'),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  mavenArgs: z.array(z.string()),
  mavenExitCode: z.number().int(),
  tier: z.enum(['off', 'monitor', 'assist', 'auto']),
  status: z.enum(RUN_STATUSES),
  stopReason: z.enum(STOP_REASONS),
  diagnostics: z.array(z.looseObject({ kind: z.string(), message: z.string() })),
  attempts: z.array(attemptSchema),
  applied: z.boolean(),
  decisions: z.array(z.string()).optional(),
  fixBase: z.array(z.object({ path: z.string(), beforeSha256: z.string().nullable() })).optional(),
  dependencyUpdate: z
    .looseObject({
      groupId: z.string(),
      artifactId: z.string(),
      from: z.string(),
      to: z.string(),
      errors: z.array(z.string()),
    })
    .optional(),
  outcome: z.enum(['applied', 'adopted', 'superseded', 'reverted', 'merged', 'closed']).optional(),
  publication: z
    .looseObject({
      forge: z.enum(['github', 'gitlab']),
      url: z.string(),
      number: z.number().int().positive(),
      branch: z.string().regex(/^mvnx\/fix-[0-9a-z]+$/, 'an mvnx branch (mvnx/fix-<fingerprint>)'),
      autoMerge: z.enum(['enabled', 'refused', 'off']),
      reason: z.string().optional(),
    })
    .optional(),
  built: z
    .looseObject({
      commit: z.string().regex(/^[0-9a-f]{40,64}$/, 'a commit id'),
      tree: z.string().regex(/^[0-9a-f]{40,64}$/, 'a tree id'),
      uncommitted: z.boolean().optional(),
    })
    .optional(),
});

export class InvalidRunRecordError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file} is not a run record: ${problem}`);
    this.name = 'InvalidRunRecordError';
  }
}

/**
 * The record in `text` (the content of `file`), or InvalidRunRecordError naming the first wrong field; `project` trims
 * it first.
 */
export function parseRunRecord(
  text: string,
  file: string,
  project?: (value: Record<string, unknown>) => unknown,
): RunRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidRunRecordError(file, `not JSON (${(error as Error).message})`);
  }
  // A projection (report/slim-record.ts) keeps only what a reader needs, before the check, so that many records fit in
  // memory.
  if (project && value && typeof value === 'object' && !Array.isArray(value))
    value = project(value as Record<string, unknown>);
  return checkRunRecord(value, file);
}

/**
 * A parsed value checked against the contract's fields: the record, or InvalidRunRecordError naming the first wrong
 * field.
 */
export function checkRunRecord(value: unknown, file: string): RunRecord {
  const parsed = runRecordSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join('.') : '(the whole file)';
    throw new InvalidRunRecordError(file, `${where}: ${issue.message}`);
  }
  return parsed.data as unknown as RunRecord;
}
