/**
 * The modules a fix touches, read from the POMs of this checkout (the files' deepest module folders, their
 * artifactIds), never taken from a run record: a record made by another job (`mvnx publish --from DIR`) is not
 * trusted, and module-scoped rules (`rules[].modules` with `protected` or `publish.updateBranch`) must not be
 * sidestepped by a record that names other modules. Reads the POMs only; builds and runs nothing.
 */
import { moduleOfFile, readReactor } from '../../maven/reactor.js';

export type FixModules = { modules: string[] } | { problem: string };

export async function fixModulesFromPoms(projectRoot: string, files: readonly string[]): Promise<FixModules> {
  const graph = await readReactor(projectRoot);
  // A reactor read only in part could leave a file's module unknown, and a module-scoped rule unmatched.
  if (graph.problems.length > 0)
    return { problem: `the fix's modules cannot be read from this checkout's POMs: ${graph.problems[0]}` };
  const modules = new Set<string>();
  for (const file of files) {
    const owner = moduleOfFile(graph, file);
    if (!owner) return { problem: `no module of this checkout's POMs holds ${file}` };
    modules.add(owner.artifactId);
  }
  return { modules: [...modules].sort() };
}
