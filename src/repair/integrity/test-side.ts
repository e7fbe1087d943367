/**
 * The test side of a project: every folder whose files decide what the tests expect.
 * While tests fail, a repair may not change any of it (the fix must make the code meet
 * the tests, not the tests meet the code). Read from the poms, pure:
 *
 * - test sources: `<testSourceDirectory>`, build-helper's `add-test-source`, the compiler
 *   plugin's `<compileSourceRoots>` in a `testCompile` execution;
 * - test resources: `<testResources>`, build-helper's `add-test-resource`;
 * - test-support modules: a module of the reactor whose artifact every module that
 *   depends on it uses only in `test` scope (a `test-jar` dependency points at the
 *   module's test sources, which are test side anyway, so it does not make the module's
 *   main code test side);
 * - by convention, whatever the poms say: `src/test/`, `src/it/`, `src/integration-test/`
 *   and testFixtures-style folders (`src/testFixtures/`, `src/test-fixtures/`) of any module.
 */
import path from 'node:path';
import {
  childNode,
  childText,
  isNode,
  parsePomProject,
  pomDependencies,
  pomInterpolator,
  type PomNode,
} from '../../maven/pom.js';
import type { TestSide, TestSideRoot } from '../../plugins/contracts.js';

export type { TestSide, TestSideRoot };

export interface ModulePom {
  /** Module folder relative to the project root, '' for the root. */
  dir: string;
  text: string;
}

const CONVENTIONAL = /(^|\/)src\/(test|it|integration-test|testFixtures|test-fixtures|testfixtures)\//;

/** The test side when no pom could be read: the conventional folders only. */
export const CONVENTIONAL_TEST_SIDE: TestSide = { roots: [] };

/** Which part of the test side `file` (project-relative) is on, if any. */
export function testSideRootOf(side: TestSide, file: string): TestSideRoot | undefined {
  const declared = side.roots.filter((root) => root.dir === '' || file === root.dir || file.startsWith(`${root.dir}/`));
  // The most specific root names the file best (a test-support module's own src/test/java, say).
  const best = declared.sort((a, b) => b.dir.length - a.dir.length)[0];
  if (best) return best;
  const conventional = CONVENTIONAL.exec(file);
  if (!conventional) return undefined;
  const dir = file.slice(0, conventional.index + conventional[0].length - 1);
  return {
    dir,
    what:
      conventional[2] === 'test' || conventional[2] === 'it' || conventional[2] === 'integration-test'
        ? 'test sources and resources'
        : 'test fixtures',
  };
}

export function testSideOf(poms: readonly ModulePom[]): TestSide {
  const roots: TestSideRoot[] = [];
  const modules: { dir: string; name: string; groupId?: string; artifactId?: string; project: PomNode }[] = [];
  for (const pom of poms) {
    const project = parsePomProject(pom.text);
    if (!project) continue;
    const artifactId = childText(project, 'artifactId');
    const groupId = childText(project, 'groupId') ?? childText(childNode(project, 'parent') ?? {}, 'groupId');
    const name = artifactId ?? (pom.dir || 'the root project');
    modules.push({
      dir: pom.dir,
      name,
      project,
      ...(artifactId ? { artifactId } : {}),
      ...(groupId ? { groupId } : {}),
    });
    const add = (folder: string | undefined, what: string) => {
      const dir = folder === undefined ? undefined : projectFolder(pom.dir, folder, pomInterpolator(project));
      if (dir !== undefined && !roots.some((root) => root.dir === dir))
        roots.push({ dir, what: `${what} of module ${name}` });
    };
    for (const build of builds(project)) {
      add(childText(build, 'testSourceDirectory'), 'test sources');
      for (const resource of listOf(childNode(build, 'testResources'), 'testResource'))
        add(childText(resource, 'directory'), 'test resources');
      for (const plugin of listOf(childNode(build, 'plugins'), 'plugin')) {
        for (const execution of listOf(childNode(plugin, 'executions'), 'execution')) {
          const goals = texts(childNode(execution, 'goals')?.goal);
          const configuration = childNode(execution, 'configuration');
          if (!configuration) continue;
          if (goals.includes('add-test-source'))
            for (const source of texts(childNode(configuration, 'sources')?.source)) add(source, 'test sources');
          if (goals.includes('add-test-resource'))
            for (const resource of listOf(childNode(configuration, 'resources'), 'resource'))
              add(childText(resource, 'directory'), 'test resources');
          if (goals.includes('testCompile'))
            for (const root of texts(childNode(configuration, 'compileSourceRoots')?.compileSourceRoot))
              add(root, 'test sources');
        }
      }
    }
  }
  for (const module of modules) {
    if (module.dir === '' || !module.artifactId) continue;
    const uses = modules.flatMap((other) =>
      other === module
        ? []
        : pomDependencies(other.project)
            .filter(
              (dependency) =>
                dependency.artifactId === module.artifactId &&
                (module.groupId === undefined || dependency.groupId === module.groupId),
            )
            .map((dependency) => ({ by: other.name, scope: dependency.scope, type: dependency.type })),
    );
    const mainArtifactUses = uses.filter((use) => use.type !== 'test-jar');
    if (mainArtifactUses.length > 0 && mainArtifactUses.every((use) => use.scope === 'test')) {
      const users = [...new Set(mainArtifactUses.map((use) => use.by))].join(', ');
      roots.push({
        dir: module.dir,
        what: `test-support module ${module.name} (${users} use${mainArtifactUses.length === 1 ? 's' : ''} it only in test scope)`,
      });
    }
  }
  return { roots };
}

/** The project's and each profile's `<build>`. */
function builds(project: PomNode): PomNode[] {
  const profiles = listOf(childNode(project, 'profiles'), 'profile');
  return [childNode(project, 'build'), ...profiles.map((profile) => childNode(profile, 'build'))].filter(
    (build): build is PomNode => build !== undefined,
  );
}

function listOf(node: PomNode | undefined, name: string): PomNode[] {
  const value = node?.[name];
  return (Array.isArray(value) ? value : [value]).filter(isNode);
}

function texts(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value])
    .filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    .map((item) => item.trim());
}

/**
 * A folder a pom names, relative to the project root: `${project.basedir}` and
 * `${basedir}` are the module's folder; a folder outside the project, absolute or naming
 * a property this reader cannot resolve is left out (the conventional folders still count).
 */
function projectFolder(moduleDir: string, folder: string, interpolate: (text: string) => string): string | undefined {
  const written = interpolate(folder.replace(/\\/g, '/')).replace(/^\$\{(project\.)?basedir\}\/?/, '');
  if (written.includes('${') || path.posix.isAbsolute(written) || /^[A-Za-z]:/.test(written)) return undefined;
  const joined = path.posix.normalize(moduleDir === '' ? written : `${moduleDir}/${written}`).replace(/\/+$/, '');
  if (joined === '.' || joined === '' || joined.startsWith('..')) return undefined;
  return joined;
}

/** The module folder of a source file: what comes before its `src/` (Maven runs the module's tests there). */
export function moduleDirOf(file: string): string {
  const at = file.search(/(^|\/)src\//);
  return at <= 0 ? '' : file.slice(0, at);
}
