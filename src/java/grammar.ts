/**
 * What the readers of this module know about java-parser's grammar, written once: the
 * shapes a type declaration takes, the nodes between a type and its members, and how
 * annotations and keyword modifiers hang under a declaration. parse.ts (methods and
 * member types), members.ts (fields) and outline.ts (initializers, signatures) all walk
 * type bodies through `membersOf`, so a grammar change is one edit here.
 */
import {
  child,
  childNodes,
  childTokens,
  isToken,
  ordered,
  rangeOf,
  textOf,
  tokensUnder,
  type CstNode,
  type ParsedSource,
} from './cst.js';
import type { JavaAnnotation, JavaTypeKind } from './types.js';

/** The rule under `classDeclaration`/`interfaceDeclaration` for each kind of type, with the rule of its body. */
export const TYPE_SHAPES: readonly { rule: string; kind: JavaTypeKind; body: string }[] = [
  { rule: 'normalClassDeclaration', kind: 'class', body: 'classBody' },
  { rule: 'enumDeclaration', kind: 'enum', body: 'enumBody' },
  { rule: 'recordDeclaration', kind: 'record', body: 'recordBody' },
  { rule: 'normalInterfaceDeclaration', kind: 'interface', body: 'interfaceBody' },
  { rule: 'annotationInterfaceDeclaration', kind: 'annotation', body: 'annotationInterfaceBody' },
];

/** Nodes between a type declaration and its members, for every kind of type body. */
const CONTAINERS = new Set([
  ...TYPE_SHAPES.map((shape) => shape.rule),
  ...TYPE_SHAPES.map((shape) => shape.body),
  'classBodyDeclaration',
  'classMemberDeclaration',
  'enumBodyDeclarations',
  'recordBodyDeclaration',
  'interfaceMemberDeclaration',
  'annotationInterfaceMemberDeclaration',
]);

/** The shape node (`normalClassDeclaration`, ...) of a `classDeclaration` or `interfaceDeclaration`, with its kind. */
export function shapeOf(declaration: CstNode): { node: CstNode; kind: JavaTypeKind; body: string } | undefined {
  for (const shape of TYPE_SHAPES) {
    const node = child(declaration, shape.rule);
    if (node) return { node, kind: shape.kind, body: shape.body };
  }
  return undefined;
}

/** The `{ ... }` of a type declaration. */
export function typeBodyOf(declaration: CstNode): CstNode | undefined {
  const shape = shapeOf(declaration);
  return shape && child(shape.node, shape.body);
}

/**
 * The member declarations named in `wanted` (`methodDeclaration`, `fieldDeclaration`,
 * `staticInitializer`, ...) directly in a type, not in its member types: from the type's
 * declaration, its shape or its body, in source order.
 */
export function membersOf(typeNode: CstNode, wanted: ReadonlySet<string>): CstNode[] {
  const out: CstNode[] = [];
  const visit = (node: CstNode) => {
    for (const element of ordered(node)) {
      if (isToken(element)) continue;
      if (wanted.has(element.name)) out.push(element);
      else if (CONTAINERS.has(element.name)) visit(element);
    }
  };
  visit(typeNode);
  return out;
}

/** The annotations directly under the modifier nodes `holders`, in order. */
export function annotationsOf(source: ParsedSource, holders: readonly CstNode[]): JavaAnnotation[] {
  const out: JavaAnnotation[] = [];
  for (const holder of holders) {
    for (const annotation of childNodes(holder, 'annotation')) {
      const typeName = child(annotation, 'typeName');
      const parts = typeName
        ? tokensUnder(typeName)
            .filter((token) => token.image !== '.')
            .map((token) => token.image)
        : [];
      out.push({
        name: parts.at(-1) ?? '',
        qualifiedName: parts.join('.'),
        text: textOf(source, annotation),
        range: rangeOf(annotation),
      });
    }
  }
  return out;
}

/** The keywords of modifier nodes (`public`, `static`, ...), annotations left out. */
export function keywordModifiers(holders: readonly CstNode[]): string[] {
  return holders.flatMap((holder) => childTokens(holder).map((token) => token.image));
}
