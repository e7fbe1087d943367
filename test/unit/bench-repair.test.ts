import { describe, expect, it } from 'vitest';
import {
  REPAIR_SCENARIOS,
  REPAIR_TABLE_HEADER,
  formatRepairTable,
  sampleFromRepairRecord,
  sampleProblems,
  scenarioConfig,
  stagedPlanCost,
  summariseRepair,
  type RepairSample,
} from '../../src/bench/repair-scenarios.js';
import { attempt, record } from './stats-support.js';

const verifiedRecord = record({
  runId: 'r1',
  startedAt: '2024-05-01T09:00:00.000Z',
  status: 'fixed',
  stopReason: 'fixed',
  modelCalls: 2,
  attempts: [
    {
      ...attempt(1, 'regressed'),
      timings: { modelMs: 40, applyMs: 3, verifyMs: 2500 },
      stages: [
        { name: 'compile', exitCode: 0, durationMs: 1000 },
        { name: 'tests', exitCode: 1, durationMs: 1500 },
      ],
    },
    {
      ...attempt(2, 'verified'),
      timings: { modelMs: 30, applyMs: 2, verifyMs: 4000 },
      stages: [
        { name: 'compile', exitCode: 0, durationMs: 1000 },
        { name: 'tests', exitCode: 0, durationMs: 1400 },
        { name: 'full', exitCode: 0, durationMs: 1600 },
      ],
    },
  ],
  timings: { totalMs: 6700, modelMs: 70, applyMs: 5, verifyMs: 6500 },
});

const sample = (overrides: Partial<RepairSample>): RepairSample => ({
  ...sampleFromRepairRecord(verifiedRecord, 1, 9000),
  plainMs: 2000,
  plainOf: 'fixed',
  serverCalls: 2,
  ...overrides,
});

describe('scenarios', () => {
  it('cover the integration scenarios with unique names, and the quick-fix one must not call the model', () => {
    const names = REPAIR_SCENARIOS.map((scenario) => scenario.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(11);
    const quick = REPAIR_SCENARIOS.find((scenario) => scenario.fixers);
    expect(quick).toMatchObject({ expectServerCalls: 0, replies: [] });
    expect(scenarioConfig(quick!)).toContain('enabled: true');
    expect(scenarioConfig(REPAIR_SCENARIOS.find((scenario) => scenario.tier === 'auto')!)).toMatch(
      /^tier: auto\nfixers:\n {2}enabled: false\n/,
    );
  });
});

describe('sampleFromRepairRecord', () => {
  it('takes the split from the record, the last built attempt for the verify, and counts JVM starts', () => {
    const result = sampleFromRepairRecord(verifiedRecord, 1, 9000);
    expect(result).toMatchObject({
      status: 'fixed',
      stopReason: 'fixed',
      totalMs: 6700,
      modelMs: 70,
      applyMs: 5,
      verifyMs: 6500,
      lastVerifyMs: 4000,
      lastStages: ['compile', 'tests', 'full'],
      stagesAll: 5,
      mavenRuns: 6,
      attempts: 2,
      modelCalls: 2,
      plainOf: 'fixed',
    });
    expect(sampleFromRepairRecord({ ...verifiedRecord, inPlaceExitCode: 0 }, 0, 9000).mavenRuns).toBe(7);
  });

  it('marks a run without a record', () => {
    expect(sampleFromRepairRecord(undefined, 2, 100)).toMatchObject({
      error: 'no run record on stdout (exit 2)',
      totalMs: null,
      mavenRuns: 1,
    });
  });
});

describe('sampleProblems', () => {
  it('flags a split larger than the repair, or a repair longer than the wall', () => {
    expect(sampleProblems(sample({}))).toEqual([]);
    expect(sampleProblems(sample({ verifyMs: 7000 }))).toEqual(['split 7075 ms > repair total 6700 ms']);
    expect(sampleProblems(sample({ wallMs: 6000 }))).toEqual(['repair total 6700 ms > wall 6000 ms']);
  });
});

describe('summariseRepair and formatRepairTable', () => {
  const scenario = REPAIR_SCENARIOS.find((s) => s.name === 'regression then fix')!;

  it('takes medians, counts runs as expected and reports wrong model-call counts', () => {
    const summary = summariseRepair(scenario, [
      sample({ wallMs: 9000 }),
      sample({ wallMs: 11000, serverCalls: 3 }),
      sample({ wallMs: 10000 }),
    ]);
    expect(summary).toMatchObject({
      runs: 3,
      asExpected: 2,
      wallMs: 10000,
      stopReasons: 'fixed ×3',
      lastStages: 'compile→tests→full',
      stagesAll: 5,
    });
    expect(summary.problems).toEqual(['#2: server saw 3 chat calls, expected 2']);
  });

  it('prints one row a scenario with the verify / plain ratio only against a fixed build', () => {
    const fixedRow = summariseRepair(scenario, [sample({})]);
    const down = summariseRepair(
      REPAIR_SCENARIOS.find((s) => s.deadHost)!,
      [
        {
          ...sampleFromRepairRecord(
            record({
              runId: 'r2',
              startedAt: '2024-05-01T09:00:00.000Z',
              stopReason: 'provider-unavailable',
              timings: { totalMs: 30, modelMs: 0, applyMs: 0, verifyMs: 0 },
            }),
            1,
            2500,
          ),
          plainMs: 2400,
          plainOf: 'broken',
        },
      ],
    );
    const table = formatRepairTable([fixedRow, down]).split('\n');
    expect(table).toHaveLength(4);
    expect(table[0]!.split('|').length - 2).toBe(REPAIR_TABLE_HEADER.length);
    expect(table[2]).toBe(
      '| regression then fix | fixed | 1/1 | 9.00 | 6.70 | 0.07 | 0.01 | 6.50 | 4.00 | compile→tests→full | 5 | 6 | 2.00 (fixed) | 2.00× | 2 |',
    );
    expect(table[3]).toBe(
      '| provider-down | provider-unavailable | 1/1 | 2.50 | 0.03 | 0.00 | 0.00 | 0.00 | - | - | 0 | 1 | 2.40 (broken) | - | 0 |',
    );
    expect(stagedPlanCost([fixedRow, down])).toEqual({ scenarios: 1, meanStages: 3, medianRatio: 2 });
  });
});
