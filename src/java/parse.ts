/**
 * Java source text -> the source model of types.ts, with java-parser (the Chevrotain
 * parser behind prettier-plugin-java: pure JavaScript, current Java syntax). A file that
 * does not parse gives an error with its line, never a partial model: callers decide what
 * an unreadable file means for them.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  child,
  childNodes,
  childTokens,
  isToken,
  ordered,
  rangeOf,
  registerNode,
  registerSource,
  textOf,
  tokensUnder,
  type CstNode,
  type CstToken,
  type ParsedSource,
} from './cst.js';
import { annotationsOf, keywordModifiers, membersOf, shapeOf } from './grammar.js';
import type {
  JavaBlock,
  JavaMethod,
  JavaParameter,
  JavaParseResult,
  JavaSourceFile,
  JavaStatement,
  JavaType,
} from './types.js';

type LexAndParse = (text: string) => { cst: unknown; tokens: unknown[] };

/** What parsing cost this process: a bench reads it, and a test proves a warm cache parses nothing. */
export interface JavaParseStats {
  /** Files lexed and parsed by java-parser. */
  parses: number;
  parseMs: number;
  /** Loading java-parser, which builds its grammar (0 when nothing needed it). */
  parserLoadMs: number;
  /** Where java-parser was loaded from: the build's one-file bundle, or the package (running from source). */
  parserFrom?: 'bundle' | 'package';
}
const stats: JavaParseStats = { parses: 0, parseMs: 0, parserLoadMs: 0 };
export const parseStats = (): JavaParseStats => ({ ...stats });

/**
 * `npm run build` joins java-parser and the few hundred modules it imports into one file
 * (scripts/bundle-java-parser.mjs): it loads in 140–180 ms where the package takes
 * 230–360 ms, most of it resolving lodash-es's one-function modules. Running from source
 * (the unit tests), there is no bundle and the package loads.
 */
const bundleUrl = new URL('../vendor/java-parser.mjs', import.meta.url);
const bundlePath = bundleUrl.protocol === 'file:' ? fileURLToPath(bundleUrl) : undefined;
const bundled = bundlePath !== undefined && existsSync(bundlePath);

let lexAndParse: LexAndParse | undefined;
/**
 * java-parser is loaded on the first parse, not with this module: loading it builds
 * Chevrotain's grammar, and a prompt whose files were all parsed before (the on-disk
 * cache) needs no parser. Node 20.19+ loads the ES module synchronously; older Node
 * loads it here, once, as this module loads.
 */
const eagerlyLoaded = (process.features as { require_module?: boolean }).require_module
  ? undefined
  : ((await import(bundled ? bundleUrl.href : 'java-parser')) as { lexAndParse: LexAndParse }).lexAndParse;

function parser(): LexAndParse {
  if (!lexAndParse) {
    const started = performance.now();
    lexAndParse =
      eagerlyLoaded ??
      (createRequire(import.meta.url)(bundled ? bundlePath : 'java-parser') as { lexAndParse: LexAndParse })
        .lexAndParse;
    stats.parserLoadMs += performance.now() - started;
    stats.parserFrom = bundled ? 'bundle' : 'package';
  }
  return lexAndParse;
}

/** Loads java-parser now, ahead of the first parse (a failing build's tail, while Maven finishes). */
export function loadJavaParser(): void {
  parser();
}

export function parseJava(text: string): JavaParseResult {
  if (typeof text !== 'string') throw new TypeError('parseJava needs the file text as a string');
  // The lexer does not know the byte-order mark; a space of the same length keeps every offset.
  const lexable = text.startsWith('\uFEFF') ? ` ${text.slice(1)}` : text;
  const lex = parser();
  const started = performance.now();
  stats.parses += 1;
  try {
    let parsed: { cst: unknown; tokens: unknown[] };
    try {
      parsed = lex(lexable);
    } catch (error) {
      return { ok: false, error: parseError((error as Error).message) };
    }
    const root = parsed.cst as CstNode & { comments?: CstToken[] };
    const source: ParsedSource = { text, root, tokens: parsed.tokens as CstToken[] };
    return { ok: true, file: readCompilationUnit(source, root.comments ?? []) };
  } finally {
    stats.parseMs += performance.now() - started;
  }
}

