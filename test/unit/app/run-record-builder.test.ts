/**
 * The run record is built from events (src/app/run-record-builder.ts): each event writes the
 * fields it owns, in the order the record has always had them, and the decisions read in
 * the order things happened.
 */
import { describe, expect, it } from 'vitest';
import { RunRecordBuilder } from '../../../src/app/run-record-builder.js';
import type { Diagnosis } from '../../../src/diagnose/types.js';
import type { LoopResult } from '../../../src/repair/index.js';
import { SandboxError } from '../../../src/workspace/index.js';

const diagnosis = (over: Partial<Diagnosis> = {}): Diagnosis => ({
  diagnostics: [],
  fingerprint: 'f',
  fixable: true,
  modules: [],
  warnings: [],
  ...over,
});
const BUILD_START = new Date('2026-12-05T10:00:00Z');
const BUILD_END = new Date('2026-12-05T10:00:10Z');
const HANDED_OVER = new Date('2026-12-05T10:00:10.300Z');

function builder(over: Partial<Diagnosis> = {}): RunRecordBuilder {
  return new RunRecordBuilder({
    runId: 'r1',
    build: { startedAt: BUILD_START, exitCode: 1 },
    mavenArgs: ['-o', 'verify'],
    tier: 'assist',
    diagnosis: diagnosis(over),
    handledAt: HANDED_OVER,
    diagnoseMs: 12,
    repository: 'acme/shop',
  });
}

const loop = (over: Partial<LoopResult> = {}): LoopResult => ({
  stopReason: 'no-progress',
  attempts: [],
  modelCalls: 2,
  timings: { modelMs: 100, promptMs: 5, applyMs: 1, verifyMs: 900 },
  ...over,
});

