/**
 * `mvnx diagnose LOGFILE [--json] [--reports DIR] [--root PATH]`: the diagnosis of a
 * saved Maven log (yesterday's CI failure) without building anything. The log's paths
 * are another machine's: the project root they share is inferred from the module
 * folders the log shows (or given with --root), and files are matched against the
 * project around the current folder when there is one. `--reports DIR` reads the
 * reports saved beside the log (surefire-reports/, checkstyle-result.xml, pmd.xml,
 * spotbugsXml.xml, dump files). The config's plugins contribute their parsers.
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Diagnosis, Diagnostic, DiagnosticParser } from '../../diagnose/index.js';
import { diagnoseBuild } from '../../diagnose/index.js';
import { findProjectRootAbove } from '../../maven/project.js';
import { loadPlugins } from '../../app/plugin-loading.js';
import { loadEffectiveConfig } from '../../policy/load.js';
import { MvnxError } from '../../shared/errors.js';
import { helpAsked, parseSubcommandArgs, type SubcommandOption, type SubcommandSpec } from '../subcommand-args.js';
import type { CommandIo } from './init.js';

const USAGE = 'usage: mvnx diagnose LOGFILE [--json] [--reports DIR] [--root PATH]   (LOGFILE - reads stdin)';

interface DiagnoseOptions {
  logFile: string;
  json: boolean;
  reportsDir?: string;
  logRoot?: string;
}

const ARGS = {
  command: 'mvnx diagnose',
  usage: USAGE,
  options: {
    json: { type: 'boolean' },
    'mvnx-json': { type: 'boolean' },
    reports: { type: 'string' },
    root: { type: 'string' },
  },
  maxPositionals: 1,
  tooMany: (logs: string[]) => `one log file at a time, got ${logs[0]} and ${logs[1]}`,
} satisfies SubcommandSpec<Record<string, SubcommandOption>>;

function readOptions(args: string[], cwd: string): DiagnoseOptions {
  const { values, positionals } = parseSubcommandArgs(ARGS, args);
  const [logFile] = positionals;
  if (logFile === undefined) throw new MvnxError(`mvnx diagnose: which log? ${USAGE}`);
  return {
    logFile,
    json: values.json === true || values['mvnx-json'] === true,
    ...(values.reports ? { reportsDir: path.resolve(cwd, values.reports) } : {}),
    ...(values.root ? { logRoot: values.root } : {}),
  };
}

async function checkReadable(file: string, what: string): Promise<void> {
  let info;
  try {
    info = await stat(file);
  } catch {
    throw new MvnxError(`mvnx diagnose: ${what} ${file} does not exist`);
  }
  if (what === 'log file' && !info.isFile()) throw new MvnxError(`mvnx diagnose: ${file} is not a file`);
  if (what === 'reports folder' && !info.isDirectory())
    throw new MvnxError(`mvnx diagnose: --reports ${file} is not a folder`);
}

/** The config's plugins' parsers; a project without a config has none. */
async function pluginParsers(projectRoot: string, env: NodeJS.ProcessEnv): Promise<DiagnosticParser[]> {
  const config = await loadEffectiveConfig({ projectRoot, env });
  if (!config.plugins || config.plugins.length === 0) return [];
  return (await loadPlugins(config.plugins, { projectRoot })).parsers;
}

async function readStdin(): Promise<{ file: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mvnx-diagnose-'));
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) chunks.push(chunk);
  const file = path.join(dir, 'stdin.log');
  await writeFile(file, Buffer.concat(chunks));
  return { file, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export async function run(args: string[], io: CommandIo): Promise<number> {
  if (helpAsked(ARGS, args)) {
    process.stdout.write(
      `${USAGE}\nPrints the diagnosis of a saved Maven log: what failed, where, and whether a code patch can help.\n`,
    );
    return 0;
  }
  const options = readOptions(args, io.cwd);
  const fromStdin = options.logFile === '-' ? await readStdin() : undefined;
  const logFile = fromStdin?.file ?? path.resolve(io.cwd, options.logFile);
  try {
    await checkReadable(logFile, 'log file');
    if (options.reportsDir) await checkReadable(options.reportsDir, 'reports folder');
    const projectRoot = await findProjectRootAbove(io.cwd);
    const parsers = await pluginParsers(projectRoot, io.env);
    const diagnosis = await diagnoseBuild({
      projectRoot,
      logFile,
      exitCode: -1,
      logRoot: options.logRoot ?? 'infer',
      ...(options.reportsDir ? { reportsDir: options.reportsDir } : {}),
      ...(parsers.length > 0 ? { parsers } : {}),
    });
    process.stdout.write(options.json ? `${JSON.stringify(diagnosis, null, 2)}\n` : formatDiagnosis(diagnosis));
    return 0;
  } finally {
    await fromStdin?.cleanup();
  }
}

function where(d: Diagnostic): string {
  if (d.test) return d.test;
  if (!d.file) return d.module ?? '';
  return `${d.file}${d.line ? `:${d.line}${d.column ? `:${d.column}` : ''}` : ''}`;
}

function what(d: Diagnostic): string {
  const tag = d.lint ? `[${d.lint}] ` : d.rule ? `${d.rule}: ` : '';
  return `${d.tool && d.kind === 'quality' ? `${d.tool} ` : ''}${tag}${d.message}`;
}

/** One line per diagnostic, then the verdict and any warnings: what a person reads in a terminal. */
export function formatDiagnosis(diagnosis: Diagnosis): string {
  const lines: string[] = [];
  const width = Math.max(0, ...diagnosis.diagnostics.map((d) => where(d).length));
  for (const d of diagnosis.diagnostics) {
    lines.push(
      `${d.kind.padEnd(7)}  ${where(d).padEnd(width)}  ${what(d)}${d.fixable ? '' : `  (not fixable: ${d.reason ?? 'no code patch can help'})`}`,
    );
  }
  if (diagnosis.diagnostics.length === 0) lines.push('no failure found in the log');
  lines.push(
    diagnosis.fixable
      ? `fixable: yes (${diagnosis.diagnostics.filter((d) => d.fixable).length} of ${diagnosis.diagnostics.length} diagnostics)`
      : `fixable: no: ${diagnosis.reason ?? 'no diagnostic can be fixed by a code patch'}`,
  );
  for (const warning of diagnosis.warnings) lines.push(`note: ${warning}`);
  return `${lines.join('\n')}\n`;
}
