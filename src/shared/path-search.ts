/**
 * The one PATH search: Maven discovery, `mvnx doctor` and the JDK index all find a command
 * the same way (an executable file, Windows' `Path` spelling, empty entries skipped).
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Synchronous on purpose: nothing else runs before Maven starts, and a statSync that
 * returns undefined for a missing file costs microseconds where each awaited stat is a
 * thread-pool round trip (~0.1-0.25 ms here, times every mvnw candidate and PATH entry).
 */
export function isExecutable(file: string, platform: NodeJS.Platform = process.platform): boolean {
  try {
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return false;
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The PATH value; Windows spells it Path as often as PATH. */
export function pathValue(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return env.PATH ?? env.Path ?? '';
  return env.PATH ?? '';
}

/** The first executable `name` on PATH, or undefined. */
export function searchPath(
  name: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const delimiter = platform === 'win32' ? ';' : ':';
  for (const dir of pathValue(env, platform).split(delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate, platform)) return candidate;
  }
  return undefined;
}
