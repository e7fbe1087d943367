/**
 * Whether a run has any config at all, answered without loading the config stack: the
 * policy loader pulls in cosmiconfig and zod (~80 ms here), which a passing build with no
 * config does not need. The check is conservative: anything that might be config sends
 * the run down the full path, so it can only cost time, never change a result.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findGitRoot } from '../maven/project.js';
import { SEARCH_PLACES } from '../policy/search-places.js';
import { configOptionGiven, type OptionValues } from '../shared/options.js';

/** cosmiconfig reads a "meta config" from the working directory that can add search places. */
const META_CONFIG_PLACES = [
  'package.json',
  '.config.json',
  '.config.yaml',
  '.config.yml',
  '.config/config.json',
  '.config/config.yaml',
  '.config/config.yml',
  '.config/config.js',
  '.config/config.ts',
  '.config/config.cjs',
  '.config/config.mjs',
];

/** A config-backed flag or MVNX_* variable is set (the option table says which the CLI reads itself). */
export function configGivenOnCommandLine(flags: OptionValues, env: NodeJS.ProcessEnv): boolean {
  return configOptionGiven(flags, env);
}

export interface ConfigSearch {
  projectRoot: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  homedir?: string;
}

/** True when a config file the loader would read might exist (project folders, global dir, meta config). */
export async function configFileMayExist(search: ConfigSearch): Promise<boolean> {
  const candidates: string[] = [];
  const projectRoot = path.resolve(search.projectRoot);
  const stopDir = (await findGitRoot(projectRoot)) ?? projectRoot;
  for (let dir = projectRoot; ; dir = path.dirname(dir)) {
    for (const place of SEARCH_PLACES) candidates.push(path.join(dir, place));
    if (dir === stopDir || path.dirname(dir) === dir) break;
  }
  candidates.push(globalConfigDir(search.env, search.platform ?? process.platform, search.homedir ?? os.homedir()));
  for (const place of META_CONFIG_PLACES) candidates.push(path.join(search.cwd, place));
  const found = candidates.map((candidate) => existsSync(candidate));
  return found.some(Boolean);
}

/** Where cosmiconfig's global search looks (env-paths' config folder for "mvnx"). */
export function globalConfigDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, homedir: string): string {
  if (platform === 'darwin') return path.join(homedir, 'Library', 'Preferences', 'mvnx');
  if (platform === 'win32') return path.join(env.APPDATA || path.join(homedir, 'AppData', 'Roaming'), 'mvnx', 'Config');
  return path.join(env.XDG_CONFIG_HOME || path.join(homedir, '.config'), 'mvnx');
}
