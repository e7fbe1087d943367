/**
 * `mvnx explain [--json] [--mvnx-NAME=VALUE ...]`: the effective config, each value with
 * the file, environment variable, flag or default that set it, and which Maven a build
 * started here runs and why (the setting that named it, the project's ./mvnw with its
 * distribution, or mvn on PATH).
 */
import path from 'node:path';
import { MvnxError } from '../../shared/errors.js';
import { configOptions, envName, flagName, switchOn, type OptionValues } from '../../shared/options.js';
import { describeMavenChoice, findMaven, MavenNotFoundError, type MavenSource } from '../../maven/discover.js';
import { findProjectRootAbove } from '../../maven/project.js';
import { loadEffectiveConfig } from '../../policy/load.js';
import type { EffectiveConfig } from '../../policy/schema.js';
import type { CommandIo } from './init.js';
import { helpAsked, parseSubcommandArgs, type SubcommandOption, type SubcommandSpec } from '../subcommand-args.js';

const ARGS = {
  command: 'mvnx explain',
  usage: 'usage: mvnx explain [--json] [--mvnx-NAME=VALUE ...]',
  options: { json: { type: 'boolean' } },
  mvnxFlags: true,
} satisfies SubcommandSpec<Record<string, SubcommandOption>>;

export async function run(args: string[], io: CommandIo): Promise<number> {
  if (helpAsked(ARGS, args)) {
    process.stdout.write(
      `${ARGS.usage}\nPrints the effective config, each value with the file, variable, flag or default that set it, and which Maven a build here runs.\n`,
    );
    return 0;
  }
  const { values, flags: given = {} } = parseSubcommandArgs(ARGS, args);
  const { config: configFlag, json: jsonFlag, ...flags } = given;
  const json = values.json === true || switchOn(jsonFlag);
  try {
    const projectRoot = await findProjectRootAbove(io.cwd);
    const options = {
      projectRoot,
      env: io.env,
      overrides: flags,
      ...(typeof configFlag === 'string' ? { configFile: path.resolve(io.cwd, configFlag) } : {}),
    };
    const config = await loadEffectiveConfig(options);
    const maven = await mavenToRun(config, flags, io);
    process.stdout.write(
      json
        ? `${JSON.stringify({ ...config, mavenToRun: maven }, null, 2)}\n`
        : `${explainLines(config, projectRoot, maven).join('\n')}\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof MvnxError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return error.exitCode;
  }
}

interface MavenToRun {
  executable?: string;
  source?: MavenSource;
  /** One line: which Maven and why (or why none was found). */
  why: string;
}

/** The Maven a build started here runs, found the way the build finds it. */
async function mavenToRun(config: EffectiveConfig, flags: OptionValues, io: CommandIo): Promise<MavenToRun> {
  const find = { env: io.env, cwd: io.cwd, mavenArgs: [] };
  try {
    const found = await findMaven({
      ...find,
      ...(typeof flags.maven === 'string' ? { flag: flags.maven } : {}),
      ...(config.maven.executable ? { configured: config.maven.executable } : {}),
    });
    return { executable: found.executable, source: found.source, why: describeMavenChoice(found, find) };
  } catch (error) {
    if (!(error instanceof MavenNotFoundError)) throw error;
    return { why: error.message };
  }
}

/** One line per value: `path = value  (source)`, in schema order. */
export function explainLines(config: EffectiveConfig, projectRoot: string, maven?: MavenToRun): string[] {
  const { sources, files, ...values } = config;
  const lines = [
    `project root: ${projectRoot}`,
    `config files: ${files.length > 0 ? files.join(', ') : 'none (defaults)'}`,
  ];
  if (maven) lines.push(`maven: ${maven.why}`);
  lines.push('');
  const rows: [string, string][] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value) && (path === 'rules' || path === 'protectedPaths')) {
      if (value.length === 0) rows.push([`${path} = []`, sources[path] ?? 'default']);
      value.forEach((item, index) =>
        rows.push([`${path}[${index}] = ${JSON.stringify(item)}`, sources[`${path}[${index}]`] ?? 'default']),
      );
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, child] of Object.entries(value)) walk(child, path ? `${path}.${key}` : key);
    } else if (value !== undefined) {
      rows.push([`${path} = ${JSON.stringify(value)}`, sources[path] ?? 'default']);
    }
  };
  walk(values, '');
  const width = Math.min(60, Math.max(...rows.map(([text]) => text.length)));
  for (const [text, source] of rows) lines.push(`${text.padEnd(width)}  (${source})`);
  lines.push('', 'Set from the command line (a flag beats its variable, both beat config files):', ...overrideLines());
  return lines;
}

/** Which flag and variable set which field: the option table, grouped by field. */
function overrideLines(): string[] {
  const byField = new Map<string, string[]>();
  for (const option of configOptions()) {
    const how = `${flagName(option.name)}${option.kind === 'switch' ? '' : '=…'} / ${envName(option.name)}${option.whenOn === undefined ? '' : ` (${JSON.stringify(option.whenOn)})`}`;
    byField.set(option.config, [...(byField.get(option.config) ?? []), how]);
  }
  const width = Math.max(...[...byField.keys()].map((field) => field.length));
  return [...byField].map(([field, ways]) => `  ${field.padEnd(width)}  ${ways.join(', ')}`);
}
