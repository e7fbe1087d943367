/**
 * Context pieces cut from source: a whole method, a file's imports, a type's header line,
 * a field, a member's declaration line, a library type's member list, and a window of
 * lines for a file that does not parse. Pure functions of the parsed source.
 */
import {
  commentedStartLine,
  fieldsOf,
  headerOf,
  scanJavaHeader,
  typeBodyLine,
  type JavaHeader,
  type JavaField,
  type JavaMethod,
  type JavaSourceFile,
  type JavaType,
} from '../../java/index.js';
import { CONTEXT_TIERS, type ContextPiece, type ContextTier } from '../../model/prompts/index.js';
import type { LibraryMember, LibraryType } from '../../plugins/contracts.js';
import { editDistance as levenshtein } from '../../shared/similar.js';

/** A method longer than this is shown as a window around the line that matters. */
const MAX_METHOD_LINES = 120;
const LONG_METHOD_WINDOW = 30;
/** Around a line of a file that does not parse. */
const UNPARSED_WINDOW = 15;
const MAX_LIBRARY_MEMBERS = 40;

export interface PieceMeta {
  tier: ContextTier;
  score: number;
  reason: string;
}

/**
 * The lines of a file's text. The last few files' lines are kept: the pieces of one file
 * (each method of a 1,900-line jsoup class that a failure reaches) are cut one after the
 * other, and splitting the whole text for each was a third of a warm prompt's time.
 * Callers never change the array.
 */
function linesOf(text: string): readonly string[] {
  const known = recentLines.get(text);
  if (known) return known;
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  recentLines.set(text, lines);
  if (recentLines.size > RECENT_FILES) recentLines.delete(recentLines.keys().next().value!);
  return lines;
}
const RECENT_FILES = 8;
const recentLines = new Map<string, readonly string[]>();

export function linesPiece(
  path: string,
  text: string,
  from: number,
  to: number,
  label: string,
  meta: PieceMeta,
): ContextPiece | undefined {
  const lines = linesOf(text);
  const start = Math.max(1, from);
  const end = Math.min(lines.length, to);
  if (end < start) return undefined;
  return { path, startLine: start, text: lines.slice(start - 1, end).join('\n'), label, ...meta };
}

/** `Exporter.export(List<Item>)`. */
export function methodLabel(method: JavaMethod): string {
  const owner = method.declaringType.slice(method.declaringType.lastIndexOf('.') + 1).replace(/\$/g, '.');
  return `${method.kind} ${owner}.${method.name}(${method.parameters.map((parameter) => parameter.type).join(', ')})`;
}

/**
 * The line where a member's text begins once its comments (src/java's commentedStartLine)
 * and one blank line above them are counted: a method read with its comment is read as
 * written, and consecutive members shown together leave no gap.
 */
export function withLeadingComment(file: JavaSourceFile, startLine: number, blankLine = true): number {
  const start = commentedStartLine(file, startLine);
  return blankLine && start > 1 && (linesOf(file.text)[start - 2] ?? '').trim() === '' ? start - 1 : start;
}

/** The whole method, or for a very long one the part around `focusLine`. */
export function methodPiece(
  path: string,
  file: JavaSourceFile,
  method: JavaMethod,
  meta: PieceMeta,
  focusLine?: number,
): ContextPiece | undefined {
  const { endLine } = method.range;
  const startLine = withLeadingComment(file, method.range.startLine);
  if (endLine - startLine + 1 <= MAX_METHOD_LINES || focusLine === undefined) {
    return linesPiece(
      path,
      file.text,
      startLine,
      Math.min(endLine, startLine + MAX_METHOD_LINES * 2),
      methodLabel(method),
      meta,
    );
  }
  return linesPiece(
    path,
    file.text,
    Math.max(startLine, focusLine - LONG_METHOD_WINDOW),
    Math.min(endLine, focusLine + LONG_METHOD_WINDOW),
    `part of ${methodLabel(method)}`,
    meta,
  );
}

/** From the package line to the last import: what a missing or wrong import is about. */
export function importsPiece(path: string, file: JavaSourceFile, meta: PieceMeta): ContextPiece | undefined {
  const span = headerSpan(headerOf(file));
  return span
    ? linesPiece(path, file.text, span.from, span.to, `imports of ${path.slice(path.lastIndexOf('/') + 1)}`, meta)
    : undefined;
}

/** The lines from the package declaration to the last import, as src/java's header reader found them. */
function headerSpan(header: JavaHeader): { from: number; to: number } | undefined {
  const lines = [
    ...(header.packageLine !== undefined ? [header.packageLine] : []),
    ...header.imports.flatMap((entry) => [entry.line, entry.endLine]),
  ];
  return lines.length > 0 ? { from: Math.min(...lines), to: Math.max(...lines) } : undefined;
}

/** The type's declaration up to its `{`: annotations, name, extends and implements. */
export function typeHeaderPiece(
  path: string,
  file: JavaSourceFile,
  type: JavaType,
  meta: PieceMeta,
): ContextPiece | undefined {
  return linesPiece(
    path,
    file.text,
    withLeadingComment(file, type.range.startLine),
    typeBodyLine(type),
    `declaration of ${type.name}`,
    meta,
  );
}

export function fieldPiece(
  path: string,
  file: JavaSourceFile,
  field: JavaField,
  meta: PieceMeta,
): ContextPiece | undefined {
  return linesPiece(
    path,
    file.text,
    withLeadingComment(file, field.range.startLine),
    field.range.endLine,
    `field ${field.declaringType.slice(field.declaringType.lastIndexOf('.') + 1)}.${field.name}`,
    meta,
  );
}

