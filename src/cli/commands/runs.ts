import { existsSync } from 'node:fs';
import path from 'node:path';
import { findProjectRoot } from '../../maven/project.js';
import { listRunRecords } from '../../report/run-record.js';
import { formatRunList, formatRunStats } from '../../report/stats-format.js';
import { computeRunStats, parseSince } from '../../report/stats.js';
import { MvnxError } from '../errors.js';

const USAGE = 'usage: mvnx runs [--limit N] [--since AGE] [--json] | mvnx runs --stats [--since 30d] [--module ARTIFACT_ID] [--json]';

interface RunsOptions {
  stats: boolean;
  json: boolean;
  since?: Date;
  module?: string;
  limit: number;
}

function parseRunsArgs(args: string[], now: Date): RunsOptions {
  const options: RunsOptions = { stats: false, json: false, limit: 20 };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    const [name, inlineValue] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const next = inlineValue ?? args[++index];
      if (next === undefined || next === '') throw new MvnxError(`mvnx runs: ${name} needs a value; ${USAGE}`);
      return next;
    };
    switch (name) {
      case '--stats':
        options.stats = true;
        break;
      case '--json':
        options.json = true;
        break;
      case '--since':
        options.since = parseSince(value(), now);
        break;
      case '--module':
        options.module = value();
        break;
      case '--limit': {
        const text = value();
        if (!/^\d+$/.test(text) || Number(text) < 1) throw new MvnxError(`mvnx runs: --limit ${text}: expected a whole number of at least 1`);
        options.limit = Number(text);
        break;
      }
      default:
        throw new MvnxError(`mvnx runs: unknown argument ${arg}; ${USAGE}`);
    }
  }
  return options;
}

/** From a folder without a pom (e.g. `src/`), the nearest ancestor's project: where the runs are. */
export async function projectRootAbove(cwd: string): Promise<string> {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'pom.xml'))) return findProjectRoot(dir, []);
    if (path.dirname(dir) === dir) return path.resolve(cwd);
  }
}

/** `mvnx runs`: the recent runs; `mvnx runs --stats`: what they add up to. */
export async function run(args: string[], io: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${USAGE}\nLists the runs recorded under .mvnx/runs/, or sums them up with --stats.\n`);
    return 0;
  }
  const now = new Date();
  const options = parseRunsArgs(args, now);
  const records = await listRunRecords(await projectRootAbove(io.cwd));
  if (options.stats) {
    const stats = computeRunStats(records, { ...(options.since ? { since: options.since } : {}), ...(options.module ? { module: options.module } : {}) });
    process.stdout.write(options.json ? `${JSON.stringify(stats, null, 2)}\n` : `${formatRunStats(stats)}\n`);
    return 0;
  }
  const sinceMs = options.since?.getTime();
  const recent = records
    .filter((record) => sinceMs === undefined || Date.parse(record.startedAt) >= sinceMs)
    .filter((record) => options.module === undefined || (record.diagnostics ?? []).some((diagnostic) => diagnostic.module === options.module))
    .slice(0, options.limit);
  process.stdout.write(options.json ? `${JSON.stringify(recent, null, 2)}\n` : `${formatRunList(recent)}\n`);
  return 0;
}