describe('RunRecordBuilder', () => {
  it('starts unfixed with the diagnosis warnings as decisions, and totals from the end of the build', () => {
    const record = builder({ warnings: ['log truncated'] }).finish(
      new Date('2026-12-05T10:00:12Z'),
      BUILD_END,
      HANDED_OVER,
    );
    expect(record).toMatchObject({
      runId: 'r1',
      startedAt: BUILD_START.toISOString(),
      finishedAt: '2026-12-05T10:00:12.000Z',
      mavenExitCode: 1,
      tier: 'assist',
      status: 'unfixed',
      stopReason: 'error',
      applied: false,
      decisions: ['diagnosis: log truncated'],
      repository: 'acme/shop',
    });
    expect(record.timings).toEqual({ totalMs: 2000, modelMs: 0, applyMs: 0, verifyMs: 0, diagnoseMs: 12 });
    // The record's keys keep the order run.json has always had.
    expect(Object.keys(record)).toEqual([
      'runId',
      'startedAt',
      'finishedAt',
      'mavenArgs',
      'mavenExitCode',
      'tier',
      'status',
      'stopReason',
      'diagnostics',
      'attempts',
      'applied',
      'decisions',
      'modelCalls',
      'timings',
      'repository',
    ]);
  });

  it('a skip by the policy says its first reason; an unfixable diagnosis says its own', () => {
    const decision = {
      action: 'skip' as const,
      tier: 'monitor' as const,
      reasons: ['compile errors are not repaired under this rule'],
      targets: [],
    };
    const skipped = builder();
    skipped.attemptDecided(decision);
    skipped.skipped(diagnosis(), decision);
    expect(skipped.finish(BUILD_END, BUILD_END, HANDED_OVER)).toMatchObject({
      tier: 'monitor',
      status: 'skipped',
      stopReason: 'policy-skip',
      message: decision.reasons[0],
      decisions: decision.reasons,
    });
    const unfixable = builder();
    unfixable.skipped(diagnosis({ fixable: false, reason: 'the log names no failure' }), decision);
    expect(unfixable.finish(BUILD_END, BUILD_END, HANDED_OVER)).toMatchObject({
      stopReason: 'not-fixable',
      message: 'the log names no failure',
    });
  });

  it('an error is the record’s message, and a sandbox that could not run is named', () => {
    const failed = builder();
    failed.failed(
      new SandboxError('bubblewrap is required by sandbox.mode', {
        kind: 'bwrap',
        isolated: false,
        available: false,
        reason: 'bwrap: not found',
        tried: [],
      }),
    );
    expect(failed.finish(BUILD_END, BUILD_END, HANDED_OVER)).toMatchObject({
      status: 'error',
      stopReason: 'error',
      message: 'bubblewrap is required by sandbox.mode',
      sandbox: { kind: 'bwrap', isolated: false, reason: 'bwrap: not found' },
    });
  });

  it('the loop’s result fills attempts, calls, timings and the flaky check’s decision', () => {
    const flaky = builder();
    flaky.loopFinished(
      loop({
        stopReason: 'flaky',
        message: 'ShopTest#total',
        flakyTests: ['ShopTest#total'],
        recheck: { passed: ['ShopTest#total'], failed: [], durationMs: 1800 },
      }),
      undefined,
    );
    const record = flaky.finish(BUILD_END, BUILD_END, HANDED_OVER);
    expect(record).toMatchObject({
      stopReason: 'flaky',
      modelCalls: 2,
      flakyTests: ['ShopTest#total'],
      message: 'ShopTest#total',
    });
    expect(record.timings).toMatchObject({ modelMs: 100, verifyMs: 900, recheckMs: 1800 });
    expect(record.decisions).toEqual(['flaky: ShopTest#total; no model was asked (tests.flakyCheck)']);

    // The request made beside the re-check and thrown away: counted in modelCalls, named apart, never "not asked".
    const discarded = builder();
    discarded.loopFinished(
      loop({
        stopReason: 'flaky',
        modelCalls: 0,
        discardedModelCalls: 1,
        message: 'ShopTest#total',
        flakyTests: ['ShopTest#total'],
        recheck: { passed: ['ShopTest#total'], failed: [], durationMs: 1800 },
      }),
      undefined,
    );
    const told = discarded.finish(BUILD_END, BUILD_END, HANDED_OVER);
    expect(told).toMatchObject({ modelCalls: 1, discardedModelCalls: 1 });
    expect(told.decisions).toEqual([
      'flaky: ShopTest#total; the model request made beside the re-check was cancelled and its reply not used (1 discarded) (tests.flakyCheck)',
    ]);

    const again = builder();
    again.loopFinished(
      loop({ recheck: { passed: [], failed: ['A#a', 'A#b', 'A#c'], reran: 1, durationMs: 900 } }),
      undefined,
    );
    expect(again.finish(BUILD_END, BUILD_END, HANDED_OVER).decisions).toEqual([
      'flaky check: 1 of 3 failing tests (re-run first; the rest were not needed) failed again when re-run on the unchanged code; repairing',
    ]);
  });

  it('a verified fix applied in place: status, verdict, coverage known only, and the outcome', () => {
    const fixed = builder();
    fixed.fixVerified({ files: [{ path: 'src/main/java/Shop.java', before: 'a', after: 'b' }] });
    fixed.verdictDecided(
      {
        action: 'apply',
        tier: 'auto',
        risk: 'low',
        reasons: ['tier auto applies a low-risk fix'],
        prompt: false,
      } as never,
      { modules: ['shop'], coverage: { shop: 81, api: undefined } },
    );
    fixed.appliedInPlace(
      { applied: true, message: 'applied to your files; mvn -o verify passed', exitCode: 0 },
      'tier auto',
      new Date('2026-12-05T10:00:20Z'),
    );
    const record = fixed.finish(BUILD_END, BUILD_END, HANDED_OVER);
    expect(record).toMatchObject({
      status: 'fixed',
      fixModules: ['shop'],
      coverage: { shop: 81 },
      action: 'apply',
      risk: 'low',
      tier: 'auto',
      applied: true,
      inPlaceExitCode: 0,
      outcome: 'applied',
    });
    expect(record.coverage).not.toHaveProperty('api');
    expect(record.fixBase).toBeDefined();
    expect(record.decisions).toEqual([
      'tier auto applies a low-risk fix',
      'applied to your files; mvn -o verify passed',
    ]);
    expect(record.outcomeHistory).toEqual([
      { outcome: 'applied', at: '2026-12-05T10:00:20.000Z', evidence: 'tier auto' },
    ]);
  });

  it('an interrupted loop leaves the run unfixed, whatever the loop had', () => {
    const stopped = builder();
    stopped.loopFinished(loop({ stopReason: 'interrupted' }), undefined);
    expect(stopped.finish(BUILD_END, BUILD_END, HANDED_OVER)).toMatchObject({
      status: 'unfixed',
      stopReason: 'interrupted',
    });
  });
});
