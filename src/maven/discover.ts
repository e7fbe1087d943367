/**
 * Finding the Maven to run, in the contract's order: `--mvnx-maven`, `MVNX_MAVEN`, config
 * `maven.executable`, the nearest `mvnw` from the start folder up, `mvn` on PATH.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { MvnxError } from '../shared/errors.js';
import { startFolder } from './args.js';

export type MavenSource = 'flag' | 'env' | 'config' | 'mvnw' | 'path';

export interface FindMavenOptions {
  /** `--mvnx-maven=PATH`. */
  flag?: string;
  env: NodeJS.ProcessEnv;
  /** Config `maven.executable`. */
  configured?: string;
  cwd: string;
  mavenArgs: string[];
  platform?: NodeJS.Platform;
}

export interface FoundMaven {
  executable: string;
  source: MavenSource;
}

/** Maven was not found; `named` says which explicit setting named a file that is not executable. */
export class MavenNotFoundError extends MvnxError {
  constructor(
    message: string,
    readonly named?: { label: string; value: string },
  ) {
    super(message, 127);
  }
}

export async function findMaven(opts: FindMavenOptions): Promise<FoundMaven> {
  const platform = opts.platform ?? process.platform;
  const explicit: Array<[MavenSource, string, string | undefined]> = [
    ['flag', '--mvnx-maven', opts.flag],
    ['env', 'MVNX_MAVEN', opts.env.MVNX_MAVEN],
    ['config', 'config maven.executable', opts.configured],
  ];
  for (const [source, label, value] of explicit) {
    if (value === undefined || value === '') continue;
    const executable = await resolveNamed(value, opts.cwd, opts.env, platform);
    if (!executable) throw new MavenNotFoundError(`Maven not found: ${label}=${value} is not an executable file`, { label, value });
    return { executable, source };
  }

  const start = await startFolder(opts.cwd, opts.mavenArgs);
  const wrapperName = platform === 'win32' ? 'mvnw.cmd' : 'mvnw';
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, wrapperName);
    if (await isExecutable(candidate, platform)) return { executable: candidate, source: 'mvnw' };
    if (path.dirname(dir) === dir) break;
  }

  const mavenName = platform === 'win32' ? 'mvn.cmd' : 'mvn';
  const onPath = await searchPath(mavenName, opts.env, platform);
  if (onPath) return { executable: onPath, source: 'path' };

  throw new MavenNotFoundError(
    `Maven not found: searched --mvnx-maven, MVNX_MAVEN, config maven.executable (none set), ` +
      `${wrapperName} in ${start} and its parents, ${mavenName} on PATH (${pathValue(opts.env, platform) || 'empty'}); ` +
      `install Maven or set MVNX_MAVEN=/path/to/mvn`,
  );
}

/** A value with a path separator is a path (relative to cwd); a bare name is looked up on PATH. */
async function resolveNamed(value: string, cwd: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): Promise<string | undefined> {
  const hasSeparator = value.includes('/') || (platform === 'win32' && value.includes('\\'));
  if (!hasSeparator) return searchPath(value, env, platform);
  const absolute = path.resolve(cwd, value);
  return (await isExecutable(absolute, platform)) ? absolute : undefined;
}

async function searchPath(name: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): Promise<string | undefined> {
  const delimiter = platform === 'win32' ? ';' : ':';
  for (const dir of pathValue(env, platform).split(delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (await isExecutable(candidate, platform)) return candidate;
  }
  return undefined;
}

function pathValue(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  // Windows spells it Path as often as PATH.
  if (platform === 'win32') return env.PATH ?? env.Path ?? '';
  return env.PATH ?? '';
}

/**
 * Synchronous on purpose: nothing else runs before Maven starts, and a statSync that
 * returns undefined for a missing file costs microseconds where each awaited stat is a
 * thread-pool round trip (~0.1-0.25 ms here, times every mvnw candidate and PATH entry).
 */
async function isExecutable(file: string, platform: NodeJS.Platform): Promise<boolean> {
  try {
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return false;
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
