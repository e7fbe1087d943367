/**
 * The symbols a compile error names, read from javac's message, the failing line and the file's imports (static
 * imports too: a bare `WHITESPACE` comes from `import static ...CharMatcher.WHITESPACE;`), with owners as the binary
 * names the dependency's jars know. Pure.
 */
import type { Diagnostic } from '../../diagnose/types.js';
import type { JavaImport } from '../../java/index.js';
import { simpleName } from '../../maven/class-file.js';
import type { JarApi } from '../../maven/jar-api.js';
import { locationOf, symbolOf } from '../context/symbols.js';
import { binaryNameIn, type TouchedSymbol } from './api-diff.js';

function inJar(api: JarApi | undefined, name: string): boolean {
  return binaryNameIn(api, name) !== undefined;
}

/** A simple or dotted name as the file means it: through its imports, else as written. */
function qualify(name: string, imports: readonly JavaImport[], apis: (JarApi | undefined)[]): string {
  const clean = name.replace(/<.*$/, '').trim();
  if (clean.includes('.') && apis.some((api) => inJar(api, clean))) return clean;
  const head = clean.split('.')[0]!;
  const single = imports.find((entry) => !entry.isStatic && entry.simpleName === head);
  if (single) return `${single.name}${clean.slice(head.length)}`;
  // `import static a.b.Owner.MEMBER;` (or `a.b.Owner.*`) names the class `Owner` too.
  const fromStatic = imports
    .filter((entry) => entry.isStatic)
    .map((entry) => entry.name.slice(0, entry.name.lastIndexOf('.')))
    .find((owner) => owner.slice(owner.lastIndexOf('.') + 1) === head);
  if (fromStatic) return `${fromStatic}${clean.slice(head.length)}`;
  for (const entry of imports.filter((entry) => entry.simpleName === '*' && !entry.isStatic)) {
    const candidate = `${entry.name.slice(0, -2)}.${clean}`;
    if (apis.some((api) => inJar(api, candidate))) return candidate;
  }
  return clean;
}

/**
 * The class a bare `name` on the line comes from through `import static Owner.name;` (or `Owner.*` whose class had
 * such a member), when that class is the dependency's.
 */
function staticallyImported(
  name: string,
  lineText: string,
  imports: readonly JavaImport[],
  apis: (JarApi | undefined)[],
): string | undefined {
  if (!new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(lineText)) return undefined;
  for (const entry of imports.filter((candidate) => candidate.isStatic)) {
    const owner = entry.name.slice(0, entry.name.lastIndexOf('.'));
    const last = entry.name.slice(entry.name.lastIndexOf('.') + 1);
    const binaries = apis.map((api) => binaryNameIn(api, owner)).filter((binary): binary is string => Boolean(binary));
    if (binaries.length === 0) continue;
    if (last === name) return binaries[0];
    const hasMember = apis.some((api) => {
      const binary = binaryNameIn(api, owner);
      return binary !== undefined && api!.classes.get(binary)!.members.some((member) => member.name === name);
    });
    if (last === '*' && hasMember) return binaries[0];
  }
  return undefined;
}

