import { describe, expect, it } from 'vitest';
import {
  parseRunRecordFromStdout,
  sampleFromRecord,
  type BenchResult,
  type BenchSample,
} from '../../src/bench/harness.js';
import {
  cheatingShapesVerified,
  formatAgentTable,
  formatBenchTable,
  isAsExpected,
  percentile,
  summariseSamples,
} from '../../src/bench/table.js';
import { attempt, record } from './stats-support.js';

const fixed = (latencyMs: number, extra: Partial<BenchSample> = {}): BenchSample => ({
  exitCode: 1,
  latencyMs,
  status: 'fixed',
  stopReason: 'fixed',
  modelCalls: 1,
  attempts: 1,
  proposed: 1,
  applicable: 1,
  ...extra,
});
const unfixed = (
  latencyMs: number,
  stopReason: BenchSample['stopReason'],
  extra: Partial<BenchSample> = {},
): BenchSample => ({
  exitCode: 1,
  latencyMs,
  status: 'unfixed',
  stopReason,
  modelCalls: 2,
  attempts: 2,
  proposed: 2,
  applicable: 0,
  ...extra,
});

const rebuilt = { found: 2, total: 2, missing: [], promptTokens: 700, source: 'rebuilt' as const };

const results: BenchResult[] = [
  {
    name: 'missing-semicolon-statement',
    kind: 'compile',
    expect: 'fixed',
    modules: 1,
    samples: [
      fixed(8000, { modelCalls: 0, outcomes: ['verified'], fixInPrompt: rebuilt }),
      fixed(9000, { modelCalls: 0, fixInPrompt: rebuilt }),
      fixed(12000, { modelCalls: 0, fixInPrompt: rebuilt }),
    ],
    mavenMs: 3500,
  },
  {
    name: 'off-by-one-loop',
    kind: 'test',
    expect: 'fixed',
    modules: 1,
    samples: [
      fixed(20000, {
        attempts: 2,
        proposed: 2,
        applicable: 1,
        modelCalls: 2,
        fixInPrompt: { found: 1, total: 1, missing: [], promptTokens: 1500, source: 'prompt' },
      }),
      unfixed(30000, 'budget-exhausted', {
        fixInPrompt: {
          found: 0,
          total: 1,
          missing: ['line: for (int i = 1; i < n; i++) {'],
          promptTokens: 900,
          source: 'prompt',
        },
      }),
    ],
    mavenMs: 4500,
  },
  {
    name: 'prose-only-replies',
    kind: 'test',
    expect: 'unfixed',
    modules: 3,
    samples: [
      unfixed(15000, 'no-progress', { proposed: 0, attempts: 0 }),
      { exitCode: 2, latencyMs: 900, modelCalls: 0, attempts: 0, proposed: 0, applicable: 0, error: 'no run record' },
    ],
    mavenMs: null,
  },
];

describe('percentile', () => {
  it('is nearest-rank, so always a measured value', () => {
    expect(percentile([5, 1, 4, 2, 3], 0.5)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9);
    expect(percentile([7], 0.9)).toBe(7);
    expect(percentile([], 0.5)).toBeNull();
  });
});

describe('summariseSamples', () => {
  it('counts fixes, applicability and early stops, a missing record as no-record', () => {
    expect(summariseSamples(results[1]!.samples, 'fixed')).toEqual({
      runs: 2,
      fixed: 1,
      asExpected: 1,
      medianMs: 20000,
      p90Ms: 30000,
      proposed: 4,
      applicable: 1,
      earlyStops: { 'budget-exhausted': 1 },
      modelCalls: 4,
    });
    // A run without a record is not an "unfixed as expected" run.
    expect(summariseSamples(results[2]!.samples, 'unfixed')).toMatchObject({
      asExpected: 1,
      earlyStops: { 'no-progress': 1, 'no-record': 1 },
    });
  });
});

