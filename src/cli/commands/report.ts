/** `mvnx report --html FILE`: the rollout numbers, charts and promotion advice as one self-contained page. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { adviseModules } from '../../report/advice.js';
import { computeRolloutStats } from '../../report/groups.js';
import { renderReportHtml } from '../../report/html.js';
import { inModule } from '../../report/stats.js';
import { MvnxError } from '../../shared/errors.js';
import { parseRunsArgs, promoteSettings, recordsFor } from './runs.js';

const USAGE = 'usage: mvnx report --html FILE [--from DIR|GLOB]... [--since 30d] [--module ARTIFACT_ID] [--config FILE]';

export async function run(args: string[], io: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${USAGE}\nWrites one HTML page (no script, no network) with runs and fixes over time, fix rate by failure kind and by module, suggestions taken by module, stop reasons, the numbers per repository, module and tier, and the promotion advice. Its numbers are those of mvnx runs --stats --json with the same options.\n`);
    return 0;
  }
  let html: string | undefined;
  const rest: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--html' || arg.startsWith('--html=')) {
      html = arg.startsWith('--html=') ? arg.slice('--html='.length) : args[++index];
      if (!html) throw new MvnxError(`mvnx report: --html needs a file; ${USAGE}`);
    } else if (['--stats', '--advise', '--reconcile', '--json', '--limit'].includes(arg.split('=')[0]!)) {
      throw new MvnxError(`mvnx report: ${arg.split('=')[0]} is an option of mvnx runs; ${USAGE}`);
    } else {
      rest.push(arg);
    }
  }
  if (!html) throw new MvnxError(`mvnx report: say where to write the page with --html FILE; ${USAGE}`);
  const now = new Date();
  const options = parseRunsArgs(rest, now, 'mvnx report', USAGE);
  const records = await recordsFor(options, io.cwd);
  const window = { ...(options.since ? { since: options.since } : {}), ...(options.module ? { module: options.module } : {}) };
  const stats = computeRolloutStats(records, window);
  const inWindow = records.filter((record) => (!options.since || Date.parse(record.startedAt) >= options.since.getTime()) && (!options.module || inModule(record, options.module)));
  const settings = await promoteSettings(io.cwd, io.env, options.config);
  const advice = adviseModules({ records, ...settings, now, ...(options.since ? { since: options.since } : {}) }).filter((entry) => !options.module || entry.module === options.module);
  const sources = options.from.length > 0 ? options.from : ['.mvnx/runs'];

  const file = path.resolve(io.cwd, html);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, renderReportHtml({ stats, records: inWindow, advice, generatedAt: now, sources }));
  process.stderr.write(`mvnx: report written to ${path.relative(io.cwd, file) || file} (${stats.runs} runs, ${stats.repositories.length} repositor${stats.repositories.length === 1 ? 'y' : 'ies'})\n`);
  return 0;
}
