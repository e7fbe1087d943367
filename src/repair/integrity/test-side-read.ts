/**
 * Reads the poms of the reactor (the root's `<modules>`, every profile's, followed down)
 * for test-side.ts. Never throws: a pom that cannot be read adds nothing, and the
 * conventional test folders still count.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parsePomProject, pomModules } from '../../maven/pom.js';
import { testSideOf, type ModulePom, type TestSide } from './test-side.js';

export async function readTestSide(projectRoot: string): Promise<TestSide> {
  const poms: ModulePom[] = [];
  const visited = new Set<string>();
  const visit = async (dir: string, depth: number): Promise<void> => {
    if (visited.has(dir) || depth > 32) return;
    visited.add(dir);
    const text = await readFile(path.join(projectRoot, dir, 'pom.xml'), 'utf8').catch(() => undefined);
    if (text === undefined) return;
    poms.push({ dir, text });
    const project = parsePomProject(text);
    for (const module of project ? pomModules(project) : []) {
      const child = path.posix
        .normalize(dir === '' ? module.replace(/\\/g, '/') : `${dir}/${module.replace(/\\/g, '/')}`)
        .replace(/\/(pom\.xml)?$/, '');
      if (child.startsWith('..') || child.includes('${') || child.endsWith('.xml')) continue;
      await visit(child === '.' ? '' : child, depth + 1);
    }
  };
  await visit('', 0);
  return testSideOf(poms);
}
