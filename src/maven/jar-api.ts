/**
 * The public API of a Maven artifact's jar, read from its class files in-process
 * (`jar.ts` + `class-file.ts`): every public or protected class with its visible members,
 * kept per jar path for the process. Also the `@deprecated` text of a member from the
 * artifact's `-sources.jar`, when the local repository holds one.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ACC_PUBLIC, ACC_SYNTHETIC, isVisible, parseClassFile, simpleName, type ClassInfo } from './class-file.js';
import { openJar, type Jar } from './jar.js';

export interface JarApi {
  jar: string;
  /** Visible classes by binary name (`com.acme.Outer$Inner`). */
  classes: Map<string, ClassInfo>;
  /** Binary names by simple name: where a moved class went. */
  bySimpleName: Map<string, string[]>;
  packages: Set<string>;
}

export interface ArtifactCoordinates {
  groupId: string;
  artifactId: string;
  version: string;
}

/** `<repo>/com/acme/lib/1.0/lib-1.0.jar` (with `-sources` for the sources jar). */
export function artifactJarPath(
  localRepository: string,
  coordinates: ArtifactCoordinates,
  classifier?: string,
): string {
  const { groupId, artifactId, version } = coordinates;
  return path.join(
    localRepository,
    ...groupId.split('.'),
    artifactId,
    version,
    `${artifactId}-${version}${classifier ? `-${classifier}` : ''}.jar`,
  );
}

const apis = new Map<string, Promise<JarApi>>();

export function readJarApi(jarPath: string): Promise<JarApi> {
  let api = apis.get(jarPath);
  if (!api) {
    api = openJar(jarPath).then(apiOf);
    apis.set(jarPath, api);
    api.catch(() => apis.delete(jarPath));
  }
  return api;
}

/** The API of the artifact's jar in the local repository, or undefined when the jar is not there. */
export async function readArtifactApi(
  localRepository: string,
  coordinates: ArtifactCoordinates,
): Promise<JarApi | undefined> {
  const jar = artifactJarPath(localRepository, coordinates);
  return existsSync(jar) ? readJarApi(jar) : undefined;
}

function apiOf(jar: Jar): JarApi {
  const classes = new Map<string, ClassInfo>();
  const bySimpleName = new Map<string, string[]>();
  const packages = new Set<string>();
  for (const name of jar.entries.keys()) {
    // Multi-release variants repeat the same API; module-info and package-info are not types.
    if (!name.endsWith('.class') || name.startsWith('META-INF/') || /(^|\/)(module|package)-info\.class$/.test(name))
      continue;
    const bytes = jar.read(name);
    if (!bytes) continue;
    let info: ClassInfo;
    try {
      info = parseClassFile(bytes);
    } catch {
      continue; // one unreadable class does not hide the rest of the API
    }
    // Nested protected classes are public in their own class file; package-private ones are not API.
    if ((info.access & ACC_PUBLIC) === 0 || (info.access & ACC_SYNTHETIC) !== 0) continue;
    info = { ...info, members: info.members.filter((member) => isVisible(member.access)) };
    classes.set(info.name, info);
    const simple = simpleName(info.name);
    bySimpleName.set(simple, [...(bySimpleName.get(simple) ?? []), info.name]);
    packages.add(info.name.slice(0, Math.max(0, info.name.lastIndexOf('.'))));
  }
  return { jar: jar.path, classes, bySimpleName, packages };
}

/**
 * The text after `@deprecated` in the Javadoc right before the declaration of `member` in
 * class `className` (`{@link X#y}` kept), from the sources jar; undefined when there is none.
 */
export async function deprecatedText(
  localRepository: string,
  coordinates: ArtifactCoordinates,
  className: string,
  member: string,
): Promise<string | undefined> {
  const jarPath = artifactJarPath(localRepository, coordinates, 'sources');
  if (!existsSync(jarPath)) return undefined;
  let source: string | undefined;
  try {
    source = (await openJar(jarPath))
      .read(`${className.replace(/\$.*$/, '').replace(/\./g, '/')}.java`)
      ?.toString('utf8');
  } catch {
    return undefined;
  }
  return source ? deprecatedTextIn(source, member) : undefined;
}

/** Pure half of deprecatedText: the `@deprecated` text of the Javadoc block that precedes `member`'s declaration. */
export function deprecatedTextIn(source: string, member: string): string | undefined {
  const blocks = /\/\*\*([\s\S]*?)\*\/\s*((?:@[\w.]+(?:\([^)]*\))?\s*)*)([^;{=]*)/g;
  for (const match of source.matchAll(blocks)) {
    const declaration = match[3] ?? '';
    if (!new RegExp(`(?<![\\w$])${member.replace(/\$/g, '\\$')}\\s*(?:\\(|$|=|;)`).test(declaration.trim())) continue;
    const tag = /@deprecated\s+([\s\S]*?)(?=\n\s*\*\s*@\w|$)/.exec(match[1] ?? '');
    if (!tag) continue;
    return tag[1]!
      .replace(/\n\s*\*\s?/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  }
  return undefined;
}
