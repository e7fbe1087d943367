/**
 * The repair benchmark (`npm run bench:repair`): the integration test's scenarios, each
 * run through the built CLI on a temp copy with the same scripted model replies, timed
 * end to end and split by the run record's own timings. This module is the pure part:
 * the scenario list, reading a record into a sample, medians and the markdown table.
 */
import type { RunRecord } from '../report/run-record.js';
import { percentile } from './table.js';

export interface RepairScenario {
  name: string;
  /** Project folder, relative to the repository root. */
  fixture: string;
  /** Reply files under `test/fixtures/repair/replies/` (without `.md`), in order. */
  replies: string[];
  tier: 'monitor' | 'auto';
  /** Quick-fixers on (default off: the model-only config of the integration test). */
  fixers?: boolean;
  /** Point `--mvnx-host` at a port nobody listens on. */
  deadHost?: boolean;
  expectStop: RunRecord['stopReason'];
  /** Chat requests the scripted server must see (0: the model must not be called). */
  expectServerCalls?: number;
}

export const REPAIR_SCENARIOS: RepairScenario[] = [
  {
    name: 'semicolon-wrong-counts',
    fixture: 'test/fixtures/repair/calc-semicolon',
    replies: ['semicolon-wrong-counts'],
    tier: 'monitor',
    expectStop: 'fixed',
    expectServerCalls: 1,
  },
  {
    name: 'misleading-summary',
    fixture: 'test/fixtures/repair/calc-semicolon',
    replies: ['semicolon-misleading-summary'],
    tier: 'monitor',
    expectStop: 'fixed',
    expectServerCalls: 1,
  },
  {
    name: 'duplicate-patch',
    fixture: 'test/fixtures/repair/calc-semicolon',
    replies: ['semicolon-wrong-line', 'semicolon-wrong-line', 'semicolon-wrong-line'],
    tier: 'monitor',
    expectStop: 'duplicate-patch',
    expectServerCalls: 2,
  },
  {
    name: 'no-progress',
    fixture: 'test/fixtures/repair/calc-semicolon',
    replies: ['semicolon-wrong-line', 'semicolon-wrong-line-2', 'semicolon-wrong-counts'],
    tier: 'monitor',
    expectStop: 'no-progress',
    expectServerCalls: 2,
  },
  {
    name: 'provider-down',
    fixture: 'test/fixtures/repair/calc-semicolon',
    replies: [],
    tier: 'monitor',
    deadHost: true,
    expectStop: 'provider-unavailable',
  },
  {
    name: 'traversal+pom then fix',
    fixture: 'test/fixtures/repair/calc-semicolon',
    replies: ['path-traversal', 'protected-pom', 'semicolon-wrong-counts'],
    tier: 'monitor',
    expectStop: 'fixed',
    expectServerCalls: 3,
  },
  {
    name: 'test-failure fix',
    fixture: 'test/fixtures/repair/calc-logic-bug',
    replies: ['logic-bug-fix'],
    tier: 'monitor',
    expectStop: 'fixed',
    expectServerCalls: 1,
  },
  {
    name: 'regression then fix',
    fixture: 'test/fixtures/repair/calc-logic-bug',
    replies: ['logic-bug-regression', 'logic-bug-fix'],
    tier: 'monitor',
    expectStop: 'fixed',
    expectServerCalls: 2,
  },
  {
    name: 'multi-module fix',
    fixture: 'test/fixtures/repair/multi',
    replies: ['multi-module-fix'],
    tier: 'monitor',
    expectStop: 'fixed',
    expectServerCalls: 1,
  },
  {
    name: 'auto apply',
    fixture: 'test/fixtures/repair/calc-semicolon',
    replies: ['semicolon-wrong-counts'],
    tier: 'auto',
    expectStop: 'fixed',
    expectServerCalls: 1,
  },
  {
    name: 'quick-fix only',
    fixture: 'examples/compile-error',
    replies: [],
    tier: 'monitor',
    fixers: true,
    expectStop: 'fixed',
    expectServerCalls: 0,
  },
];

/** The `.mvnxrc.yaml` of a scenario: the integration test's MODEL_ONLY, or with fixers on. */
export function scenarioConfig(scenario: RepairScenario): string {
  return [
    `tier: ${scenario.tier}`,
    'fixers:',
    `  enabled: ${scenario.fixers === true}`,
    'budget:',
    '  dynamic: false',
    '  maxAttempts: 4',
    '  maxModelCalls: 4',
    '',
  ].join('\n');
}

