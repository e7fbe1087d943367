/**
 * The API difference between two versions of a jar, for the symbols one compile error
 * touches: what was removed, what was added, where a class moved, what the old version
 * deprecated and pointed to, and candidate replacements ranked by name and signature.
 * When the difference names exactly one replacement of a known shape, it is a
 * `Replacement` a quick-fix can write without a model. Pure: the jars are read elsewhere.
 */
import { isStatic, packageOf, simpleName, type ClassMember } from '../../maven/class-file.js';
import type { JarApi } from '../../maven/jar-api.js';
import { editDistance, nameWords } from '../context/pieces.js';
import { describeMember, hierarchyLines, short } from './type-difference.js';

export { describeMember, typeDifference } from './type-difference.js';

/** What a deterministic fix writes; every shape keeps the call's arguments as they are. */
export type Replacement =
  | { shape: 'moved-class'; from: string; to: string }
  | { shape: 'moved-static-member'; member: string; fromClass: string; toClass: string }
  | { shape: 'field-to-accessor'; field: string; accessor: string; owner: string }
  | { shape: 'renamed-method'; from: string; to: string; owner: string }
  | { shape: 'constructor-to-factory'; owner: string; factory: string };

/** The symbol an error is about, as the caller read it from javac's message and the source. */
export interface TouchedSymbol {
  /** Binary name of the class the member was looked up in, or the class that is missing. */
  owner: string;
  /** Member name; absent when the error is about the class itself. */
  member?: string;
  kind: 'class' | 'method' | 'field' | 'constructor' | 'any';
  /** Argument types javac printed, when it did. */
  argumentTypes?: string[];
}

export interface SymbolDifference {
  /** Lines for the prompt: `- removed ...`, `+ added ...`, `~ moved ...`, `! deprecated ...`, `? candidate ...`. */
  lines: string[];
  /** Replacement members and classes, best first, as Java-like signatures. */
  candidates: string[];
  replacement?: Replacement;
}

/** What the old version's sources said about a deprecated member, looked up by the caller. */
export type DeprecationNotes = Map<string, string>;
export const noteKey = (owner: string, member: string) => `${owner}#${member}`;

const MAX_CANDIDATES = 5;
const MAX_ADDED = 8;

const parametersOf = (descriptor: string) => descriptor.slice(0, descriptor.indexOf(')') + 1);

/** `com.acme.Outer.Inner<T>` as javac prints it -> the binary name the API knows, if any. */
export function binaryNameIn(api: JarApi | undefined, printed: string): string | undefined {
  if (!api) return undefined;
  let name = printed.replace(/<.*$/, '').trim();
  for (let i = 0; i < 4; i++) {
    if (api.classes.has(name)) return name;
    const dot = name.lastIndexOf('.');
    if (dot < 0) return undefined;
    name = `${name.slice(0, dot)}$${name.slice(dot + 1)}`;
  }
  return undefined;
}

/** A class's members with the visible members of its supertypes in the same jar. */
function membersWithInherited(
  api: JarApi,
  name: string,
  seen = new Set<string>(),
): { owner: string; member: ClassMember }[] {
  const info = api.classes.get(name);
  if (!info || seen.has(name)) return [];
  seen.add(name);
  const own = info.members.map((member) => ({ owner: name, member }));
  const inherited = [info.superName, ...info.interfaces]
    .filter((s): s is string => Boolean(s))
    .flatMap((s) => membersWithInherited(api, s, seen));
  return [...own, ...inherited.filter((entry) => entry.member.kind !== 'constructor')];
}

function similarity(wanted: string, candidate: string): number {
  if (wanted === candidate) return 3;
  const a = nameWords(wanted).map((w) => w.toLowerCase());
  const b = new Set(nameWords(candidate).map((w) => w.toLowerCase()));
  const shared = a.filter((word) => b.has(word)).length / Math.max(a.length, 1);
  return (
    2 * shared +
    Math.max(
      0,
      1 - editDistance(wanted.toLowerCase(), candidate.toLowerCase()) / Math.max(wanted.length, candidate.length),
    )
  );
}

