/**
 * The project root: the folder of the top pom, where `.mvnx/` lives, and the git root
 * above it. Dependency-free, so the passing-build path can use it without the config stack.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileArgument, startFolder } from './args.js';

/**
 * Starts at the `-f` target's folder or cwd and walks up while the parent folder also
 * has a pom.xml, never above a folder holding `.git`. Without any pom: cwd.
 */
export function findProjectRoot(cwd: string, mavenArgs: readonly string[]): Promise<string> {
  return Promise.resolve(projectRootOf(cwd, mavenArgs));
}

/** findProjectRoot without the promise, for callers that are synchronous anyway. */
export function projectRootOf(cwd: string, mavenArgs: readonly string[]): string {
  let root = startFolder(cwd, mavenArgs);
  // A -f target may be named anything (pom-ci.xml), so its folder counts as a project.
  if (fileArgument(mavenArgs) === undefined && !existsSync(path.join(root, 'pom.xml'))) return path.resolve(cwd);
  for (;;) {
    if (existsSync(path.join(root, '.git'))) return root;
    const parent = path.dirname(root);
    if (parent === root || !existsSync(path.join(parent, 'pom.xml'))) return root;
    root = parent;
  }
}

/**
 * Whether Maven had a project to read: the `-f` target (a file, or a folder's pom.xml) or
 * cwd's pom.xml exists. Without one Maven stops at once ("there is no POM in this
 * directory"), and mvnx keeps no record there: that folder is not a project.
 */
export function hasProjectPom(cwd: string, mavenArgs: readonly string[]): boolean {
  const target = fileArgument(mavenArgs);
  if (target === undefined) return existsSync(path.join(cwd, 'pom.xml'));
  const absolute = path.resolve(cwd, target);
  return existsSync(path.join(startFolder(cwd, mavenArgs), 'pom.xml')) || isFile(absolute);
}

function isFile(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

/**
 * The one project-root rule of the subcommands (apply, runs, diagnose, explain, doctor,
 * init): run anywhere inside a project (e.g. `src/main/java`), they mean the project of the
 * nearest pom.xml at or above `cwd`, walked up as a build would (findProjectRoot), never
 * above the git root. Without any pom: cwd.
 */
export function findProjectRootAbove(cwd: string): Promise<string> {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'pom.xml'))) return findProjectRoot(dir, []);
    if (existsSync(path.join(dir, '.git')) || path.dirname(dir) === dir) return Promise.resolve(path.resolve(cwd));
  }
}

/** The folder holding `.git` (a folder or, in worktrees, a file) at or above `from`. */
export function findGitRoot(from: string): Promise<string | undefined> {
  return Promise.resolve(gitRootOf(from));
}

export function gitRootOf(from: string): string | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}
