// STUB owned by the policy work (issue 5): replaced by cosmiconfig discovery + zod validation.
// The signature is what the CLI relies on.
import type { MvnxFlags } from '../cli/flags.js';

export type Tier = 'off' | 'monitor' | 'assist' | 'auto';

export interface LoadConfigOptions {
  /** Folder of the top pom (or cwd when there is none). */
  projectRoot: string;
  /** `--mvnx-config=FILE`, resolved against cwd. */
  configFile?: string;
  env: NodeJS.ProcessEnv;
  flags: MvnxFlags;
}

export interface EffectiveConfigStub {
  tier: Tier;
  maven: { executable?: string };
}

export async function loadEffectiveConfig(options: LoadConfigOptions): Promise<EffectiveConfigStub> {
  const tier = (options.flags['no-fix'] ? 'off' : (options.flags.tier as Tier | undefined)) ?? (options.env.MVNX_TIER as Tier | undefined) ?? 'assist';
  return { tier, maven: {} };
}
