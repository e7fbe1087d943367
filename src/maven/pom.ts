/**
 * The one POM reader: a pom.xml parsed as XML (fast-xml-parser, entities off), never
 * matched with regular expressions. Comments, CDATA, attributes, nested `<dependencies>`
 * in a plugin and `<exclusions>` before a dependency's own coordinates all read as Maven
 * reads them. Doctor's plugin pins, the quick-fixes' declared classpath, the Java release
 * and the patch classifier's POM facts all start here.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export type PomNode = Record<string, unknown>;

/** Elements that repeat in a POM and must always be read as lists. */
const LISTS = new Set(['dependency', 'plugin', 'extension', 'profile', 'exclusion', 'execution']);

/** XML's five predefined entities and character references: all a POM's text needs. */
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the predefined entities and character references, and nothing else (no DOCTYPE entities). */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (whole, name: string) => {
    if (!name.startsWith('#')) return PREDEFINED[name] ?? whole;
    const code = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** How Maven's XML files (POMs, settings.xml) are read: element text only, as written, trimmed. */
export const MAVEN_XML_OPTIONS = {
  ignoreAttributes: true,
  // No DOCTYPE entities: expanding them is how XML bombs work. The predefined ones are
  // decoded instead (`<name>Tom &amp; Jerry</name>` is the name Maven prints).
  processEntities: false,
  parseTagValue: false,
  trimValues: true,
  tagValueProcessor: (_name: string, value: string) => decodeEntities(value),
} as const;

const parser = new XMLParser({ ...MAVEN_XML_OPTIONS, isArray: (name) => LISTS.has(name) });

export function isNode(value: unknown): value is PomNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `<project>` element of well-formed XML, or undefined (not XML, or another root). */
export function parsePomProject(text: string): PomNode | undefined {
  return text.includes('<project') ? rootElement(parser, text, 'project') : undefined;
}

/** The root element `name` of well-formed XML read by `reader`, or undefined (not XML, or another root). */
export function rootElement(reader: XMLParser, text: string, name: string): PomNode | undefined {
  if (XMLValidator.validate(text) !== true) return undefined;
  try {
    const doc: unknown = reader.parse(text);
    const root = isNode(doc) ? doc[name] : undefined;
    return isNode(root) ? root : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `<project>` element, or the parser's own error (`Closing Tag is not closed.`) for a
 * reader that reports why a pom could not be read rather than skipping it.
 */
export function parsePomProjectOrThrow(text: string): PomNode {
  const doc: unknown = parser.parse(text);
  const project = isNode(doc) ? doc.project : undefined;
  if (!isNode(project)) throw new Error('no <project> element');
  return project;
}

/** A child element's text (fast-xml-parser gives strings for text; an element is no text). */
export function childText(node: PomNode, name: string): string | undefined {
  const value = node[name];
  return typeof value === 'string' ? value : undefined;
}

/** `<a><b>` path down from a node, each step an element (lists are not followed). */
export function childNode(node: PomNode, ...names: string[]): PomNode | undefined {
  let current: unknown = node;
  for (const name of names) current = isNode(current) ? current[name] : undefined;
  return isNode(current) ? current : undefined;
}

function listOf(node: PomNode | undefined, name: string): PomNode[] {
  const value = node?.[name];
  return (Array.isArray(value) ? value : [value]).filter(isNode);
}

/**
 * `${name}` replaced from the POM's own `<properties>` and project fields (a missing
 * groupId or version comes from `<parent>`, as Maven inherits it), a few levels deep.
 * A reference nothing defines stays as written.
 */
export function pomInterpolator(project: PomNode): (text: string) => string {
  const values = pomProperties(project);
  const parent = childNode(project, 'parent');
  for (const field of ['groupId', 'artifactId', 'version']) {
    const value =
      childText(project, field) ?? (field === 'artifactId' || !parent ? undefined : childText(parent, field));
    if (value === undefined) continue;
    values.set(`project.${field}`, value);
    values.set(`pom.${field}`, value);
  }
  return (text) => {
    let out = text;
    for (let depth = 0; depth < 5 && out.includes('${'); depth++)
      out = out.replace(/\$\{([^}]+)\}/g, (whole, name: string) => values.get(name) ?? whole);
    return out;
  };
}

export interface PomPlugin {
  groupId: string;
  artifactId: string;
  /** As written, with `${...}` resolved where the POM defines it; absent when not pinned. */
  version?: string;
}

const DEFAULT_PLUGIN_GROUP = 'org.apache.maven.plugins';

/**
 * Plugins of `<build><plugins>` and `<build><pluginManagement><plugins>`, the project's
 * and each profile's. A plugin's own `<dependencies>` and `<reporting>` plugins are not
 * build plugins.
 */
export function pomPlugins(project: PomNode): PomPlugin[] {
  const resolve = pomInterpolator(project);
  const builds = [
    childNode(project, 'build'),
    ...listOf(childNode(project, 'profiles'), 'profile').map((profile) => childNode(profile, 'build')),
  ];
  const plugins: PomPlugin[] = [];
  for (const build of builds) {
    if (!build) continue;
    for (const section of [childNode(build, 'pluginManagement', 'plugins'), childNode(build, 'plugins')]) {
      for (const plugin of listOf(section, 'plugin')) {
        const artifactId = childText(plugin, 'artifactId');
        if (!artifactId) continue;
        const version = childText(plugin, 'version');
        plugins.push({
          groupId: resolve(childText(plugin, 'groupId') ?? DEFAULT_PLUGIN_GROUP),
          artifactId: resolve(artifactId),
          ...(version ? { version: resolve(version) } : {}),
        });
      }
    }
  }
  return plugins;
}

export interface PomDependency {
  groupId: string;
  artifactId: string;
  /** Absent when not written or when it names a property the POM does not define (a parent or BOM manages it). */
  version?: string;
  scope: string;
  optional: boolean;
  type: string;
}

/**
 * The project's direct `<dependencies>` (not dependencyManagement, build, profiles or reporting), properties resolved.
 */
export function pomDependencies(project: PomNode): PomDependency[] {
  const resolve = pomInterpolator(project);
  const dependencies: PomDependency[] = [];
  for (const dependency of listOf(childNode(project, 'dependencies'), 'dependency')) {
    const groupId = childText(dependency, 'groupId');
    const artifactId = childText(dependency, 'artifactId');
    if (!groupId || !artifactId) continue;
    const written = childText(dependency, 'version');
    const version = written === undefined ? undefined : resolve(written);
    dependencies.push({
      groupId: resolve(groupId),
      artifactId: resolve(artifactId),
      version: version && !version.includes('${') ? version : undefined,
      scope: childText(dependency, 'scope') || 'compile',
      optional: childText(dependency, 'optional') === 'true',
      type: childText(dependency, 'type') || 'jar',
    });
  }
  return dependencies;
}

/** The `<modules>` of the project and of every profile, each folder once, in the order written. */
export function pomModules(project: PomNode): string[] {
  const lists = [
    childNode(project, 'modules'),
    ...listOf(childNode(project, 'profiles'), 'profile').map((profile) => childNode(profile, 'modules')),
  ];
  const modules: string[] = [];
  for (const list of lists) {
    const entries = list?.module;
    for (const entry of Array.isArray(entries) ? entries : [entries]) {
      const dir = typeof entry === 'string' ? entry.trim() : '';
      if (dir !== '' && !modules.includes(dir)) modules.push(dir);
    }
  }
  return modules;
}

/** The project's `<properties>`, as written (not interpolated). */
export function pomProperties(project: PomNode): Map<string, string> {
  const properties = childNode(project, 'properties');
  const values = new Map<string, string>();
  if (properties)
    for (const [key, value] of Object.entries(properties)) if (typeof value === 'string') values.set(key, value);
  return values;
}
