/**
 * What a type declares beyond its methods: fields (record components and enum constants
 * included), the types it extends and implements, and its type parameters. Read from
 * the syntax tree the type was parsed from, so the model of types.ts stays small.
 */
import {
  child,
  childNodes,
  childTokens,
  descendants,
  originOf,
  rangeOf,
  textOf,
  type CstNode,
  type ParsedSource,
} from './cst.js';
import { annotationsOf, keywordModifiers, membersOf, shapeOf, typeBodyOf } from './grammar.js';
import type { JavaAnnotation, JavaMethod, JavaType, SourceRange } from './types.js';
import { remembered } from './parse-cache.js';

/**
 * A field as every reader sees it (the prompt context, the agent's extract_test_code,
 * call-receiver resolution, the renamed-member fixer): one entry per declarator.
 */
export interface JavaField {
  name: string;
  /** As written: `List<String>`, `int[]` (array brackets after the name included). */
  type: string;
  /** Keyword modifiers, with the implicit ones of interface constants, record components and enum constants. */
  modifiers: string[];
  /** Annotations written on the declaration (`@Mock`, `@TempDir`), shared by its declarators. */
  annotations: JavaAnnotation[];
  /** The whole declaration, annotations and initializer included (`private int a, b;` for both a and b). */
  text: string;
  range: SourceRange;
  /** Binary name of the declaring type. */
  declaringType: string;
  kind: 'field' | 'record-component' | 'enum-constant';
}

/** Every field the type declares, in source order. */
function fieldsOfFromTree(type: JavaType): JavaField[] {
  const { node, source } = originOf(type);
  const body = typeBodyOf(node);
  if (!body) return [];
  const fields: JavaField[] = [];
  const common = (holder: CstNode, modifierRule: string) => ({
    annotations: annotationsOf(source, childNodes(holder, modifierRule)),
    text: textOf(source, holder),
    range: rangeOf(holder),
    declaringType: type.binaryName,
  });
  for (const component of recordComponents(node)) {
    const typeNode = child(component, 'unannType');
    const name = childTokens(component, 'Identifier').at(-1)?.image ?? '';
    fields.push({
      name,
      type: typeNode ? textOf(source, typeNode) : '',
      modifiers: ['private', 'final'],
      ...common(component, 'recordComponentModifier'),
      kind: 'record-component',
    });
  }
  for (const constant of descendants(body, 'enumConstant', STOP_AT_NESTED)) {
    const name = childTokens(constant, 'Identifier')[0]?.image ?? '';
    fields.push({
      name,
      type: type.name,
      modifiers: ['public', 'static', 'final'],
      ...common(constant, 'enumConstantModifier'),
      kind: 'enum-constant',
    });
  }
  for (const declaration of membersOf(body, FIELD_RULES))
    fields.push(...readFieldDeclaration(source, declaration, type));
  return fields.sort((a, b) => a.range.start - b.range.start);
}

/**
 * Methods the compiler adds that the source does not spell out: a record's component
 * accessors (`name()`), unless the record writes its own.
 */
function implicitMethodsOfFromTree(type: JavaType): { name: string; returnType: string; parameters: string[] }[] {
  if (type.kind !== 'record') return [];
  return fieldsOf(type)
    .filter(
      (field) =>
        field.kind === 'record-component' &&
        !type.methods.some((method) => method.name === field.name && method.parameters.length === 0),
    )
    .map((field) => ({ name: field.name, returnType: field.type, parameters: [] }));
}

export interface SuperTypes {
  /** As written: `BaseReader<OptionalInt>`. */
  superclass?: string;
  /** Implemented interfaces, or for an interface the ones it extends, as written. */
  interfaces: string[];
}

function superTypesOfFromTree(type: JavaType): SuperTypes {
  const { node, source } = originOf(type);
  const shape = shapeOf(node)?.node;
  if (!shape) return { interfaces: [] };
  const extendsNode = child(shape, 'classExtends');
  const superclass = extendsNode && child(extendsNode, 'classType');
  const list = child(shape, 'classImplements') ?? child(shape, 'interfaceExtends');
  const typeList = list && child(list, 'interfaceTypeList');
  const interfaces = typeList ? childNodes(typeList, 'interfaceType').map((item) => textOf(source, item)) : [];
  return { ...(superclass ? { superclass: textOf(source, superclass) } : {}), interfaces };
}