export function fieldPieces(path: string, file: JavaSourceFile, type: JavaType, meta: PieceMeta): ContextPiece[] {
  return fieldsOf(type)
    .filter((field) => field.kind !== 'enum-constant')
    .map((field) => fieldPiece(path, file, field, meta))
    .filter((piece): piece is ContextPiece => piece !== undefined);
}

/** A method's declaration without its body: the lines up to the one with `{` (or the whole of a bodiless one). */
export function declarationPiece(
  path: string,
  file: JavaSourceFile,
  method: JavaMethod,
  meta: PieceMeta,
): ContextPiece | undefined {
  const bodyLine = method.body?.range.startLine;
  const end = bodyLine ?? method.range.endLine;
  return linesPiece(
    path,
    file.text,
    withLeadingComment(file, method.range.startLine, false),
    end,
    `declaration ${methodLabel(method)}`,
    meta,
  );
}

/** Lines around `line` and the file's imports, for a file java-parser cannot read (a syntax error). */
export function unparsedPieces(path: string, text: string, line: number, meta: PieceMeta): ContextPiece[] {
  const pieces: ContextPiece[] = [];
  const lines = linesOf(text);
  // The file does not parse: its header is read from the masked text.
  const span = headerSpan(scanJavaHeader(text));
  if (span) {
    const imports = linesPiece(path, text, span.from, span.to, `imports of ${path.slice(path.lastIndexOf('/') + 1)}`, {
      ...meta,
      score: meta.score - 5,
    });
    if (imports) pieces.push(imports);
  }
  const window = linesPiece(
    path,
    text,
    line - UNPARSED_WINDOW,
    line + UNPARSED_WINDOW,
    `lines ${Math.max(1, line - UNPARSED_WINDOW)}-${Math.min(lines.length, line + UNPARSED_WINDOW)} of ${path.slice(path.lastIndexOf('/') + 1)}`,
    meta,
  );
  if (window) pieces.push(window);
  return pieces;
}

/** Levenshtein distance (shared/similar.ts), case-insensitive: how far one name is from another. */
export function editDistance(a: string, b: string): number {
  return levenshtein(a.toLowerCase(), b.toLowerCase());
}

/** `_fromEmptyValue` -> ['_', 'from', 'Empty', 'Value']; `parseURL2` -> ['parse', 'URL', '2']. */
export function nameWords(name: string): string[] {
  return name.match(/^_+|[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+|\$/g) ?? [name];
}

function wordDistance(a: readonly string[], b: readonly string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * How far a member's name is from the one asked for, for ordering: camelCase words
 * replaced, added or dropped first (`_fromEmptyString` is one word from
 * `_fromEmptyValue`, `getEmptyValue` two), then letters.
 */
export function nameDistance(wanted: string, candidate: string): number {
  const words = wordDistance(
    nameWords(wanted).map((w) => w.toLowerCase()),
    nameWords(candidate).map((w) => w.toLowerCase()),
  );
  return words * 100 + editDistance(wanted, candidate);
}

/** A library type's members as Java-like lines, nearest names to `near` first. */
export function libraryPiece(
  type: LibraryType,
  near: string | undefined,
  origin: string,
  meta: PieceMeta,
): ContextPiece {
  const members = [...type.members]
    .filter((member) => !member.modifiers.includes('private'))
    .map((member, index) => ({ member, index, distance: near ? nameDistance(near, member.name) : 0 }))
    .sort((a, b) => a.distance - b.distance || a.index - b.index)
    .slice(0, MAX_LIBRARY_MEMBERS)
    .map(({ member }) => `${simplify(member)};`);
  const left = type.members.length - members.length;
  const header = `${type.kind === 'annotation' ? '@interface' : type.kind} ${type.name}${type.superclass ? ` extends ${type.superclass}` : ''}${type.interfaces.length > 0 ? ` ${type.kind === 'interface' ? 'extends' : 'implements'} ${type.interfaces.join(', ')}` : ''}`;
  const text = [
    `${header} {`,
    ...members.map((line) => `    ${line}`),
    ...(left > 0 ? [`    // ... ${left} more members`] : []),
    '}',
  ].join('\n');
  return {
    text,
    heading: `${type.name} (${origin}${near ? `; nearest names to ${near} first` : ''})`,
    label: `members of ${type.name}`,
    ...meta,
  };
}

/** `public boolean java.util.List.add(E)` reads better as `public boolean add(E)`. */
function simplify(member: LibraryMember): string {
  return member.signature.replace(/java\.lang\.(?=[A-Z])/g, '');
}

/** Pieces without duplicates: the same lines found twice keep their better tier and score. */
export class PieceSet {
  readonly pieces: ContextPiece[] = [];
  private readonly keys = new Map<string, number>();

  add(piece: ContextPiece | undefined): void {
    if (!piece) return;
    const key = `${piece.path ?? piece.heading}\u0000${piece.startLine ?? ''}\u0000${piece.text.length}`;
    const at = this.keys.get(key);
    if (at === undefined) {
      this.keys.set(key, this.pieces.length);
      this.pieces.push(piece);
      return;
    }
    const known = this.pieces[at]!;
    const rank = (p: ContextPiece) => CONTEXT_TIERS.indexOf(p.tier);
    if (rank(piece) < rank(known) || (rank(piece) === rank(known) && piece.score > known.score))
      this.pieces[at] = piece;
  }

  addAll(pieces: readonly (ContextPiece | undefined)[]): void {
    pieces.forEach((piece) => this.add(piece));
  }
}
