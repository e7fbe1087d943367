/**
 * Loading the plugins a config names. Every problem is one MvnxError line (a config error,
 * exit code 2 where it ends a command) that names the plugin as the config spells it: not
 * found, failed to import, the wrong shape (check.ts), or a name another plugin or mvnx
 * itself already uses. Loading happens only once a build failed (or in `mvnx doctor`,
 * `mvnx diagnose`), never on a passing build.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EXIT, firstLine, MvnxError } from '../shared/errors.js';
import { checkPlugin } from './check.js';
import type { RunReporter } from './contracts.js';
import type { LoadedPlugins } from './types.js';

/**
 * The names mvnx's own fixers, agent tools and integrity rules take, which no plugin may reuse (repair/ knows them:
 * repair/plugins.ts).
 */
export interface BuiltInNames {
  fixers: readonly string[];
  tools: readonly string[];
  /** Rule ids and the finding names a rule reports. */
  integrityRules?: readonly string[];
}

export async function loadPlugins(
  specifiers: readonly string[],
  options: { projectRoot: string; builtIn: BuiltInNames },
): Promise<LoadedPlugins> {
  const loaded: LoadedPlugins = {
    plugins: [],
    fixers: [],
    tools: [],
    parsers: [],
    reporters: [],
    integrityRules: [],
    notes: [],
  };
  const names = {
    plugins: new Names('plugin'),
    fixers: new Names('fixer', options.builtIn.fixers),
    tools: new Names('tool', options.builtIn.tools),
    parsers: new Names('parser'),
    reporters: new Names('reporter'),
    integrityRules: new Names('integrity rule', options.builtIn.integrityRules),
  };
  for (const specifier of specifiers) {
    const fail = (problem: string): never => {
      throw new MvnxError(`plugin ${specifier}: ${problem}`, EXIT.usage);
    };
    const file = resolvePlugin(specifier, options.projectRoot);
    const checked = checkPlugin(await importPlugin(specifier, file));
    if ('problem' in checked) return fail(checked.problem);
    const { plugin } = checked;
    names.plugins.claim(plugin.name, `plugin ${specifier}`, fail);
    const claimAll = <T extends { name: string }>(
      part: keyof typeof names & keyof typeof plugin,
      items: readonly T[] | undefined,
    ): T[] =>
      (items ?? []).map((item, index) => {
        names[part].claim(item.name, `${part}[${index}] of plugin ${specifier}`, (problem) =>
          fail(`${part}[${index}]: ${problem}`),
        );
        return item;
      });
    loaded.fixers.push(...claimAll('fixers', plugin.fixers));
    loaded.tools.push(...claimAll('tools', plugin.tools));
    loaded.parsers.push(...claimAll('parsers', plugin.parsers));
    loaded.reporters.push(
      ...claimAll('reporters', plugin.reporters).map((reporter) => ({ plugin: plugin.name, reporter })),
    );
    // A rule's id and every name its findings carry: a finding's name must say which rule found it.
    loaded.integrityRules.push(
      ...(plugin.integrityRules ?? []).map((rule, index) => {
        const claim = (name: string) =>
          names.integrityRules.claim(name, `integrityRules[${index}] of plugin ${specifier}`, (problem) =>
            fail(`integrityRules[${index}]: ${problem}`),
          );
        for (const name of new Set([rule.id, ...(rule.reports ?? [])])) claim(name);
        return rule;
      }),
    );
    loaded.notes.push(...checked.notes.map((note) => `plugin ${specifier}: ${note}`));
    loaded.plugins.push({ specifier, file, plugin });
  }
  return loaded;
}

/**
 * One registry's names and who took each: a second fixer, tool, parser, reporter or integrity
 * rule of one name would make the run record, `fixers.disabled` and the model's tool calls ambiguous.
 */
class Names {
  private readonly owners = new Map<string, string>();

  constructor(
    private readonly kind: string,
    builtIn: readonly string[] = [],
  ) {
    for (const name of builtIn) this.owners.set(name, `a built-in ${kind} of mvnx`);
  }

  claim(name: string, owner: string, fail: (problem: string) => never): void {
    const taken = this.owners.get(name);
    if (taken) fail(`the ${this.kind} name "${name}" is already taken by ${taken}`);
    this.owners.set(name, owner);
  }
}

/**
 * Paths are absolute by the time a config is loaded (relative to the file that names them); anything else is a package.
 */
function resolvePlugin(specifier: string, projectRoot: string): string {
  if (path.isAbsolute(specifier) || specifier.startsWith('.')) {
    const file = path.resolve(projectRoot, specifier);
    if (!existsSync(file)) throw new MvnxError(`plugin ${specifier}: no such file`, EXIT.usage);
    return file;
  }
  try {
    // Resolved as the project itself would: from its own node_modules upwards.
    return createRequire(path.join(projectRoot, 'package.json')).resolve(specifier);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') {
      throw new MvnxError(
        `plugin ${specifier}: its package.json "exports" has no "default" or "require" entry to load`,
        EXIT.usage,
      );
    }
    throw new MvnxError(
      `plugin ${specifier}: not found from ${projectRoot} (install it there, e.g. npm install --save-dev ${specifier})`,
      EXIT.usage,
    );
  }
}

async function importPlugin(specifier: string, file: string): Promise<unknown> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new MvnxError(`plugin ${specifier}: loading ${file} failed: ${firstLine(error)}`, EXIT.usage);
  }
  // A CommonJS module's module.exports arrives as `default`.
  return module.default ?? module.plugin;
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
      warn(`mvnx: reporter ${reporter.name} of plugin ${plugin} failed: ${firstLine(error)}`);
    }
  }
}
