/**
 * The reactor as a graph: which modules exist (`<modules>` followed from the root pom,
 * every profile's included) and which need which. Verification uses it to know what a
 * change can affect: the modules it touches and every module that, directly or not,
 * depends on them. Everything else builds from the same inputs as in the user's build.
 *
 * A module needs another when its pom (or a pom it inherits from inside the reactor)
 * names the other's groupId:artifactId as a dependency of any scope, a plugin, a plugin's
 * dependency, an extension or an imported BOM, in any profile; or when the other is its
 * parent. Managed entries (`dependencyManagement` other than imports, `pluginManagement`)
 * are not needs. Versions are ignored: naming the module is enough. A coordinate that
 * holds a property this reader cannot resolve, or a path that climbs out of the module
 * (`../shared/src`, a sibling's files read directly), makes the module depend on
 * everything; a pom it cannot read makes the graph unusable (`problems`), and callers
 * then treat every module as affected.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parsePomProjectOrThrow, pomModules } from './pom.js';

export interface ReactorProject {
  /** Folder relative to the root, forward slashes, '' for the root. */
  dir: string;
  groupId: string;
  artifactId: string;
  packaging: string;
  /** `groupId:artifactId` of the parent, when it has one. */
  parent?: string;
  /** `groupId:artifactId` this module needs from other modules or anywhere (see above). */
  needs: string[];
  /** A coordinate held a property that could not be resolved: assume it needs every module. */
  needsUnknown: boolean;
}

export interface ReactorGraph {
  projects: ReactorProject[];
  /** Poms that could not be read or parsed: the graph is incomplete. */
  problems: string[];
}

interface PomFacts {
  groupId?: string;
  artifactId?: string;
  packaging?: string;
  parent?: { groupId?: string; artifactId?: string };
  properties: Record<string, string>;
  modules: string[];
  /** Coordinates as written (properties unresolved). */
  coordinates: { groupId?: string; artifactId?: string }[];
  /** Some value names a path above the module (`../x`): it may read another module's files. */
  readsOutside?: boolean;
}

function asArray(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

type XmlNode = Record<string, unknown>;

/** Every dependency, plugin and extension element that is a real need (not a managed entry). */
function collectCoordinates(
  node: unknown,
  managed: 'dependencies' | 'plugins' | undefined,
  out: PomFacts['coordinates'],
): void {
  if (Array.isArray(node)) {
    for (const item of node) collectCoordinates(item, managed, out);
    return;
  }
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node as XmlNode)) {
    if (key === 'dependencyManagement') {
      collectCoordinates(value, 'dependencies', out);
    } else if (key === 'pluginManagement') {
      collectCoordinates(value, 'plugins', out);
    } else if (key === 'dependency' || key === 'plugin' || key === 'extension') {
      for (const element of asArray(value)) {
        if (!element || typeof element !== 'object') continue;
        const e = element as XmlNode;
        const isImport = text(e.scope) === 'import';
        const skip =
          (key === 'dependency' && managed === 'dependencies' && !isImport) ||
          (key === 'plugin' && managed === 'plugins');
        if (!skip)
          out.push({
            ...(text(e.groupId) ? { groupId: text(e.groupId)! } : {}),
            ...(text(e.artifactId) ? { artifactId: text(e.artifactId)! } : {}),
          });
        // A managed plugin's own <dependencies> are still managed; an unmanaged one's are needs.
        collectCoordinates(e.dependencies, key === 'plugin' && managed === 'plugins' ? 'dependencies' : undefined, out);
      }
    } else if (typeof value === 'object') {
      collectCoordinates(value, managed, out);
    }
  }
}

