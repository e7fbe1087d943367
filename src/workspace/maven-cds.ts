/**
 * A class-data archive of Maven's own JVM for verification builds (JDK 13+ dynamic CDS):
 * the classes Maven, its plugins and javac load are mapped from the archive instead of
 * being read, parsed and verified at every start. On jsoup, a Maven run that compiles one
 * class and runs one test class took 1.7-1.85 s with it and 1.95-2.1 s without.
 *
 * Made once per JDK and Maven installation, by the flaky check's run (the user's own
 * unchanged code, never a candidate's) with `-XX:ArchiveClassesAtExit` into the workspace,
 * the only folder a sandboxed build may write; mvnx then keeps it in the machine cache.
 * Later verification builds name it with `-XX:SharedArchiveFile` (bound read-only into the
 * sandbox). The JVM checks the archive against itself and Maven's class path and, under
 * `-Xshare:auto`, runs without it when they differ; its logging is off so that nothing
 * reaches the build's output. Never where MAVEN_OPTS or `.mvn/jvm.config` says anything of
 * class sharing, and not for a container build (its JVM is the image's).
 *
 * The flags would stop any other JVM from starting (JDK 8 knows no `-Xlog`, JDK 11 no
 * `-XX:ArchiveClassesAtExit`, OpenJ9 neither), so only a HotSpot JDK 13 or later, known
 * by its `release` file and its default archive (`lib/server/classes.jsa`), gets them; and
 * not when an mvnrc file (`~/.mavenrc`, `/etc/mavenrc`) may point Maven at another JDK.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { readText } from '../maven/settings.js';
import { executableFile, javaHome, realOrUndefined } from './build-footprint.js';

const QUIET = ['-Xlog:cds=off', '-Xlog:cds+dynamic=off'];
const SHARING =
  /-Xshare:|SharedArchiveFile|ArchiveClassesAtExit|SharedClassListFile|DumpLoadedClassList|-XX:\+AutoCreateSharedArchive/;

/** Whether the user's MAVEN_OPTS and `.mvn/jvm.config` leave class sharing to mvnx. Pure. */
export function cdsRoom(userJvmOptions: string): boolean {
  return !SHARING.test(userJvmOptions);
}

/** MAVEN_OPTS additions: use the archive, or make it (into `dumpTo`). Pure. */
export function cdsOptions(how: { use: string } | { dumpTo: string }): string[] {
  return 'use' in how
    ? [`-XX:SharedArchiveFile=${how.use}`, ...QUIET]
    : [`-XX:ArchiveClassesAtExit=${how.dumpTo}`, ...QUIET];
}

/**
 * Where the archive for this JDK and this Maven is kept: named by their real paths and
 * the times their files last changed, so an upgrade in place gets an archive of its own.
 * Undefined when either cannot be found, or the path holds whitespace (MAVEN_OPTS is split
 * on it).
 */
export function cdsArchivePath(input: {
  executable: string;
  env: NodeJS.ProcessEnv;
  cacheDir: string;
}): string | undefined {
  const jdk = javaHome(input.env);
  const mvn = executableFile(input.executable, input.env);
  const maven = mvn ? realOrUndefined(mvn) : undefined;
  if (!jdk || !maven || !dynamicArchives(jdk)) return undefined;
  const rcFiles = input.env.MAVEN_SKIP_RC
    ? []
    : [...(input.env.HOME ? [path.join(input.env.HOME, '.mavenrc')] : []), '/etc/mavenrc'];
  if (rcFiles.some((file) => existsSync(file))) return undefined;
  const install = path.dirname(path.dirname(maven));
  const parts = [
    path.join(jdk, 'bin', 'java'),
    path.join(jdk, 'lib'),
    path.join(jdk, 'lib', 'modules'),
    maven,
    path.join(install, 'lib'),
    path.join(install, 'boot'),
  ].flatMap((entry) => {
    const info = statSafe(entry);
    return info ? [`${entry}:${info.size}:${info.mtimeMs}`] : [];
  });
  const archive = path.join(
    input.cacheDir,
    'cds',
    `maven-${createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 24)}.jsa`,
  );
  return /\s/.test(archive) ? undefined : archive;
}

/** Whether the JDK at `home` is a HotSpot JDK 13 or later: dynamic archives and unified logging. */
function dynamicArchives(home: string): boolean {
  const version = /^JAVA_VERSION="(\d+)/m.exec(readText(path.join(home, 'release')) ?? '')?.[1];
  return version !== undefined && Number(version) >= 13 && existsSync(path.join(home, 'lib', 'server', 'classes.jsa'));
}

/** A fresh name inside the workspace for the JVM to write the archive to. */
export function dumpTarget(workspaceRoot: string): string {
  return path.join(workspaceRoot, `.mvnx-cds-${randomBytes(6).toString('hex')}.jsa`);
}

/**
 * Moves a dumped archive into the cache (whole or not at all: copied beside, then renamed); a failure only means no
 * archive.
 */
export async function keepDumpedArchive(dumped: string, archive: string): Promise<void> {
  try {
    if (!statSafe(dumped)?.size) return;
    await mkdir(path.dirname(archive), { recursive: true });
    const partial = `${archive}.${randomBytes(6).toString('hex')}.partial`;
    await copyFile(dumped, partial);
    await rename(partial, archive);
  } catch {
    // No archive this time: the next flaky check makes one.
  } finally {
    await rm(dumped, { force: true });
  }
}

export const cdsArchiveExists = (archive: string): boolean => existsSync(archive);

function statSafe(file: string) {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}
