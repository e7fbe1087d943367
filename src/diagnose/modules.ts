/**
 * Module discovery from the poms: `<modules>` followed recursively from the project
 * root (profiles included, since any of them may be active), one artifactId per folder.
 * The log names modules by display name and artifactId; this maps them to folders.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parsePomProjectOrThrow, pomModules } from '../maven/pom.js';
import { joinRelative, toForwardSlashes } from './log-paths.js';
import type { ReactorModule } from './types.js';

export interface PomSummary {
  artifactId?: string;
  name?: string;
  modules: string[];
}

export interface ModuleFolder {
  /** Root-relative folder, forward slashes, '' for the root. */
  dir: string;
  artifactId?: string;
  name?: string;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Pure: the parts of a pom that module discovery needs. Throws on XML it cannot read. */
export function summarisePom(xml: string): PomSummary {
  const project = parsePomProjectOrThrow(xml);
  return { artifactId: text(project.artifactId), name: text(project.name), modules: pomModules(project) };
}

/** Walks `<modules>` from the root pom. Unreadable poms become warnings, never throws. */
export async function discoverModules(projectRoot: string, warnings: string[] = []): Promise<ModuleFolder[]> {
  const found: ModuleFolder[] = [];
  const visited = new Set<string>();
  const visit = async (dir: string, depth: number): Promise<void> => {
    if (visited.has(dir) || depth > 32) return;
    visited.add(dir);
    const pomFile = dir.endsWith('.xml') ? dir : joinRelative(dir, 'pom.xml');
    const folder = dir.endsWith('.xml') ? path.posix.dirname(dir).replace(/^\.$/, '') : dir;
    let xml: string;
    try {
      xml = await readFile(path.join(projectRoot, pomFile), 'utf8');
    } catch {
      if (depth > 0) warnings.push(`module ${folder || '.'} has no readable ${pomFile}`);
      return;
    }
    let pom: PomSummary;
    try {
      pom = summarisePom(xml);
    } catch (error) {
      warnings.push(`cannot read ${pomFile}: ${(error as Error).message.split('\n')[0]}`);
      return;
    }
    found.push({
      dir: folder,
      ...(pom.artifactId ? { artifactId: pom.artifactId } : {}),
      ...(pom.name ? { name: pom.name } : {}),
    });
    for (const m of pom.modules) {
      const child = path.posix.normalize(joinRelative(folder, toForwardSlashes(m))).replace(/\/$/, '');
      if (!child.startsWith('..')) await visit(child === '.' ? '' : child, depth + 1);
    }
  };
  await visit('', 0);
  return found;
}

/** Pure: reactor modules from the log, given folders from the poms. */
export function attachModuleFolders(reactor: ReactorModule[], folders: ModuleFolder[]): ReactorModule[] {
  return reactor.map((m) => {
    const folder =
      folders.find((f) => m.artifactId !== undefined && f.artifactId === m.artifactId) ??
      folders.find((f) => f.name !== undefined && f.name === m.name) ??
      folders.find((f) => m.artifactId === undefined && f.artifactId === m.name);
    if (!folder) return { ...m };
    return {
      ...m,
      dir: folder.dir,
      ...(m.artifactId === undefined && folder.artifactId ? { artifactId: folder.artifactId } : {}),
    };
  });
}
