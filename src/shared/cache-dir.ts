/**
 * Where mvnx keeps what outlives a run on this machine (JDK indexes, javap answers, the compiled class orderer):
 * `$XDG_CACHE_HOME/mvnx`, else `~/.cache/mvnx`.
 */
import os from 'node:os';
import path from 'node:path';

export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(base, 'mvnx');
}
