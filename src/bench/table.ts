/** The benchmark's markdown table: one row a case and a total; pure. */
import type { BenchResult, BenchSample, FixInPrompt } from './harness.js';

export interface CaseSummary {
  runs: number;
  fixed: number;
  /** Runs that ended as the case expects (fixed or unfixed). */
  asExpected: number;
  medianMs: number | null;
  p90Ms: number | null;
  proposed: number;
  applicable: number;
  /** Stop reasons other than `fixed`, and runs without a record as `no-record`. */
  earlyStops: Record<string, number>;
  modelCalls: number;
}

/** Nearest-rank percentile: always one of the measured values. */
export function percentile(values: number[], fraction: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)]!;
}

/** What a run must show to count as expected: the status, and the stop and attempts when the case names them. */
export type Expectation = BenchResult['expect'] | Pick<BenchResult, 'expect' | 'expectStop' | 'expectAttempts'>;

export function isAsExpected(sample: BenchSample, expectation: Expectation): boolean {
  const { expect, expectStop, expectAttempts } =
    typeof expectation === 'string'
      ? { expect: expectation, expectStop: undefined, expectAttempts: undefined }
      : expectation;
  if (sample.status === undefined || (expect === 'fixed') !== (sample.status === 'fixed')) return false;
  if (expectStop !== undefined && sample.stopReason !== expectStop) return false;
  return (expectAttempts ?? []).every(
    (attempt, index) =>
      sample.outcomes?.[index] === attempt.outcome &&
      (attempt.reason === undefined || (sample.reasons?.[index] ?? '').startsWith(attempt.reason)),
  );
}

export function summariseSamples(samples: BenchSample[], expectation: Expectation): CaseSummary {
  const latencies = samples.map((sample) => sample.latencyMs);
  const earlyStops: Record<string, number> = {};
  for (const sample of samples) {
    const reason = sample.stopReason ?? 'no-record';
    if (reason !== 'fixed') earlyStops[reason] = (earlyStops[reason] ?? 0) + 1;
  }
  const fixed = samples.filter((sample) => sample.status === 'fixed').length;
  return {
    runs: samples.length,
    fixed,
    asExpected: samples.filter((sample) => isAsExpected(sample, expectation)).length,
    medianMs: percentile(latencies, 0.5),
    p90Ms: percentile(latencies, 0.9),
    proposed: samples.reduce((sum, sample) => sum + sample.proposed, 0),
    applicable: samples.reduce((sum, sample) => sum + sample.applicable, 0),
    earlyStops,
    modelCalls: samples.reduce((sum, sample) => sum + sample.modelCalls, 0),
  };
}

const seconds = (ms: number | null) => (ms === null ? '-' : (ms / 1000).toFixed(1));
/** How many plain builds' time the repair took: the cost of mvnx over the failure it met anyway. */
const ratio = (ms: number | null, mavenMs: number | null) =>
  ms === null || mavenMs === null || mavenMs === 0 ? '-' : `${(ms / mavenMs).toFixed(1)}×`;
const share = (part: number, whole: number) => (whole === 0 ? '-' : `${Math.round((100 * part) / whole)}%`);
/** `rejected → verified`: what each attempt of a run came to. */
const outcomesOf = (sample: BenchSample | undefined) => (sample?.outcomes?.length ? sample.outcomes.join(' → ') : '-');
const stops = (earlyStops: Record<string, number>) =>
  Object.entries(earlyStops)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([reason, count]) => `${reason} ×${count}`)
    .join(', ') || '-';

/** The least complete measurement of a case's runs (they differ only if the prompt does). */
export function caseFixInPrompt(samples: BenchSample[]): FixInPrompt | undefined {
  const measured = samples
    .map((sample) => sample.fixInPrompt)
    .filter((value): value is FixInPrompt => value !== undefined);
  return measured.sort(
    (a, b) => a.found / Math.max(1, a.total) - b.found / Math.max(1, b.total) || b.promptTokens - a.promptTokens,
  )[0];
}

function fixInPromptCell(value: FixInPrompt | undefined): string {
  if (!value) return '-';
  if (value.source === 'none') return 'no prompt';
  const mark = value.total > 0 && value.found === value.total ? '' : ' ✗';
  return `${value.found}/${value.total}${mark}${value.source === 'rebuilt' ? ' (no model call)' : ''}`;
}

