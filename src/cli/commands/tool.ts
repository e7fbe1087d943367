/**
 * `mvnx tool add|list|remove`: command tools for agent mode (RepairAgent's add-tool),
 * written into the team's config file (`tools:`) so that they are reviewed and shared like
 * every other setting. The file edited is the one mvnx would load (`--config FILE`,
 * MVNX_CONFIG, else the nearest config file, else a new `.mvnxrc.yaml` in the project
 * root); YAML keeps its comments. The result is validated before it is written.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { findGitRoot, findProjectRootAbove } from '../../maven/project.js';
import { ConfigReader } from '../../policy/config-discovery.js';
import { addTool, configTextFormat, removeTool, toolNamesIn, type CommandToolEntry } from '../../policy/edit-tools.js';
import { loadEffectiveConfig } from '../../policy/index.js';
import { parseConfigText } from '../../policy/locate.js';
import { commandToolSchema } from '../../policy/schema.js';
import { describeIssues, validateLayer } from '../../policy/config-issues.js';
import { splitCommandLine } from '../../policy/command-line.js';
import { BUILT_IN_AGENT_TOOLS, STATE_TOOLS } from '../../app/index.js';
import { findProgram } from '../../workspace/command.js';
import { MvnxError } from '../../shared/errors.js';
import {
  helpAsked,
  parseSubcommandArgs,
  usageError,
  type SubcommandOption,
  type SubcommandSpec,
} from '../subcommand-args.js';

const USAGES = {
  add: 'usage: mvnx tool add --name NAME --command "PROGRAM ARGS... %FILE%" [--output-format text|xml|sarif] [--states understand,collect,fix] [--timeout SECONDS] [--description TEXT] [--replace] [--config FILE]',
  list: 'usage: mvnx tool list [--json] [--config FILE]',
  remove: 'usage: mvnx tool remove NAME [--config FILE]',
};
const USAGE = Object.values(USAGES)
  .map((usage, index) => (index === 0 ? usage : usage.replace(/^usage:/, '      ')))
  .join('\n');

const CONFIG = { config: { type: 'string', valueName: 'a file' } } satisfies Record<string, SubcommandOption>;
const SPECS = {
  add: {
    command: 'mvnx tool add',
    usage: USAGES.add,
    options: {
      name: { type: 'string' },
      command: { type: 'string', valueName: 'the command line' },
      'output-format': { type: 'string' },
      states: { type: 'string' },
      timeout: { type: 'string', valueName: 'whole seconds' },
      description: { type: 'string' },
      replace: { type: 'boolean' },
      ...CONFIG,
    },
  },
  list: { command: 'mvnx tool list', usage: USAGES.list, options: { json: { type: 'boolean' }, ...CONFIG } },
  remove: {
    command: 'mvnx tool remove',
    usage: USAGES.remove,
    options: CONFIG,
    maxPositionals: 1,
    tooMany: (names: string[]) => `one tool at a time, got ${names.join(' and ')}`,
  },
} satisfies Record<string, SubcommandSpec<Record<string, SubcommandOption>>>;

interface Io {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export async function run(args: string[], io: Io): Promise<number> {
  const [action, ...rest] = args;
  if (
    !action ||
    action === '--help' ||
    action === '-h' ||
    action === 'help' ||
    (isAction(action) && helpAsked(SPECS[action], rest))
  ) {
    process.stdout.write(`${USAGE}\nPlaceholders: %FILE% %LINE% %CLASS% %MODULE% %WORKSPACE% (see docs/tools.md).\n`);
    return action ? 0 : 2;
  }
  if (!isAction(action)) throw new MvnxError(`mvnx tool: unknown action "${action}"; ${USAGES.add}`);
  const parsed = parseSubcommandArgs<Record<string, SubcommandOption>>(SPECS[action], rest);
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const text = Object.fromEntries(
    Object.entries(values).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  const options: Options = {
    values: text,
    replace: values.replace === true,
    json: values.json === true,
    positional: parsed.positionals,
  };
  if (action === 'add') return add(options, io);
  if (action === 'list') return list(options, io);
  return remove(options, io);
}

function isAction(word: string): word is keyof typeof SPECS {
  return Object.hasOwn(SPECS, word);
}

interface Options {
  values: Record<string, string | undefined>;
  replace: boolean;
  json: boolean;
  positional: string[];
}

/** The config file to edit, and how the user should hear its name. */
async function targetFile(
  options: Options,
  io: Io,
): Promise<{ file: string; label: string; exists: boolean; root: string }> {
  const root = await findProjectRootAbove(io.cwd);
  const label = (file: string) => {
    const relative = path.relative(io.cwd, file);
    return relative && !relative.startsWith('..') ? relative : file;
  };
  const explicit = options.values.config ?? (io.env.MVNX_CONFIG || undefined);
  if (explicit) {
    const file = path.resolve(io.cwd, explicit);
    return { file, label: label(file), exists: existsSync(file), root };
  }
  const reader = new ConfigReader((await findGitRoot(root)) ?? root, label);
  const found = await reader.search(root);
  const file = found?.filepath ?? path.join(root, '.mvnxrc.yaml');
  return { file, label: label(file), exists: found !== undefined, root };
}

