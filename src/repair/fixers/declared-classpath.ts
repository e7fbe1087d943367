/**
 * The jars a module compiles against, worked out from its pom and the poms in the local
 * repository. It stands in for `mvn dependency:build-classpath`, which cannot run offline
 * on this Maven (its own plugin dependencies are not in ~/.m2). Versions that only a
 * parent or BOM manages are taken from the local repository when exactly one is present.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { parsePomProject, pomDependencies, type PomDependency } from '../../maven/pom.js';
import { resolveMavenUserState } from '../../maven/settings.js';

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
export function defaultLocalRepository(options: { env?: NodeJS.ProcessEnv; projectRoot?: string; mavenArgs?: readonly string[] } = {}): string {
  const projectRoot = options.projectRoot ?? process.cwd();
  return resolveMavenUserState({ args: options.mavenArgs ?? [], env: options.env ?? process.env, cwd: projectRoot, projectRoot }).localRepository;
}

async function pickVersion(localRepository: string, dependency: DeclaredDependency): Promise<string | undefined> {
  if (dependency.version) return dependency.version;
  const folder = path.join(localRepository, ...dependency.groupId.split('.'), dependency.artifactId);
  const versions = await readdir(folder).catch(() => [] as string[]);
  return versions.length === 1 ? versions[0] : undefined;
}

/** Transitive jars of a pom's dependencies: compile and provided for main, plus test for test. */
export async function resolveDeclaredClasspath(pomXml: string, localRepository: string = defaultLocalRepository()): Promise<DeclaredClasspath> {
  const main = new Set<string>();
  const test = new Set<string>();
  const missing: string[] = [];
  const seen = new Set<string>();

  const visit = async (dependency: DeclaredDependency, targets: Set<string>[], depth: number): Promise<void> => {
    const key = `${dependency.groupId}:${dependency.artifactId}`;
    if (seen.has(key) || dependency.type !== 'jar' || depth > 8) return;
    seen.add(key);
    const version = await pickVersion(localRepository, dependency);
    const folder = path.join(localRepository, ...dependency.groupId.split('.'), dependency.artifactId, version ?? '');
    const jar = path.join(folder, `${dependency.artifactId}-${version}.jar`);
    if (!version || !existsSync(jar)) {
      missing.push(`${key}:${version ?? '?'}`);
      return;
    }
    for (const target of targets) target.add(jar);
    const pom = await readFile(path.join(folder, `${dependency.artifactId}-${version}.pom`), 'utf8').catch(() => undefined);
    if (!pom) return;
    for (const transitive of parseDeclaredDependencies(pom)) {
      // Only compile-scope transitive dependencies reach a compile classpath.
      if (transitive.scope === 'compile' && !transitive.optional) await visit(transitive, targets, depth + 1);
    }
  };

  const direct = parseDeclaredDependencies(pomXml);
  for (const dependency of direct.filter((d) => ['compile', 'provided', 'system'].includes(d.scope))) await visit(dependency, [main, test], 0);
  for (const dependency of direct.filter((d) => d.scope === 'test')) await visit(dependency, [test], 0);
  return { main: [...main], test: [...test], missing };
}
