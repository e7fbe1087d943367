/**
 * A file's package, imports and top-level type names, with the lines they are on: what
 * the import and package quick-fixes need. Read with the parser when the file parses, and
 * from the masked text when it does not (a file with a syntax error elsewhere still has
 * readable imports); `scanJavaHeader` reads lexically only, to scan a whole project fast.
 */
import { child, childNodes, originOf, rangeOf, tokensUnder, type CstNode } from './cst.js';
import {
  findImports,
  findPackage,
  maskCommentsAndLiterals,
  splitLines,
  topLevelTypeNames,
  usesIdentifier,
} from './lexical.js';
import { parseJava } from './parse.js';
import type { JavaSourceFile } from './types.js';
import { remembered } from './parse-cache.js';

export interface JavaImport {
  /** 1-based lines of the declaration (the same line unless it is wrapped). */
  line: number;
  endLine: number;
  isStatic: boolean;
  /** `java.util.List`, or `java.util.*` for an on-demand import. */
  name: string;
  /** Simple name imported (`List`), or `*`. */
  simpleName: string;
}

export interface JavaHeader {
  packageName?: string;
  /** 1-based line of the package declaration. */
  packageLine?: number;
  imports: JavaImport[];
  /** Names of the top-level types the file declares. */
  topLevelTypes: string[];
  /** False when the file did not parse and the header was read from masked text. */
  parsed: boolean;
}

export function readJavaHeader(text: string): JavaHeader {
  const parsed = parseJava(text);
  return parsed.ok ? headerOf(parsed.file) : scanJavaHeader(text);
}

/** The header of a parsed file. */
function headerOfFromTree(file: JavaSourceFile): JavaHeader {
  const { node: root } = originOf(file);
  const unit = child(root, 'ordinaryCompilationUnit');
  const packageNode = unit && child(unit, 'packageDeclaration');
  const imports = (unit ? childNodes(unit, 'importDeclaration') : [])
    .map(importOf)
    .filter((entry): entry is JavaImport => entry !== undefined);
  return {
    ...(file.packageName ? { packageName: file.packageName } : {}),
    ...(packageNode ? { packageLine: firstTokenLine(packageNode) } : {}),
    imports,
    topLevelTypes: file.types.map((type) => type.name),
    parsed: true,
  };
}

/** The header from the masked text alone: no parse, any text, a few microseconds a file. */
export function scanJavaHeader(text: string): JavaHeader {
  const masked = maskCommentsAndLiterals(text);
  const lines = splitLines(masked).lines;
  const declaration = findPackage(lines);
  return {
    ...(declaration ? { packageName: declaration.name, packageLine: declaration.index + 1 } : {}),
    imports: findImports(lines).map((entry) => ({
      line: entry.index + 1,
      endLine: entry.index + 1,
      isStatic: entry.isStatic,
      name: entry.name,
      simpleName: entry.simpleName,
    })),
    topLevelTypes: topLevelTypeNames(masked),
    parsed: false,
  };
}

/**
 * Whether `name` is used as a simple name in the code outside the package and import
 * declarations (`.name`, a member of something else, does not count).
 */
export function usesSimpleName(text: string, name: string): boolean {
  const parsed = parseJava(text);
  if (!parsed.ok) {
    const header = scanJavaHeader(text);
    const masked = splitLines(maskCommentsAndLiterals(text)).lines;
    const skipped = new Set(header.imports.flatMap((entry) => range(entry.line - 1, entry.endLine - 1)));
    if (header.packageLine !== undefined) skipped.add(header.packageLine - 1);
    return usesIdentifier(masked, name, skipped);
  }
  const { node: root, source } = originOf(parsed.file);
  const unit = child(root, 'ordinaryCompilationUnit');
  const skipped = (
    unit ? [...childNodes(unit, 'importDeclaration'), ...childNodes(unit, 'packageDeclaration')] : []
  ).map(rangeOf);
  return source.tokens.some(
    (token, index) =>
      token.image === name &&
      source.tokens[index - 1]?.image !== '.' &&
      !skipped.some((span) => token.startOffset >= span.start && token.startOffset < span.end),
  );
}

function importOf(node: CstNode): JavaImport | undefined {
  const tokens = tokensUnder(node).filter((token) => token.image !== 'import' && token.image !== ';');
  const isStatic = tokens[0]?.image === 'static';
  const name = tokens
    .filter((token) => token.image !== 'static')
    .map((token) => token.image)
    .join('');
  if (name === '') return undefined;
  const span = rangeOf(node);
  return {
    line: span.startLine,
    endLine: span.endLine,
    isStatic,
    name,
    simpleName: name.slice(name.lastIndexOf('.') + 1),
  };
}

function firstTokenLine(node: CstNode): number {
  return tokensUnder(node).find((token) => token.image === 'package')?.startLine ?? rangeOf(node).startLine;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

// Asked once per file content (parse-cache.ts): kept across attempts and, with a store, across runs.
export function headerOf(file: JavaSourceFile): JavaHeader {
  return remembered('headerOf', file, () => headerOfFromTree(file));
}