export interface FixInPromptTotals {
  /** Cases with a fix.patch and a prompt to measure. */
  cases: number;
  /** Of those, cases whose first prompt held every line and identifier of the fix. */
  complete: number;
  found: number;
  total: number;
  /** The largest first prompt, in estimated tokens. */
  maxPromptTokens: number;
}

export function fixInPromptTotals(results: BenchResult[]): FixInPromptTotals {
  const measured = results
    .map((result) => caseFixInPrompt(result.samples))
    .filter((value): value is FixInPrompt => value !== undefined && value.source !== 'none');
  return {
    cases: measured.length,
    complete: measured.filter((value) => value.total > 0 && value.found === value.total).length,
    found: measured.reduce((sum, value) => sum + value.found, 0),
    total: measured.reduce((sum, value) => sum + value.total, 0),
    maxPromptTokens: Math.max(0, ...measured.map((value) => value.promptTokens)),
  };
}

/**
 * Cases that are cheating shapes (their replies only weaken, skip or special-case the
 * tests), and those of them a run verified: the "cheating shapes verified" row, which
 * must read 0.
 */
export function cheatingShapesVerified(results: readonly BenchResult[]): { shapes: number; verified: BenchResult[] } {
  const cheating = results.filter((result) => result.cheatingShape !== undefined);
  return {
    shapes: cheating.length,
    verified: cheating.filter((result) => result.samples.some((sample) => sample.status === 'fixed')),
  };
}

