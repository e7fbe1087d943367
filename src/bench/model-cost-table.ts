/** `mvnx bench --model-cost ...`: per case what the model's side cost under the cost model; pure. */
import type { BenchResult, BenchSample } from './harness.js';
import type { ModelCostRates, ModelCostSample } from './model-cost.js';

const fixed1 = (value: number) => value.toFixed(1);

/** `sent→evaluated` per call: what the cache could not reuse; `(stopped)` when mvnx ended the answer at its end. */
function perCallCell(cost: ModelCostSample): string {
  return (
    cost.perCall.map((call) => `${call.sent}→${call.evaluated}${call.stoppedEarly ? ' (stopped)' : ''}`).join(', ') ||
    '-'
  );
}

export function formatModelCostTable(results: readonly BenchResult[], rates: ModelCostRates): string {
  const header = [
    'case',
    'status',
    'model calls',
    'prompt tokens sent',
    'tokens evaluated',
    'evaluated / sent',
    'output tokens',
    'model s',
    'loaded ahead s',
    'Maven s',
    'total s',
    'per call: sent→evaluated',
  ];
  const samples: { name: string; sample: BenchSample; cost: ModelCostSample }[] = results.flatMap((result) =>
    result.samples.flatMap((sample) =>
      sample.modelCost ? [{ name: result.name, sample, cost: sample.modelCost }] : [],
    ),
  );
  const share = (part: number, whole: number) => (whole === 0 ? '-' : `${Math.round((100 * part) / whole)}%`);
  const rows = samples.map(({ name, sample, cost }) => [
    name,
    sample.status ?? 'no record',
    String(cost.calls),
    String(cost.promptTokens),
    String(cost.evaluatedTokens),
    share(cost.evaluatedTokens, cost.promptTokens),
    String(cost.outputTokens),
    fixed1(cost.modelSeconds),
    fixed1(cost.aheadSeconds ?? 0),
    fixed1(cost.otherSeconds),
    fixed1(cost.modelSeconds + cost.otherSeconds),
    perCallCell(cost),
  ]);
  const sum = (pick: (cost: ModelCostSample) => number) => samples.reduce((total, { cost }) => total + pick(cost), 0);
  const verified = samples.filter(({ sample }) => sample.status === 'fixed');
  const verifiedSum = (pick: (cost: ModelCostSample) => number) =>
    verified.reduce((total, { cost }) => total + pick(cost), 0);
  rows.push([
    `**all ${samples.length} runs**`,
    `${verified.length} fixed`,
    String(sum((cost) => cost.calls)),
    String(sum((cost) => cost.promptTokens)),
    String(sum((cost) => cost.evaluatedTokens)),
    share(
      sum((cost) => cost.evaluatedTokens),
      sum((cost) => cost.promptTokens),
    ),
    String(sum((cost) => cost.outputTokens)),
    fixed1(sum((cost) => cost.modelSeconds)),
    fixed1(sum((cost) => cost.aheadSeconds ?? 0)),
    fixed1(sum((cost) => cost.otherSeconds)),
    fixed1(sum((cost) => cost.modelSeconds + cost.otherSeconds)),
    '',
  ]);
  const line = (cells: string[]) => `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
  const table = [
    line(header),
    line(header.map((_, index) => (index <= 1 || index === 11 ? '---' : '---:'))),
    ...rows.map(line),
  ].join('\n');
  const perFix =
    verified.length === 0
      ? 'No run was fixed: nothing to divide by.'
      : `Per fixed run (${verified.length}): ${Math.round(verifiedSum((cost) => cost.evaluatedTokens) / verified.length)} tokens evaluated, ${fixed1(verifiedSum((cost) => cost.modelSeconds) / verified.length)} model s.`;
  const later = samples.flatMap(({ cost }) => cost.perCall.slice(1));
  const laterLine =
    later.length === 0
      ? 'No run made a second model call.'
      : `Calls after the first of a run (${later.length}): ${share(
          later.reduce((total, call) => total + call.evaluated, 0),
          later.reduce((total, call) => total + call.sent, 0),
        )} of their prompt tokens evaluated.`;
  return [
    `Cost model: prompt ${rates.prompt} tokens/s, output ${rates.output} tokens/s, load ${rates.load} s; model s are the calls' own (a load they waited for included), loaded ahead s a load asked beside Maven; Maven s is the run's wall time less the server's waits (scale ${rates.scale}).`,
    table,
    `${perFix} ${laterLine}`,
  ].join('\n\n');
}
