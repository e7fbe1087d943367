/**
 * Loading the plugins a config names. Every problem is one MvnxError line that names the
 * plugin as the config spells it: not found, failed to import, or the wrong shape.
 * Loading happens only once a build failed (or in `mvnx doctor`), never on a passing build.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MvnxError } from '../shared/errors.js';
import { AGENT_STATES, type AgentState, type AgentTool, type DiagnosticParser, type Fixer, type MvnxPlugin, type RunReporter } from './contracts.js';
import type { LoadedPlugin, LoadedPlugins } from './types.js';

const KNOWN_KEYS = new Set(['name', 'version', 'description', 'fixers', 'reporters', 'parsers', 'tools']);

/** The names mvnx's own fixers and agent tools take, which no plugin may reuse (repair/ knows them: repair/plugins.ts). */
export interface BuiltInNames {
  fixers: readonly string[];
  tools: readonly string[];
}

export async function loadPlugins(specifiers: readonly string[], options: { projectRoot: string; builtIn: BuiltInNames }): Promise<LoadedPlugins> {
  const loaded: LoadedPlugins = { plugins: [], fixers: [], tools: [], parsers: [], reporters: [], notes: [] };
  const fixerNames = new Set(options.builtIn.fixers);
  const toolNames = new Set(options.builtIn.tools);
  for (const specifier of specifiers) {
    const file = resolvePlugin(specifier, options.projectRoot);
    const plugin = checkPlugin(specifier, await importPlugin(specifier, file));
    if (loaded.plugins.some((other) => other.plugin.name === plugin.name)) {
      throw new MvnxError(`plugin ${specifier}: another plugin is already named ${plugin.name}`, 2);
    }
    for (const fixer of plugin.fixers ?? []) {
      if (fixerNames.has(fixer.name)) throw new MvnxError(`plugin ${specifier}: fixer ${fixer.name} has the name of a fixer mvnx already has`, 2);
      fixerNames.add(fixer.name);
      loaded.fixers.push(fixer);
    }
    for (const tool of plugin.tools ?? []) {
      if (toolNames.has(tool.name)) throw new MvnxError(`plugin ${specifier}: tool ${tool.name} has the name of a tool mvnx already has`, 2);
      toolNames.add(tool.name);
      loaded.tools.push(tool);
    }
    for (const parser of plugin.parsers ?? []) {
      if (loaded.parsers.some((other) => other.name === parser.name)) throw new MvnxError(`plugin ${specifier}: parser ${parser.name} has the name of a parser another plugin already has`, 2);
      loaded.parsers.push(parser);
    }
    for (const reporter of plugin.reporters ?? []) loaded.reporters.push({ plugin: plugin.name, reporter });
    loaded.plugins.push({ specifier, file, plugin } satisfies LoadedPlugin);
  }
  return loaded;
}

/** Paths are absolute by the time a config is loaded (relative to the file that names them); anything else is a package. */
function resolvePlugin(specifier: string, projectRoot: string): string {
  if (path.isAbsolute(specifier) || specifier.startsWith('.')) {
    const file = path.resolve(projectRoot, specifier);
    if (!existsSync(file)) throw new MvnxError(`plugin ${specifier}: no such file`, 2);
    return file;
  }
  try {
    // Resolved as the project itself would: from its own node_modules upwards.
    return createRequire(path.join(projectRoot, 'package.json')).resolve(specifier);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') {
      throw new MvnxError(`plugin ${specifier}: its package.json "exports" has no "default" or "require" entry to load`, 2);
    }
    throw new MvnxError(`plugin ${specifier}: not found from ${projectRoot} (install it there, e.g. npm install --save-dev ${specifier})`, 2);
  }
}

async function importPlugin(specifier: string, file: string): Promise<unknown> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new MvnxError(`plugin ${specifier}: loading ${file} failed: ${message.split('\n')[0]}`, 2);
  }
  // A CommonJS module's module.exports arrives as `default`.
  return module.default ?? module.plugin;
}

