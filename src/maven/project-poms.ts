/**
 * The POMs of a project's reactor: the root POM and every module's, recursively, as paths relative to the root, read
 * through a port so the same walk serves the working tree, a git revision or a kept copy.
 */
import path from 'node:path';
import { parsePomProject, pomModules } from './pom.js';

export type ReadProjectFile = (file: string) => Promise<string | undefined>;

/** Project-relative paths of the root POM and every module's, recursively. */
export async function projectPoms(read: ReadProjectFile, dir = '', seen = new Set<string>()): Promise<string[]> {
  const pom = path.posix.join(dir, 'pom.xml');
  if (seen.has(pom)) return [];
  seen.add(pom);
  const text = await read(pom);
  const project = text ? parsePomProject(text) : undefined;
  if (!project) return [];
  const out = [pom];
  for (const module of pomModules(project))
    out.push(...(await projectPoms(read, path.posix.normalize(path.posix.join(dir, module)), seen)));
  return out;
}
