/**
 * Walking java-parser's concrete syntax tree (Chevrotain). Internal to `src/java/`: the
 * rest of mvnx sees the source model of types.ts, never a CST node, so that the parser
 * can change without touching its users.
 */
import type { JavaSourceFile, SourceRange } from './types.js';

export interface CstToken {
  image: string;
  startOffset: number;
  endOffset: number;
  startLine: number;
  endLine: number;
  tokenType: { name: string };
}

export interface CstNode {
  name: string;
  children: Record<string, CstElement[]>;
  location: { startOffset: number; endOffset: number; startLine: number; endLine: number };
}

export type CstElement = CstNode | CstToken;

/** What a parsed file keeps besides its model: the tree and the tokens (comments excluded). */
export interface ParsedSource {
  text: string;
  root: CstNode;
  tokens: CstToken[];
}

const sources = new WeakMap<JavaSourceFile, ParsedSource>();
/** Model object (type, method, block, statement) -> the CST node it was read from, and its file. */
const origins = new WeakMap<object, { node: CstNode; source: ParsedSource }>();

export function registerSource(file: JavaSourceFile, source: ParsedSource): void {
  sources.set(file, source);
  origins.set(file, { node: source.root, source });
}

export function registerNode(model: object, node: CstNode, source: ParsedSource): void {
  origins.set(model, { node, source });
}

/**
 * A model read back from the parse cache has no tree: the first question that needs one
 * parses its file then (parse-cache.ts registers how), and every part of it gets its node.
 */
let treeOnDemand: ((model: object) => void) | undefined;
export function onTreeNeeded(build: (model: object) => void): void {
  treeOnDemand = build;
}

export function originOf(model: object): { node: CstNode; source: ParsedSource } {
  if (!origins.has(model)) treeOnDemand?.(model);
  const origin = origins.get(model);
  if (!origin) throw new TypeError('not a part of a file read by parseJava');
  return origin;
}

export function sourceOf(file: JavaSourceFile): ParsedSource {
  if (!sources.has(file)) treeOnDemand?.(file);
  const source = sources.get(file);
  if (!source) throw new TypeError('not a file read by parseJava');
  return source;
}

export function isToken(element: CstElement): element is CstToken {
  return (element as CstToken).image !== undefined;
}

function startOf(element: CstElement): number {
  return isToken(element) ? element.startOffset : element.location.startOffset;
}

/** Children in source order (Chevrotain groups them by rule name). */
export function ordered(node: CstNode): CstElement[] {
  const all: CstElement[] = [];
  for (const list of Object.values(node.children)) all.push(...list);
  return all.sort((a, b) => startOf(a) - startOf(b));
}

export function child(node: CstNode, name: string): CstNode | undefined {
  const found = node.children[name]?.[0];
  return found && !isToken(found) ? found : undefined;
}

export function childNodes(node: CstNode, name: string): CstNode[] {
  return (node.children[name] ?? []).filter((element): element is CstNode => !isToken(element));
}

export function childTokens(node: CstNode, name?: string): CstToken[] {
  const lists = name === undefined ? Object.values(node.children) : [node.children[name] ?? []];
  return lists
    .flat()
    .filter(isToken)
    .sort((a, b) => a.startOffset - b.startOffset);
}

/** Every token under `node`, in order. */
export function tokensUnder(node: CstNode): CstToken[] {
  const out: CstToken[] = [];
  const visit = (element: CstElement) => {
    if (isToken(element)) out.push(element);
    else for (const list of Object.values(element.children)) for (const item of list) visit(item);
  };
  visit(node);
  return out.sort((a, b) => a.startOffset - b.startOffset);
}

export function rangeOf(element: CstElement): SourceRange {
  if (isToken(element))
    return {
      start: element.startOffset,
      end: element.endOffset + 1,
      startLine: element.startLine,
      endLine: element.endLine,
    };
  const l = element.location;
  return { start: l.startOffset, end: l.endOffset + 1, startLine: l.startLine, endLine: l.endLine };
}

export function textOf(source: ParsedSource, element: CstElement): string {
  const range = rangeOf(element);
  return source.text.slice(range.start, range.end);
}

/**
 * Nodes named `name` under `node` (itself included), in source order. `stopAt` names
 * rules not to descend into, e.g. lambda bodies when a `return` must leave the method.
 */
export function descendants(node: CstNode, name: string, stopAt: ReadonlySet<string> = new Set()): CstNode[] {
  const out: CstNode[] = [];
  const visit = (current: CstNode, top: boolean) => {
    if (current.name === name) out.push(current);
    if (!top && stopAt.has(current.name)) return;
    for (const list of Object.values(current.children)) for (const item of list) if (!isToken(item)) visit(item, false);
  };
  visit(node, true);
  return out.sort((a, b) => a.location.startOffset - b.location.startOffset);
}

/** The first descendant named `name`, depth first in source order. */
export function firstDescendant(node: CstNode, name: string): CstNode | undefined {
  for (const element of ordered(node)) {
    if (isToken(element)) continue;
    if (element.name === name) return element;
    const found = firstDescendant(element, name);
    if (found) return found;
  }
  return undefined;
}
