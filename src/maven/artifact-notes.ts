/**
 * What an artifact says of itself besides its class files: the Javadoc of one member in its
 * `-sources.jar` (its first sentence and `@deprecated` text), and the part of a changelog it
 * ships (`CHANGELOG.md`, `CHANGES.txt`, `RELEASE-NOTES`, `HISTORY`, `NEWS`, at the root or
 * under `META-INF/`, in the sources jar or the jar) between two versions. Read from the local
 * repository only; each reader gives undefined when there is nothing to read.
 */
import { existsSync } from 'node:fs';
import { artifactJarPath, deprecatedTextIn, type ArtifactCoordinates } from './jar-api.js';
import { openJar } from './jar.js';

const CHANGELOG = /^(?:META-INF\/)?(?:CHANGELOG|CHANGES|HISTORY|RELEASE[-_]?NOTES|NEWS)(?:\.(?:md|txt|adoc|rst))?$/i;
const MAX_CHANGELOG_LINES = 24;

async function entriesOf(localRepository: string, coordinates: ArtifactCoordinates, classifier?: string) {
  const file = artifactJarPath(localRepository, coordinates, classifier);
  if (!existsSync(file)) return undefined;
  try {
    return await openJar(file);
  } catch {
    return undefined;
  }
}

/** The source of `className` (binary name) in the artifact's sources jar. */
export async function classSource(
  localRepository: string,
  coordinates: ArtifactCoordinates,
  className: string,
): Promise<string | undefined> {
  const jar = await entriesOf(localRepository, coordinates, 'sources');
  return jar?.read(`${className.replace(/\$.*$/, '').replace(/\./g, '/')}.java`)?.toString('utf8');
}

/** The Javadoc of `member`'s declaration in `source`, as one line, without its block tags; undefined when none. */
export function javadocIn(source: string, member: string): string | undefined {
  const blocks = /\/\*\*([\s\S]*?)\*\/\s*((?:@[\w.]+(?:\([^)]*\))?\s*)*)([^;{=]*)/g;
  for (const match of source.matchAll(blocks)) {
    const declaration = (match[3] ?? '').trim();
    if (!new RegExp(`(?<![\\w$])${member.replace(/\$/g, '\\$')}\\s*(?:\\(|$|=|;)`).test(declaration)) continue;
    const text = (match[1] ?? '')
      .split(/\n\s*\*\s*@\w/)[0]!
      .replace(/\n\s*\*\s?/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return text === '' ? undefined : text;
  }
  return undefined;
}

/** `@deprecated` text and Javadoc of `member` in the class's source (undefined fields when absent). */
export function memberNotesIn(source: string, member: string): { javadoc?: string; deprecated?: string } {
  const javadoc = javadocIn(source, member);
  const deprecated = deprecatedTextIn(source, member);
  return { ...(javadoc ? { javadoc } : {}), ...(deprecated ? { deprecated } : {}) };
}

/** Numeric parts of a version for ordering: `33.0.0-jre` -> [33, 0, 0]. */
function versionParts(version: string): number[] {
  return (/^\d+(?:\.\d+)*/.exec(version)?.[0] ?? '').split('.').filter(Boolean).map(Number);
}

export function compareVersions(a: string, b: string): number {
  const [x, y] = [versionParts(a), versionParts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The version a changelog heading names (`## [2.0] - 2024-01-01`, `Version 2.0`, `v2.0:`), if any. */
function headingVersion(line: string): string | undefined {
  if (!/^(?:#{1,4}\s|=+\s|\*\*|v?\d|version\b|release\b)/i.test(line.trim())) return undefined;
  return /(?<![\w.])v?(\d+(?:\.\d+)+(?:[-.][\w.]+)?|\d+)(?![\w.])/i.exec(line)?.[1];
}

/** Pure half of changelogBetween: the sections of `text` for versions after `from`, up to and including `to`. */
export function changelogSectionsBetween(text: string, from: string, to: string): string[] {
  const out: string[] = [];
  let keep = false;
  for (const line of text.split('\n')) {
    const version = headingVersion(line);
    if (version !== undefined && versionParts(version).length > 0)
      keep = compareVersions(version, from) > 0 && compareVersions(version, to) <= 0;
    if (keep && line.trim() !== '') out.push(line.trimEnd());
    if (out.length >= MAX_CHANGELOG_LINES) break;
  }
  return out;
}

/** The changelog lines the new version ships for the versions after `from` (its sources jar first, then the jar). */
export async function changelogBetween(
  localRepository: string,
  coordinates: ArtifactCoordinates,
  from: string,
): Promise<{ file: string; lines: string[] } | undefined> {
  for (const classifier of ['sources', undefined]) {
    const jar = await entriesOf(localRepository, coordinates, classifier);
    const name = jar ? [...jar.entries.keys()].find((entry) => CHANGELOG.test(entry)) : undefined;
    const text = name ? jar!.read(name)?.toString('utf8') : undefined;
    if (!text) continue;
    const lines = changelogSectionsBetween(text, from, coordinates.version);
    if (lines.length > 0) return { file: name!, lines };
  }
  return undefined;
}