export interface RepairSample {
  exitCode: number;
  /** The whole `mvnx` process, initial Maven build included. */
  wallMs: number;
  status?: RunRecord['status'];
  stopReason?: RunRecord['stopReason'];
  /** The record's `timings` (the repair, after the initial build). */
  totalMs: number | null;
  modelMs: number | null;
  applyMs: number | null;
  verifyMs: number | null;
  /** Verification time of the last attempt that was built (the verified one on a fix). */
  lastVerifyMs: number | null;
  /** Stage names of that attempt, in order. */
  lastStages: string[];
  /** Verification stages over all attempts: each one is a Maven JVM start. */
  stagesAll: number;
  /** Maven processes in the run: the initial build, every stage, the in-place re-run. */
  mavenRuns: number;
  attempts: number;
  modelCalls: number;
  serverCalls: number | null;
  /** Plain `mvn -o -q verify` of the project with the fix applied (or broken, without one). */
  plainMs: number | null;
  plainOf: 'fixed' | 'broken';
  error?: string;
}

export function sampleFromRepairRecord(record: RunRecord | undefined, exitCode: number, wallMs: number): RepairSample {
  const empty: RepairSample = {
    exitCode,
    wallMs,
    totalMs: null,
    modelMs: null,
    applyMs: null,
    verifyMs: null,
    lastVerifyMs: null,
    lastStages: [],
    stagesAll: 0,
    mavenRuns: 1,
    attempts: 0,
    modelCalls: 0,
    serverCalls: null,
    plainMs: null,
    plainOf: 'broken',
  };
  if (!record) return { ...empty, error: `no run record on stdout (exit ${exitCode})` };
  const attempts = record.attempts ?? [];
  const built = attempts.filter(
    (attempt) => (attempt.stages?.length ?? 0) > 0 || attempt.timings?.verifyMs !== undefined,
  );
  const last = built[built.length - 1];
  const stagesAll = attempts.reduce((sum, attempt) => sum + (attempt.stages?.length ?? 0), 0);
  return {
    ...empty,
    status: record.status,
    stopReason: record.stopReason,
    totalMs: record.timings?.totalMs ?? null,
    modelMs: record.timings?.modelMs ?? null,
    applyMs: record.timings?.applyMs ?? null,
    verifyMs: record.timings?.verifyMs ?? null,
    lastVerifyMs: last?.timings?.verifyMs ?? null,
    lastStages: (last?.stages ?? []).map((stage) => stage.name),
    stagesAll,
    mavenRuns: 1 + stagesAll + (record.inPlaceExitCode !== undefined ? 1 : 0),
    attempts: attempts.length,
    modelCalls: record.modelCalls ?? 0,
    plainOf: record.status === 'fixed' ? 'fixed' : 'broken',
  };
}

/** Why a sample's figures do not add up: model + apply + verify <= repair total <= wall. */
export function sampleProblems(sample: RepairSample, toleranceMs = 5): string[] {
  const problems: string[] = [];
  if (sample.error) problems.push(sample.error);
  if (sample.totalMs === null) return problems;
  const split = (sample.modelMs ?? 0) + (sample.applyMs ?? 0) + (sample.verifyMs ?? 0);
  if (split > sample.totalMs + toleranceMs) problems.push(`split ${split} ms > repair total ${sample.totalMs} ms`);
  if (sample.totalMs > sample.wallMs + toleranceMs)
    problems.push(`repair total ${sample.totalMs} ms > wall ${sample.wallMs} ms`);
  if (sample.lastVerifyMs !== null && sample.verifyMs !== null && sample.lastVerifyMs > sample.verifyMs + toleranceMs)
    problems.push('last attempt verify > all verify');
  return problems;
}

export interface RepairSummary {
  name: string;
  runs: number;
  /** Runs that stopped as expected and saw the expected number of model calls. */
  asExpected: number;
  stopReasons: string;
  wallMs: number | null;
  totalMs: number | null;
  modelMs: number | null;
  applyMs: number | null;
  verifyMs: number | null;
  lastVerifyMs: number | null;
  plainMs: number | null;
  plainOf: 'fixed' | 'broken';
  lastStages: string;
  stagesAll: number | null;
  mavenRuns: number | null;
  modelCalls: number | null;
  problems: string[];
}

const median = (values: (number | null)[]): number | null =>
  percentile(
    values.filter((value): value is number => value !== null),
    0.5,
  );