function checkPlugin(specifier: string, value: unknown): MvnxPlugin {
  const fail = (problem: string): never => {
    throw new MvnxError(`plugin ${specifier}: ${problem}`, 2);
  };
  if (!value || typeof value !== 'object' || Array.isArray(value)) fail('its default export (or export "plugin") must be an object with a name');
  const plugin = value as Record<string, unknown>;
  if (typeof plugin.name !== 'string' || plugin.name.trim() === '') fail('the plugin object needs a name');
  for (const key of Object.keys(plugin)) {
    if (!KNOWN_KEYS.has(key)) fail(`unknown key "${key}" (a plugin has ${[...KNOWN_KEYS].join(', ')})`);
  }
  for (const part of ['fixers', 'reporters', 'parsers', 'tools']) {
    if (plugin[part] !== undefined && !Array.isArray(plugin[part])) fail(`${part} must be an array`);
  }
  for (const [index, fixer] of ((plugin.fixers ?? []) as Fixer[]).entries()) {
    try {
      checkFixer(fixer);
    } catch (error) {
      fail(`fixers[${index}]: ${(error as Error).message}`);
    }
  }
  for (const [index, tool] of ((plugin.tools ?? []) as AgentTool[]).entries()) {
    const problem = toolProblem(tool);
    if (problem) fail(`tools[${index}]: ${problem}`);
  }
  for (const [index, parser] of ((plugin.parsers ?? []) as DiagnosticParser[]).entries()) {
    const problem = parserProblem(parser);
    if (problem) fail(`parsers[${index}]: ${problem}`);
  }
  for (const [index, reporter] of ((plugin.reporters ?? []) as RunReporter[]).entries()) {
    if (!reporter || typeof reporter !== 'object' || typeof reporter.name !== 'string' || reporter.name === '' || typeof reporter.report !== 'function') {
      fail(`reporters[${index}]: a reporter must be an object with a name and a report(record, context) function`);
    }
  }
  return plugin as unknown as MvnxPlugin;
}

/** The shape every fixer has, built-in or a plugin's (the registry checks it too). */
export function checkFixer(fixer: Fixer): void {
  if (!fixer || typeof fixer !== 'object') throw new TypeError('a fixer must be an object with name, handles and propose');
  if (typeof fixer.name !== 'string' || !/^[a-z0-9][\w.:/-]*$/i.test(fixer.name)) throw new TypeError(`a fixer needs a non-empty name without spaces, got ${JSON.stringify(fixer.name)}`);
  if (typeof fixer.handles !== 'function' || typeof fixer.propose !== 'function') throw new TypeError(`fixer ${fixer.name} must have handles() and propose() functions`);
}

function parserProblem(parser: DiagnosticParser): string | undefined {
  if (!parser || typeof parser !== 'object') return 'a parser must be an object with a name and a start() function';
  if (typeof parser.name !== 'string' || !/^[a-z0-9][\w.:/-]*$/i.test(parser.name)) return `a parser needs a name without spaces, got ${JSON.stringify(parser.name)}`;
  if (typeof parser.start !== 'function') return `parser ${parser.name} needs a start(context) function that returns { line?, report?, finish? }`;
  if (parser.reports !== undefined && (!Array.isArray(parser.reports) || !parser.reports.every((name) => typeof name === 'string' && /^[^/\\]+$/.test(name)))) {
    return `parser ${parser.name}: reports must list file names (no folders), e.g. ["acme-lint.xml"]`;
  }
  return undefined;
}

function toolProblem(tool: AgentTool): string | undefined {
  if (!tool || typeof tool !== 'object') return 'a tool must be an object with name, description, parameters, states and run';
  if (typeof tool.name !== 'string' || !/^[a-z][a-z0-9_]*$/.test(tool.name)) return `a tool name is lower_snake_case, got ${JSON.stringify(tool.name)}`;
  if (typeof tool.description !== 'string' || tool.description.trim() === '') return `tool ${tool.name} needs a description`;
  if (!tool.parameters || typeof tool.parameters !== 'object' || Array.isArray(tool.parameters)) return `tool ${tool.name}: parameters must be an object (name -> {type, description})`;
  const states: unknown = tool.states;
  if (!Array.isArray(states) || states.length === 0 || !states.every((state) => AGENT_STATES.includes(state as AgentState))) {
    return `tool ${tool.name}: states must list some of ${AGENT_STATES.join(', ')}`;
  }
  if (typeof tool.run !== 'function') return `tool ${tool.name} needs a run(args, context) function`;
  return undefined;
}

/**
 * Runs every reporter on the finished record. A reporter that throws is reported on one
 * line and does not change the run: the record is already on disk and the exit code is Maven's.
 */
export async function runReporters(
  reporters: LoadedPlugins['reporters'],
  record: Parameters<RunReporter['report']>[0],
  context: Parameters<RunReporter['report']>[1],
  warn: (line: string) => void,
): Promise<void> {
  for (const { plugin, reporter } of reporters) {
    try {
      await reporter.report(record, context);
    } catch (error) {
      warn(`mvnx: reporter ${reporter.name} of plugin ${plugin} failed: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
    }
  }
}
