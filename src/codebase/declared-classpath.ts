/**
 * The jars a module compiles against, worked out from its pom and the poms in the local
 * repository. It stands in for `mvn dependency:build-classpath`, which cannot run offline
 * on this Maven (its own plugin dependencies are not in ~/.m2). Versions that only a
 * parent or BOM manages are taken from the local repository when exactly one is present.
 * A resolution is kept on disk with what it looked at, and reused while all of that is
 * as it was.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { parsePomProject, pomDependencies, type PomDependency } from '../maven/pom.js';
import { resolveMavenUserState } from '../maven/settings.js';
import { fileStamp, writeCacheFile } from './cache-file.js';

export type DeclaredDependency = PomDependency;

export interface DeclaredClasspath {
  main: string[];
  test: string[];
  /** Dependencies that could not be found in the local repository. */
  missing: string[];
}

/** The pom's direct dependencies, with `${property}` references resolved where the pom defines them (maven/pom.ts). */
export function parseDeclaredDependencies(pomXml: string): DeclaredDependency[] {
  const project = parsePomProject(pomXml);
  return project ? pomDependencies(project) : [];
}

/** The local repository Maven uses here (maven/settings.ts: settings.xml, -Dmaven.repo.local, .mvn/maven.config). */
export function defaultLocalRepository(
  options: { env?: NodeJS.ProcessEnv; projectRoot?: string; mavenArgs?: readonly string[] } = {},
): string {
  const projectRoot = options.projectRoot ?? process.cwd();
  return resolveMavenUserState({
    args: options.mavenArgs ?? [],
    env: options.env ?? process.env,
    cwd: projectRoot,
    projectRoot,
  }).localRepository;
}

/** The local repository as a resolution reads it; each path it asks about is noted, when `consulted` is given. */
function repositoryReader(consulted?: Set<string>) {
  const note = (file: string) => consulted?.add(file);
  return {
    list: (folder: string) => (note(folder), readdir(folder).catch(() => [] as string[])),
    exists: (file: string) => (note(file), existsSync(file)),
    read: (file: string) => (note(file), readFile(file, 'utf8').catch(() => undefined)),
  };
}
type RepositoryReader = ReturnType<typeof repositoryReader>;

async function pickVersion(
  repository: RepositoryReader,
  localRepository: string,
  dependency: DeclaredDependency,
): Promise<string | undefined> {
  if (dependency.version) return dependency.version;
  const folder = path.join(localRepository, ...dependency.groupId.split('.'), dependency.artifactId);
  const versions = await repository.list(folder);
  return versions.length === 1 ? versions[0] : undefined;
}

/** Transitive jars of a pom's dependencies: compile and provided for main, plus test for test. */
export function resolveDeclaredClasspath(
  pomXml: string,
  localRepository: string = defaultLocalRepository(),
): Promise<DeclaredClasspath> {
  return resolveFrom(repositoryReader(), pomXml, localRepository);
}

async function resolveFrom(
  repository: RepositoryReader,
  pomXml: string,
  localRepository: string,
): Promise<DeclaredClasspath> {
  const main = new Set<string>();
  const test = new Set<string>();
  const missing: string[] = [];
  const seen = new Set<string>();

  const visit = async (dependency: DeclaredDependency, targets: Set<string>[], depth: number): Promise<void> => {
    const key = `${dependency.groupId}:${dependency.artifactId}`;
    if (seen.has(key) || dependency.type !== 'jar' || depth > 8) return;
    seen.add(key);
    const version = await pickVersion(repository, localRepository, dependency);
    const folder = path.join(localRepository, ...dependency.groupId.split('.'), dependency.artifactId, version ?? '');
    const jar = path.join(folder, `${dependency.artifactId}-${version}.jar`);
    if (!version || !repository.exists(jar)) {
      missing.push(`${key}:${version ?? '?'}`);
      return;
    }
    for (const target of targets) target.add(jar);
    const pom = await repository.read(path.join(folder, `${dependency.artifactId}-${version}.pom`));
    if (!pom) return;
    for (const transitive of parseDeclaredDependencies(pom)) {
      // Only compile-scope transitive dependencies reach a compile classpath.
      if (transitive.scope === 'compile' && !transitive.optional) await visit(transitive, targets, depth + 1);
    }
  };

  const direct = parseDeclaredDependencies(pomXml);
  for (const dependency of direct.filter((d) => ['compile', 'provided', 'system'].includes(d.scope)))
    await visit(dependency, [main, test], 0);
  for (const dependency of direct.filter((d) => d.scope === 'test')) await visit(dependency, [test], 0);
  return { main: [...main], test: [...test], missing };
}

