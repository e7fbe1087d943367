/** The default TypeIndex: the JDK image plus the jars each module compiles against. */
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { defaultLocalRepository, keptDeclaredClasspath, type DeclaredClasspath } from './declared-classpath.js';
import { readLibraryTypes } from './class-members.js';
import { jarClasses } from './jar-index.js';
import { defaultCacheDir, loadJdkIndex, resolveJavaHome } from './jdk-index.js';
import type { SourceScope, TypeIndex } from './types.js';

export interface TypeIndexOptions {
  /** Absolute project root; files passed to `classpathClasses` are relative to it. */
  projectRoot: string;
  javaHome?: string;
  /** When given, used for every file instead of reading poms. */
  classpath?: string[];
  testClasspath?: string[];
  localRepository?: string;
  cacheDir?: string;
  env?: NodeJS.ProcessEnv;
}

function nearestPom(projectRoot: string, file: string): string | undefined {
  let folder = path.dirname(path.join(projectRoot, file));
  while (folder.startsWith(projectRoot)) {
    const pom = path.join(folder, 'pom.xml');
    if (existsSync(pom)) return pom;
    if (folder === projectRoot) break;
    folder = path.dirname(folder);
  }
  return undefined;
}

export function createTypeIndex(options: TypeIndexOptions): TypeIndex {
  const cacheDir = options.cacheDir ?? defaultCacheDir(options.env);
  const localRepository =
    options.localRepository ??
    defaultLocalRepository({ projectRoot: options.projectRoot, ...(options.env ? { env: options.env } : {}) });
  const classpaths = new Map<string, Promise<DeclaredClasspath>>();
  let jdk: ReturnType<typeof loadJdkIndex> | undefined;

  const jarsFor = async (file: string, scope: SourceScope): Promise<string[]> => {
    if (options.classpath) return scope === 'test' ? (options.testClasspath ?? options.classpath) : options.classpath;
    const pom = nearestPom(options.projectRoot, file);
    if (!pom) return [];
    let declared = classpaths.get(pom);
    if (!declared) {
      declared = readFile(pom, 'utf8').then((xml) => keptDeclaredClasspath(pom, xml, localRepository, cacheDir));
      classpaths.set(pom, declared);
    }
    const resolved = await declared;
    return scope === 'test' ? resolved.test : resolved.main;
  };

  return {
    async jdkClasses(simpleName) {
      jdk ??= resolveJavaHome(options.javaHome, options.env).then((home) => loadJdkIndex(home, cacheDir));
      const { classes } = await jdk;
      return (Object.hasOwn(classes, simpleName) ? classes[simpleName] : undefined) ?? [];
    },
    async classpathClasses(simpleName, file, scope) {
      const matches = new Set<string>();
      for (const jar of await jarsFor(file, scope)) {
        for (const name of await jarClasses(jar, cacheDir)) {
          if (name.endsWith(`.${simpleName}`) || name === simpleName) matches.add(name);
        }
      }
      return [...matches].sort();
    },
    async typeMembers(binaryName, file, scope) {
      const jars = await jarsFor(file, scope);
      return (await readLibraryTypes([binaryName], jars, options.javaHome, cacheDir)).get(binaryName);
    },
  };
}
