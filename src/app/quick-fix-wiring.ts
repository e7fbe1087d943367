/**
 * The quick-fixes of a session: mvnx's own fixers and the plugins' in one registry (less
 * those `fixers.disabled` names), run by the quick-fix proposer; none when `fixers.enabled`
 * is off.
 */
import type { Fixer } from '../plugins/contracts.js';
import type { EffectiveConfig } from '../policy/index.js';
import {
  BUILT_IN_FIXERS,
  createFixerProposer,
  FixerRegistry,
  type FixerProposerOptions,
  type LoopPorts,
} from '../repair/index.js';

export function quickFixProposals(
  input: Omit<FixerProposerOptions, 'registry'> & { config: EffectiveConfig; pluginFixers: readonly Fixer[] },
): LoopPorts['fixerProposals'] {
  const { config, pluginFixers, ...options } = input;
  if (!config.fixers.enabled) return () => Promise.resolve([]);
  return createFixerProposer({ ...options, registry: fixerRegistry(config.fixers.disabled ?? [], pluginFixers) });
}

function fixerRegistry(disabled: readonly string[], pluginFixers: readonly Fixer[]): FixerRegistry {
  const registry = new FixerRegistry();
  for (const fixer of [...BUILT_IN_FIXERS, ...pluginFixers])
    if (!disabled.includes(fixer.name)) registry.register(fixer);
  return registry;
}
