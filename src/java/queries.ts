/**
 * Questions asked of a parsed file, each over a scope (file, type, method, block or
 * statement): which methods are called and with what, which try blocks catch what, where
 * a method returns, and the scope's text with whitespace and comments taken out.
 */
import {
  child,
  childNodes,
  childTokens,
  descendants,
  originOf,
  rangeOf,
  sourceOf,
  textOf,
  tokensUnder,
  type CstNode,
  type ParsedSource,
} from './cst.js';
import { readBlock, readStatement } from './parse.js';
import type {
  JavaMethodCall,
  JavaReturnStatement,
  JavaScope,
  JavaSourceFile,
  JavaStatement,
  JavaTryStatement,
  SourceRange,
} from './types.js';
import { remembered } from './parse-cache.js';

/** Every method call in the scope, nested ones (in arguments, lambdas) included, in source order. */
function findMethodCallsFromTree(scope: JavaScope): JavaMethodCall[] {
  const { node, source } = originOf(scope);
  // Ordered by where each call's name is written: `assertThat(f(x)).isEqualTo(3)` gives assertThat, f, isEqualTo.
  const calls = descendants(node, 'primary')
    .flatMap((primary) => callsOfPrimary(source, primary))
    .sort((a, b) => a.nameAt - b.nameAt)
    .map(({ nameAt: _nameAt, ...call }) => call);
  return calls;
}

/**
 * A `primary` is a prefix (`assertEquals`, `Assertions.assertThat`, `this`, `new Foo()`)
 * followed by suffixes (`(args)`, `.name`, `[i]`). A call is a name followed by an
 * argument list: the last part of a dotted prefix, or a `.name` suffix.
 */
function callsOfPrimary(source: ParsedSource, primary: CstNode): (JavaMethodCall & { nameAt: number })[] {
  const prefix = child(primary, 'primaryPrefix');
  const suffixes = childNodes(primary, 'primarySuffix');
  const chainRange = rangeOf(primary);
  const chain = { text: textOf(source, primary), range: chainRange };
  const calls: (JavaMethodCall & { nameAt: number })[] = [];
  const add = (name: string, nameAt: number, qualifierEnd: number | undefined, invocation: CstNode) => {
    const end = rangeOf(invocation).end;
    const qualifier =
      qualifierEnd === undefined
        ? undefined
        : source.text
            .slice(chainRange.start, qualifierEnd)
            .replace(/\s*\.\s*$/, '')
            .trim();
    const argumentList = child(invocation, 'argumentList');
    calls.push({
      name,
      ...(qualifier ? { qualifier } : {}),
      arguments: argumentList
        ? childNodes(argumentList, 'expression').map((expression) => textOf(source, expression))
        : [],
      text: source.text.slice(chainRange.start, end),
      range: { start: chainRange.start, end, startLine: chainRange.startLine, endLine: rangeOf(invocation).endLine },
      chain,
      firstInChain: calls.length === 0,
      nameAt,
    });
  };

  let index = 0;
  const firstInvocation = suffixes[0] && child(suffixes[0], 'methodInvocationSuffix');
  const reference = prefix && child(prefix, 'fqnOrRefType');
  if (reference && firstInvocation) {
    const parts = [...childNodes(reference, 'fqnOrRefTypePartFirst'), ...childNodes(reference, 'fqnOrRefTypePartRest')];
    const last = parts.at(-1);
    const common = last && child(last, 'fqnOrRefTypePartCommon');
    const nameToken = common && childTokens(common).at(-1);
    if (last && nameToken)
      add(nameToken.image, nameToken.startOffset, parts.length > 1 ? rangeOf(last).start : undefined, firstInvocation);
    index = 1;
  }
  for (; index < suffixes.length; index++) {
    const suffix = suffixes[index]!;
    const name = childTokens(suffix).find((token) => token.tokenType.name !== 'Dot' && /^[\p{L}_$]/u.test(token.image));
    const invocation = suffixes[index + 1] && child(suffixes[index + 1]!, 'methodInvocationSuffix');
    if (name && invocation) {
      add(name.image, name.startOffset, rangeOf(suffix).start, invocation);
      index++;
    }
  }
  return calls;
}

