/**
 * `mvnx explain [--json] [--mvnx-NAME=VALUE ...]`: the effective config, each value with
 * the file, environment variable, flag or default that set it.
 */
import path from 'node:path';
import { MvnxError } from '../../shared/errors.js';
import { configOptions, envName, FLAG_PREFIX, flagName, readFlag } from '../../shared/options.js';
import { findProjectRootAbove } from '../../maven/project.js';
import { loadEffectiveConfig } from '../../policy/load.js';
import type { EffectiveConfig } from '../../policy/schema.js';
import type { CommandIo } from './init.js';

export async function run(args: string[], io: CommandIo): Promise<number> {
  const flags: Record<string, string | true> = {};
  let json = false;
  for (const arg of args) {
    if (arg === '--json' || arg === '--mvnx-json') json = true;
    else if (arg === '--mvnx-config') {
      process.stderr.write('mvnx explain: --mvnx-config needs a file (--mvnx-config=FILE)\n');
      return 2;
    } else if (arg.startsWith(FLAG_PREFIX)) {
      const flag = readFlag(arg);
      if ('problem' in flag) {
        process.stderr.write(`mvnx explain: ${flag.problem}\n`);
        return 2;
      }
      flags[flag.name] = flag.value;
    } else {
      process.stderr.write(`mvnx explain: unknown argument "${arg}" (usage: mvnx explain [--json] [--mvnx-NAME=VALUE ...])\n`);
      return 2;
    }
  }
  const configFlag = flags.config;
  delete flags.config;
  try {
    const projectRoot = await findProjectRootAbove(io.cwd);
    const options = { projectRoot, env: io.env, overrides: flags, ...(typeof configFlag === 'string' ? { configFile: path.resolve(io.cwd, configFlag) } : {}) };
    const config = await loadEffectiveConfig(options);
    process.stdout.write(json ? `${JSON.stringify(config, null, 2)}\n` : `${explainLines(config, projectRoot).join('\n')}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof MvnxError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return error.exitCode;
  }
}

/** One line per value: `path = value  (source)`, in schema order. */
export function explainLines(config: EffectiveConfig, projectRoot: string): string[] {
  const { sources, files, ...values } = config;
  const lines = [`project root: ${projectRoot}`, `config files: ${files.length > 0 ? files.join(', ') : 'none (defaults)'}`, ''];
  const rows: [string, string][] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value) && (path === 'rules' || path === 'protectedPaths')) {
      if (value.length === 0) rows.push([`${path} = []`, sources[path] ?? 'default']);
      value.forEach((item, index) => rows.push([`${path}[${index}] = ${JSON.stringify(item)}`, sources[`${path}[${index}]`] ?? 'default']));
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
