/**
 * Context for a compile error: the method (or the lines) javac names, the file's imports
 * and the type's declaration and fields; and for an error about a symbol (`cannot find
 * symbol`, `incompatible types`, `method ... cannot be applied`, `no suitable method`),
 * the declarations a fix may need: the members of the type the symbol was looked up in,
 * with its superclasses and interfaces (project sources, the JDK, the jars), nearest
 * names first.
 */
import {
  callReceivers,
  fieldsOf,
  findMethodCalls,
  lineAt,
  methodAt,
  offsetAt,
  rawTypeName,
  typeAt,
  type JavaMethodCall,
  type JavaSourceFile,
} from '../../java/index.js';
import type { Diagnostic } from '../../diagnose/types.js';
import type { ContextPiece } from '../../model/prompts/index.js';
import { PieceSet } from './pieces.js';
import { surroundings } from './supporting.js';
import {
  declarationPiece,
  editDistance,
  fieldPiece,
  nameDistance,
  libraryPiece,
  linesPiece,
  methodPiece,
  typeHeaderPiece,
  unparsedPieces,
} from './pieces.js';
import type { HierarchyType, ProjectSources } from './sources.js';

export interface SymbolReference {
  kind: string;
  name: string;
  /** Argument types javac printed for a method symbol: `_fromEmptyValue(com.acme.ReadContext)`. */
  argumentTypes?: string[];
}

export interface SymbolLocation {
  /** `class`, `interface`, `variable`, ... */
  kind: string;
  /** The type the symbol was looked up in: `com.acme.Foo`, `java.util.List<java.lang.String>`. */
  type: string;
  /** For `variable x of type T`: x. */
  variable?: string;
}

/** `symbol:   method _fromEmptyValue(com.acme.ReadContext)` from a javac diagnostic's details. */
export function symbolOf(diagnostic: Diagnostic): SymbolReference | undefined {
  for (const line of diagnostic.details ?? []) {
    const match = /^\s*(?:\[ERROR\]\s*)?symbol:\s+(\w+)\s+([\w$]+)(?:\((.*)\))?/.exec(line);
    if (!match) continue;
    const args = match[3];
    return {
      kind: match[1]!,
      name: match[2]!,
      ...(args !== undefined ? { argumentTypes: args.trim() === '' ? [] : splitArguments(args) } : {}),
    };
  }
  return undefined;
}

/** `location: variable invoice of type com.acme.Invoice` or `location: class com.acme.Foo`. */
export function locationOf(diagnostic: Diagnostic): SymbolLocation | undefined {
  for (const line of diagnostic.details ?? []) {
    const variable = /^\s*(?:\[ERROR\]\s*)?location:\s+variable\s+([\w$]+)\s+of\s+type\s+(.+?)\s*$/.exec(line);
    if (variable) return { kind: 'variable', variable: variable[1]!, type: variable[2]! };
    const type = /^\s*(?:\[ERROR\]\s*)?location:\s+(class|interface|enum|record|@interface)\s+(.+?)\s*$/.exec(line);
    if (type) return { kind: type[1]!, type: type[2]! };
  }
  return undefined;
}

