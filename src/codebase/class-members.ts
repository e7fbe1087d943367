/**
 * Members of JDK and library classes, read with `javap -protected` (what a subclass or a
 * caller can use): the class line with its supertypes, fields, constructors and methods.
 * The parser is pure; the reader runs javap once for every class asked together and
 * keeps the answers in memory for the process and, given a cache folder, on disk: each
 * javap run is a JVM start (about 0.25 s quiet), and jsoup's first prompt asked for
 * `java.lang.Iterable` and `java.lang.Cloneable` one after the other, half a second of a
 * prompt that otherwise came from the parse cache.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import type { LibraryMember, LibraryType } from './types.js';
import { fileStamp, writeCacheFile } from './cache-file.js';

const HEADER =
  /^((?:[\w-]+\s+)*?)(class|interface|enum|record|@interface)\s+([\w$.]+)(<.*?>)?(?:\s+extends\s+(.+?))?(?:\s+implements\s+(.+?))?\s*\{$/;
const MODIFIERS = new Set([
  'public',
  'protected',
  'private',
  'static',
  'final',
  'abstract',
  'native',
  'synchronized',
  'transient',
  'volatile',
  'default',
  'strictfp',
  'sealed',
  'non-sealed',
]);

/** Splits `a, java.util.Map<K, V>, b` at top-level commas. */
export function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '<') depth++;
    else if (char === '>') depth--;
    if (char === ',' && depth === 0) {
      if (current.trim()) out.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/** javap's text for one or more classes -> their members. */
export function parseJavapOutput(output: string): LibraryType[] {
  const types: LibraryType[] = [];
  let current: LibraryType | undefined;
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('Compiled from')) continue;
    if (!current) {
      const header = HEADER.exec(line);
      if (!header) continue;
      const kind = header[2] === '@interface' ? 'annotation' : (header[2] as LibraryType['kind']);
      const extended = header[5] ? splitTopLevel(header[5]) : [];
      current = {
        name: header[3]!,
        kind,
        ...(kind !== 'interface' && extended[0] ? { superclass: extended[0] } : {}),
        interfaces: [...(kind === 'interface' ? extended : []), ...(header[6] ? splitTopLevel(header[6]) : [])],
        members: [],
      };
      continue;
    }
    if (line === '}') {
      types.push(current);
      current = undefined;
      continue;
    }
    const member = parseMember(line.replace(/;$/, ''), current.name);
    if (member) current.members.push(member);
  }
  return types;
}

function parseMember(signature: string, typeName: string): LibraryMember | undefined {
  if (signature.startsWith('static {}')) return undefined;
  const words: string[] = [];
  let rest = signature.replace(/\s+throws\s+.+$/, '');
  for (;;) {
    const match = /^([\w-]+)\s+/.exec(rest);
    if (!match || !MODIFIERS.has(match[1]!)) break;
    words.push(match[1]!);
    rest = rest.slice(match[0].length);
  }
  rest = rest.replace(/^<[^()]*?>\s+/, '');
  const call = /^(?:(.+?)\s+)?([\w$.]+)\((.*)\)$/.exec(rest);
  if (call) {
    const name = call[2]!;
    const parameters = splitTopLevel(call[3]!);
    const simpleType = typeName.slice(typeName.lastIndexOf('.') + 1);
    if (!call[1] && (name === typeName || name.endsWith(`.${simpleType}`) || name === simpleType))
      return { kind: 'constructor', name: simpleType.replace(/^.*\$/, ''), parameters, modifiers: words, signature };
    return { kind: 'method', name, parameters, ...(call[1] ? { type: call[1] } : {}), modifiers: words, signature };
  }
  const field = /^(.+?)\s+([\w$]+)$/.exec(rest);
  if (field) return { kind: 'field', name: field[2]!, parameters: [], type: field[1]!, modifiers: words, signature };
  return undefined;
}

const known = new Map<string, Promise<LibraryType | undefined>>();

function javapOf(javaHome: string | undefined): string {
  const bundled = javaHome ? path.join(javaHome, 'bin', 'javap') : undefined;
  return bundled && existsSync(bundled) ? bundled : 'javap';
}

