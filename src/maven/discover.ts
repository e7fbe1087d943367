/**
 * Finding the Maven to run, in the contract's order: `--mvnx-maven`, `MVNX_MAVEN`, config
 * `maven.executable`, the nearest `mvnw` from the start folder up, `mvn` on PATH.
 */
import path from 'node:path';
import { MvnxError } from '../shared/errors.js';
import { isExecutable, pathValue, searchPath } from '../shared/path-search.js';
import { startFolder } from './args.js';
import { wrapperDistribution, wrapperDistributionCache } from './wrapper.js';

export type MavenSource = 'flag' | 'env' | 'config' | 'mvnw' | 'path';

/** How a user names each source: the flag, the variable, the config field. */
export const MAVEN_SOURCE_LABELS: Record<MavenSource, string> = {
  flag: '--mvnx-maven',
  env: 'MVNX_MAVEN',
  config: 'config maven.executable',
  mvnw: 'nearest mvnw',
  path: 'PATH',
};

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

export function findMaven(opts: FindMavenOptions): Promise<FoundMaven> {
  // A rejected promise, not a throw, when Maven is not found: callers await it.
  return new Promise((resolve) => resolve(locateMaven(opts)));
}

function locateMaven(opts: FindMavenOptions): FoundMaven {
  const platform = opts.platform ?? process.platform;
  const explicit: Array<[MavenSource, string, string | undefined]> = [
    ['flag', '--mvnx-maven', opts.flag],
    ['env', 'MVNX_MAVEN', opts.env.MVNX_MAVEN],
    ['config', 'config maven.executable', opts.configured],
  ];
  for (const [source, label, value] of explicit) {
    if (value === undefined || value === '') continue;
    const executable = resolveNamed(value, opts.cwd, opts.env, platform);
    if (!executable)
      throw new MavenNotFoundError(`Maven not found: ${label}=${value} ${whyNotFound(value, platform)}`, {
        label,
        value,
      });
    return { executable, source };
  }

  const start = startFolder(opts.cwd, opts.mavenArgs);
  const wrapperName = platform === 'win32' ? 'mvnw.cmd' : 'mvnw';
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, wrapperName);
    if (isExecutable(candidate, platform)) return { executable: candidate, source: 'mvnw' };
    if (path.dirname(dir) === dir) break;
  }

  const mavenName = platform === 'win32' ? 'mvn.cmd' : 'mvn';
  const onPath = searchPath(mavenName, opts.env, platform);
  if (onPath) return { executable: onPath, source: 'path' };

  throw new MavenNotFoundError(
    `Maven not found: searched --mvnx-maven, MVNX_MAVEN, config maven.executable (none set), ` +
      `${wrapperName} in ${start} and its parents, ${mavenName} on PATH (${pathValue(opts.env, platform) || 'empty'}); ` +
      `install Maven or set MVNX_MAVEN=/path/to/mvn`,
  );
}

/** Why a named Maven was not found: a bare name is looked for on PATH (resolveNamed), a path is a file. */
function whyNotFound(value: string, platform: NodeJS.Platform): string {
  const hasSeparator = value.includes('/') || (platform === 'win32' && value.includes('\\'));
  return hasSeparator ? 'is not an executable file' : 'is not found on PATH';
}

/** A value with a path separator is a path (relative to cwd); a bare name is looked up on PATH. */
function resolveNamed(
  value: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
): string | undefined {
  const hasSeparator = value.includes('/') || (platform === 'win32' && value.includes('\\'));
  if (!hasSeparator) return searchPath(value, env, platform);
  const absolute = path.resolve(cwd, value);
  return isExecutable(absolute, platform) ? absolute : undefined;
}

/**
 * Which Maven a build started here runs and why, in one line (`mvnx explain`): the setting
 * that named it, or the project's wrapper with the distribution it runs and whether that is
 * downloaded yet, or `mvn` on PATH because no wrapper was found.
 */
export function describeMavenChoice(
  found: FoundMaven,
  opts: Pick<FindMavenOptions, 'cwd' | 'env' | 'mavenArgs'>,
): string {
  const shown = (file: string): string => {
    const relative = path.relative(opts.cwd, file);
    return relative === '' || relative.startsWith('..') || path.isAbsolute(relative)
      ? file
      : relative.startsWith('.')
        ? relative
        : `./${relative}`;
  };
  if (found.source === 'mvnw') {
    const distribution = wrapperDistribution(found.executable);
    if (!distribution)
      return `${shown(found.executable)} (the project's Maven wrapper, the nearest mvnw; it names no distributionUrl in .mvn/wrapper/maven-wrapper.properties)`;
    const cache = wrapperDistributionCache(distribution, opts.env);
    const state = cache.downloaded
      ? `downloaded in ${cache.folder}`
      : `not downloaded yet (${cache.folder}): its first run needs the network`;
    return `${shown(found.executable)} (the project's Maven wrapper, the nearest mvnw; it runs ${distribution.split('/').at(-1)} from .mvn/wrapper/maven-wrapper.properties, ${state})`;
  }
  if (found.source === 'path')
    return `${found.executable} (mvn on PATH: no mvnw in ${startFolder(opts.cwd, opts.mavenArgs)} or its parents)`;
  return `${found.executable} (${MAVEN_SOURCE_LABELS[found.source]})`;
}