/** Every try statement in the scope (try-with-resources included), in source order. */
export function findTryStatements(scope: JavaScope): JavaTryStatement[] {
  const { node, source } = originOf(scope);
  return descendants(node, 'tryStatement').map((statement) => {
    const shape = child(statement, 'tryWithResourcesStatement') ?? statement;
    const catches = child(shape, 'catches');
    const finallyNode = child(shape, 'finally');
    const finallyBlock = finallyNode && child(finallyNode, 'block');
    return {
      range: rangeOf(statement),
      text: textOf(source, statement),
      withResources: shape !== statement,
      block: readBlock(source, child(shape, 'block')!),
      catches: (catches ? childNodes(catches, 'catchClause') : []).map((clause) => {
        const parameter = child(clause, 'catchFormalParameter');
        const catchType = parameter && child(parameter, 'catchType');
        const types = catchType
          ? [...childNodes(catchType, 'unannClassType'), ...childNodes(catchType, 'classType')].map((type) =>
              textOf(source, type),
            )
          : [];
        const id = parameter && child(parameter, 'variableDeclaratorId');
        return { types, parameter: id ? textOf(source, id) : '', body: readBlock(source, child(clause, 'block')!) };
      }),
      ...(finallyBlock ? { finally: readBlock(source, finallyBlock) } : {}),
    };
  });
}

/**
 * Every statement in the scope, nested ones included (the body of an `if`, a loop, a
 * lambda), in source order; only those of one kind (`assert`, `if`, ...) when given.
 */
export function findStatements(scope: JavaScope, kind?: string): JavaStatement[] {
  const { node, source } = originOf(scope);
  // Declarations are block statements without a `statement` node of their own.
  const declarations = descendants(node, 'blockStatement').filter(
    (blockStatement) => !child(blockStatement, 'statement'),
  );
  const nodes = [...descendants(node, 'statement'), ...declarations].sort(
    (a, b) => a.location.startOffset - b.location.startOffset,
  );
  const statements = nodes.map((statement) => readStatement(source, statement));
  return kind === undefined ? statements : statements.filter((statement) => statement.kind === kind);
}

/** Bodies whose `return` does not leave the enclosing method. */
const OTHER_METHOD_BODIES = new Set(['lambdaBody', 'classBody']);

/**
 * The `return` statements that leave the scope's method: those inside lambdas and
 * anonymous or local classes return from something else and are not listed.
 */
function findReturnStatementsFromTree(scope: JavaScope): JavaReturnStatement[] {
  const { node, source } = originOf(scope);
  return descendants(node, 'returnStatement', OTHER_METHOD_BODIES).map((statement) => {
    const expression = child(statement, 'expression');
    return {
      range: rangeOf(statement),
      text: textOf(source, statement),
      ...(expression ? { expression: textOf(source, expression) } : {}),
    };
  });
}

/**
 * The scope's tokens joined by single spaces: the same code written with other
 * whitespace, line breaks or comments gives the same text.
 */
function tokenTextFromTree(scope: JavaScope): string {
  const { node } = originOf(scope);
  return tokensUnder(node)
    .map((token) => token.image)
    .join(' ');
}

/** Tokens of a range of the scope's file, joined as tokenText does. */
export function tokenTextOfRange(scope: JavaScope, range: SourceRange): string {
  const { source } = originOf(scope);
  return source.tokens
    .filter((token) => token.startOffset >= range.start && token.endOffset < range.end)
    .map((token) => token.image)
    .join(' ');
}

/** Whether `inner` lies within `outer`. */
export function isInside(inner: SourceRange, outer: SourceRange): boolean {
  return inner.start >= outer.start && inner.end <= outer.end;
}

// Asked once per file content (parse-cache.ts): kept across attempts and, with a store, across runs.
export function findMethodCalls(scope: JavaScope, filter?: (call: JavaMethodCall) => boolean): JavaMethodCall[] {
  const calls = remembered('findMethodCalls', scope, () => findMethodCallsFromTree(scope));
  return filter ? calls.filter(filter) : calls;
}

export function findReturnStatements(scope: JavaScope): JavaReturnStatement[] {
  return remembered('findReturnStatements', scope, () => findReturnStatementsFromTree(scope));
}

export function tokenText(scope: JavaScope): string {
  return remembered('tokenText', scope, () => tokenTextFromTree(scope));
}

/**
 * The range of every method and constructor body in the file, wherever it sits: in a type,
 * an enum constant's body, an anonymous or local class (outer bodies hold the inner ones).
 * What other classes can never see of a file (workspace/narrow.ts compares the rest).
 */
export function bodyRanges(file: JavaSourceFile): SourceRange[] {
  return remembered('bodyRanges', file, () => {
    const node = sourceOf(file).root;
    const bodies = [
      ...descendants(node, 'methodBody').flatMap((body) => child(body, 'block') ?? []),
      ...descendants(node, 'constructorBody'),
    ];
    return bodies.map((body) => rangeOf(body)).sort((a, b) => a.start - b.start);
  });
}