/**
 * java-parser's messages start "Sad sad panda, parsing errors detected in line: 3,
 * column: 7!", then say what was expected (sometimes as a long list of alternatives).
 */
function parseError(raw: string): { message: string; line?: number; column?: number } {
  const at = /line: (\d+), column: (\d+)/.exec(raw);
  const lines = raw.split('\n');
  const expected = /Expecting --> (.*) <-- but found --> (.*) <--/.exec(lines[1] ?? '');
  const atEnd = /line: NaN/.test(raw);
  const found = expected && (atEnd || expected[2] === "''" ? 'the end of the file' : expected[2]);
  const detail = expected
    ? `expected ${expected[1]} but found ${found}`
    : /possible Token sequences/.test(lines[1] ?? '')
      ? 'unexpected code'
      : (lines[1] ?? '').replace(/!$/, '').trim();
  const where = at ? ` at line ${at[1]}, column ${at[2]}` : atEnd && !expected ? ' at the end of the file' : '';
  const message = detail ? `${detail}${where}` : lines[0]!;
  return { message, ...(at ? { line: Number(at[1]), column: Number(at[2]) } : {}) };
}

function readCompilationUnit(source: ParsedSource, comments: CstToken[]): JavaSourceFile {
  const unit = child(source.root, 'ordinaryCompilationUnit');
  const packageNode = unit && child(unit, 'packageDeclaration');
  const packageName = packageNode
    ? childTokens(packageNode, 'Identifier')
        .map((token) => token.image)
        .join('.')
    : undefined;
  const imports = unit
    ? childNodes(unit, 'importDeclaration')
        .map((node) => importText(source, node))
        .filter((text) => text !== '')
    : [];
  const types: JavaType[] = [];
  for (const declaration of unit ? childNodes(unit, 'typeDeclaration') : []) {
    const type = readTypeDeclaration(source, declaration, packageName ? `${packageName}.` : '');
    if (type) types.push(type);
  }
  const file: JavaSourceFile = {
    text: source.text,
    ...(packageName ? { packageName } : {}),
    imports,
    types,
    comments: comments.map((token) => ({ text: token.image, range: rangeOf(token) })),
  };
  registerSource(file, source);
  return file;
}

function importText(source: ParsedSource, node: CstNode): string {
  const tokens = tokensUnder(node).filter((token) => token.image !== 'import' && token.image !== ';');
  return tokens.map((token) => (token.image === 'static' ? 'static ' : token.image)).join('');
}

/** Method, constructor and member-type declarations of a type body, in source order. */
const MEMBER_RULES = new Set([
  'methodDeclaration',
  'interfaceMethodDeclaration',
  'constructorDeclaration',
  'compactConstructorDeclaration',
  'classDeclaration',
  'interfaceDeclaration',
]);

/** A `typeDeclaration`, `classDeclaration` or `interfaceDeclaration` node -> a type. */
function readTypeDeclaration(source: ParsedSource, node: CstNode, prefix: string): JavaType | undefined {
  const declaration =
    node.name === 'typeDeclaration' ? (child(node, 'classDeclaration') ?? child(node, 'interfaceDeclaration')) : node;
  if (!declaration) return undefined;
  const modifierRule = declaration.name === 'classDeclaration' ? 'classModifier' : 'interfaceModifier';
  const modifiers = childNodes(declaration, modifierRule);
  const shape = shapeOf(declaration);
  if (!shape) return undefined;
  const body = shape.node;
  const name = identifierOf(child(body, 'typeIdentifier')) ?? '';
  const binaryName = `${prefix}${name}`;
  const superclass = child(body, 'classExtends');
  const superType = superclass && child(superclass, 'classType');
  const type: JavaType = {
    kind: shape.kind,
    name,
    binaryName,
    ...(superType ? { superclass: textOf(source, superType) } : {}),
    annotations: annotationsOf(source, modifiers),
    modifiers: keywordModifiers(modifiers),
    range: rangeOf(declaration),
    methods: [],
    types: [],
  };
  registerNode(type, declaration, source);
  for (const member of membersOf(body, MEMBER_RULES)) {
    if (member.name === 'classDeclaration' || member.name === 'interfaceDeclaration') {
      const nested = readTypeDeclaration(source, member, `${binaryName}$`);
      if (nested) type.types.push(nested);
    } else {
      type.methods.push(readMethod(source, member, binaryName));
    }
  }
  return type;
}

