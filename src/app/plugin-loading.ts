/**
 * Loading a config's plugins beside mvnx's own fixers, agent tools and integrity rules: plugins/ checks and
 * imports them, repair/ says which names are taken (plugins/ never imports repair/).
 */
import { loadPlugins as loadPluginModules } from '../plugins/load-plugins.js';
import type { LoadedPlugins } from '../plugins/types.js';
import { BUILT_IN_AGENT_TOOLS, BUILT_IN_FIXERS, loadIntegrity, STATE_TOOLS } from '../repair/index.js';

export async function loadPlugins(
  specifiers: readonly string[],
  options: { projectRoot: string },
): Promise<LoadedPlugins> {
  // The built-in integrity rules' names: the rules are loaded only when there are plugins to check against them.
  const integrityRules = specifiers.length === 0 ? [] : (await loadIntegrity()).BUILT_IN_INTEGRITY_RULE_NAMES;
  return loadPluginModules(specifiers, {
    projectRoot: options.projectRoot,
    builtIn: {
      fixers: BUILT_IN_FIXERS.map((fixer) => fixer.name),
      tools: [...BUILT_IN_AGENT_TOOLS.map((tool) => tool.name), ...Object.keys(STATE_TOOLS)],
      integrityRules,
    },
  });
}
