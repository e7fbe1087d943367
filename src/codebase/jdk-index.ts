/**
 * Name -> packages index of the JDK's public API, built once per JDK version from the
 * runtime image (`jimage list`) and the modules' descriptors (`javap jrt:/.../module-info.class`),
 * then cached as JSON so later runs read one file.
 */
import { existsSync } from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { defaultCacheDir } from '../shared/cache-dir.js';
import { searchPath } from '../shared/path-search.js';
import { writeCacheFile } from './cache-file.js';

export interface JdkIndex {
  javaHome: string;
  javaVersion: string;
  /** Simple class name -> fully qualified names, sorted. */
  classes: Record<string, string[]>;
}

export { defaultCacheDir };

/** The Java home to index: the explicit one, else JAVA_HOME, else the one behind `java` on PATH. */
export async function resolveJavaHome(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const chosen = explicit ?? env.JAVA_HOME;
  if (chosen) {
    if (!existsSync(path.join(chosen, 'lib', 'modules')))
      throw new Error(`${chosen} is not a JDK home: lib/modules is missing`);
    return chosen;
  }
  const java = searchPath('java', env);
  if (!java) throw new Error('no JDK found: set JAVA_HOME or put java on PATH');
  const home = path.dirname(path.dirname(await realpath(java)));
  if (!existsSync(path.join(home, 'lib', 'modules')))
    throw new Error(`${home} (from java on PATH) has no lib/modules runtime image`);
  return home;
}

export async function readJavaVersion(javaHome: string): Promise<string> {
  const release = await readFile(path.join(javaHome, 'release'), 'utf8').catch(() => '');
  const match = /^JAVA_VERSION="?([^"\n]+)"?/m.exec(release);
  if (!match?.[1]) throw new Error(`cannot tell the Java version of ${javaHome}: no JAVA_VERSION in its release file`);
  return match[1];
}

function isPublicApiPackage(name: string): boolean {
  return !name.split('.').includes('internal') && !name.startsWith('sun.') && !name.startsWith('jdk.internal');
}

/** Unqualified `exports` per module from javap's rendering of module descriptors. */
export function parseModuleExports(javapOutput: string): Map<string, Set<string>> {
  const exports = new Map<string, Set<string>>();
  let current: Set<string> | undefined;
  for (const line of javapOutput.split('\n')) {
    const header = /^(?:open\s+)?module\s+([\w.]+)(?:@\S+)?\s*\{/.exec(line.trim());
    if (header?.[1]) {
      current = new Set();
      exports.set(header[1], current);
      continue;
    }
    const exported = /^exports\s+([\w.]+)\s*;$/.exec(line.trim());
    if (exported?.[1] && current) current.add(exported[1]);
  }
  return exports;
}

/** Module -> class file paths (`java/util/List.class`) from `jimage list`. */
export function parseJimageList(listing: string): Map<string, string[]> {
  const modules = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of listing.split('\n')) {
    const header = /^Module:\s+(\S+)/.exec(line);
    if (header?.[1]) {
      current = [];
      modules.set(header[1], current);
    } else if (current && line.trim().endsWith('.class')) {
      current.push(line.trim());
    }
  }
  return modules;
}

/** Exported, top-level classes of the `java.*` and `jdk.*` modules, by simple name. */
export function indexPublicClasses(
  modules: Map<string, string[]>,
  exports: Map<string, Set<string>>,
): Record<string, string[]> {
  const byName = new Map<string, Set<string>>();
  for (const [module, files] of modules) {
    if (!module.startsWith('java.') && !module.startsWith('jdk.')) continue;
    const exported = exports.get(module);
    if (!exported) continue;
    for (const file of files) {
      const className = file.slice(0, -'.class'.length);
      const simpleName = className.slice(className.lastIndexOf('/') + 1);
      if (simpleName.includes('$') || simpleName === 'module-info' || simpleName === 'package-info') continue;
      const packageName = className.slice(0, className.lastIndexOf('/')).replace(/\//g, '.');
      if (!exported.has(packageName) || !isPublicApiPackage(packageName)) continue;
      let names = byName.get(simpleName);
      if (!names) byName.set(simpleName, (names = new Set()));
      names.add(`${packageName}.${simpleName}`);
    }
  }
  return Object.fromEntries(
    [...byName].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, set]) => [name, [...set].sort()]),
  );
}

function tool(javaHome: string, name: string): string {
  const bundled = path.join(javaHome, 'bin', name);
  return existsSync(bundled) ? bundled : name;
}

async function buildJdkIndex(javaHome: string, javaVersion: string): Promise<JdkIndex> {
  const listing = await execa(tool(javaHome, 'jimage'), ['list', path.join(javaHome, 'lib', 'modules')]);
  const modules = parseJimageList(listing.stdout);
  const descriptors = [...modules.keys()].map((module) => `jrt:/${module}/module-info.class`);
  const javap = await execa(tool(javaHome, 'javap'), descriptors, { env: { JAVA_HOME: javaHome } });
  return { javaHome, javaVersion, classes: indexPublicClasses(modules, parseModuleExports(javap.stdout)) };
}

const loaded = new Map<string, Promise<JdkIndex>>();

/** The cached index for `javaHome`, building and storing it on first use. */
export function loadJdkIndex(javaHome: string, cacheDir: string = defaultCacheDir()): Promise<JdkIndex> {
  const key = `${javaHome}\0${cacheDir}`;
  let index = loaded.get(key);
  if (!index) {
    index = loadOrBuild(javaHome, cacheDir);
    loaded.set(key, index);
    index.catch(() => loaded.delete(key));
  }
  return index;
}

async function loadOrBuild(javaHome: string, cacheDir: string): Promise<JdkIndex> {
  const javaVersion = await readJavaVersion(javaHome);
  const cacheFile = path.join(cacheDir, `jdk-index-${javaVersion.replace(/[^\w.-]/g, '_')}.json`);
  try {
    const cached = JSON.parse(await readFile(cacheFile, 'utf8')) as JdkIndex;
    if (cached.javaVersion === javaVersion && cached.classes && typeof cached.classes === 'object') return cached;
  } catch {
    // Missing or unreadable cache: rebuild below.
  }
  const index = await buildJdkIndex(javaHome, javaVersion);
  await writeCacheFile(cacheFile, JSON.stringify(index));
  return index;
}