/**
 * The members of each named class (binary names, `java.util.Map$Entry`) on `classpath`
 * or in the JDK; undefined for a class javap does not find. One javap run for the names
 * not asked before, in this process or (with `cacheDir`) in an earlier one on the same
 * javap and the same jars (their size and modification time are part of the key).
 */
export async function readLibraryTypes(
  names: readonly string[],
  classpath: readonly string[],
  javaHome?: string,
  cacheDir?: string,
): Promise<Map<string, LibraryType | undefined>> {
  const key = (name: string) => `${classpath.join(path.delimiter)}\u0000${name}`;
  const fresh = [...new Set(names)].filter((name) => /^[\w$.]+$/.test(name) && !known.has(key(name)));
  if (fresh.length > 0) {
    const javap = javapOf(javaHome);
    const run = (async () => {
      const disk = cacheDir ? await diskCache(cacheDir, javap, classpath) : undefined;
      const found = new Map<string, LibraryType | undefined>();
      const missing: string[] = [];
      for (const name of fresh) {
        const cached = await disk?.read(name);
        if (cached) found.set(name, cached.type ?? undefined);
        else missing.push(name);
      }
      if (missing.length === 0) return found;
      const result = await execa(
        javap,
        ['-protected', ...(classpath.length > 0 ? ['-cp', classpath.join(path.delimiter)] : []), ...missing],
        { reject: false, timeout: 60_000 },
      ).catch(() => undefined);
      const types = new Map((result ? parseJavapOutput(result.stdout) : []).map((type) => [type.name, type]));
      for (const name of missing) {
        const type = types.get(name) ?? types.get(name.replace(/\$/g, '.'));
        found.set(name, type);
        // A class javap did not print is kept only when javap itself ran cleanly (exit 0 or its "class not found").
        if (
          type ||
          (result && !result.timedOut && /class not found/i.test(result.stderr) && result.stderr.includes(name))
        )
          await disk?.write(name, type);
      }
      return found;
    })();
    for (const name of fresh)
      known.set(
        key(name),
        run.then((types) => types.get(name)),
      );
  }
  const out = new Map<string, LibraryType | undefined>();
  for (const name of names) out.set(name, await known.get(key(name)));
  return out;
}

interface JavapCache {
  read(name: string): Promise<{ type: LibraryType | null } | undefined>;
  write(name: string, type: LibraryType | undefined): Promise<void>;
}

/**
 * Answers of earlier javap runs, under `<cacheDir>/javap/`, keyed by javap, the jars (path, size, time) and the class
 * name. Unreadable entries are misses; a failed write is ignored.
 */
async function diskCache(cacheDir: string, javap: string, classpath: readonly string[]): Promise<JavapCache> {
  const identity = async (file: string) => `${file}:${await fileStamp(file)}`;
  const javapIdentity = path.isAbsolute(javap) ? await identity(javap) : javap;
  const jars = await Promise.all(classpath.map(identity));
  const folder = path.join(cacheDir, 'javap');
  const fileOf = (name: string) =>
    path.join(
      folder,
      `${createHash('sha256')
        .update([javapIdentity, ...jars, name].join('\u0000'))
        .digest('hex')
        .slice(0, 32)}.json`,
    );
  return {
    async read(name) {
      try {
        const entry = JSON.parse(await readFile(fileOf(name), 'utf8')) as {
          name?: unknown;
          type?: { name?: unknown; members?: unknown } | null;
        };
        if (entry.name !== name) return undefined;
        if (entry.type === null) return { type: null };
        const type = entry.type;
        return typeof type === 'object' && typeof type.name === 'string' && Array.isArray(type.members)
          ? { type: type as LibraryType }
          : undefined;
      } catch {
        return undefined;
      }
    },
    async write(name, type) {
      try {
        await writeCacheFile(fileOf(name), JSON.stringify({ name, type: type ?? null }));
      } catch {
        // A cache that cannot be written only costs the next run a javap start.
      }
    },
  };
}
