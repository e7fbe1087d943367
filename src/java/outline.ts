/**
 * The outline of a parsed file: its types, methods and constructors (and, on request,
 * fields and initializer blocks) with the line each is declared on and its declaration
 * written on one line, annotations and comments left out. This is what a developer's IDE
 * shows in its structure view, and what the agent's get_classes_and_methods answers.
 */
import {
  child,
  descendants,
  isToken,
  ordered,
  originOf,
  rangeOf,
  textOf,
  type CstNode,
  type ParsedSource,
} from './cst.js';
import { membersOf, typeBodyOf } from './grammar.js';
import { lineAt } from './model.js';
import type { JavaAnnotation, JavaMethod, JavaSourceFile, JavaType, SourceRange } from './types.js';
import { remembered } from './parse-cache.js';

export interface JavaInitializer {
  isStatic: boolean;
  text: string;
  range: SourceRange;
}

export interface OutlineEntry {
  kind: 'type' | 'method' | 'constructor';
  name: string;
  /** The declaration up to its body, on one line: `public int add(int a, int b)`. */
  signature: string;
  /** Line of the declaration itself (after its annotations). */
  line: number;
  /** The whole declaration, annotations included. */
  range: SourceRange;
  /** 0 for a top-level type, 1 for its members, and so on. */
  depth: number;
}

/** Types, methods and constructors of a file, in source order, nested ones after their type. */
export function outline(file: JavaSourceFile): OutlineEntry[] {
  const entries: OutlineEntry[] = [];
  const visit = (type: JavaType, depth: number) => {
    entries.push({
      kind: 'type',
      name: type.name,
      signature: signatureOf(type),
      line: declarationLine(type),
      range: type.range,
      depth,
    });
    const members: (JavaMethod | JavaType)[] = [...type.methods, ...type.types].sort(
      (a, b) => a.range.start - b.range.start,
    );
    for (const member of members) {
      if ('binaryName' in member) visit(member, depth + 1);
      else
        entries.push({
          kind: member.kind,
          name: member.name,
          signature: signatureOf(member),
          line: declarationLine(member),
          range: member.range,
          depth: depth + 1,
        });
    }
  };
  file.types.forEach((type) => visit(type, 0));
  return entries;
}

/**
 * A type, method or constructor declaration up to its body on one line, without
 * annotations or comments: `public class Calculator implements Operation`,
 * `static <T> List<T> copy(List<T> items) throws IOException`.
 */
function signatureOfFromTree(declaration: JavaType | JavaMethod): string {
  const { node, source } = originOf(declaration);
  const start = firstOwnToken(node);
  const body = bodyOf(node);
  const end = body ? rangeOf(body).start : rangeOf(node).end;
  if (start === undefined) return declaration.name;
  // Annotations inside the header too: `void leavesNoFiles(@TempDir Path dir)` reads `void leavesNoFiles(Path dir)`.
  const annotations = descendants(node, 'annotation')
    .map(rangeOf)
    .filter((span) => span.start >= start && span.end <= end);
  return oneLine(source, start, end, annotations).replace(/;$/, '').trim();
}

/** The line a declaration starts on once its annotations are skipped. */
function declarationLineFromTree(declaration: JavaType | JavaMethod): number {
  const { node, source } = originOf(declaration);
  const start = firstOwnToken(node);
  return start === undefined ? declaration.range.startLine : lineAt(source.text, start);
}

/** `static { ... }` and `{ ... }` blocks declared directly in the type. */
function initializersOfFromTree(type: JavaType): JavaInitializer[] {
  const { node, source } = originOf(type);
  return membersOf(node, INITIALIZER_RULES).map((initializer) => ({
    isStatic: initializer.name === 'staticInitializer',
    text: textOf(source, initializer),
    range: rangeOf(initializer),
  }));
}

/** Whether a method or type carries an annotation with this simple name (`Test`, `BeforeEach`). */
export function hasAnnotation(declaration: { annotations: JavaAnnotation[] }, ...names: string[]): boolean {
  return declaration.annotations.some((annotation) => names.includes(annotation.name));
}

const INITIALIZER_RULES = new Set(['staticInitializer', 'instanceInitializer']);
/** Rules that hold a declaration's annotations: skipped when looking for where it starts. */
const ANNOTATION_RULES = new Set(['annotation']);

/** Offset of the first token of a declaration that is not part of an annotation. */
function firstOwnToken(node: CstNode): number | undefined {
  let found: number | undefined;
  const visit = (current: CstNode): boolean => {
    for (const element of ordered(current)) {
      if (isToken(element)) {
        found = element.startOffset;
        return true;
      }
      if (ANNOTATION_RULES.has(element.name)) continue;
      if (visit(element)) return true;
    }
    return false;
  };
  visit(node);
  return found;
}

/** The body a declaration's one-line form stops at: class body, block, or the `;` of an abstract method. */
function bodyOf(node: CstNode): CstNode | undefined {
  return typeBodyOf(node) ?? child(node, 'methodBody') ?? child(node, 'constructorBody');
}

/** Source text between two offsets with comments (and the `left out` spans) taken out and whitespace folded. */
function oneLine(source: ParsedSource, start: number, end: number, leftOut: SourceRange[] = []): string {
  const comments = (
    (source.root as CstNode & { comments?: { startOffset: number; endOffset: number }[] }).comments ?? []
  )
    .filter((comment) => comment.startOffset >= start && comment.endOffset < end)
    .map((comment) => ({ start: comment.startOffset, end: comment.endOffset + 1 }));
  let textOut = '';
  let at = start;
  for (const skipped of [...comments, ...leftOut].sort((a, b) => a.start - b.start)) {
    if (skipped.start < at) continue;
    textOut += `${source.text.slice(at, skipped.start)} `;
    at = skipped.end;
  }
  textOut += source.text.slice(at, end);
  return textOut.replace(/\s+/g, ' ').replace(/\(\s+/g, '(').replace(/\s+\)/g, ')').replace(/\s+,/g, ',').trim();
}

// Asked once per file content (parse-cache.ts): kept across attempts and, with a store, across runs.
export function signatureOf(declaration: JavaType | JavaMethod): string {
  return remembered('signatureOf', declaration, () => signatureOfFromTree(declaration));
}

export function declarationLine(declaration: JavaType | JavaMethod): number {
  return remembered('declarationLine', declaration, () => declarationLineFromTree(declaration));
}

export function initializersOf(type: JavaType): JavaInitializer[] {
  return remembered('initializersOf', type, () => initializersOfFromTree(type));
}
