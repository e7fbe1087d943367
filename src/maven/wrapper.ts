/**
 * The project's Maven wrapper (`./mvnw`) when it fails before Maven starts: on first use
 * it downloads the Maven named in `.mvn/wrapper/maven-wrapper.properties`, which fails
 * offline, and its output has no line from Maven. Then the failure line says which Maven
 * ran and why it did not start, instead of "a reason mvnx does not recognise".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A line Maven itself prints (`[INFO]`, `[ERROR]`, ... with or without colours): Maven started. */
const MAVEN_LINE = /^(?:\x1b\[[0-9;]*m)*\[(?:INFO|ERROR|WARNING|WARN|DEBUG)(?:\x1b\[[0-9;]*m)*\]/m;

const TAIL_BYTES = 64 * 1024;

/** `distributionUrl` of the wrapper's properties, when it has them. */
export function wrapperDistribution(wrapper: string): string | undefined {
  try {
    const properties = readFileSync(
      path.join(path.dirname(wrapper), '.mvn', 'wrapper', 'maven-wrapper.properties'),
      'utf8',
    );
    return /^\s*distributionUrl\s*[=:]\s*(\S+)/m.exec(properties)?.[1]?.replace(/\\:/g, ':');
  } catch {
    return undefined;
  }
}

/**
 * Where the wrapper keeps the Maven it downloads, and whether it is there: Apache Maven
 * Wrapper puts it under `$MAVEN_USER_HOME/wrapper/dists/` (default `~/.m2`), in a folder
 * named after the distribution (`apache-maven-3.9.9`, older wrappers `apache-maven-3.9.9-bin`).
 */
export function wrapperDistributionCache(
  distribution: string,
  env: NodeJS.ProcessEnv,
): { folder: string; downloaded: boolean } {
  const dists = path.join(env.MAVEN_USER_HOME || path.join(env.HOME || os.homedir(), '.m2'), 'wrapper', 'dists');
  const file = distribution.split('/').at(-1) ?? distribution;
  const withBin = file.replace(/\.(zip|tar\.gz)$/, '');
  const names = [withBin.replace(/-bin$/, ''), withBin];
  const nonEmpty = (folder: string): boolean => {
    try {
      return readdirSync(folder).length > 0;
    } catch {
      return false;
    }
  };
  const present = names.map((name) => path.join(dists, name)).find(nonEmpty);
  return { folder: present ?? path.join(dists, names[0]!), downloaded: present !== undefined };
}

/** Pure: the failure line for a wrapper whose output (its tail) shows no Maven line, else undefined. */
export function describeWrapperFailure(input: {
  wrapper: string;
  cwd: string;
  exitCode: number;
  output: string;
  distribution?: string;
}): string | undefined {
  if (input.exitCode === 0 || MAVEN_LINE.test(input.output)) return undefined;
  const shown = path.relative(input.cwd, input.wrapper) || input.wrapper;
  const said = input.output
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .at(-1);
  const download = input.distribution
    ? `it downloads ${input.distribution.split('/').at(-1)} (.mvn/wrapper/maven-wrapper.properties) on first use, which needs the network`
    : 'it may need to download Maven on first use, which needs the network';
  return (
    `Maven did not start: the project's Maven wrapper ${shown.startsWith('.') || path.isAbsolute(shown) ? shown : `./${shown}`} exited ${input.exitCode}` +
    `${said ? ` (${said.slice(0, 200)})` : ''}; ${download}: run it once online, or use another Maven with --mvnx-maven=mvn or MVNX_MAVEN`
  );
}

/** The same, read from a captured log file. */
export async function wrapperFailure(input: {
  wrapper: string;
  cwd: string;
  exitCode: number;
  logFile: string;
}): Promise<string | undefined> {
  if (input.exitCode === 0) return undefined;
  const handle = await open(input.logFile, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const distribution = wrapperDistribution(input.wrapper);
    return describeWrapperFailure({
      wrapper: input.wrapper,
      cwd: input.cwd,
      exitCode: input.exitCode,
      output: buffer.toString('utf8'),
      ...(distribution ? { distribution } : {}),
    });
  } finally {
    await handle.close();
  }
}