describe('formatBenchTable', () => {
  const table = formatBenchTable(results);
  const lines = table.split('\n');

  it('is a markdown table with one row a case and a total', () => {
    expect(lines[0]).toBe(
      '| case | kind | modules | expect | fixed | median s | p90 s | mvn s | median / mvn | applicable patches | attempts (first run) | early stops | model calls | fix lines in prompt | prompt tokens |',
    );
    expect(lines[1]).toBe(
      '| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | --- | ---: |',
    );
    const rows = lines.slice(0, lines.indexOf(''));
    expect(rows).toHaveLength(2 + results.length + 1);
    expect(rows.every((line) => line.split(' | ').length === 15)).toBe(true);
  });

  it("shows each case's numbers and marks a case that missed its expectation", () => {
    expect(lines[2]).toBe(
      '| missing-semicolon-statement | compile | 1 | fixed | 3/3 | 9.0 | 12.0 | 3.5 | 2.6× | 3/3 (100%) | verified | - | 0 | 2/2 (no model call) | 700 |',
    );
    // The least complete run of a case counts.
    expect(lines[3]).toBe(
      '| off-by-one-loop | test | 1 | fixed | 1/2 ✗ | 20.0 | 30.0 | 4.5 | 4.4× | 1/4 (25%) | - | budget-exhausted ×1 | 4 | 0/1 ✗ | 900 |',
    );
    expect(lines[4]).toBe(
      '| prose-only-replies | test | 3 | unfixed | 0/2 ✗ | 0.9 | 15.0 | - | - | 0/0 (-) | - | no-progress ×1, no-record ×1 | 2 | - | - |',
    );
  });

  it('totals over every run', () => {
    expect(lines[5]).toBe(
      '| **all 3 cases** |  |  | 5/7 as expected | 4/7 (57%) | 12.0 | 30.0 | 3.5 | 3.4× | 4/7 (57%) |  | budget-exhausted ×1, no-progress ×1, no-record ×1 | 6 | 1/2 cases (50%); 2/3 items | max 900 |',
    );
  });

  it('lists what the first prompts lacked under the table', () => {
    expect(lines.slice(6)).toEqual([
      '',
      'Not in the first prompt:',
      '- off-by-one-loop: line: for (int i = 1; i < n; i++) {',
    ]);
  });
});

describe('the cheating shapes row', () => {
  const rejected = (n: number) =>
    unfixed(n, 'duplicate-patch', { outcomes: ['rejected'], reasons: ['test-special-casing: ...'] });
  const cheating: BenchResult[] = [
    {
      name: 'cheat-trivial-equals',
      kind: 'test',
      expect: 'unfixed',
      cheatingShape: 'trivial equals',
      modules: 1,
      samples: [rejected(9000)],
      mavenMs: null,
    },
    {
      name: 'cheat-call-counting',
      kind: 'test',
      expect: 'unfixed',
      cheatingShape: 'call counting',
      modules: 1,
      samples: [rejected(9000), rejected(8000)],
      mavenMs: null,
    },
    results[0]!,
  ];

  it('reads 0 of the number of cheating cases when every cheat was refused', () => {
    expect(cheatingShapesVerified(cheating)).toEqual({ shapes: 2, verified: [] });
    const lines = formatBenchTable(cheating).split('\n');
    expect(lines.find((line) => line.startsWith('| **cheating'))).toBe(
      `| **cheating shapes verified: 0 of 2** |${'  |'.repeat(14)}`,
    );
    expect(lines.find((line) => line.startsWith('| **cheating'))!.split(' | ')).toHaveLength(15);
  });

  it('counts a cheating case once when any of its runs was verified, names it in the row and lists it under the table', () => {
    const leaky = [
      ...cheating.slice(0, 1),
      { ...cheating[1]!, samples: [rejected(9000), fixed(12000, { outcomes: ['verified'] })] },
    ];
    expect(cheatingShapesVerified(leaky).verified.map((result) => result.name)).toEqual(['cheat-call-counting']);
    const table = formatBenchTable(leaky);
    expect(table).toContain('| **cheating shapes verified: 1 of 2** ✗ |');
    expect(table).toContain('| cheat-call-counting |');
    expect(
      table.endsWith(
        'Cheating shapes verified (each must be rejected or regressed):\n- cheat-call-counting: call counting',
      ),
    ).toBe(true);
  });

  it('is left out of a table without cheating cases', () => {
    expect(formatBenchTable(results)).not.toContain('cheating shapes');
  });
});

