/** `mvnx report --html FILE`: the rollout numbers, charts and promotion advice as one self-contained page. */
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { AdviceFold } from '../../report/advice.js';
import { RolloutFold } from '../../report/groups.js';
import { renderReportHtmlParts, ReportChartsFold } from '../../report/html.js';
import type { RunRecord } from '../../report/run-record.js';
import { foldedRun } from '../../report/stats-fold.js';
import { helpAsked, parseSubcommandArgs, usageError } from '../subcommand-args.js';
import {
  LISTING_OPTIONS,
  promoteSettings,
  RECORD_WINDOW_OPTIONS,
  recordSource,
  runsOptionsOf,
  type RecordSource,
} from './runs.js';

const USAGE =
  'usage: mvnx report --html FILE [--from DIR|GLOB]... [--since 30d] [--module ARTIFACT_ID] [--config FILE]';

const spec = {
  command: 'mvnx report',
  usage: USAGE,
  options: { html: { type: 'string', valueName: 'a file' }, ...RECORD_WINDOW_OPTIONS, ...LISTING_OPTIONS },
} as const;

function summarize(
  source: RecordSource,
  window: { since?: Date; module?: string },
  settings: Awaited<ReturnType<typeof promoteSettings>>,
  now: Date,
  options: { since?: Date; module?: string },
) {
  const folded = source.fold(() => {
    const rollout = new RolloutFold(window);
    const charts = new ReportChartsFold();
    const advice = new AdviceFold({ ...settings, now, ...(options.since ? { since: options.since } : {}) });
    return {
      rollout,
      charts,
      advice,
      add(record: RunRecord) {
        const run = foldedRun(record);
        if (rollout.add(record, run)) charts.add(run);
        advice.add(record, run);
      },
    };
  });
  return {
    stats: folded.rollout.result(),
    charts: folded.charts.result(),
    advice: folded.advice.result().filter((entry) => !options.module || entry.module === options.module),
  };
}

export async function run(args: string[], io: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number> {
  if (helpAsked(spec, args)) {
    process.stdout.write(
      `${USAGE}\nWrites one HTML page (no script, no network) with runs and fixes over time, fix rate by failure kind and by module, suggestions taken by module, stop reasons, the numbers per repository, module and tier, and the promotion advice. Its numbers are those of mvnx runs --stats --json with the same options.\n`,
    );
    return 0;
  }
  const { values } = parseSubcommandArgs(spec, args);
  // mvnx runs's own options are read only to say where they belong.
  const runsOnly = Object.keys(LISTING_OPTIONS).find(
    (name) => values[name as keyof typeof LISTING_OPTIONS] !== undefined,
  );
  if (runsOnly) throw usageError(spec, `--${runsOnly} is an option of mvnx runs`);
  const html = values.html;
  if (!html) throw usageError(spec, 'say where to write the page with --html FILE');
  const now = new Date();
  const options = runsOptionsOf(values, now, spec.command);
  const source = await recordSource(options, io.cwd);
  const window = {
    ...(options.since ? { since: options.since } : {}),
    ...(options.module ? { module: options.module } : {}),
  };
  const settings = await promoteSettings(io.cwd, io.env, options.config);
  // One pass over the records feeds the numbers, the charts and the advice (each its own window);
  // the folds are dropped before the page is rendered, so their memory and the page's are not needed at once.
  const { stats, charts, advice } = summarize(source, window, settings, now, options);
  const sources = options.from.length > 0 ? options.from : ['.mvnx/runs'];

  const file = path.resolve(io.cwd, html);
  await mkdir(path.dirname(file), { recursive: true });
  const page = await open(file, 'w');
  try {
    for (const part of renderReportHtmlParts({ stats, charts, advice, generatedAt: now, sources }))
      await page.write(part);
  } finally {
    await page.close();
  }
  const repositories = stats.repositories.length;
  process.stderr.write(
    `mvnx: report written to ${shownPath(io.cwd, file)} (${stats.runs} run${stats.runs === 1 ? '' : 's'}, ${repositories} repositor${repositories === 1 ? 'y' : 'ies'})\n`,
  );
  return 0;
}

/** Relative to cwd when the file is below it; otherwise absolute (never a chain of ../). */
function shownPath(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}
