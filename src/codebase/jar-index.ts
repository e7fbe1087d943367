/** Class names inside jars, read with `unzip -Z1` (or `jar tf`) and cached per jar path and mtime. */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { writeCacheFile } from './cache-file.js';

interface JarListing {
  jar: string;
  mtimeMs: number;
  size: number;
  classes: string[];
}

/** Top-level class names from a jar's entry list; nested, versioned and descriptor entries are skipped. */
export function classNamesFromEntries(entries: string[]): string[] {
  const names: string[] = [];
  for (const entry of entries) {
    if (!entry.endsWith('.class') || entry.startsWith('META-INF/')) continue;
    const className = entry.slice(0, -'.class'.length);
    const simpleName = className.slice(className.lastIndexOf('/') + 1);
    if (simpleName.includes('$') || simpleName === 'module-info' || simpleName === 'package-info') continue;
    names.push(className.replace(/\//g, '.'));
  }
  return names.sort();
}

async function listEntries(jar: string): Promise<string[]> {
  try {
    return (await execa('unzip', ['-Z1', jar])).stdout.split('\n');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`cannot list ${jar}: ${(error as Error).message}`);
    return (await execa('jar', ['tf', jar])).stdout.split('\n');
  }
}

const memory = new Map<string, Promise<string[]>>();

/** Fully qualified top-level class names in `jar`. */
export function jarClasses(jar: string, cacheDir: string): Promise<string[]> {
  let classes = memory.get(jar);
  if (!classes) {
    classes = readOrList(jar, cacheDir);
    memory.set(jar, classes);
    classes.catch(() => memory.delete(jar));
  }
  return classes;
}

async function readOrList(jar: string, cacheDir: string): Promise<string[]> {
  const info = await stat(jar);
  const cacheFile = path.join(cacheDir, 'jars', `${createHash('sha256').update(jar).digest('hex').slice(0, 24)}.json`);
  try {
    const cached = JSON.parse(await readFile(cacheFile, 'utf8')) as JarListing;
    if (cached.jar === jar && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.classes;
  } catch {
    // No usable cache entry: list the jar below.
  }
  const classes = classNamesFromEntries(await listEntries(jar));
  const listing: JarListing = { jar, mtimeMs: info.mtimeMs, size: info.size, classes };
  await writeCacheFile(cacheFile, JSON.stringify(listing));
  return classes;
}