export function summariseRepair(scenario: RepairScenario, samples: RepairSample[]): RepairSummary {
  const reasons = new Map<string, number>();
  for (const sample of samples)
    reasons.set(sample.stopReason ?? 'no-record', (reasons.get(sample.stopReason ?? 'no-record') ?? 0) + 1);
  const asExpected = samples.filter(
    (sample) =>
      sample.stopReason === scenario.expectStop &&
      (scenario.expectServerCalls === undefined ||
        sample.serverCalls === null ||
        sample.serverCalls === scenario.expectServerCalls),
  ).length;
  const stageLists = new Set(samples.map((sample) => sample.lastStages.join('→')));
  const problems = samples.flatMap((sample, index) =>
    sampleProblems(sample).map((problem) => `#${index + 1}: ${problem}`),
  );
  for (const [index, sample] of samples.entries()) {
    if (
      scenario.expectServerCalls !== undefined &&
      sample.serverCalls !== null &&
      sample.serverCalls !== scenario.expectServerCalls
    ) {
      problems.push(
        `#${index + 1}: server saw ${sample.serverCalls} chat calls, expected ${scenario.expectServerCalls}`,
      );
    }
  }
  return {
    name: scenario.name,
    runs: samples.length,
    asExpected,
    stopReasons: [...reasons.entries()]
      .map(([reason, count]) => (samples.length === 1 ? reason : `${reason} ×${count}`))
      .join(', '),
    wallMs: median(samples.map((sample) => sample.wallMs)),
    totalMs: median(samples.map((sample) => sample.totalMs)),
    modelMs: median(samples.map((sample) => sample.modelMs)),
    applyMs: median(samples.map((sample) => sample.applyMs)),
    verifyMs: median(samples.map((sample) => sample.verifyMs)),
    lastVerifyMs: median(samples.map((sample) => sample.lastVerifyMs)),
    plainMs: median(samples.map((sample) => sample.plainMs)),
    plainOf: samples.some((sample) => sample.plainOf === 'fixed') ? 'fixed' : 'broken',
    lastStages: [...stageLists].map((list) => list || '-').join(' / '),
    stagesAll: median(samples.map((sample) => sample.stagesAll)),
    mavenRuns: median(samples.map((sample) => sample.mavenRuns)),
    modelCalls: median(samples.map((sample) => sample.modelCalls)),
    problems,
  };
}

const secs = (ms: number | null) => (ms === null ? '-' : (ms / 1000).toFixed(2));
const times = (ms: number | null, base: number | null) =>
  ms === null || base === null || base === 0 ? '-' : `${(ms / base).toFixed(2)}×`;
const count = (value: number | null) => (value === null ? '-' : String(value));

export const REPAIR_TABLE_HEADER = [
  'scenario',
  'stop',
  'ok',
  'wall s',
  'repair s',
  'model s',
  'apply s',
  'verify s (all)',
  'verify s (last)',
  'stages (last)',
  'stages (all)',
  'mvn JVMs',
  'plain mvn s',
  'last verify / plain',
  'model calls',
];

export function formatRepairTable(summaries: RepairSummary[]): string {
  const rows = summaries.map((summary) => [
    summary.name,
    summary.stopReasons,
    `${summary.asExpected}/${summary.runs}${summary.asExpected === summary.runs && summary.problems.length === 0 ? '' : ' ✗'}`,
    secs(summary.wallMs),
    secs(summary.totalMs),
    secs(summary.modelMs),
    secs(summary.applyMs),
    secs(summary.verifyMs),
    secs(summary.lastVerifyMs),
    summary.lastStages,
    count(summary.stagesAll),
    count(summary.mavenRuns),
    `${secs(summary.plainMs)} (${summary.plainOf})`,
    summary.plainOf === 'fixed' ? times(summary.lastVerifyMs, summary.plainMs) : '-',
    count(summary.modelCalls),
  ]);
  const line = (cells: string[]) => `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
  const align = REPAIR_TABLE_HEADER.map((_, index) => (index <= 2 || index === 9 ? '---' : '---:'));
  return [line(REPAIR_TABLE_HEADER), line(align), ...rows.map(line)].join('\n');
}

/** Over the scenarios that verified a fix: stages per verification and last-verify / plain. */
export function stagedPlanCost(summaries: RepairSummary[]): {
  scenarios: number;
  meanStages: number | null;
  medianRatio: number | null;
} {
  const fixed = summaries.filter(
    (summary) => summary.plainOf === 'fixed' && summary.lastVerifyMs !== null && summary.plainMs,
  );
  if (fixed.length === 0) return { scenarios: 0, meanStages: null, medianRatio: null };
  const stages = fixed.map(
    (summary) => (summary.lastStages.split(' / ')[0] ?? '').split('→').filter((name) => name && name !== '-').length,
  );
  const ratios = fixed.map((summary) => summary.lastVerifyMs! / summary.plainMs!).sort((a, b) => a - b);
  return {
    scenarios: fixed.length,
    meanStages: stages.reduce((sum, n) => sum + n, 0) / fixed.length,
    medianRatio: ratios[Math.floor((ratios.length - 1) / 2)]!,
  };
}
