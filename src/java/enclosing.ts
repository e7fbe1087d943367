/**
 * The method or constructor around a position, with what a fix to its declaration
 * needs: where the header ends (to add `throws X`), the declared return type, the
 * exceptions already declared, and whether it is an interface method.
 */
import { child, childNodes, descendants, originOf, rangeOf, textOf, tokensUnder, type CstNode } from './cst.js';
import { allTypes } from './model.js';
import type { JavaMethod, JavaSourceFile } from './types.js';

export interface EnclosingMethod {
  method: JavaMethod;
  /** The return type as written, whitespace removed (`List<String>`); undefined for constructors. */
  returnType?: string;
  /** Types already listed after `throws`, as written. */
  thrown: string[];
  /** Offset just after the header's last token (before the whitespace and `{` of the body). */
  headerEnd: number;
  /** Declared in an interface (or annotation type), where methods are implicitly public. */
  inInterface: boolean;
  /** Simple names of its annotations (`Override`). */
  annotations: string[];
}

/** Bodies whose code belongs to something other than the enclosing method. */
const FOREIGN_BODIES = ['lambdaBody', 'classBody'];

/**
 * The method or constructor whose body holds `offset`, or undefined when the position is
 * in a lambda, an anonymous or local class, an initializer, a field, or outside any body.
 */
export function enclosingMethodAt(file: JavaSourceFile, offset: number): EnclosingMethod | undefined {
  for (const type of allTypes(file)) {
    for (const method of type.methods) {
      const body = method.body;
      if (!body || offset < body.range.start || offset >= body.range.end) continue;
      const { node, source } = originOf(method);
      const bodyNode = child(node, 'methodBody') ?? child(node, 'constructorBody');
      if (!bodyNode) return undefined;
      const foreign = FOREIGN_BODIES.flatMap((rule) => descendants(bodyNode, rule)).some((inner) => {
        const span = rangeOf(inner);
        return offset >= span.start && offset < span.end;
      });
      if (foreign) return undefined;
      const bodyStart = rangeOf(bodyNode).start;
      const header = tokensUnder(node).filter((token) => token.endOffset < bodyStart);
      const methodHeader = child(node, 'methodHeader');
      const result = methodHeader && child(methodHeader, 'result');
      const throwsNode = methodHeader ? child(methodHeader, 'throws') : child(node, 'throws');
      return {
        method,
        ...(method.kind === 'method' && result ? { returnType: textOf(source, result).replace(/\s+/g, '') } : {}),
        thrown: throwsNode ? exceptionTypes(throwsNode).map((type) => textOf(source, type).replace(/\s+/g, '')) : [],
        headerEnd: (header.at(-1)?.endOffset ?? bodyStart - 1) + 1,
        inInterface: type.kind === 'interface' || type.kind === 'annotation',
        annotations: method.annotations.map((annotation) => annotation.name),
      };
    }
  }
  return undefined;
}

function exceptionTypes(throwsNode: CstNode): CstNode[] {
  const list = child(throwsNode, 'exceptionTypeList');
  return list ? childNodes(list, 'exceptionType') : [];
}