/** `class Box<T extends Number, U>` -> ['T', 'U']. */
function typeParametersOfFromTree(type: JavaType | JavaMethod): string[] {
  const { node } = originOf(type);
  const holder = 'methods' in type ? shapeOf(node)?.node : (child(node, 'methodHeader') ?? node);
  const parameters = holder && child(holder, 'typeParameters');
  const list = parameters && child(parameters, 'typeParameterList');
  if (!list) return [];
  return childNodes(list, 'typeParameter').map((parameter) => {
    const identifier = child(parameter, 'typeIdentifier');
    return identifier ? (childTokens(identifier)[0]?.image ?? '') : '';
  });
}

/** A method's return type as written (`List<String>`, `void`); undefined for a constructor. */
function returnTypeOfFromTree(method: JavaMethod): string | undefined {
  const { node, source } = originOf(method);
  const header = child(node, 'methodHeader');
  const result = header && child(header, 'result');
  return result ? textOf(source, result) : undefined;
}

/** The header of a type up to its opening brace: `public class A extends B implements C`. */
function typeHeaderOfFromTree(type: JavaType): string {
  const { node, source } = originOf(type);
  const body = typeBodyOf(node);
  const start = rangeOf(node).start;
  const end = body ? rangeOf(body).start : rangeOf(node).end;
  return source.text.slice(start, end).trim();
}

/** The line of the type's opening brace, where its header ends (the type's first line when it has no body). */
function typeBodyLineFromTree(type: JavaType): number {
  const body = typeBodyOf(originOf(type).node);
  return body ? rangeOf(body).startLine : type.range.startLine;
}

const STOP_AT_NESTED = new Set(['classBody', 'classDeclaration', 'interfaceDeclaration', 'enumBodyDeclarations']);

function recordComponents(declaration: CstNode): CstNode[] {
  const shape = child(declaration, 'recordDeclaration');
  const header = shape && child(shape, 'recordHeader');
  const list = header && child(header, 'recordComponentList');
  return list ? childNodes(list, 'recordComponent') : [];
}

const FIELD_RULES = new Set(['fieldDeclaration', 'constantDeclaration']);

function readFieldDeclaration(source: ParsedSource, node: CstNode, type: JavaType): JavaField[] {
  const modifierRule = node.name === 'fieldDeclaration' ? 'fieldModifier' : 'constantModifier';
  const modifierNodes = childNodes(node, modifierRule);
  const modifiers = keywordModifiers(modifierNodes);
  const annotations = annotationsOf(source, modifierNodes);
  // Interface constants are implicitly public static final.
  const effective =
    node.name === 'constantDeclaration' ? [...new Set([...modifiers, 'public', 'static', 'final'])] : modifiers;
  const typeNode = child(node, 'unannType');
  const declarators = child(node, 'variableDeclaratorList');
  return (declarators ? childNodes(declarators, 'variableDeclarator') : []).map((declarator) => {
    const id = child(declarator, 'variableDeclaratorId');
    const dims = id ? (textOf(source, id).match(/\[/g) ?? []).length : 0;
    return {
      name: id ? (childTokens(id)[0]?.image ?? '') : '',
      type: `${typeNode ? textOf(source, typeNode) : ''}${'[]'.repeat(dims)}`,
      modifiers: effective,
      annotations,
      text: textOf(source, node),
      range: rangeOf(node),
      declaringType: type.binaryName,
      kind: 'field' as const,
    };
  });
}

// Asked once per file content (parse-cache.ts): kept across attempts and, with a store, across runs.
export function fieldsOf(type: JavaType): JavaField[] {
  return remembered('fieldsOf', type, () => fieldsOfFromTree(type));
}

export function implicitMethodsOf(type: JavaType): { name: string; returnType: string; parameters: string[] }[] {
  return remembered('implicitMethodsOf', type, () => implicitMethodsOfFromTree(type));
}

export function superTypesOf(type: JavaType): SuperTypes {
  return remembered('superTypesOf', type, () => superTypesOfFromTree(type));
}

export function typeParametersOf(type: JavaType | JavaMethod): string[] {
  return remembered('typeParametersOf', type, () => typeParametersOfFromTree(type));
}

export function returnTypeOf(method: JavaMethod): string | undefined {
  return remembered('returnTypeOf', method, () => returnTypeOfFromTree(method));
}

export function typeHeaderOf(type: JavaType): string {
  return remembered('typeHeaderOf', type, () => typeHeaderOfFromTree(type));
}

export function typeBodyLine(type: JavaType): number {
  return remembered('typeBodyLine', type, () => typeBodyLineFromTree(type));
}
