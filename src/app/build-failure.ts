/**
 * What the CLI hands the app when Maven failed: the build, how Maven was found, the
 * arguments and options. Every module of app/ reads it; it imports none of them.
 */
import type { MavenSource } from '../maven/discover.js';
import type { MavenRunResult } from '../maven/types.js';
import type { EffectiveConfig } from '../policy/index.js';
import type { CliOptions, OptionValues } from '../shared/options.js';

export interface BuildFailureContext {
  cwd: string;
  projectRoot: string;
  mavenExecutable: string;
  /** How it was found (the project's ./mvnw, PATH, ...): a wrapper that fails before Maven starts is said as such. */
  mavenSource?: MavenSource;
  /** The user's Maven arguments, mvnx flags removed. */
  mavenArgs: string[];
  /** `--mvnx-*` flags as given, for loading the config. */
  overrides: OptionValues;
  /** What the CLI reads itself (--mvnx-json, --mvnx-sarif, ...), flags and variables folded. */
  options: CliOptions;
  env: NodeJS.ProcessEnv;
  configFile?: string;
  /** The config the CLI already loaded; loaded again when absent. */
  config?: EffectiveConfig;
  result: MavenRunResult;
}

export function isCI(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.CI && env.CI !== 'false' && env.CI !== '0');
}
