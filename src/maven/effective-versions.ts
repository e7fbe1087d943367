/**
 * The version Maven would use for each dependency a POM declares: properties inherited
 * from parents and overridden by the child, `dependencyManagement` of the parents, of
 * imported BOMs (`<scope>import</scope>`) and of the POM itself, and an explicit
 * `<version>` last. Reading goes through pom.ts; where a parent or BOM comes from is a
 * port (`PomSource`), so the same code reads the working tree, a git revision or the
 * local repository. Pure apart from the port.
 */
import { childNode, childText, isNode, parsePomProject, pomProperties, type PomNode } from './pom.js';

export interface PomSource {
  /** The text of a parent found by `<relativePath>` (a path relative to the child POM's folder), when there is one. */
  relative(fromPom: string, relativePath: string): Promise<{ path: string; text: string } | undefined>;
  /** The text of `groupId:artifactId:version` as a POM in the local repository, when there is one. */
  repository(groupId: string, artifactId: string, version: string): Promise<string | undefined>;
}

export interface EffectiveDependency {
  groupId: string;
  artifactId: string;
  version: string;
  scope: string;
  /**
   * Where the version came from: `explicit`, `property ${name}`, `dependencyManagement`, `bom g:a:v`, `parent g:a:v`.
   */
  source: string;
}

interface Model {
  properties: Map<string, string>;
  managed: Map<string, { version: string; source: string }>;
}

const MAX_DEPTH = 8;
const key = (groupId: string, artifactId: string) => `${groupId}:${artifactId}`;

function listOf(node: PomNode | undefined, name: string): PomNode[] {
  const value = node?.[name];
  return (Array.isArray(value) ? value : [value]).filter(isNode);
}

function interpolate(text: string, properties: Map<string, string>): string {
  let out = text;
  for (let depth = 0; depth < 8 && out.includes('${'); depth++)
    out = out.replace(/\$\{([^}]+)\}/g, (whole, name: string) => properties.get(name) ?? whole);
  return out;
}

/** Properties and managed versions of a POM with everything it inherits and imports. */
async function modelOf(text: string, pomPath: string, source: PomSource, depth: number, label: string): Promise<Model> {
  const project = parsePomProject(text);
  if (!project || depth > MAX_DEPTH) return { properties: new Map(), managed: new Map() };
  const parentNode = childNode(project, 'parent');
  let inherited: Model = { properties: new Map(), managed: new Map() };
  if (parentNode) {
    const [groupId, artifactId, version] = ['groupId', 'artifactId', 'version'].map((field) =>
      childText(parentNode, field),
    );
    const relativePath = childText(parentNode, 'relativePath') ?? '../pom.xml';
    const local = relativePath === '' ? undefined : await source.relative(pomPath, relativePath);
    const localProject = local ? parsePomProject(local.text) : undefined;
    // A relative parent counts only when it is the parent named (as Maven checks).
    const matches = localProject && childText(localProject, 'artifactId') === artifactId;
    if (local && matches)
      inherited = await modelOf(
        local.text,
        local.path,
        source,
        depth + 1,
        `parent ${groupId}:${artifactId}:${version}`,
      );
    else if (groupId && artifactId && version) {
      const text = await source.repository(groupId, artifactId, version);
      if (text) inherited = await modelOf(text, '', source, depth + 1, `parent ${groupId}:${artifactId}:${version}`);
    }
  }
  const properties = new Map(inherited.properties);
  for (const [name, value] of pomProperties(project)) properties.set(name, value);
  for (const field of ['groupId', 'artifactId', 'version']) {
    const value =
      childText(project, field) ?? (field === 'artifactId' || !parentNode ? undefined : childText(parentNode, field));
    if (value !== undefined) {
      properties.set(`project.${field}`, value);
      properties.set(`pom.${field}`, value);
    }
  }
  if (parentNode)
    for (const field of ['groupId', 'artifactId', 'version']) {
      const value = childText(parentNode, field);
      if (value !== undefined) properties.set(`project.parent.${field}`, value);
    }
  const managed = new Map(inherited.managed);
  const own = listOf(childNode(project, 'dependencyManagement', 'dependencies'), 'dependency');
  // Imported BOMs first, the POM's own entries after: a version written here wins over a BOM's.
  for (const dependency of own) {
    if (childText(dependency, 'scope') !== 'import') continue;
    const [groupId, artifactId, version] = ['groupId', 'artifactId', 'version'].map((field) =>
      interpolate(childText(dependency, field) ?? '', properties),
    );
    const bom = groupId && artifactId && version ? await source.repository(groupId, artifactId, version) : undefined;
    if (!bom) continue;
    const imported = await modelOf(bom, '', source, depth + 1, `bom ${groupId}:${artifactId}:${version}`);
    for (const [coordinates, entry] of imported.managed)
      if (!managed.has(coordinates) || managed.get(coordinates)!.source.startsWith('parent'))
        managed.set(coordinates, entry);
  }
  for (const dependency of own) {
    if (childText(dependency, 'scope') === 'import') continue;
    const groupId = interpolate(childText(dependency, 'groupId') ?? '', properties);
    const artifactId = interpolate(childText(dependency, 'artifactId') ?? '', properties);
    const version = interpolate(childText(dependency, 'version') ?? '', properties);
    if (groupId && artifactId && version && !version.includes('${'))
      managed.set(key(groupId, artifactId), { version, source: depth === 0 ? 'dependencyManagement' : label });
  }
  return { properties, managed };
}

