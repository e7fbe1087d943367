/**
 * Members of JDK and library classes, read with `javap -protected` (what a subclass or a
 * caller can use): the class line with its supertypes, fields, constructors and methods.
 * The parser is pure; the reader runs javap once for every class asked together and
 * keeps the answers in memory for the process.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import type { LibraryMember, LibraryType } from '../../plugins/contracts.js';

const HEADER = /^((?:[\w-]+\s+)*?)(class|interface|enum|record|@interface)\s+([\w$.]+)(<.*?>)?(?:\s+extends\s+(.+?))?(?:\s+implements\s+(.+?))?\s*\{$/;
const MODIFIERS = new Set(['public', 'protected', 'private', 'static', 'final', 'abstract', 'native', 'synchronized', 'transient', 'volatile', 'default', 'strictfp', 'sealed', 'non-sealed']);

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
    if (!call[1] && (name === typeName || name.endsWith(`.${simpleType}`) || name === simpleType)) return { kind: 'constructor', name: simpleType.replace(/^.*\$/, ''), parameters, modifiers: words, signature };
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
 * not asked before.
 */
export async function readLibraryTypes(names: readonly string[], classpath: readonly string[], javaHome?: string): Promise<Map<string, LibraryType | undefined>> {
  const key = (name: string) => `${classpath.join(path.delimiter)}\u0000${name}`;
  const fresh = [...new Set(names)].filter((name) => /^[\w$.]+$/.test(name) && !known.has(key(name)));
  if (fresh.length > 0) {
    const run = execa(javapOf(javaHome), ['-protected', ...(classpath.length > 0 ? ['-cp', classpath.join(path.delimiter)] : []), ...fresh], { reject: false, timeout: 60_000 }).then(
      (result) => new Map(parseJavapOutput(result.stdout).map((type) => [type.name, type])),
      () => new Map<string, LibraryType>(),
    );
    for (const name of fresh) known.set(key(name), run.then((types) => types.get(name) ?? types.get(name.replace(/\$/g, '.'))));
  }
  const out = new Map<string, LibraryType | undefined>();
  for (const name of names) out.set(name, await known.get(key(name)));
  return out;
}
