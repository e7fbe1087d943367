/** Hand-written run records shaped like the ones the repair engine leaves. */
import type { Diagnostic } from '../../src/diagnose/types.js';
import type { RunRecord } from '../../src/report/run-record.js';
import type { AttemptRecord } from '../../src/shared/run-vocabulary.js';

export function diagnostic(kind: Diagnostic['kind'], message: string, file?: string): Diagnostic {
  return {
    kind,
    category: kind === 'other' ? 'dependency-resolution' : kind,
    fixable: kind !== 'other',
    message,
    ...(file ? { file } : {}),
    fingerprint: `${kind}:${message}`,
    ...(kind === 'other' ? { reason: 'not a code problem' } : {}),
  };
}

export function attempt(
  n: number,
  outcome: AttemptRecord['outcome'],
  source: AttemptRecord['source'] = 'model',
): AttemptRecord {
  return {
    n,
    source,
    fingerprint: `fp-${n}-${outcome}`,
    outcome,
    filesChanged: ['src/main/java/com/acme/Calc.java'],
    timings: { modelMs: 4000, verifyMs: 6000 },
  };
}

export function record(
  overrides: Partial<RunRecord> & Pick<RunRecord, 'runId' | 'startedAt'>,
  durationSeconds = 30,
): RunRecord {
  const finishedAt = new Date(Date.parse(overrides.startedAt) + durationSeconds * 1000).toISOString();
  return {
    finishedAt,
    mavenArgs: ['-o', '-q', 'verify'],
    mavenExitCode: 1,
    tier: 'monitor',
    status: 'unfixed',
    stopReason: 'budget-exhausted',
    diagnostics: [diagnostic('compile', "';' expected", 'src/main/java/com/acme/Calc.java')],
    attempts: [],
    applied: false,
    decisions: [],
    modelCalls: 0,
    timings: { totalMs: durationSeconds * 1000, modelMs: 0, applyMs: 0, verifyMs: 0 },
    ...overrides,
  };
}

/** A month of a team's runs: compile and test failures, a dependency outage, auto and assist. */
export function teamMonth(): RunRecord[] {
  return [
    record(
      {
        runId: 'r1',
        startedAt: '2024-05-01T09:00:00.000Z',
        status: 'fixed',
        stopReason: 'fixed',
        attempts: [attempt(1, 'verified', 'fixer')],
      },
      12,
    ),
    record(
      {
        runId: 'r2',
        startedAt: '2024-05-03T10:00:00.000Z',
        status: 'fixed',
        stopReason: 'fixed',
        tier: 'assist',
        modelCalls: 2,
        attempts: [attempt(1, 'rejected'), attempt(2, 'verified')],
      },
      40,
    ),
    record(
      {
        runId: 'r3',
        startedAt: '2024-05-07T11:00:00.000Z',
        status: 'unfixed',
        stopReason: 'budget-exhausted',
        tier: 'assist',
        modelCalls: 3,
        diagnostics: [diagnostic('test', 'expected: <6> but was: <5>', 'src/test/java/com/acme/CalcTest.java')],
        attempts: [attempt(1, 'build-failed'), attempt(2, 'regressed'), attempt(3, 'not-applicable')],
      },
      95,
    ),
    record(
      {
        runId: 'r4',
        startedAt: '2024-05-10T12:00:00.000Z',
        status: 'fixed',
        stopReason: 'fixed',
        tier: 'auto',
        applied: true,
        modelCalls: 1,
        diagnostics: [diagnostic('test', 'expected: <true> but was: <false>')],
        attempts: [attempt(1, 'verified')],
      },
      60,
    ),
    record(
      {
        runId: 'r5',
        startedAt: '2024-05-20T13:00:00.000Z',
        status: 'skipped',
        stopReason: 'not-fixable',
        tier: 'auto',
        diagnostics: [diagnostic('other', 'Could not resolve dependencies')],
      },
      2,
    ),
    record(
      {
        runId: 'r6',
        startedAt: '2024-05-28T14:00:00.000Z',
        status: 'unfixed',
        stopReason: 'provider-unavailable',
        tier: 'monitor',
        diagnostics: [diagnostic('compile', 'cannot find symbol'), diagnostic('test', 'stale failure')],
      },
      5,
    ),
  ];
}