/** Names a deprecation text points to: `{@link #foo}`, `{@link Bar#foo(int)}`, `use foo() instead`, `{@link Bar}`. */
export function pointersIn(text: string | undefined): { owner?: string; member?: string }[] {
  if (!text) return [];
  const out: { owner?: string; member?: string }[] = [];
  for (const match of text.matchAll(/\{@link(?:plain)?\s+([\w.$]*)(?:#([\w$]+))?[^}]*\}/g))
    out.push({ ...(match[1] ? { owner: match[1] } : {}), ...(match[2] ? { member: match[2] } : {}) });
  for (const match of text.matchAll(/\b(?:[Uu]se|[Rr]eplaced by|[Ss]ee)\s+`?(?:([A-Z][\w$]*)\.)?([a-z][\w$]*)\s*\(/g))
    if (match[2]) out.push({ ...(match[1] ? { owner: match[1] } : {}), member: match[2] });
  return out;
}

/**
 * The difference for one touched symbol. `oldApi` undefined: the old jar is not local; the new version's members are
 * shown.
 */
export function symbolDifference(
  symbol: TouchedSymbol,
  oldApi: JarApi | undefined,
  newApi: JarApi,
  notes: DeprecationNotes = new Map(),
): SymbolDifference {
  const lines: string[] = [];
  if (symbol.kind === 'class') return classDifference(symbol.owner, oldApi, newApi, lines);
  const owner = binaryNameIn(newApi, symbol.owner) ?? binaryNameIn(oldApi, symbol.owner) ?? symbol.owner;
  const oldClass = oldApi?.classes.get(owner);
  const newClass = newApi.classes.get(owner);
  if (!newClass && oldApi) {
    const moved = classDifference(owner, oldApi, newApi, lines);
    if (moved.replacement || !symbol.member) return moved;
  }
  const wanted = symbol.member ?? '';
  const oldMembers = oldApi ? membersWithInherited(oldApi, owner) : [];
  const newMembers = membersWithInherited(newApi, owner);
  const sameKind = (member: ClassMember) =>
    symbol.kind === 'any' ||
    member.kind === symbol.kind ||
    (symbol.kind === 'method' && member.kind === 'method') ||
    (symbol.kind === 'field' && member.kind === 'field');
  const before = oldMembers.filter(({ member }) =>
    symbol.kind === 'constructor'
      ? member.kind === 'constructor' && member.access & 1
      : member.name === wanted && sameKind(member),
  );
  const after = newMembers.filter(({ member }) =>
    symbol.kind === 'constructor' ? member.kind === 'constructor' : member.name === wanted && sameKind(member),
  );
  const has = (list: typeof after, member: ClassMember) =>
    list.some(
      (entry) =>
        entry.member.name === member.name &&
        entry.member.descriptor === member.descriptor &&
        entry.member.kind === member.kind,
    );
  const removed = before.filter(({ member }) => !has(after, member));
  const added = after.filter(({ member }) => !has(before, member));
  if (!oldApi)
    lines.push(`(the old version is not in the local repository: showing the new version's ${short(owner)})`);
  for (const { owner: declared, member } of removed) {
    const note = notes.get(noteKey(declared, member.name));
    lines.push(
      `- removed: ${describeMember(declared, member)}${member.deprecated ? ` (deprecated in the old version${note ? `: "${note}"` : ''})` : ''}`,
    );
  }
  for (const { owner: declared, member } of added) lines.push(`+ added: ${describeMember(declared, member)}`);
  for (const { owner: declared, member } of after.filter(({ member }) => has(before, member)))
    lines.push(`  kept: ${describeMember(declared, member)}`);

  // Candidates: members of the new owner (and, for a static member, of every class) ranked by name and signature.
  // The overload the call meant: the one with as many parameters as javac saw arguments, when it printed them.
  const arity = (list: typeof before) =>
    symbol.argumentTypes
      ? list.filter(({ member }) => member.parameters.length === symbol.argumentTypes!.length)
      : list;
  const template = arity(removed)[0]?.member ?? removed[0]?.member ?? arity(before)[0]?.member ?? before[0]?.member;
  const pointers = removed.flatMap(({ owner: declared, member }) =>
    pointersIn(notes.get(noteKey(declared, member.name))),
  );
  const ranked = rankCandidates(symbol, owner, template, oldApi, newApi, pointers);
  for (const candidate of ranked.slice(0, MAX_CANDIDATES))
    lines.push(
      `? candidate: ${describeMember(candidate.owner, candidate.member)}${candidate.why ? ` (${candidate.why})` : ''}`,
    );
  if (!template && newClass) {
    const fresh = newClass.members.filter(
      (member) =>
        !oldClass?.members.some((known) => known.name === member.name && known.descriptor === member.descriptor),
    );
    for (const member of fresh.slice(0, MAX_ADDED)) lines.push(`+ added: ${describeMember(owner, member)}`);
  }
  const replacement =
    template && ranked.length > 0 ? replacementFor(symbol, owner, template, ranked, removed.length > 0) : undefined;
  return {
    lines: [...new Set(lines)],
    candidates: ranked.slice(0, MAX_CANDIDATES).map((c) => describeMember(c.owner, c.member)),
    ...(replacement ? { replacement } : {}),
  };
}

interface Candidate {
  owner: string;
  member: ClassMember;
  score: number;
  sameParameters: boolean;
  pointed: boolean;
  /** Not in the old version's class: what a rename would look like. */
  isNew: boolean;
  why?: string;
}

function rankCandidates(
  symbol: TouchedSymbol,
  owner: string,
  template: ClassMember | undefined,
  oldApi: JarApi | undefined,
  newApi: JarApi,
  pointers: { owner?: string; member?: string }[],
): Candidate[] {
  const wanted = symbol.kind === 'constructor' ? simpleName(owner) : (symbol.member ?? '');
  const existedBefore = (declared: string, member: ClassMember) =>
    oldApi?.classes
      .get(declared)
      ?.members.some((known) => known.name === member.name && known.descriptor === member.descriptor) ?? false;
  const pool: { owner: string; member: ClassMember }[] = membersWithInherited(newApi, owner);
  const staticLookup = symbol.kind === 'constructor' || (template !== undefined && isStatic(template.access));
  if (staticLookup && template) {
    for (const [name, info] of newApi.classes)
      if (name !== owner)
        for (const member of info.members)
          if (isStatic(member.access) && member.name === template.name) pool.push({ owner: name, member });
  }
  const out: Candidate[] = [];
  for (const { owner: declared, member } of pool) {
    if (
      symbol.kind !== 'constructor' &&
      member.name === wanted &&
      declared === owner &&
      template &&
      member.descriptor === template.descriptor
    )
      continue;
    if (
      symbol.kind === 'constructor' &&
      !(isStatic(member.access) && member.kind === 'method' && member.type === owner)
    )
      continue;
    if (symbol.kind !== 'constructor' && member.kind === 'constructor') continue;
    const sameParameters =
      template !== undefined &&
      (member.kind === 'field'
        ? template.kind === 'field'
        : parametersOf(member.descriptor) === parametersOf(template.descriptor) ||
          (template.kind === 'field' && member.parameters.length === 0 && member.type === template.type));
    const pointed = pointers.some(
      (pointer) =>
        pointer.member === member.name &&
        (!pointer.owner ||
          simpleName(declared) === simpleName(pointer.owner) ||
          declared.endsWith(`.${pointer.owner}`)),
    );
    const isNew = !existedBefore(declared, member);
    const score =
      similarity(wanted, member.name) +
      (sameParameters ? 2 : 0) +
      (template && member.type === template.type ? 0.5 : 0) +
      (pointed ? 4 : 0) +
      (isNew ? 0.5 : 0);
    if (score < 1.2 && !pointed) continue;
    const why = [
      pointed ? 'the deprecation points here' : '',
      sameParameters ? 'same parameters' : '',
      declared !== owner ? `in ${short(declared)}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    out.push({ owner: declared, member, score, sameParameters, pointed, isNew, ...(why ? { why } : {}) });
  }
  return out.sort((a, b) => b.score - a.score);
}

/**
 * `WHITESPACE` and `whitespace`, `JAVA_LETTER_OR_DIGIT` and `javaLetterOrDigit`: one name written in another case
 * convention. With the same type and no parameters (the caller checks), such a method is not a guess.
 */
export function sameButForCaseAndUnderscores(a: string, b: string): boolean {
  const plain = (name: string) => name.replace(/_/g, '').toLowerCase();
  return a !== b && plain(a) === plain(b);
}

/** The one unambiguous replacement of a known shape, or undefined (the model decides). */
function replacementFor(
  symbol: TouchedSymbol,
  owner: string,
  template: ClassMember,
  ranked: Candidate[],
  removed: boolean,
): Replacement | undefined {
  const fits = ranked.filter((candidate) => candidate.sameParameters);
  const pointed = fits.filter((candidate) => candidate.pointed);
  const pick = (list: Candidate[]) => (pointed.length === 1 ? pointed[0] : list.length === 1 ? list[0] : undefined);
  if (symbol.kind === 'constructor') {
    const chosen = pick(fits.filter((candidate) => candidate.owner === owner));
    return chosen ? { shape: 'constructor-to-factory', owner, factory: chosen.member.name } : undefined;
  }
  if (!removed) return undefined;
  if (template.kind === 'field') {
    const accessors = fits.filter(
      (candidate) =>
        candidate.owner === owner &&
        candidate.member.kind === 'method' &&
        isStatic(candidate.member.access) === isStatic(template.access) &&
        ([
          template.name,
          `get${template.name[0]!.toUpperCase()}${template.name.slice(1)}`,
          `is${template.name[0]!.toUpperCase()}${template.name.slice(1)}`,
        ].includes(candidate.member.name) ||
          sameButForCaseAndUnderscores(template.name, candidate.member.name)),
    );
    const chosen = pick(accessors);
    if (chosen) return { shape: 'field-to-accessor', field: template.name, accessor: chosen.member.name, owner };
  }
  if (isStatic(template.access)) {
    const moved = fits.filter(
      (candidate) =>
        candidate.owner !== owner && candidate.member.name === template.name && candidate.member.kind === template.kind,
    );
    const chosen = pick(moved);
    if (chosen) return { shape: 'moved-static-member', member: template.name, fromClass: owner, toClass: chosen.owner };
  }
  if (template.kind === 'method') {
    const renamed = fits.filter(
      (candidate) =>
        candidate.owner === owner &&
        candidate.member.kind === 'method' &&
        candidate.member.name !== template.name &&
        candidate.member.descriptor === template.descriptor &&
        (candidate.pointed || candidate.isNew),
    );
    // Several new methods of the same signature: the one that keeps a word of the old name (currentMillis -> millis).
    const words = new Set(nameWords(template.name).map((word) => word.toLowerCase()));
    const sharing = renamed.filter((candidate) =>
      nameWords(candidate.member.name).some((word) => words.has(word.toLowerCase())),
    );
    const chosen = pick(renamed) ?? (sharing.length === 1 ? sharing[0] : undefined);
    if (chosen) return { shape: 'renamed-method', from: template.name, to: chosen.member.name, owner };
  }
  return undefined;
}

/** A class the errors name: removed, or moved to another package (one class of that simple name). */
function classDifference(name: string, oldApi: JarApi | undefined, newApi: JarApi, lines: string[]): SymbolDifference {
  const simple = simpleName(name);
  const fullName = binaryNameIn(oldApi, name) ?? name;
  if (newApi.classes.has(fullName)) return { lines, candidates: [] };
  const elsewhere = (newApi.bySimpleName.get(simple) ?? []).filter((other) => other !== fullName);
  const oldInfo = oldApi?.classes.get(fullName);
  if (oldInfo)
    lines.push(
      `- removed class: ${short(fullName)} (was ${fullName}${oldInfo.deprecated ? ', deprecated in the old version' : ''})`,
    );
  else if (oldApi) lines.push(`- no class ${fullName} in either version`);
  for (const other of elsewhere) lines.push(`~ moved: ${fullName} -> ${other}`);
  if (elsewhere.length === 0) {
    const near = [...newApi.bySimpleName.keys()]
      .map((candidate) => ({ candidate, score: similarity(simple, candidate) }))
      .filter((c) => c.score >= 1.2)
      .sort((a, b) => b.score - a.score)
      .slice(0, MAX_CANDIDATES);
    for (const { candidate } of near)
      for (const binary of newApi.bySimpleName.get(candidate) ?? [])
        lines.push(`? candidate class: ${binary}${oldApi?.classes.has(binary) ? '' : ' (new in this version)'}`);
    // A replaced hierarchy: what the package gained in its place.
    const added = [...newApi.classes.values()].filter(
      (info) =>
        packageOf(info.name) === packageOf(fullName) && !info.name.includes('$') && !oldApi?.classes.has(info.name),
    );
    for (const info of added.slice(0, MAX_ADDED))
      lines.push(
        `+ added ${(info.access & 0x0200) !== 0 ? 'interface' : 'class'}: ${info.name} { ${info.members
          .filter((m) => m.kind === 'method')
          .slice(0, 4)
          .map((m) => describeMember(info.name, m).replace(/^.*?(\w+\()/, '$1'))
          .join('; ')} }`,
      );
  }
  if (oldInfo)
    lines.push(...hierarchyLines(oldInfo, elsewhere.length === 1 ? newApi.classes.get(elsewhere[0]!) : undefined));
  const to = elsewhere.length === 1 ? elsewhere[0]! : undefined;
  return {
    lines,
    candidates: elsewhere,
    ...(to && packageOf(to) !== packageOf(fullName) && !fullName.includes('$')
      ? { replacement: { shape: 'moved-class', from: fullName, to } }
      : {}),
  };
}
