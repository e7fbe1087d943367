/**
 * Loading a config's plugins beside mvnx's own fixers and agent tools: plugins/ checks and
 * imports them, repair/ says which names are taken (plugins/ never imports repair/).
 */
import { loadPlugins as loadPluginModules } from '../plugins/load.js';
import type { LoadedPlugins } from '../plugins/types.js';
import { BUILT_IN_AGENT_TOOLS, STATE_TOOLS } from '../repair/index.js';
import { BUILT_IN_FIXERS } from '../repair/fixers/registry.js';

export function loadPlugins(specifiers: readonly string[], options: { projectRoot: string }): Promise<LoadedPlugins> {
  return loadPluginModules(specifiers, {
    projectRoot: options.projectRoot,
    builtIn: {
      fixers: BUILT_IN_FIXERS.map((fixer) => fixer.name),
      tools: [...BUILT_IN_AGENT_TOOLS.map((tool) => tool.name), ...Object.keys(STATE_TOOLS)],
    },
  });
}
