/**
 * What the machine caches of this folder share (`~/.cache/mvnx`: the JDK index, jar
 * listings, javap answers, declared classpaths): how an entry is written, and how a file
 * an entry depends on is told unchanged.
 */
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Writes an entry whole: into a temp file beside it, then renamed, so a concurrent mvnx never reads half of one. */
export async function writeCacheFile(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, text);
  await rename(partial, file);
}

/** A file as a cache entry depends on it: `size:mtime`, or `absent`. */
export async function fileStamp(file: string): Promise<string> {
  const info = await stat(file).catch(() => undefined);
  return info ? `${info.size}:${info.mtimeMs}` : 'absent';
}