/** Pure: the facts of one pom. Throws on XML without a <project>. */
export function readPomFacts(xml: string): PomFacts {
  // The one POM reader (maven/pom.ts): no DOCTYPE entities, the predefined ones decoded.
  const project: XmlNode = parsePomProjectOrThrow(xml);
  const parent = project.parent as XmlNode | undefined;
  const properties: Record<string, string> = {};
  const props = project.properties;
  if (props && typeof props === 'object')
    for (const [k, v] of Object.entries(props as XmlNode)) if (typeof v === 'string') properties[k] = v.trim();
  const modules = pomModules(project);
  const coordinates: PomFacts['coordinates'] = [];
  const { parent: _parent, modules: _modules, ...rest } = project;
  collectCoordinates(rest, undefined, coordinates);
  return {
    ...(text(project.groupId) ? { groupId: text(project.groupId)! } : {}),
    ...(text(project.artifactId) ? { artifactId: text(project.artifactId)! } : {}),
    ...(text(project.packaging) ? { packaging: text(project.packaging)! } : {}),
    ...(parent
      ? {
          parent: {
            ...(text(parent.groupId) ? { groupId: text(parent.groupId)! } : {}),
            ...(text(parent.artifactId) ? { artifactId: text(parent.artifactId)! } : {}),
          },
        }
      : {}),
    properties,
    modules,
    coordinates,
    ...(climbsOut(rest) ? { readsOutside: true } : {}),
  };
}

/** Any text value (profiles' module lists aside) that goes up a folder. */
function climbsOut(node: unknown, key = ''): boolean {
  if (typeof node === 'string') return /(^|[\\/{}]|\s)\.\.[\\/]/.test(node) || node.trim() === '..';
  if (Array.isArray(node)) return node.some((item) => climbsOut(item, key));
  if (!node || typeof node !== 'object') return false;
  return Object.entries(node as XmlNode).some(([k, v]) => k !== 'module' && climbsOut(v, k));
}

/**
 * `${name}` resolved against the project's own coordinates and the properties it inherits; undefined when it cannot be.
 */
function resolve(
  value: string | undefined,
  own: { groupId: string; artifactId: string },
  properties: Record<string, string>,
  parentGroup: string | undefined,
  depth = 0,
): string | undefined {
  if (value === undefined) return undefined;
  if (!value.includes('${')) return value;
  if (depth > 8) return undefined;
  let unresolved = false;
  const replaced = value.replace(/\$\{([^}]+)\}/g, (_, name: string) => {
    const known: Record<string, string | undefined> = {
      'project.groupId': own.groupId,
      'pom.groupId': own.groupId,
      groupId: own.groupId,
      'project.artifactId': own.artifactId,
      'project.parent.groupId': parentGroup,
      'parent.groupId': parentGroup,
    };
    const found = known[name] ?? properties[name];
    if (found === undefined) unresolved = true;
    return found ?? '';
  });
  if (unresolved) return undefined;
  return replaced.includes('${') ? resolve(replaced, own, properties, parentGroup, depth + 1) : replaced;
}

/** Reads the reactor from the root pom. Never throws: unreadable poms become problems. */
export async function readReactor(root: string): Promise<ReactorGraph> {
  const problems: string[] = [];
  const found: { dir: string; facts: PomFacts }[] = [];
  const visited = new Set<string>();
  const visit = async (entry: string, depth: number): Promise<void> => {
    if (visited.has(entry) || depth > 32) return;
    visited.add(entry);
    const pomFile = entry.endsWith('.xml') ? entry : entry === '' ? 'pom.xml' : `${entry}/pom.xml`;
    const dir = entry.endsWith('.xml') ? path.posix.dirname(entry).replace(/^\.$/, '') : entry;
    let facts: PomFacts;
    try {
      facts = readPomFacts(await readFile(path.join(root, pomFile), 'utf8'));
    } catch (error) {
      problems.push(`cannot read ${pomFile}: ${(error as Error).message.split('\n')[0]}`);
      return;
    }
    found.push({ dir, facts });
    for (const m of facts.modules) {
      const child = path.posix
        .normalize(dir === '' ? m.replace(/\\/g, '/') : `${dir}/${m.replace(/\\/g, '/')}`)
        .replace(/\/$/, '');
      if (child.startsWith('..') || child.includes('${')) {
        problems.push(`module ${m} of ${pomFile} is outside the project or named by a property`);
        continue;
      }
      await visit(child === '.' ? '' : child, depth + 1);
    }
  };
  await visit('', 0);
  return { projects: toProjects(found, problems), problems };
}