async function add(options: Options, io: Io): Promise<number> {
  const name = options.values.name;
  const command = options.values.command;
  if (!name) throw usageError(SPECS.add, '--name is required');
  if (!command) throw usageError(SPECS.add, '--command is required');
  const builtIn = [...BUILT_IN_AGENT_TOOLS.map((tool) => tool.name), ...Object.keys(STATE_TOOLS)];
  if (builtIn.includes(name))
    throw new MvnxError(`mvnx tool add: ${name} is a built-in tool of agent mode; choose another name`);
  const entry: CommandToolEntry = { name, command };
  if (options.values.description) entry.description = options.values.description;
  if (options.values['output-format'])
    entry.outputFormat = options.values['output-format'] as CommandToolEntry['outputFormat'];
  if (options.values.states)
    entry.states = options.values.states
      .split(',')
      .map((state) => state.trim())
      .filter(Boolean);
  if (options.values.timeout) {
    const timeout = options.values.timeout;
    if (!/^\d+$/.test(timeout))
      throw new MvnxError(`mvnx tool add: --timeout ${timeout}: expected whole seconds, e.g. 60`);
    entry.timeoutSeconds = Number(timeout);
  }
  const checked = commandToolSchema.safeParse(entry);
  if (!checked.success) {
    const message = describeIssues(checked.error.issues, entry, { label: 'mvnx tool add' }).replace(
      /^Invalid config mvnx tool add: /,
      '',
    );
    throw new MvnxError(`mvnx tool add: ${optionName(message)}`);
  }

  const target = await targetFile(options, io);
  const format = configTextFormat(target.file);
  if (!format) {
    throw new MvnxError(
      `mvnx tool add: ${target.label} is JavaScript, which mvnx does not rewrite; add this to its tools list by hand: ${JSON.stringify(entry)}`,
    );
  }
  const before = target.exists ? await readFile(target.file, 'utf8') : '';
  const replacing = toolNamesIn(before, format, target.label).includes(name);
  if (replacing && !options.replace)
    throw new MvnxError(`mvnx tool add: ${target.label} already has a tool named ${name}; use --replace to change it`);
  const after = addTool(before, format, entry, target.label, replacing);
  const parsed = parseConfigText(after, target.label, format);
  validateLayer(parsed.value, { label: target.label, lineOf: parsed.lineOf });
  await writeFile(target.file, after);

  const tool = checked.data;
  process.stdout.write(
    `mvnx: ${replacing ? 'replaced' : 'added'} command tool ${name} in ${target.label}${target.exists ? '' : ' (new file)'}: offered in ${tool.states.join(', ')}; ${tool.outputFormat} output; ${tool.timeoutSeconds} s timeout\n`,
  );
  const program = splitCommandLine(command)[0]!;
  if (!findProgram(program, target.root, io.env.PATH ?? '')) {
    process.stderr.write(
      `mvnx: note: ${program} is not found${program.includes('/') ? ` in ${target.root}` : ' on PATH'} here; until it is, the tool answers the agent that it is not installed\n`,
    );
  }
  return 0;
}

/** zod's field names in the words of the command line. */
function optionName(message: string): string {
  return message
    .replace(/^outputFormat:/, '--output-format:')
    .replace(/^timeoutSeconds:/, '--timeout:')
    .replace(/^states(\[\d+\])?:/, '--states:')
    .replace(/^(name|command|description):/, '--$1:');
}

async function list(options: Options, io: Io): Promise<number> {
  const root = await findProjectRootAbove(io.cwd);
  const config = await loadEffectiveConfig({
    projectRoot: root,
    env: io.env,
    overrides: {},
    ...(options.values.config ? { configFile: path.resolve(io.cwd, options.values.config) } : {}),
  });
  const tools = config.tools ?? [];
  if (options.json) {
    process.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
    return 0;
  }
  if (tools.length === 0) {
    process.stdout.write('no command tools (add one with: mvnx tool add --name NAME --command "PROGRAM %FILE%")\n');
    return 0;
  }
  const source = config.sources.tools ?? config.sources['tools[0]'];
  const rows = tools.map((tool) => [
    tool.name,
    tool.states.join(','),
    tool.outputFormat,
    `${tool.timeoutSeconds}s`,
    tool.command,
  ]);
  const widths = [0, 1, 2, 3].map((column) =>
    Math.max(...rows.map((row) => row[column]!.length), ['name', 'states', 'output', 'timeout'][column]!.length),
  );
  const line = (row: string[]) =>
    row.map((cell, column) => (column < 4 ? cell.padEnd(widths[column]!) : cell)).join('  ');
  process.stdout.write(
    `${[line(['name', 'states', 'output', 'timeout', 'command']), ...rows.map(line)].join('\n')}\n${source ? `(from ${source})\n` : ''}`,
  );
  return 0;
}

async function remove(options: Options, io: Io): Promise<number> {
  const name = options.positional[0];
  if (!name) throw new MvnxError(`mvnx tool remove: which tool? ${USAGES.remove}`);
  const target = await targetFile(options, io);
  const format = configTextFormat(target.file);
  if (!target.exists)
    throw new MvnxError(
      `mvnx tool remove: no config file (looked for ${target.label}); there is no tool ${name} to remove`,
    );
  if (!format)
    throw new MvnxError(
      `mvnx tool remove: ${target.label} is JavaScript, which mvnx does not rewrite; remove ${name} from its tools list by hand`,
    );
  const before = await readFile(target.file, 'utf8');
  const names = toolNamesIn(before, format, target.label);
  if (!names.includes(name)) {
    throw new MvnxError(
      `mvnx tool remove: ${target.label} has no tool named ${name}${names.length > 0 ? ` (it has: ${names.join(', ')})` : ''}; a tool from an extended config is removed there`,
    );
  }
  const after = removeTool(before, format, name, target.label);
  const parsed = parseConfigText(after, target.label, format);
  validateLayer(parsed.value, { label: target.label, lineOf: parsed.lineOf });
  await writeFile(target.file, after);
  process.stdout.write(`mvnx: removed command tool ${name} from ${target.label}\n`);
  return 0;
}