/** The symbols a compile error names, with owners as binary names where they are known. */
export function touchedSymbols(
  diagnostic: Diagnostic,
  lineText: string,
  imports: readonly JavaImport[],
  apis: (JarApi | undefined)[],
): TouchedSymbol[] {
  const message = diagnostic.message;
  const q = (name: string) => qualify(name, imports, apis);
  const missingPackage = /^package ([\w.]+) does not exist/.exec(message);
  if (missingPackage) {
    const used = new RegExp(`${missingPackage[1]!.replace(/\./g, '\\.')}\\.([A-Z][\\w$]*)`).exec(lineText);
    return used ? [{ owner: `${missingPackage[1]}.${used[1]}`, kind: 'class' }] : [];
  }
  const symbol = symbolOf(diagnostic);
  const location = locationOf(diagnostic);
  const imported = symbol && location ? staticallyImported(symbol.name, lineText, imports, apis) : undefined;
  if (message.startsWith('cannot find symbol') && symbol && imported && /^(?:variable|method)$/.test(symbol.kind))
    return [
      {
        owner: imported,
        member: symbol.name,
        kind: symbol.kind === 'method' ? 'method' : 'field',
        ...(symbol.argumentTypes ? { argumentTypes: symbol.argumentTypes } : {}),
      },
    ];
  if (message.startsWith('cannot find symbol') && symbol) {
    if (symbol.kind === 'class' || symbol.kind === 'interface')
      return [
        {
          owner: q(
            location &&
              location.kind !== 'variable' &&
              /\.[A-Z]/.test(location.type) &&
              lineText.includes(`.${symbol.name}`)
              ? `${location.type}.${symbol.name}`
              : symbol.name,
          ),
          kind: 'class',
        },
      ];
    if (location) {
      const kind = symbol.kind === 'method' ? 'method' : symbol.kind === 'constructor' ? 'constructor' : 'field';
      return [
        {
          owner: q(location.type),
          member: symbol.name,
          kind,
          ...(symbol.argumentTypes ? { argumentTypes: symbol.argumentTypes } : {}),
        },
      ];
    }
  }
  const constructor = /^constructor ([\w$]+) in (?:class|enum) ([\w.$<>]+) cannot be applied/.exec(message);
  if (constructor) return [{ owner: q(constructor[2]!), kind: 'constructor' }];
  const access = /^([\w$]+)\((.*)\) (?:has (?:private|protected) access in|is not public in) ([\w.$]+)/.exec(message);
  if (access) {
    const argumentTypes = access[2]!.trim() === '' ? [] : access[2]!.split(',').map((type) => type.trim());
    return [
      {
        owner: q(access[3]!),
        argumentTypes,
        ...(simpleName(q(access[3]!)) === access[1]
          ? { kind: 'constructor' as const }
          : { member: access[1]!, kind: 'method' as const }),
      },
    ];
  }
  const field = /^([\w$]+) (?:has (?:private|protected) access in|is not public in) ([\w.$]+)/.exec(message);
  if (field) return [{ owner: q(field[2]!), member: field[1]!, kind: 'field' }];
  const method = /^method ([\w$]+) in (?:class|interface|enum) ([\w.$<>, ]+?) cannot be applied/.exec(message);
  if (method) return [{ owner: q(method[2]!), member: method[1]!, kind: 'method' }];
  const suitable = /^no suitable (method|constructor) found for ([\w$]+)\(/.exec(message);
  if (suitable) {
    const owner = (diagnostic.details ?? [])
      .map((line) => /(?:method|constructor) ([\w.$]+)\.[\w$<>]+\(/.exec(line)?.[1])
      .find(Boolean);
    if (owner)
      return [
        {
          owner: q(owner),
          ...(suitable[1] === 'constructor'
            ? { kind: 'constructor' as const }
            : { member: suitable[2]!, kind: 'method' as const }),
        },
      ];
  }
  const abstract = /does not override abstract method ([\w$]+)\(.*\) in ([\w.$]+)/.exec(message);
  if (abstract) return [{ owner: q(abstract[2]!), member: abstract[1]!, kind: 'method' }];
  // Anything else (incompatible types, ...): the dependency's classes the line names, and the member used on each.
  const out: TouchedSymbol[] = [];
  for (const match of lineText.matchAll(/(?<![\w$.])([A-Z][\w$]*)(?:\s*\.\s*([a-zA-Z_$][\w$]*))?/g)) {
    const owner = q(match[1]!);
    if (!apis.some((api) => inJar(api, owner))) continue;
    out.push({ owner, ...(match[2] ? { member: match[2], kind: 'any' as const } : { kind: 'class' as const }) });
  }
  return out;
}
