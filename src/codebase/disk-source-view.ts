import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { minimatch } from 'minimatch';
import type { SourceView } from '../java/index.js';

/** Folders that hold build output, mvnx's own state or tooling, never project sources. */
const SKIPPED_FOLDERS = new Set(['target', '.mvnx', '.git', 'node_modules']);

function toRootRelative(root: string, file: string): string {
  const relative = path.relative(root, path.resolve(root, file));
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new Error(`path ${file} is outside the project root ${root}`);
  }
  return relative.split(path.sep).join('/');
}

async function listRecursively(root: string): Promise<string[]> {
  const found: string[] = [];
  const pending = [''];
  while (pending.length > 0) {
    const folder = pending.pop() as string;
    const entries = await readdir(path.join(root, folder), { withFileTypes: true });
    for (const entry of entries) {
      const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) pending.push(relative);
      } else if (entry.isFile()) {
        found.push(relative);
      }
    }
  }
  return found.sort();
}

/**
 * A read-only view of the files under `root`. The file list is read once and kept, since
 * fixers ask for it repeatedly within one repair step.
 */
export function createSourceView(root: string): SourceView {
  if (!path.isAbsolute(root)) throw new Error(`source view root must be an absolute path, got ${root}`);
  let allFiles: Promise<string[]> | undefined;
  return {
    root,
    async read(file) {
      const relative = toRootRelative(root, file);
      try {
        return await readFile(path.join(root, relative), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async list(glob) {
      allFiles ??= listRecursively(root);
      return (await allFiles).filter((file) => minimatch(file, glob, { dot: true }));
    },
  };
}