/** Part of every kept resolution: another shape of entry makes older ones foreign (resolved again). */
const KEPT_FORMAT = 'mvnx-declared-classpath/1';

interface KeptResolution {
  format: string;
  /** The pom text's hash. */
  pom: string;
  localRepository: string;
  /** Each path the resolution looked at, and what it was: `size:mtime`, or `absent`. */
  consulted: Record<string, string>;
  classpath: DeclaredClasspath;
}

/**
 * `resolveDeclaredClasspath` for `pomFile` (its text `pomXml`), kept under
 * `<cacheDir>/classpath/`, one entry per pom file and local repository: the next prompt of
 * the project (most often the next run's) reads it back instead of parsing the module's pom
 * and every dependency's pom again (jsoup: 30-40 ms of a prompt built from parses kept
 * before). Reused only for the same pom text while every file and folder it looked at has
 * the size and modification time it had (a new version folder, a jar that arrived, a pom
 * rewritten); anything unreadable is resolved again, and a failed write only costs the
 * next prompt the resolution.
 */
export async function keptDeclaredClasspath(
  pomFile: string,
  pomXml: string,
  localRepository: string,
  cacheDir: string,
): Promise<DeclaredClasspath> {
  const pom = createHash('sha256').update(pomXml).digest('hex');
  const file = path.join(
    cacheDir,
    'classpath',
    `${createHash('sha256')
      .update(`${path.resolve(pomFile)}\u0000${localRepository}`)
      .digest('hex')
      .slice(0, 32)}.json`,
  );
  const kept = await readFile(file, 'utf8')
    .then(
      (text) => JSON.parse(text) as KeptResolution,
      () => undefined,
    )
    .catch(() => undefined);
  if (
    kept?.format === KEPT_FORMAT &&
    kept.pom === pom &&
    kept.localRepository === localRepository &&
    isClasspath(kept.classpath) &&
    (await unchanged(kept.consulted))
  )
    return kept.classpath;

  const consulted = new Set<string>();
  const classpath = await resolveFrom(repositoryReader(consulted), pomXml, localRepository);
  const states = await Promise.all(
    [...consulted].map(async (consultedPath) => [consultedPath, await fileStamp(consultedPath)] as const),
  );
  const entry: KeptResolution = {
    format: KEPT_FORMAT,
    pom,
    localRepository,
    consulted: Object.fromEntries(states),
    classpath,
  };
  try {
    await writeCacheFile(file, JSON.stringify(entry));
  } catch {
    // Not kept: the next prompt resolves again.
  }
  return classpath;
}

function isClasspath(value: unknown): value is DeclaredClasspath {
  const classpath = value as DeclaredClasspath | null | undefined;
  return [classpath?.main, classpath?.test, classpath?.missing].every(
    (list) => Array.isArray(list) && list.every((item) => typeof item === 'string'),
  );
}

async function unchanged(consulted: unknown): Promise<boolean> {
  if (typeof consulted !== 'object' || consulted === null) return false;
  const states = await Promise.all(
    Object.entries(consulted).map(async ([consultedPath, state]) => (await fileStamp(consultedPath)) === state),
  );
  return states.every(Boolean);
}
