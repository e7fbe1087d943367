import { lstat, realpath } from 'node:fs/promises';
import { join, relative, isAbsolute, sep } from 'node:path';
import { problem } from '../problems.js';
import type { ChangeSet, PatchProblem } from '../types.js';

function isInside(rootReal: string, candidate: string): boolean {
  const rel = relative(rootReal, candidate);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Walk a root-relative path one segment at a time; any symlink on the way must resolve
 * inside the root, and a dangling one is refused because its target could be created
 * later. Segments that do not exist yet will be created as real folders, so they are safe.
 */
export async function checkPathOnDisk(rootReal: string, path: string): Promise<PatchProblem | undefined> {
  let current = rootReal;
  for (const segment of path.split('/')) {
    current = join(current, segment);
    let stats;
    try {
      stats = await lstat(current);
    } catch {
      return undefined;
    }
    if (!stats.isSymbolicLink()) continue;
    let target: string;
    try {
      target = await realpath(current);
    } catch {
      return problem('symlink-escape', `${path}: ${relative(rootReal, current)} is a dangling symlink; refusing to write through it.`, { file: path });
    }
    if (!isInside(rootReal, target)) {
      return problem('symlink-escape', `${path}: ${relative(rootReal, current)} is a symlink to ${target}, outside the project.`, { file: path });
    }
  }
  return undefined;
}

/** Realpath containment for every path a change set writes, reads or removes. */
export async function checkPathsOnDisk(root: string, cs: ChangeSet): Promise<PatchProblem[]> {
  const rootReal = await realpath(root);
  const problems: PatchProblem[] = [];
  for (const change of cs.files) {
    for (const path of change.oldPath === undefined ? [change.path] : [change.oldPath, change.path]) {
      const found = await checkPathOnDisk(rootReal, path);
      if (found) problems.push(found);
    }
  }
  return problems;
}
