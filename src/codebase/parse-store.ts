/**
 * The disk edge of src/java's parse cache: `.mvnx/cache/java-parse/<key>.json` in the
 * project (beside `.mvnx/runs/`; a workspace copy never holds `.mvnx/`, and a patch may
 * not touch it). One file per file content, written whole (temp file, then rename), so
 * concurrent runs read either an old entry or a new one. Capped in size: past the cap the
 * least recently used entries go (a hit refreshes its entry's time). Nothing here throws:
 * a cache that cannot be read or written only costs a parse.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ParseStore } from '../java/index.js';

/** About 2,000 entries of a typical source file; jsoup's whole tree takes a few MB. */
export const PARSE_CACHE_MAX_BYTES = 20 * 1024 * 1024;
const KEY = /^[0-9a-f]{64}$/;

export function parseCacheDir(projectRoot: string): string {
  return path.join(projectRoot, '.mvnx', 'cache', 'java-parse');
}

export interface ParseCacheOptions {
  maxBytes?: number;
  /**
   * True for an entry that must not reach the disk: the run's redaction finds a secret in
   * it (a token written in a source file). `.mvnx/` may leave the machine as a CI artifact;
   * such a file is parsed again by the next run instead.
   */
  withholds?: (entry: string) => boolean;
}

export function createParseCache(projectRoot: string, options: ParseCacheOptions = {}): ParseStore {
  const dir = parseCacheDir(projectRoot);
  const maxBytes = options.maxBytes ?? PARSE_CACHE_MAX_BYTES;
  /** Entry name -> size, read from the folder at the first write of this process. */
  let sizes: Promise<Map<string, number>> | undefined;
  let writes = Promise.resolve();

  const entryFile = (key: string) => path.join(dir, `${key}.json`);
  const readSizes = async () => {
    const found = new Map<string, number>();
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (!name.endsWith('.json')) continue;
      const info = await stat(path.join(dir, name)).catch(() => undefined);
      if (info?.isFile()) found.set(name, info.size);
    }
    return found;
  };

  const write = async (key: string, entry: string) => {
    const size = Buffer.byteLength(entry);
    if (size > maxBytes || options.withholds?.(entry)) return;
    if (!sizes) {
      await mkdir(dir, { recursive: true });
      // The cache is never the project's: kept out of git even where `.mvnx/` is not ignored.
      await writeFile(path.join(dir, '..', '.gitignore'), '*\n', { flag: 'wx' }).catch(() => undefined);
      sizes = readSizes();
    }
    const known = await sizes;
    const file = entryFile(key);
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temp, entry);
    await rename(temp, file).catch(async (error: unknown) => {
      await unlink(temp).catch(() => undefined);
      throw error;
    });
    known.set(`${key}.json`, size);
    let total = [...known.values()].reduce((sum, bytes) => sum + bytes, 0);
    if (total <= maxBytes) return;
    // Over the cap: the least recently used go first, never the entry just written.
    const aged = await Promise.all(
      [...known.keys()]
        .filter((name) => name !== `${key}.json`)
        .map(async (name) => ({ name, at: (await stat(path.join(dir, name)).catch(() => undefined))?.mtimeMs ?? 0 })),
    );
    for (const { name } of aged.sort((a, b) => a.at - b.at)) {
      if (total <= maxBytes) break;
      await unlink(path.join(dir, name)).catch(() => undefined);
      total -= known.get(name) ?? 0;
      known.delete(name);
    }
  };

  return {
    async get(key) {
      if (!KEY.test(key)) return undefined;
      try {
        const entry = await readFile(entryFile(key), 'utf8');
        // Used now: the last to go when the cap is reached.
        const now = new Date();
        await utimes(entryFile(key), now, now).catch(() => undefined);
        return entry;
      } catch {
        return undefined;
      }
    },
    put(key, entry) {
      if (!KEY.test(key)) return Promise.resolve();
      // One write at a time: the sizes and the eviction see each other's entries.
      writes = writes.then(() => write(key, entry)).catch(() => undefined);
      return writes;
    },
  };
}