function readMethod(source: ParsedSource, node: CstNode, declaringType: string): JavaMethod {
  const isConstructor = node.name === 'constructorDeclaration' || node.name === 'compactConstructorDeclaration';
  const modifierRule =
    { methodDeclaration: 'methodModifier', interfaceMethodDeclaration: 'interfaceMethodModifier' }[node.name] ??
    'constructorModifier';
  const modifiers = childNodes(node, modifierRule);
  const header = child(node, 'methodHeader');
  const declarator = header ? child(header, 'methodDeclarator') : child(node, 'constructorDeclarator');
  const name = isConstructor
    ? (identifierOf(declarator && child(declarator, 'simpleTypeName')) ??
      identifierOf(child(node, 'simpleTypeName')) ??
      '<init>')
    : ((declarator && childTokens(declarator)[0]?.image) ?? '');
  const parameterList = declarator && child(declarator, 'formalParameterList');
  const parameters = parameterList
    ? childNodes(parameterList, 'formalParameter').map((parameter) => readParameter(source, parameter))
    : [];
  const bodyNode = child(node, 'methodBody') ?? child(node, 'constructorBody');
  const block = bodyNode && (bodyNode.name === 'constructorBody' ? bodyNode : child(bodyNode, 'block'));
  const method: JavaMethod = {
    kind: isConstructor ? 'constructor' : 'method',
    name,
    annotations: [...annotationsOf(source, modifiers), ...(header ? annotationsOf(source, [header]) : [])],
    modifiers: keywordModifiers(modifiers),
    parameters,
    signature: `${name}(${parameters.map((parameter) => parameter.type.replace(/\s+/g, '')).join(',')})`,
    range: rangeOf(node),
    text: textOf(source, node),
    ...(block ? { body: readBlock(source, block) } : {}),
    declaringType,
  };
  registerNode(method, node, source);
  return method;
}

function readParameter(source: ParsedSource, node: CstNode): JavaParameter {
  const regular = child(node, 'variableParaRegularParameter');
  const arity = child(node, 'variableArityParameter');
  const holder = regular ?? arity ?? node;
  const typeNode = child(holder, 'unannType');
  const type = `${typeNode ? textOf(source, typeNode) : ''}${arity ? '...' : ''}`;
  const idNode = child(holder, 'variableDeclaratorId');
  const name = idNode ? (childTokens(idNode)[0]?.image ?? '') : (childTokens(holder, 'Identifier').at(-1)?.image ?? '');
  return { name, type, text: textOf(source, node) };
}

/** A `block` or `constructorBody` node -> its statements. */
export function readBlock(source: ParsedSource, node: CstNode): JavaBlock {
  const statements = child(node, 'blockStatements');
  // A constructor's `this(...)`/`super(...)` call comes before its block statements.
  const leading = childNodes(node, 'explicitConstructorInvocation');
  const block: JavaBlock = {
    range: rangeOf(node),
    text: textOf(source, node),
    statements: [...leading, ...(statements ? childNodes(statements, 'blockStatement') : [])].map((statement) =>
      readStatement(source, statement),
    ),
  };
  registerNode(block, node, source);
  return block;
}

const STATEMENT_WRAPPERS = new Set(['blockStatement', 'statement', 'statementWithoutTrailingSubstatement']);

export function readStatement(source: ParsedSource, node: CstNode): JavaStatement {
  let specific = node;
  while (STATEMENT_WRAPPERS.has(specific.name)) {
    const inner = ordered(specific).find((element): element is CstNode => !isToken(element));
    if (!inner) break;
    specific = inner;
  }
  const statement: JavaStatement = {
    kind: statementKind(specific.name),
    text: textOf(source, node),
    range: rangeOf(node),
  };
  registerNode(statement, node, source);
  return statement;
}

function statementKind(rule: string): string {
  if (rule === 'explicitConstructorInvocation') return 'constructor-invocation';
  if (rule === 'classDeclaration' || rule === 'interfaceDeclaration') return 'local-class';
  const base = rule.endsWith('Statement') && rule !== 'Statement' ? rule.slice(0, -'Statement'.length) : rule;
  return base.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

function identifierOf(node: CstNode | undefined): string | undefined {
  return node ? tokensUnder(node)[0]?.image : undefined;
}