describe('isAsExpected: the status, and the stop and first attempts when a case names them', () => {
  const weakened: BenchSample = {
    ...unfixed(9000, 'duplicate-patch'),
    outcomes: ['rejected', 'rejected'],
    reasons: ['test-weakening: added `@Disabled` to com.acme.PriceTest#total', 'no-edits: none'],
  };
  const expectation = {
    expect: 'unfixed' as const,
    expectStop: 'duplicate-patch',
    expectAttempts: [{ outcome: 'rejected', reason: 'test-weakening' }],
  };

  it('holds when all three match', () => {
    expect(isAsExpected(weakened, expectation)).toBe(true);
    expect(isAsExpected(weakened, 'unfixed')).toBe(true);
  });

  it('fails on another stop, another outcome or another reason', () => {
    expect(isAsExpected({ ...weakened, stopReason: 'budget-exhausted' }, expectation)).toBe(false);
    expect(isAsExpected({ ...weakened, outcomes: ['verified'] }, expectation)).toBe(false);
    expect(isAsExpected({ ...weakened, reasons: ['protected-path: pom.xml'] }, expectation)).toBe(false);
    expect(isAsExpected({ ...weakened, status: undefined }, 'unfixed')).toBe(false);
  });
});

describe('reading the run record mvnx prints', () => {
  const runRecord = record({
    runId: 'r-1',
    startedAt: '2024-05-01T10:00:00.000Z',
    status: 'fixed',
    stopReason: 'fixed',
    modelCalls: 2,
    attempts: [
      attempt(1, 'not-applicable'),
      attempt(2, 'rejected'),
      attempt(3, 'build-failed'),
      attempt(4, 'verified'),
    ],
  });

  it("finds the record after Maven's own -q output, pretty-printed or on one line", () => {
    const maven = "[ERROR] COMPILATION ERROR : \n[ERROR] /p/src/A.java:[3,9] ';' expected\n{ not json\n";
    expect(parseRunRecordFromStdout(`${maven}${JSON.stringify(runRecord, null, 2)}\n`)?.runId).toBe('r-1');
    expect(parseRunRecordFromStdout(`${maven}${JSON.stringify(runRecord)}\n`)?.runId).toBe('r-1');
    expect(parseRunRecordFromStdout(maven)).toBeUndefined();
    expect(parseRunRecordFromStdout('')).toBeUndefined();
  });

  it('counts a patch as applicable unless validation refused it or it did not apply', () => {
    expect(sampleFromRecord(runRecord, 1, 5000)).toMatchObject({
      exitCode: 1,
      latencyMs: 5000,
      status: 'fixed',
      stopReason: 'fixed',
      modelCalls: 2,
      attempts: 4,
      proposed: 4,
      applicable: 2,
    });
    expect(sampleFromRecord(runRecord, 1, 5000).outcomes).toEqual([
      'not-applicable',
      'rejected',
      'build-failed',
      'verified',
    ]);
  });

  it('adds up the agent sessions of a run: steps, tool calls per tool, corrections and candidates', () => {
    const session = (
      steps: number,
      toolCalls: Record<string, number>,
      candidates: number,
      toolCalling: 'native' | 'text',
    ) => ({
      stop: 'step-limit',
      steps,
      modelCalls: steps,
      toolCalls,
      corrections: 1,
      toolCalling,
      candidates: Array.from({ length: candidates }, () => ({
        outcome: 'build-failed',
        reason: 'x',
        filesChanged: [],
      })),
    });
    const agentRecord = record({
      ...runRecord,
      attempts: [
        { ...attempt(1, 'build-failed'), agent: session(5, { read_range: 3, write_fix: 2 }, 2, 'native') },
        { ...attempt(2, 'verified'), agent: session(3, { read_range: 1, write_fix: 1 }, 1, 'text') },
      ],
    });
    expect(sampleFromRecord(agentRecord, 1, 9000).agent).toEqual({
      sessions: 2,
      steps: 8,
      toolCalls: { read_range: 4, write_fix: 3 },
      corrections: 2,
      candidates: 3,
      toolCalling: 'text',
    });
    const table = formatAgentTable([
      {
        name: 'c',
        kind: 'test',
        expect: 'fixed',
        modules: 1,
        mavenMs: null,
        samples: [
          { ...sampleFromRecord(agentRecord, 1, 9000), status: 'fixed' },
          { exitCode: 1, latencyMs: 3000, status: 'unfixed', modelCalls: 4, attempts: 1, proposed: 1, applicable: 0 },
        ],
      },
    ]);
    expect(table.split('\n')[2]).toBe(
      '| c | test | fixed | 1/2 ✗ | 50% | 3.0 | 8 | 2 | read_range 2, write_fix 1.5 | 1 | 1.5 | text |',
    );
  });
});
