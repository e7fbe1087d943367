/**
 * The branches of a scope: `if` statements, conditional expressions (`c ? a : b`) and
 * switch cases (statements and expressions, `case 7:` and `case 7 ->`), each with its
 * condition as written and what it gives when taken (returned, yielded or assigned
 * values, or the conditional's operand). Read from the syntax tree, so a branch is found
 * whatever its layout; what the texts mean is the caller's business.
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
import type { JavaScope, SourceRange } from './types.js';

export interface JavaBranch {
  kind: 'if' | 'conditional' | 'case';
  /** `n == 7 && s != null` for an `if` or a conditional; the selector for a case. */
  condition: string;
  /** A case's label constants as written (`7`, `"JPY"`); empty for `default` and the others. */
  labels: string[];
  /** The switch a case belongs to (its range start): the cases of one switch share it. */
  switchAt?: number;
  /** What the branch gives when its condition holds: return, yield and assigned values. */
  results: string[];
  /** What it gives otherwise: an `else` branch's values, a conditional's third operand. */
  otherwise: string[];
  range: SourceRange;
}

/** Bodies whose `return` leaves something other than the branch's method. */
const OTHER_BODIES = new Set(['lambdaBody', 'classBody']);

/** Every branch in the scope, nested ones included, in source order. */
export function findBranches(scope: JavaScope): JavaBranch[] {
  const { node, source } = originOf(scope);
  const branches: JavaBranch[] = [];
  for (const statement of descendants(node, 'ifStatement')) {
    const [then, otherwise] = childNodes(statement, 'statement');
    const condition = child(statement, 'expression');
    if (!condition || !then) continue;
    branches.push({
      kind: 'if',
      condition: textOf(source, condition),
      labels: [],
      results: valuesOf(source, then),
      otherwise: otherwise ? valuesOf(source, otherwise) : [],
      range: rangeOf(statement),
    });
  }
  for (const expression of descendants(node, 'conditionalExpression')) {
    const operands = childNodes(expression, 'expression');
    const test = child(expression, 'binaryExpression');
    if (operands.length !== 2 || !test) continue;
    branches.push({
      kind: 'conditional',
      condition: textOf(source, test),
      labels: [],
      results: [textOf(source, operands[0]!)],
      otherwise: [textOf(source, operands[1]!)],
      range: rangeOf(expression),
    });
  }
  for (const statement of descendants(node, 'switchStatement')) {
    const selector = child(statement, 'expression');
    const block = child(statement, 'switchBlock');
    if (!selector || !block) continue;
    const condition = textOf(source, selector);
    const switchAt = rangeOf(statement).start;
    for (const group of childNodes(block, 'switchBlockStatementGroup')) {
      const statements = child(group, 'blockStatements');
      const labels = childNodes(group, 'switchLabel').flatMap((label) => labelsOf(source, label));
      branches.push({
        kind: 'case',
        condition,
        labels,
        switchAt,
        results: statements ? valuesOf(source, statements) : [],
        otherwise: [],
        range: rangeOf(group),
      });
    }
    for (const rule of childNodes(block, 'switchRule')) {
      const label = child(rule, 'switchLabel');
      const value = child(rule, 'expression');
      const body = child(rule, 'block');
      const results = value ? [textOf(source, value)] : body ? valuesOf(source, body) : [];
      branches.push({
        kind: 'case',
        condition,
        labels: label ? labelsOf(source, label) : [],
        switchAt,
        results,
        otherwise: [],
        range: rangeOf(rule),
      });
    }
  }
  return branches.sort((a, b) => a.range.start - b.range.start);
}

function labelsOf(source: ParsedSource, label: CstNode): string[] {
  if (childTokens(label).some((token) => token.image === 'default')) return [];
  return descendants(label, 'caseConstant').map((constant) => textOf(source, constant));
}

/** Returned and yielded expressions, and the values of plain assignments, under `node`. */
function valuesOf(source: ParsedSource, node: CstNode): string[] {
  const values: string[] = [];
  for (const statement of [
    ...descendants(node, 'returnStatement', OTHER_BODIES),
    ...descendants(node, 'yieldStatement', OTHER_BODIES),
  ]) {
    const expression = child(statement, 'expression');
    if (expression) values.push(textOf(source, expression));
  }
  for (const statement of descendants(node, 'expressionStatement', OTHER_BODIES)) {
    const assigned = /^[\p{L}_$][\w$.[\]]*\s*=(?!=)\s*([\s\S]+?)\s*;$/u.exec(textOf(source, statement));
    if (assigned) values.push(assigned[1]!);
  }
  return values;
}