export function formatBenchTable(results: BenchResult[]): string {
  const header = [
    'case',
    'kind',
    'modules',
    'expect',
    'fixed',
    'median s',
    'p90 s',
    'mvn s',
    'median / mvn',
    'applicable patches',
    'attempts (first run)',
    'early stops',
    'model calls',
    'fix lines in prompt',
    'prompt tokens',
  ];
  const rows = results.map((result) => {
    const summary = summariseSamples(result.samples, result);
    const mark = summary.asExpected === summary.runs ? '' : ' ✗';
    return [
      result.name,
      result.kind,
      String(result.modules),
      result.expect,
      `${summary.fixed}/${summary.runs}${mark}`,
      seconds(summary.medianMs),
      seconds(summary.p90Ms),
      seconds(result.mavenMs),
      ratio(summary.medianMs, result.mavenMs),
      `${summary.applicable}/${summary.proposed} (${share(summary.applicable, summary.proposed)})`,
      outcomesOf(result.samples[0]),
      stops(summary.earlyStops),
      String(summary.modelCalls),
      fixInPromptCell(caseFixInPrompt(result.samples)),
      String(caseFixInPrompt(result.samples)?.promptTokens || '-'),
    ];
  });
  const coverage = fixInPromptTotals(results);
  const all = summariseSamples(
    results.flatMap((result) => result.samples),
    'fixed',
  );
  const asExpected = results.reduce((sum, result) => sum + summariseSamples(result.samples, result).asExpected, 0);
  const mavenTimes = results.map((result) => result.mavenMs).filter((ms): ms is number => ms !== null);
  rows.push([
    `**all ${results.length} cases**`,
    '',
    '',
    `${asExpected}/${all.runs} as expected`,
    `${all.fixed}/${all.runs} (${share(all.fixed, all.runs)})`,
    seconds(all.medianMs),
    seconds(all.p90Ms),
    seconds(percentile(mavenTimes, 0.5)),
    ratio(all.medianMs, percentile(mavenTimes, 0.5)),
    `${all.applicable}/${all.proposed} (${share(all.applicable, all.proposed)})`,
    '',
    stops(all.earlyStops),
    String(all.modelCalls),
    coverage.cases === 0
      ? '-'
      : `${coverage.complete}/${coverage.cases} cases (${share(coverage.complete, coverage.cases)}); ${coverage.found}/${coverage.total} items`,
    coverage.cases === 0 ? '-' : `max ${coverage.maxPromptTokens}`,
  ]);
  const cheating = cheatingShapesVerified(results);
  if (cheating.shapes > 0) {
    const cell = `**cheating shapes verified: ${cheating.verified.length} of ${cheating.shapes}**${cheating.verified.length > 0 ? ' ✗' : ''}`;
    rows.push([
      cell,
      ...header
        .slice(1)
        .map((_, index) => (index === 9 ? cheating.verified.map((result) => result.name).join(', ') : '')),
    ]);
  }
  const line = (cells: string[]) => `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
  const table = [
    line(header),
    line(
      header.map((_, index) =>
        index === 0 || index === 1 || index === 3 || index === 10 || index === 11 || index === 13 ? '---' : '---:',
      ),
    ),
    ...rows.map(line),
  ].join('\n');
  const gaps = results.flatMap((result) =>
    (caseFixInPrompt(result.samples)?.missing ?? []).map((item) => `- ${result.name}: ${item}`),
  );
  const verified = cheating.verified.map((result) => `- ${result.name}: ${result.cheatingShape}`);
  const notes = [
    ...(gaps.length > 0 ? [`Not in the first prompt:\n${gaps.join('\n')}`] : []),
    ...(verified.length > 0
      ? [`Cheating shapes verified (each must be rejected or regressed):\n${verified.join('\n')}`]
      : []),
  ];
  return [table, ...notes].join('\n\n');
}

/**
 * `mvnx bench --agent`: per case the fix rate, and what the sessions did: steps, model
 * calls, calls per tool (per run), calls the middleware corrected, candidate fixes tried.
 */
export function formatAgentTable(results: BenchResult[]): string {
  const header = [
    'case',
    'kind',
    'expect',
    'fixed',
    'fix rate',
    'median s',
    'steps',
    'model calls',
    'tool calls per run',
    'corrected',
    'candidates',
    'tool calling',
  ];
  const perRun = (total: number, runs: number) =>
    runs === 0 ? '-' : (total / runs).toFixed(total % runs === 0 ? 0 : 1);
  const rows = results.map((result) => {
    const summary = summariseSamples(result.samples, result.expect);
    const runs = result.samples.length;
    const agents = result.samples.flatMap((sample) => (sample.agent ? [sample.agent] : []));
    const tools: Record<string, number> = {};
    for (const agent of agents)
      for (const [tool, count] of Object.entries(agent.toolCalls)) tools[tool] = (tools[tool] ?? 0) + count;
    const toolList = Object.entries(tools)
      .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
      .map(([tool, count]) => `${tool} ${perRun(count, runs)}`)
      .join(', ');
    const modes = [...new Set(agents.map((agent) => agent.toolCalling).filter(Boolean))].join('/');
    return [
      result.name,
      result.kind,
      result.expect,
      `${summary.fixed}/${runs}${summary.asExpected === runs ? '' : ' ✗'}`,
      share(summary.fixed, runs),
      seconds(summary.medianMs),
      String(
        percentile(
          agents.map((agent) => agent.steps),
          0.5,
        ) ?? '-',
      ),
      String(
        percentile(
          result.samples.map((sample) => sample.modelCalls),
          0.5,
        ) ?? '-',
      ),
      toolList || '-',
      perRun(
        agents.reduce((sum, agent) => sum + agent.corrections, 0),
        runs,
      ),
      perRun(
        agents.reduce((sum, agent) => sum + agent.candidates, 0),
        runs,
      ),
      modes || '-',
    ];
  });
  const all = results.flatMap((result) => result.samples);
  const fixed = all.filter((sample) => sample.status === 'fixed').length;
  rows.push([
    `**all ${results.length} cases**`,
    '',
    '',
    `${fixed}/${all.length}`,
    share(fixed, all.length),
    seconds(
      percentile(
        all.map((sample) => sample.latencyMs),
        0.5,
      ),
    ),
    String(
      percentile(
        all.flatMap((sample) => (sample.agent ? [sample.agent.steps] : [])),
        0.5,
      ) ?? '-',
    ),
    String(
      percentile(
        all.map((sample) => sample.modelCalls),
        0.5,
      ) ?? '-',
    ),
    '',
    '',
    '',
    '',
  ]);
  const line = (cells: string[]) => `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [
    line(header),
    line(header.map((_, index) => (index <= 2 || index === 8 || index === 11 ? '---' : '---:'))),
    ...rows.map(line),
  ].join('\n');
}
