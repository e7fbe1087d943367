import path from 'node:path';
import { findProjectRootAbove } from '../../maven/project.js';
import { AdviceFold, formatAdvice } from '../../report/advice.js';
import { foldRunsFolders, runsFoldersOf, type RecordSink } from '../../report/collect.js';
import { RolloutFold } from '../../report/groups.js';
import { NewestRuns } from '../../report/newest-runs.js';
import { formatReconcile } from '../../report/reconcile-format.js';
import { reconcileRuns } from '../../report/reconcile.js';
import { parseRunRecord } from '../../report/run-record-schema.js';
import { runsDir } from '../../report/run-record.js';
import { readRunsFolder } from '../../report/record-stream.js';
import { inWindowOf } from '../../report/stats-fold.js';
import { formatRolloutStats, formatRunList } from '../../report/stats-format.js';
import { inModule, parseSince } from '../../report/stats.js';
import { MvnxError } from '../../shared/errors.js';
import { helpAsked, parseSubcommandArgs, type SubcommandOption, type SubcommandValues } from '../subcommand-args.js';

const USAGE = [
  'usage: mvnx runs [--limit N] [--since AGE] [--module ARTIFACT_ID] [--json]',
  '       mvnx runs --stats [--from DIR|GLOB]... [--since 30d] [--module ARTIFACT_ID] [--json]',
  '       mvnx runs --advise [--from DIR|GLOB]... [--since 30d] [--config FILE] [--json]',
  '       mvnx runs --reconcile [--json]',
].join('\n');

/** The one line an argument error ends with (the contract: one stderr line): every mode and option. */
const USAGE_LINE =
  'usage: mvnx runs [--stats | --advise | --reconcile] [--limit N] [--since AGE] [--module ARTIFACT_ID] [--from DIR|GLOB]... [--config FILE] [--json]';

export interface RunsOptions {
  stats: boolean;
  advise: boolean;
  reconcile: boolean;
  json: boolean;
  since?: Date;
  module?: string;
  limit: number;
  from: string[];
  config?: string;
}

/** The options `mvnx report` shares with `mvnx runs`: which records, over which window. */
export const RECORD_WINDOW_OPTIONS = {
  since: { type: 'string' },
  module: { type: 'string' },
  from: { type: 'string', multiple: true },
  config: { type: 'string' },
} satisfies Record<string, SubcommandOption>;

/** The options of `mvnx runs` alone: what to show of the records. */
export const LISTING_OPTIONS = {
  stats: { type: 'boolean' },
  advise: { type: 'boolean' },
  reconcile: { type: 'boolean' },
  json: { type: 'boolean' },
  limit: { type: 'string' },
} satisfies Record<string, SubcommandOption>;

const RUNS_OPTIONS = { ...LISTING_OPTIONS, ...RECORD_WINDOW_OPTIONS };

export function parseRunsArgs(args: string[], now: Date, command = 'mvnx runs', usage = USAGE_LINE): RunsOptions {
  const { values } = parseSubcommandArgs({ command, usage, options: RUNS_OPTIONS }, args);
  return runsOptionsOf(values, now, command);
}

export function runsOptionsOf(values: SubcommandValues<typeof RUNS_OPTIONS>, now: Date, command: string): RunsOptions {
  const options: RunsOptions = {
    stats: values.stats === true,
    advise: values.advise === true,
    reconcile: values.reconcile === true,
    json: values.json === true,
    limit: 20,
    from: values.from ?? [],
  };
  if (values.since !== undefined) options.since = parseSince(values.since, now);
  if (values.module !== undefined) options.module = values.module;
  if (values.config !== undefined) options.config = values.config;
  if (values.limit !== undefined) {
    const text = values.limit;
    if (!/^\d+$/.test(text) || Number(text) < 1)
      throw new MvnxError(`${command}: --limit ${text}: expected a whole number of at least 1`);
    options.limit = Number(text);
  }
  return options;
}

/**
 * Where the records asked for are: `--from` folders and globs (checked now), else this project's; `fold` reads them
 * into a sink, one at a time.
 */
export interface RecordSource {
  fold<T extends RecordSink>(start: () => T): T;
}

