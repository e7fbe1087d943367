/**
 * "cannot find symbol" for a method or field whose name is close to exactly one member
 * the code can reach: `_fromEmptyValue(ctxt)` where a superclass has
 * `_fromEmptyString(ReadContext)`. The members come from the type javac looked in
 * (`location:`), its superclasses and interfaces: project sources, the JDK and the jars.
 * Close means a typo (edit distance 1, or 2 for names over five letters) or one word of
 * a camelCase name swapped with two or more kept; a method must also take the argument
 * types javac reports. Two close members, or none: no fix (the model gets them listed).
 */
import type { Diagnostic } from '../../diagnose/types.js';
import { allTypes, fieldsOf, maskCommentsAndLiterals, typeParametersOf, type JavaMethod } from '../../java/index.js';
import { locationOf, symbolOf, type SymbolReference } from '../context/symbols.js';
import { ProjectSources, type HierarchyType, type ProjectType } from '../context/sources.js';
import { editDistance, nameWords } from '../context/pieces.js';
import { byFile, isPlacedCompileError } from './support/diagnostic-text.js';
import type { FixCandidate, Fixer, FixerContext, LibraryMember, SourceView } from '../../plugins/contracts.js';
import { createTypeIndex } from '../../codebase/index.js';

const NAME = 'renamed-member';

export { nameWords };

function handles(diagnostic: Diagnostic): boolean {
  if (!isPlacedCompileError(diagnostic) || diagnostic.message !== 'cannot find symbol') return false;
  const symbol = symbolOf(diagnostic);
  return (symbol?.kind === 'method' || symbol?.kind === 'variable') && locationOf(diagnostic) !== undefined;
}

/** Whether `candidate` is plausibly what `wanted` was meant to be (never the same name). */
export function isNearName(wanted: string, candidate: string): boolean {
  if (wanted === candidate) return false;
  const distance = editDistance(wanted, candidate);
  if (distance <= (wanted.length > 5 ? 2 : 1) && distance < wanted.length / 2) return true;
  const a = nameWords(wanted).map((word) => word.toLowerCase());
  const b = nameWords(candidate).map((word) => word.toLowerCase());
  if (Math.abs(a.length - b.length) > 1) return false;
  // One word replaced, added or dropped, at least two (real) words kept in place.
  const prefix = commonPrefix(a, b);
  const suffix = commonPrefix(
    [...a].reverse().slice(0, a.length - prefix),
    [...b].reverse().slice(0, b.length - prefix),
  );
  const kept = [...a.slice(0, prefix), ...a.slice(a.length - suffix)].filter((word) => /[a-z0-9]/.test(word)).length;
  return kept >= 2 && Math.max(a.length, b.length) - (prefix + suffix) === 1;
}

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

const PRIMITIVE_WIDENING: Record<string, string[]> = {
  byte: ['short', 'int', 'long', 'float', 'double'],
  short: ['int', 'long', 'float', 'double'],
  char: ['int', 'long', 'float', 'double'],
  int: ['long', 'float', 'double'],
  long: ['float', 'double'],
  float: ['double'],
};
const BOXES: Record<string, string> = {
  boolean: 'Boolean',
  byte: 'Byte',
  short: 'Short',
  char: 'Character',
  int: 'Integer',
  long: 'Long',
  float: 'Float',
  double: 'Double',
};

const simple = (type: string) => {
  const raw = type
    .replace(/<[^<>]*(?:<[^<>]*>[^<>]*)*>/g, '')
    .replace(/\.\.\.$/, '[]')
    .trim();
  return raw.slice(raw.lastIndexOf('.') + 1);
};

/** Whether an argument of javac's type `argument` can be passed as `parameter` (simple reasoning, erring on "no"). */
export function accepts(parameter: string, argument: string, typeVariables: readonly string[]): boolean {
  const p = simple(parameter);
  if (/^<null(?:type)?>$/.test(argument.trim())) return !(p in BOXES);
  const a = simple(argument);
  if (p === a || typeVariables.includes(p) || /^[A-Z]$/.test(p)) return true;
  if (p === 'Object') return true;
  if (PRIMITIVE_WIDENING[a]?.includes(p)) return true;
  return BOXES[a] === p || BOXES[p] === a;
}

interface Reachable {
  name: string;
  kind: 'method' | 'field';
  parameters?: string[];
  typeVariables: string[];
  /** Where it is declared, for the reason. */
  owner: string;
}

function projectMembers(
  project: ProjectType,
  wantKind: 'method' | 'field',
  own: boolean,
  samePackage: boolean,
): Reachable[] {
  const visible = (modifiers: string[]) => {
    if (modifiers.includes('private')) return own;
    if (modifiers.includes('public') || modifiers.includes('protected')) return true;
    return samePackage || project.type.kind === 'interface';
  };
  const classVariables = typeParametersOf(project.type);
  if (wantKind === 'field')
    return fieldsOf(project.type)
      .filter((field) => visible(field.modifiers))
      .map((field) => ({ name: field.name, kind: 'field', typeVariables: [], owner: project.type.name }));
  return project.type.methods
    .filter((method: JavaMethod) => method.kind === 'method' && visible(method.modifiers))
    .map((method) => ({
      name: method.name,
      kind: 'method',
      parameters: method.parameters.map((parameter) => parameter.type),
      typeVariables: [...classVariables, ...typeParametersOf(method)],
      owner: project.type.name,
    }));
}

function libraryMembers(
  members: LibraryMember[],
  owner: string,
  wantKind: 'method' | 'field',
  subclass: boolean,
): Reachable[] {
  return members
    .filter(
      (member) =>
        member.kind === wantKind &&
        (member.modifiers.includes('public') || (subclass && member.modifiers.includes('protected'))),
    )
    .map((member) => ({
      name: member.name,
      kind: wantKind,
      parameters: member.parameters,
      typeVariables: [],
      owner: owner.slice(owner.lastIndexOf('.') + 1),
    }));
}

