/**
 * What a POM change does to the build, read from the XML (fast-xml-parser), not from
 * counting tags: a changed or added dependency coordinate (directly, or through a
 * property it reads) is `add-dependency`; a plugin added or changed is a build edit.
 */
import { isNode, parsePomProject, pomInterpolator, type PomNode } from '../maven/pom.js';

const COORDINATES = [
  'groupId',
  'artifactId',
  'version',
  'type',
  'classifier',
  'scope',
  'optional',
  'systemPath',
] as const;

export interface PomFacts {
  /** Every dependency (and parent, and plugin dependency), as its resolved coordinates. */
  dependencies: Set<string>;
  /** Every plugin and build extension, as groupId:artifactId:version. */
  plugins: Set<string>;
}

type Node = PomNode;

function coordinates(node: Node, resolve: (text: string) => string, fields: readonly string[]): string {
  return fields.map((field) => (typeof node[field] === 'string' ? resolve(node[field]) : '')).join(':');
}

function collect(value: unknown, key: string, facts: PomFacts, resolve: (text: string) => string): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, key, facts, resolve);
    return;
  }
  if (!isNode(value)) return;
  if (key === 'dependency' || key === 'parent') {
    // Dropping an exclusion brings in new transitive dependencies: part of the identity.
    const exclusions = isNode(value.exclusions) ? JSON.stringify(value.exclusions) : '';
    facts.dependencies.add(`${key}:${coordinates(value, resolve, COORDINATES)}:${exclusions}`);
  }
  if (key === 'plugin' || key === 'extension')
    facts.plugins.add(coordinates(value, resolve, ['groupId', 'artifactId', 'version']));
  for (const [child, inner] of Object.entries(value)) collect(inner, child, facts, resolve);
}

/** The build-relevant facts of a POM, or undefined when the text is not a well-formed POM. */
export function readPom(text: string): PomFacts | undefined {
  const project = parsePomProject(text);
  if (!project || (project.modelVersion === undefined && project.artifactId === undefined)) return undefined;
  const facts: PomFacts = { dependencies: new Set(), plugins: new Set() };
  const resolve = pomInterpolator(project);
  for (const [key, value] of Object.entries(project)) collect(value, key, facts, resolve);
  return facts;
}

/** Whether some text reads as a POM (root `<project>` with a modelVersion or artifactId). */
export function isPom(text: string | null): boolean {
  return text !== null && readPom(text) !== undefined;
}

/**
 * True when `after` depends on something `before` did not: a dependency, parent or
 * plugin dependency added or with any coordinate changed. A POM that does not parse
 * counts as adding one when it mentions a dependency at all: nothing else can be proven.
 */
export function addsDependency(before: string | null, after: string | null): boolean {
  if (after === null) return false;
  const next = readPom(after);
  if (!next) return /<(dependency|parent)[\s>]/.test(after.replace(/<!--[\s\S]*?-->/g, ''));
  const previous = before === null ? undefined : readPom(before);
  if (!previous) return next.dependencies.size > 0;
  return [...next.dependencies].some((dependency) => !previous.dependencies.has(dependency));
}

/** True when `after` has a plugin or extension `before` did not (added or re-versioned). */
export function changesPlugins(before: string | null, after: string | null): boolean {
  const next = after === null ? undefined : readPom(after);
  if (!next) return false;
  const previous = before === null ? undefined : readPom(before);
  return [...next.plugins].some((plugin) => !previous?.plugins.has(plugin));
}

/**
 * Plugins that run arbitrary code while the project builds: a shell command, an Ant
 * script, a Groovy, JavaScript, Ruby or Python script, another build, npm. A repair that
 * adds one could do anything on every developer's machine and in CI.
 */
const CODE_RUNNING_PLUGINS =
  /^(exec-maven-plugin|maven-antrun-plugin|antrun-plugin|groovy-maven-plugin|gmaven-plugin|gmavenplus-plugin|maven-scripting-plugin|frontend-maven-plugin|maven-invoker-plugin|jruby-maven-plugin|rhino-maven-plugin|beanshell-maven-plugin|maven-shell-plugin)$|(^|-)(exec|antrun|groovy|gmaven\w*|scripting|beanshell|jruby|jython|nashorn|rhino)(-|$)/;

/** Each code-running plugin's declaration (with its executions and configuration) anywhere in a POM. */
function codeRunningPlugins(project: PomNode): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const visit = (value: unknown, key: string): void => {
    if (Array.isArray(value)) return value.forEach((item) => visit(item, key));
    if (!isNode(value)) return;
    // Stryker disable next-line MethodExpression,StringLiteral: the parser trims values already (trimValues), and a
    // made-up name for a missing artifactId matches no code-running plugin, like ''
    const artifactId = typeof value.artifactId === 'string' ? value.artifactId.trim() : '';
    if (key === 'plugin' && CODE_RUNNING_PLUGINS.test(artifactId))
      found.set(artifactId, [...(found.get(artifactId) ?? []), JSON.stringify(value)]);
    for (const [child, inner] of Object.entries(value)) visit(inner, child);
  };
  for (const [key, value] of Object.entries(project)) visit(value, key);
  return found;
}

/**
 * The code-running plugins (artifactIds) that `after` adds or changes against `before`:
 * a new declaration, or one whose executions or configuration differ. A POM that does not
 * parse counts when it names such a plugin more often than before.
 */
export function addedBuildTimeCode(before: string | null, after: string | null): string[] {
  if (after === null) return [];
  const next = parsePomProject(after);
  const previous = before === null ? undefined : parsePomProject(before);
  if (!next) {
    const names = (text: string | null) =>
      [...(text ?? '').replace(/<!--[\s\S]*?-->/g, '').matchAll(/<artifactId>\s*([\w.-]+)\s*<\/artifactId>/g)]
        .map((m) => m[1]!)
        .filter((name) => CODE_RUNNING_PLUGINS.test(name));
    const was = names(before);
    return [
      ...new Set(
        names(after).filter(
          (name) => names(after).filter((n) => n === name).length > was.filter((n) => n === name).length,
        ),
      ),
    ];
  }
  const old = previous ? codeRunningPlugins(previous) : new Map<string, string[]>();
  return [...codeRunningPlugins(next)]
    .filter(([name, declarations]) => declarations.some((declaration) => !(old.get(name) ?? []).includes(declaration)))
    .map(([name]) => name);
}
