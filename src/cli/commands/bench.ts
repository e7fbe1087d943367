import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBenchCases } from '../../bench/cases.js';
import { runBench } from '../../bench/harness.js';
import { rebuildFirstPrompt } from '../../bench/rebuild-prompt.js';
import { formatAgentTable, formatBenchTable } from '../../bench/table.js';
import { formatModelCostTable } from '../../bench/model-cost-table.js';
import { parseModelCost, type ModelCostRates } from '../../bench/model-cost.js';
import { formatDepUpdateTable, loadDepUpdateCases, runDepUpdateBench } from '../../bench/dep-updates.js';
import { MvnxError } from '../../shared/errors.js';
import { helpAsked, parseSubcommandArgs, type SubcommandOption, type SubcommandSpec } from '../subcommand-args.js';

const USAGE =
  'usage: mvnx bench [--host URL --model NAME] [--agent] [--edit-format diff|search-replace|json] [--repeat N] [--cases DIR] [--only NAME[,NAME...]] [--json] [--dep-updates] [--model-cost prompt=T/S,output=T/S,load=S[,scale=N]]';

interface BenchArgs {
  host?: string;
  model?: string;
  editFormat?: 'diff' | 'search-replace' | 'json';
  repeat: number;
  casesDir?: string;
  only: string[];
  json: boolean;
  agent: boolean;
  depUpdates: boolean;
  modelCost?: ModelCostRates;
}

const ARGS = {
  command: 'mvnx bench',
  usage: USAGE,
  options: {
    host: { type: 'string' },
    model: { type: 'string' },
    'edit-format': { type: 'string' },
    repeat: { type: 'string' },
    cases: { type: 'string' },
    only: { type: 'string', multiple: true },
    json: { type: 'boolean' },
    agent: { type: 'boolean' },
    'dep-updates': { type: 'boolean' },
    'model-cost': { type: 'string' },
  },
} satisfies SubcommandSpec<Record<string, SubcommandOption>>;

function parseBenchArgs(args: string[]): BenchArgs {
  const { values } = parseSubcommandArgs(ARGS, args);
  const parsed: BenchArgs = {
    repeat: 1,
    only: [],
    json: values.json === true,
    agent: values.agent === true,
    depUpdates: values['dep-updates'] === true,
  };
  if (values.host !== undefined) {
    if (!/^https?:\/\/[^\s/]+/.test(values.host))
      throw new MvnxError(`mvnx bench: --host ${values.host}: expected a URL like http://127.0.0.1:11434`);
    parsed.host = values.host;
  }
  if (values.model !== undefined) parsed.model = values.model;
  if (values['model-cost'] !== undefined) parsed.modelCost = parseModelCost(values['model-cost']);
  const format = values['edit-format'];
  if (format !== undefined) {
    if (format !== 'diff' && format !== 'search-replace' && format !== 'json')
      throw new MvnxError(`mvnx bench: --edit-format ${format}: expected diff, search-replace or json`);
    parsed.editFormat = format;
  }
  if (values.repeat !== undefined) {
    const text = values.repeat;
    if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 100)
      throw new MvnxError(`mvnx bench: --repeat ${text}: expected a whole number from 1 to 100`);
    parsed.repeat = Number(text);
  }
  if (values.cases !== undefined) parsed.casesDir = values.cases;
  for (const only of values.only ?? [])
    parsed.only.push(
      ...only
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    );
  // Scripted replies are written in one format; comparing formats needs a real model.
  if (parsed.editFormat && !parsed.host)
    throw new MvnxError('mvnx bench: --edit-format needs --host (scripted replies are fixed text)');
  if (parsed.model && !parsed.host)
    throw new MvnxError('mvnx bench: --model needs --host (scripted runs answer as qwen2.5-coder:7b)');
  if (parsed.modelCost && parsed.host)
    throw new MvnxError('mvnx bench: --model-cost charges the scripted server; a real model at --host charges itself');
  return parsed;
}

/** The corpus next to the working directory, else the one beside this package's sources. */
function defaultCasesDir(cwd: string): string {
  const local = path.resolve(cwd, 'bench/cases');
  return existsSync(local) ? local : fileURLToPath(new URL('../../../bench/cases', import.meta.url));
}

/** `mvnx bench`: the broken-project corpus against scripted replies, or against a real model. */
export async function run(args: string[], io: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number> {
  if (helpAsked(ARGS, args)) {
    process.stdout.write(
      `${USAGE}\nRuns mvnx on every case under bench/cases and prints a markdown table. Without --host each case's scripted replies stand in for the model.\n--model-cost prompt=60,output=8,load=6: the scripted server charges each call as llama.cpp's prompt cache does (only tokens after the prefix it still holds are evaluated) and a second table gives per case the tokens sent, evaluated and written, model and Maven seconds; scale=N makes it wait N real seconds per charged second (default 0).\n--agent: agent mode for every model attempt (quick-fixers off); the table gives steps, tool calls per tool, model calls and the fix rate per case. Scripted, only cases with agentReplies run.\n`,
    );
    return 0;
  }
  const options = parseBenchArgs(args);
  if (options.depUpdates) {
    // The bench of breaking dependency updates (bench/dep-updates): scripted and no-model runs per case.
    const casesDir = options.casesDir
      ? path.resolve(io.cwd, options.casesDir)
      : fileURLToPath(new URL('../../../bench/dep-updates', import.meta.url));
    const results = await runDepUpdateBench({
      casesDir,
      cases: await loadDepUpdateCases(casesDir, options.only),
      mvnxBin: fileURLToPath(new URL('../mvnx.cjs', import.meta.url)),
      onProgress: (line) => process.stderr.write(`mvnx bench: ${line}\n`),
    });
    process.stdout.write(options.json ? `${JSON.stringify(results, null, 2)}\n` : `${formatDepUpdateTable(results)}\n`);
    return 0;
  }
  const cases = await loadBenchCases(
    options.casesDir ? path.resolve(io.cwd, options.casesDir) : defaultCasesDir(io.cwd),
    options.only,
  );
  const mvnxBin = fileURLToPath(new URL('../mvnx.cjs', import.meta.url));
  const results = await runBench({
    cases,
    mvnxBin,
    repeat: options.repeat,
    scripted: !options.host,
    env: io.env,
    ...(options.host ? { host: options.host } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.editFormat ? { editFormat: options.editFormat } : {}),
    ...(options.agent ? { agent: true } : {}),
    ...(options.modelCost ? { modelCost: options.modelCost } : {}),
    onProgress: (line) => process.stderr.write(`mvnx bench: ${line}\n`),
    rebuildPrompt: rebuildFirstPrompt,
  });
  const table = options.agent ? formatAgentTable(results) : formatBenchTable(results);
  const costTable = options.modelCost ? `\n\n${formatModelCostTable(results, options.modelCost)}` : '';
  process.stdout.write(options.json ? `${JSON.stringify(results, null, 2)}\n` : `${table}${costTable}\n`);
  return 0;
}