function fits(member: Reachable, symbol: SymbolReference): boolean {
  if (member.kind === 'field' || symbol.argumentTypes === undefined) return true;
  const parameters = member.parameters ?? [];
  const args = symbol.argumentTypes;
  const varargs = parameters.at(-1)?.endsWith('...');
  if (!varargs && parameters.length !== args.length) return false;
  if (varargs && args.length < parameters.length - 1) return false;
  return args.every((argument, index) => {
    const parameter = parameters[Math.min(index, parameters.length - 1)]!;
    const single = varargs && index >= parameters.length - 1 ? parameter.replace(/\.\.\.$/, '') : parameter;
    return (
      accepts(single, argument, member.typeVariables) ||
      (varargs === true && accepts(parameter, argument, member.typeVariables))
    );
  });
}

/** The one reachable member `symbol` was probably meant to be, or undefined. */
async function intendedMember(
  diagnostic: Diagnostic & { file: string },
  sources: ProjectSources,
): Promise<Reachable | undefined> {
  const symbol = symbolOf(diagnostic)!;
  const location = locationOf(diagnostic)!;
  const wantKind = symbol.kind === 'method' ? 'method' : 'field';
  const file = await sources.parse(diagnostic.file);
  const typeName = location.type.replace(/<.*$/, '');
  const start: HierarchyType | undefined = await (async () => {
    const project = await sources.type(typeName);
    if (project) return { project };
    const library = await sources.library(typeName, diagnostic.file);
    return library ? { library } : undefined;
  })();
  if (!start) return undefined;
  // Looked up in the class being compiled (an unqualified name, `this.x`, `super.x`): its own and inherited protected
  // members are reachable.
  const inside =
    location.kind !== 'variable' &&
    file !== undefined &&
    allTypes(file).some((type) => type.binaryName.replace(/\$/g, '.') === typeName.replace(/\$/g, '.'));
  const near: Reachable[] = [];
  for (const [rank, entry] of (await sources.hierarchy(start, diagnostic.file)).entries()) {
    const members =
      'project' in entry
        ? projectMembers(
            entry.project,
            wantKind,
            inside && rank === 0,
            entry.project.file.packageName === file?.packageName,
          )
        : libraryMembers(entry.library.members, entry.library.name, wantKind, inside);
    for (const member of members)
      if (
        isNearName(symbol.name, member.name) &&
        fits(member, symbol) &&
        !near.some((known) => known.name === member.name)
      )
        near.push(member);
  }
  return near.length === 1 ? near[0] : undefined;
}

/** Offsets of `name` as a whole word on `line` outside string and char literals. */
/**
 * 0-based columns where `name` stands as a whole identifier in the code of a 1-based line:
 * not in a comment, a string, a char or a text block (src/java's masking, over the whole
 * file so that a comment or text block begun on an earlier line counts).
 */
export function codeOccurrences(text: string, line: number, name: string): number[] {
  const lineText = maskCommentsAndLiterals(text).split('\n')[line - 1] ?? '';
  const pattern = new RegExp(`(?<![\\w$])${name.replace(/[$]/g, '\\$')}(?![\\w$])`, 'g');
  return [...lineText.matchAll(pattern)].map((match) => match.index);
}

async function propose(diagnostics: Diagnostic[], view: SourceView, context: FixerContext): Promise<FixCandidate[]> {
  const placed = diagnostics.filter(handles).filter(isPlacedCompileError);
  if (placed.length === 0) return [];
  const types =
    context.types ??
    createTypeIndex({
      projectRoot: view.root,
      javaHome: context.javaHome,
      classpath: context.classpath,
      testClasspath: context.testClasspath,
      localRepository: context.localRepository,
      cacheDir: context.cacheDir,
    });
  const sources = new ProjectSources(view, types);
  const candidates: FixCandidate[] = [];
  for (const [path, group] of byFile(placed)) {
    const before = await view.read(path);
    if (before === undefined) continue;
    const lines = before.split('\n');
    const renames = new Map<string, { line: number; at: number; from: string; to: string }>();
    const reasons: string[] = [];
    for (const diagnostic of group) {
      const member = await intendedMember(diagnostic, sources);
      if (!member) continue;
      const wanted = symbolOf(diagnostic)!.name;
      const column = (diagnostic.column ?? 1) - 1;
      const at = codeOccurrences(before, diagnostic.line, wanted).sort(
        (a, b) => Math.abs(a - column) - Math.abs(b - column),
      )[0];
      if (at === undefined) continue;
      renames.set(`${diagnostic.line}:${at}`, { line: diagnostic.line, at, from: wanted, to: member.name });
      const reason = `${wanted} -> ${member.name} (${member.kind} of ${member.owner})`;
      if (!reasons.includes(reason)) reasons.push(reason);
    }
    if (renames.size === 0) continue;
    // Right to left, so earlier offsets on the same line stay valid.
    for (const rename of [...renames.values()].sort((a, b) => b.line - a.line || b.at - a.at)) {
      const text = lines[rename.line - 1]!;
      lines[rename.line - 1] = `${text.slice(0, rename.at)}${rename.to}${text.slice(rename.at + rename.from.length)}`;
    }
    candidates.push({
      fixer: NAME,
      changeSet: { files: [{ path, before, after: lines.join('\n') }] },
      confidence: 0.75,
      reason: `cannot find symbol: the one reachable member with a near name and a fitting signature: ${reasons.join('; ')}`,
    });
  }
  return candidates;
}

export const renamedMemberFixer: Fixer = { name: NAME, handles, propose };