export async function recordSource(options: Pick<RunsOptions, 'from'>, cwd: string): Promise<RecordSource> {
  if (options.from.length > 0) {
    const folders = await runsFoldersOf(options.from, cwd);
    return { fold: (start) => foldRunsFolders(folders, start) };
  }
  const root = await findProjectRootAbove(cwd);
  const warn = (error: Error) => process.stderr.write(`mvnx: skipped ${error.message}\n`);
  return {
    fold: (start) => {
      const sink = start();
      // Records written before `repository` existed belong to this project all the same.
      readRunsFolder(
        runsDir(root),
        parseRunRecord,
        (record) => sink.add(record.repository ? record : { ...record, repository: path.basename(root) }),
        { onInvalid: warn },
      );
      return sink;
    },
  };
}

/** Thresholds from `rollout.promote` of the config in force here (or `--config`), else the defaults. */
export async function promoteSettings(cwd: string, env: NodeJS.ProcessEnv, configFile?: string) {
  const { loadEffectiveConfig } = await import('../../policy/load.js');
  const config = await loadEffectiveConfig({
    projectRoot: await findProjectRootAbove(cwd),
    env,
    ...(configFile ? { configFile: path.resolve(cwd, configFile) } : {}),
  });
  return {
    promote: config.rollout.promote,
    ...(config.auto.requireCoverage !== undefined ? { requireCoverage: config.auto.requireCoverage } : {}),
  };
}

/** The forge's word on published fixes' requests (merged, closed), where CI gives a token. */
async function requestStates(projectRoot: string, env: NodeJS.ProcessEnv, configFile?: string) {
  const { loadEffectiveConfig } = await import('../../policy/load.js');
  const { requestStateReader } = await import('../../report/publish/index.js');
  const { toolVersion } = await import('../../report/tool-version.js');
  const config = await loadEffectiveConfig({ projectRoot, env, ...(configFile ? { configFile } : {}) });
  return requestStateReader(env, config, `mvnx/${await toolVersion()}`, projectRoot);
}

const write = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

/**
 * `mvnx runs`: the recent runs; `--stats`: what they add up to; `--advise`: which module may move up; `--reconcile`:
 * what became of the fixes.
 */
export async function run(args: string[], io: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number> {
  if (helpAsked({ options: RUNS_OPTIONS }, args)) {
    write(
      `${USAGE}\nLists the runs recorded under .mvnx/runs/; --stats sums them up per repository, module and tier; --advise says which modules the evidence lets move up a tier; --reconcile reads from the tree and git log what became of each verified fix.`,
    );
    return 0;
  }
  const now = new Date();
  const options = parseRunsArgs(args, now);
  if (options.reconcile && options.from.length > 0) {
    throw new MvnxError(
      "mvnx runs: --reconcile reads this project's tree and git log, so it cannot take --from; run it in each repository (the CI examples do)",
    );
  }
  if (options.reconcile) {
    const projectRoot = await findProjectRootAbove(io.cwd);
    const requests = await requestStates(
      projectRoot,
      io.env,
      options.config ? path.resolve(io.cwd, options.config) : undefined,
    );
    const report = await reconcileRuns(projectRoot, { now, ...(requests.read ? { requestState: requests.read } : {}) });
    if (requests.note && io.env.CI && !options.json) process.stderr.write(`mvnx: ${requests.note}\n`);
    if (!options.stats && !options.advise) {
      write(options.json ? JSON.stringify(report, null, 2) : formatReconcile(report));
      return 0;
    }
    process.stderr.write(`${formatReconcile(report)}\n`);
  }

  const source = await recordSource(options, io.cwd);
  const window = {
    ...(options.since ? { since: options.since } : {}),
    ...(options.module ? { module: options.module } : {}),
  };
  if (options.advise) {
    const settings = await promoteSettings(io.cwd, io.env, options.config);
    const advice = source
      .fold(() => new AdviceFold({ ...settings, now, ...(options.since ? { since: options.since } : {}) }))
      .result();
    write(options.json ? JSON.stringify(advice, null, 2) : formatAdvice(advice));
    return 0;
  }
  if (options.stats) {
    const stats = source.fold(() => new RolloutFold(window)).result();
    write(options.json ? JSON.stringify(stats, null, 2) : formatRolloutStats(stats));
    return 0;
  }
  const recent = source.fold(() => new NewestRuns(options.limit, inWindowOf(window, inModule))).result();
  write(options.json ? JSON.stringify(recent, null, 2) : formatRunList(recent));
  return 0;
}