function splitArguments(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '<') depth++;
    else if (char === '>') depth--;
    if (char === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/** Library types (the receiver and its nearest supertypes) listed for one symbol. */
const MAX_LIBRARY_TYPES = 3;

const ABOUT_A_CALL =
  /^(?:incompatible types|method .+ cannot be applied|no suitable (?:method|constructor) found|constructor .+ cannot be applied|.*cannot be dereferenced)/;

export async function compileErrorContext(diagnostic: Diagnostic, sources: ProjectSources): Promise<ContextPiece[]> {
  const out = new PieceSet();
  const path = diagnostic.file;
  if (!path) return [];
  const line = diagnostic.line ?? 1;
  const text = await sources.access.read(path);
  if (text === undefined) return [];
  const file = await sources.parse(path);
  const reason = `${diagnostic.kind === 'quality' ? `where ${diagnostic.tool ?? 'the check'} fails` : 'where javac fails'}: ${diagnostic.message.slice(0, 120)}`;
  if (!file) {
    out.addAll(unparsedPieces(path, text, line, { tier: 'primary', score: 100, reason }));
    return out.pieces;
  }
  const found = methodAt(file, { line });
  const owner = found?.type ?? typeAt(file, { line });
  if (found) out.add(methodPiece(path, file, found.method, { tier: 'primary', score: 100, reason }, line));
  else
    out.add(
      linesPiece(path, file.text, line - 8, line + 8, `lines around line ${line}`, {
        tier: 'primary',
        score: 100,
        reason,
      }),
    );
  if (owner) {
    surroundings(out, path, file, owner, 96, reason, 'primary', true);
    for (const method of owner.methods)
      out.add(methodPiece(path, file, method, { tier: 'other', score: 30, reason: `rest of ${owner.name}` }));
  } else {
    out.add(
      linesPiece(path, file.text, 1, Math.min(lineAt(file.text, file.text.length), 40), 'start of the file', {
        tier: 'primary',
        score: 95,
        reason,
      }),
    );
  }

  const symbol = symbolOf(diagnostic);
  const location = locationOf(diagnostic);
  if (symbol && location && symbol.kind !== 'class' && symbol.kind !== 'package') {
    await memberDeclarations(
      out,
      sources,
      path,
      file,
      location.type,
      symbol.name,
      `declarations ${symbol.name} may mean`,
    );
  } else if (symbol?.kind === 'class') {
    await similarTypes(out, sources, symbol.name);
  }
  if (ABOUT_A_CALL.test(diagnostic.message) && found) {
    const call = callAt(file, found.method, line, diagnostic.column);
    const receiver =
      call &&
      callReceivers(found.method, found.type).find(
        (entry) => entry.call === call || entry.call.range.start === call.range.start,
      );
    const named = /^(?:method|constructor) \S+ in (?:class|interface|enum|record) ([\w$.<>]+) cannot be applied/.exec(
      diagnostic.message,
    )?.[1];
    const typeName = named ?? receiver?.typeName;
    if (call && typeName)
      await memberDeclarations(out, sources, path, file, typeName, call.name, `what ${call.name}(...) takes`);
    for (const written of diagnostic.message.match(/\b[\w$.]*[A-Z][\w$]*\b/g) ?? []) {
      const project = await projectType(sources, written, file);
      if (project)
        await memberDeclarations(
          out,
          sources,
          path,
          file,
          written,
          undefined,
          `type named in the error: ${project.type.name}`,
          60,
        );
    }
  }
  return out.pieces;
}

/** The innermost call on `line` whose argument list holds `column`; else the first call on the line. */
export function callAt(
  file: JavaSourceFile,
  scope: Parameters<typeof findMethodCalls>[0],
  line: number,
  column?: number,
): JavaMethodCall | undefined {
  const calls = findMethodCalls(scope).filter((call) => call.range.startLine <= line && line <= call.range.endLine);
  if (calls.length === 0) return undefined;
  if (column !== undefined) {
    const offset = offsetAt(file.text, line, column);
    const inside = calls.filter((call) => {
      const nameAt = call.range.start + call.text.indexOf(call.name, call.qualifier ? call.qualifier.length : 0);
      const open = call.range.start + call.text.indexOf('(', nameAt - call.range.start);
      return open < offset && offset < call.range.end;
    });
    if (inside.length > 0) return inside.sort((a, b) => a.range.end - a.range.start - (b.range.end - b.range.start))[0];
  }
  return calls[0];
}

async function projectType(sources: ProjectSources, written: string, file: JavaSourceFile) {
  const name = rawTypeName(written);
  const qualified = name.includes('.') && /^[a-z]/.test(name) ? name : await sources.qualify(name, file);
  return qualified ? sources.type(qualified) : undefined;
}

/**
 * The members of `typeName` and its supertypes as declaration pieces, nearest names to
 * `near` first: project members as their own declaration lines (editable), library types
 * as member lists.
 */
export async function memberDeclarations(
  out: PieceSet,
  sources: ProjectSources,
  path: string,
  file: JavaSourceFile,
  typeName: string,
  near: string | undefined,
  reason: string,
  base = 85,
): Promise<void> {
  const start = await hierarchyStart(sources, path, file, typeName);
  if (!start) return;
  const hierarchy = await sources.hierarchy(start, path);
  const members: { piece: ContextPiece | undefined; distance: number; rank: number }[] = [];
  let libraries = 0;
  for (const [rank, entry] of hierarchy.entries()) {
    if ('library' in entry) {
      // The JDK's hierarchies are wide (String has five interfaces); the nearest few say enough.
      if (libraries++ >= MAX_LIBRARY_TYPES) continue;
      out.add(
        libraryPiece(entry.library, near, rank === 0 ? 'the type the symbol is looked up in' : 'a supertype', {
          tier: 'declaration',
          score: base - 5 - rank,
          reason,
        }),
      );
      continue;
    }
    const { project } = entry;
    const own = rank === 0;
    const why = `${reason}: ${project.type.name}${own ? '' : ' (a supertype)'}`;
    out.add(
      typeHeaderPiece(project.path, project.file, project.type, {
        tier: 'declaration',
        score: base - rank * 0.5,
        reason: why,
      }),
    );
    for (const field of fieldsOf(project.type)) {
      if (!own && field.modifiers.includes('private')) continue;
      members.push({
        piece: fieldPiece(project.path, project.file, field, { tier: 'declaration', score: 0, reason: why }),
        distance: near ? nameDistance(near, field.name) : 0,
        rank,
      });
    }
    // Constructors and private members are not inherited.
    for (const method of project.type.methods) {
      if (!own && (method.modifiers.includes('private') || method.kind === 'constructor')) continue;
      members.push({
        piece: declarationPiece(project.path, project.file, method, { tier: 'declaration', score: 0, reason: why }),
        distance: near ? nameDistance(near, method.name) : 0,
        rank,
      });
    }
  }
  members.sort((a, b) => a.distance - b.distance || a.rank - b.rank);
  members.forEach((member, index) => {
    if (member.piece) out.add({ ...member.piece, score: base - 1 - index * 0.25 });
  });
}

async function hierarchyStart(
  sources: ProjectSources,
  path: string,
  file: JavaSourceFile,
  typeName: string,
): Promise<HierarchyType | undefined> {
  const project = await projectType(sources, typeName, file);
  if (project) return { project };
  const name = rawTypeName(typeName);
  const binary =
    name.includes('.') && /^[a-z]/.test(name) ? libraryBinaryName(name) : await sources.libraryName(name, file, path);
  const library = await sources.library(binary, path);
  return library ? { library } : undefined;
}

/** `java.util.Map.Entry` -> `java.util.Map$Entry`: the first capitalised segment starts the nesting. */
export function libraryBinaryName(dotted: string): string {
  const parts = dotted.split('.');
  const firstType = parts.findIndex((part) => /^[A-Z]/.test(part));
  return firstType < 0
    ? dotted
    : `${parts.slice(0, firstType + 1).join('.')}${parts
        .slice(firstType + 1)
        .map((part) => `$${part}`)
        .join('')}`;
}

/** For an unknown class: the project's types with a near name, as their declaration lines. */
async function similarTypes(out: PieceSet, sources: ProjectSources, name: string): Promise<void> {
  const files = await sources.files();
  const near = [...files.keys()]
    .map((qualified) => ({ qualified, distance: editDistance(qualified.slice(qualified.lastIndexOf('.') + 1), name) }))
    .filter((entry) => entry.distance > 0 && entry.distance <= 2)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 5);
  for (const [index, entry] of near.entries()) {
    const type = await sources.type(entry.qualified);
    if (type)
      out.add(
        typeHeaderPiece(type.path, type.file, type.type, {
          tier: 'declaration',
          score: 80 - index,
          reason: `a type with a name near ${name}`,
        }),
      );
  }
}