/** Every direct dependency of the POM with the version Maven would resolve for it (those with none are left out). */
export async function effectiveDependencies(
  text: string,
  pomPath: string,
  source: PomSource,
): Promise<EffectiveDependency[]> {
  const project = parsePomProject(text);
  if (!project) return [];
  const model = await modelOf(text, pomPath, source, 0, 'project');
  const out: EffectiveDependency[] = [];
  const sections = [
    childNode(project, 'dependencies'),
    ...listOf(childNode(project, 'profiles'), 'profile').map((profile) => childNode(profile, 'dependencies')),
  ];
  for (const section of sections) {
    for (const dependency of listOf(section, 'dependency')) {
      const groupId = interpolate(childText(dependency, 'groupId') ?? '', model.properties);
      const artifactId = interpolate(childText(dependency, 'artifactId') ?? '', model.properties);
      if (!groupId || !artifactId) continue;
      const written = childText(dependency, 'version');
      const scope = childText(dependency, 'scope') || 'compile';
      if (written !== undefined) {
        const version = interpolate(written, model.properties);
        if (version.includes('${')) continue;
        const property = /^\$\{([^}]+)\}$/.exec(written.trim());
        out.push({ groupId, artifactId, version, scope, source: property ? `property ${property[1]}` : 'explicit' });
        continue;
      }
      const managed = model.managed.get(key(groupId, artifactId));
      if (managed) out.push({ groupId, artifactId, version: managed.version, scope, source: managed.source });
    }
  }
  return out;
}

/** A dependency whose effective version differs between two readings of the same POM. */
export interface VersionChange {
  groupId: string;
  artifactId: string;
  from: string;
  to: string;
  /** How the new version is set (see EffectiveDependency.source). */
  source: string;
  /** How the old version was set. */
  fromSource?: string;
}

export function versionChanges(
  before: readonly EffectiveDependency[],
  after: readonly EffectiveDependency[],
): VersionChange[] {
  const old = new Map(before.map((dependency) => [key(dependency.groupId, dependency.artifactId), dependency]));
  const changes: VersionChange[] = [];
  for (const dependency of after) {
    const earlier = old.get(key(dependency.groupId, dependency.artifactId));
    const from = earlier?.version;
    if (from === undefined || from === dependency.version) continue;
    if (changes.some((change) => change.groupId === dependency.groupId && change.artifactId === dependency.artifactId))
      continue;
    changes.push({
      groupId: dependency.groupId,
      artifactId: dependency.artifactId,
      from,
      to: dependency.version,
      source: dependency.source,
      fromSource: earlier!.source,
    });
  }
  return changes;
}
