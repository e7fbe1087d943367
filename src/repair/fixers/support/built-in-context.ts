/**
 * FixerContext as mvnx's own fixers get it: the plugin contract's fields, and facts of
 * the run that only a built-in fixer reads. A plugin's fixer gets the same object and
 * may ignore them; a fixer whose fact is absent proposes nothing.
 */
import type { FixerContext } from '../../../plugins/contracts.js';
import type { DependencyUpdateFixerData } from '../../dependency-update/update-repair.js';

export interface BuiltInFixerContext extends FixerContext {
  /** The run's dependency update (../../dependency-update/), for the two fixers that write it. */
  dependencyUpdate?: DependencyUpdateFixerData;
}