/** Pure: projects from the poms' facts, with inherited groupIds, properties and needs resolved. */
export function toProjects(found: { dir: string; facts: PomFacts }[], problems: string[] = []): ReactorProject[] {
  const key = (groupId: string | undefined, artifactId: string | undefined) => `${groupId ?? ''}:${artifactId ?? ''}`;
  // Parents first: groupIds and properties flow down from them.
  const byKey = new Map<string, { dir: string; facts: PomFacts; groupId?: string }>();
  const groupOf = (facts: PomFacts) => facts.groupId ?? facts.parent?.groupId;
  for (const entry of found) byKey.set(key(groupOf(entry.facts), entry.facts.artifactId), entry);
  const ancestors = (facts: PomFacts): PomFacts[] => {
    const chain: PomFacts[] = [];
    let current = facts.parent ? byKey.get(key(facts.parent.groupId, facts.parent.artifactId)) : undefined;
    while (current && chain.length < 32 && !chain.includes(current.facts)) {
      chain.push(current.facts);
      current = current.facts.parent
        ? byKey.get(key(current.facts.parent.groupId, current.facts.parent.artifactId))
        : undefined;
    }
    return chain;
  };

  return found.map(({ dir, facts }) => {
    const chain = ancestors(facts);
    const properties = Object.assign({}, ...[...chain].reverse().map((p) => p.properties), facts.properties) as Record<
      string,
      string
    >;
    const own = { groupId: groupOf(facts) ?? '', artifactId: facts.artifactId ?? '' };
    if (!facts.artifactId) problems.push(`the pom in ${dir || '.'} has no artifactId`);
    const parentGroup = facts.parent?.groupId;
    let needsUnknown = [facts, ...chain].some((p) => p.readsOutside === true);
    const needs = new Set<string>();
    // Dependencies and plugins declared (not managed) by reactor parents are inherited.
    for (const source of [facts, ...chain]) {
      for (const c of source.coordinates) {
        const groupId = resolve(c.groupId ?? 'org.apache.maven.plugins', own, properties, parentGroup);
        const artifactId = resolve(c.artifactId, own, properties, parentGroup);
        if (groupId === undefined || artifactId === undefined) needsUnknown = true;
        else needs.add(`${groupId}:${artifactId}`);
      }
    }
    return {
      dir,
      groupId: own.groupId,
      artifactId: own.artifactId,
      packaging: facts.packaging ?? 'jar',
      ...(facts.parent ? { parent: key(facts.parent.groupId, facts.parent.artifactId) } : {}),
      needs: [...needs].sort(),
      needsUnknown,
    };
  });
}

/** The module folder that holds a project-relative file: the deepest module folder above it. */
export function moduleOfFile(graph: ReactorGraph, file: string): ReactorProject | undefined {
  const normalized = file.replace(/\\/g, '/');
  let best: ReactorProject | undefined;
  for (const project of graph.projects) {
    const inside = project.dir === '' || normalized === project.dir || normalized.startsWith(`${project.dir}/`);
    if (inside && (!best || project.dir.length > best.dir.length)) best = project;
  }
  return best;
}

/** `dirs` and every module that needs any of them, directly or through others (folders). */
export function withDependents(graph: ReactorGraph, dirs: Iterable<string>): Set<string> {
  const affected = new Set(dirs);
  const coordinate = (p: ReactorProject) => `${p.groupId}:${p.artifactId}`;
  for (let changed = true; changed;) {
    changed = false;
    const affectedKeys = new Set(graph.projects.filter((p) => affected.has(p.dir)).map(coordinate));
    for (const project of graph.projects) {
      if (affected.has(project.dir)) continue;
      const needsAffected =
        project.needs.some((need) => affectedKeys.has(need)) ||
        (project.parent !== undefined && affectedKeys.has(project.parent));
      if (needsAffected || (project.needsUnknown && affected.size > 0)) {
        affected.add(project.dir);
        changed = true;
      }
    }
  }
  return affected;
}

/** The modules `dir` needs (dependencies and parent), directly or through others, as folders; not `dir` itself. */
export function withDependencies(graph: ReactorGraph, dir: string): Set<string> {
  const byCoordinate = new Map(graph.projects.map((p) => [`${p.groupId}:${p.artifactId}`, p]));
  const found = new Set<string>();
  const visit = (project: ReactorProject) => {
    const next = project.needsUnknown
      ? graph.projects
      : [...project.needs, ...(project.parent ? [project.parent] : [])].flatMap((key) => byCoordinate.get(key) ?? []);
    for (const other of next) {
      if (other.dir === dir || found.has(other.dir)) continue;
      found.add(other.dir);
      visit(other);
    }
  };
  const start = graph.projects.find((p) => p.dir === dir);
  if (start) visit(start);
  return found;
}
