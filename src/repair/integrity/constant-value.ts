/**
 * The value of a Java constant expression, as a test and the code under test write it:
 * `7`, `-1`, `49L`, `0x31`, `2 * 3`, `"abc"`, `'x'`, `true`, `null`, or a name of a known
 * constant (`INPUT`, `Fixtures.INPUT`). Values are compared as canonical strings, so `49`,
 * `49L` and `49.0` are one value. Pure text in, text out; no parser needed.
 */

/** `n:49`, `s:abc`, `c:x`, `b:true`, `null`. */
export type ConstantValue = string;

const TOKEN =
  /\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)+'|0[xX][\da-fA-F_]+[lL]?|0[bB][01_]+[lL]?|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?[fFdDlL]?|[\p{L}_$][\w$]*(?:\s*\.\s*[\p{L}_$][\w$]*)*|&&|\|\||[=!<>]=|<<|>>>?|\S)/uy;

export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while (TOKEN.lastIndex < text.length && (match = TOKEN.exec(text))) tokens.push(match[1]!.replace(/\s+/g, ''));
  return tokens;
}

type Value = { kind: 'int' | 'float'; value: number } | { kind: 'string' | 'char' | 'bool' | 'null'; value: string };

/** The expression's value, or undefined when it is not a constant (a call, a variable, ...). */
export function constantValue(
  expression: string,
  names: ReadonlyMap<string, ConstantValue> = new Map(),
): ConstantValue | undefined {
  const tokens = tokenize(expression);
  if (tokens.length === 0) return undefined;
  let at = 0;
  const peek = () => tokens[at];
  const fail = (): never => {
    throw new NotConstant();
  };
  const primary = (): Value => {
    const token = tokens[at++] ?? fail();
    if (token === '(') {
      // A cast to a primitive type keeps the value: `(long) 7`.
      if (/^(int|long|short|byte|double|float|char)$/.test(peek() ?? '') && tokens[at + 1] === ')') {
        at += 2;
        return unary();
      }
      const inner = additive();
      if (tokens[at++] !== ')') fail();
      return inner;
    }
    return literal(token, names) ?? fail();
  };
  const unary = (): Value => {
    if (peek() === '-' || peek() === '+') {
      const sign = tokens[at++];
      const operand = unary();
      if (operand.kind !== 'int' && operand.kind !== 'float') fail();
      return sign === '-' ? { kind: operand.kind as 'int' | 'float', value: -(operand.value as number) } : operand;
    }
    return primary();
  };
  const multiplicative = (): Value => {
    let left = unary();
    while (peek() === '*' || peek() === '/' || peek() === '%')
      left = arithmetic(tokens[at++]!, left, unary()) ?? fail();
    return left;
  };
  const additive = (): Value => {
    let left = multiplicative();
    while (peek() === '+' || peek() === '-') left = arithmetic(tokens[at++]!, left, multiplicative()) ?? fail();
    return left;
  };
  try {
    const value = additive();
    return at === tokens.length ? canonical(value) : undefined;
  } catch (error) {
    if (error instanceof NotConstant) return undefined;
    throw error;
  }
}

class NotConstant extends Error {}

function literal(token: string, names: ReadonlyMap<string, ConstantValue>): Value | undefined {
  if (token.startsWith('"')) return { kind: 'string', value: unescape(token.slice(1, -1)) };
  if (token.startsWith("'")) return { kind: 'char', value: unescape(token.slice(1, -1)) };
  if (token === 'true' || token === 'false') return { kind: 'bool', value: token };
  if (token === 'null') return { kind: 'null', value: 'null' };
  if (/^[\d.]/.test(token)) return number(token);
  const known = names.get(token) ?? names.get(token.slice(token.lastIndexOf('.') + 1));
  return known === undefined ? undefined : fromCanonical(known);
}

function number(token: string): Value | undefined {
  const plain = token.replace(/_/g, '');
  // Stryker disable next-line MethodExpression: Number.parseInt with radix 16 skips a leading 0x itself
  if (/^0[xX]/.test(plain)) return { kind: 'int', value: Number.parseInt(plain.slice(2).replace(/[lL]$/, ''), 16) };
  if (/^0[bB]/.test(plain)) return { kind: 'int', value: Number.parseInt(plain.slice(2).replace(/[lL]$/, ''), 2) };
  const isFloat = /[.eEfFdD]/.test(plain.replace(/^0[xX].*/, ''));
  const value = Number(plain.replace(/[fFdDlL]$/, ''));
  if (Number.isNaN(value)) return undefined;
  return { kind: isFloat ? 'float' : 'int', value };
}

function arithmetic(operator: string, left: Value, right: Value): Value | undefined {
  if (operator === '+' && (left.kind === 'string' || right.kind === 'string'))
    return { kind: 'string', value: `${show(left)}${show(right)}` };
  if ((left.kind !== 'int' && left.kind !== 'float') || (right.kind !== 'int' && right.kind !== 'float'))
    return undefined;
  const a = left.value;
  const b = right.value;
  const kind = left.kind === 'float' || right.kind === 'float' ? 'float' : 'int';
  if ((operator === '/' || operator === '%') && b === 0) return undefined;
  const raw = { '+': a + b, '-': a - b, '*': a * b, '/': a / b, '%': a % b }[operator];
  if (raw === undefined) return undefined;
  return { kind, value: kind === 'int' && operator === '/' ? Math.trunc(raw) : raw };
}

function show(value: Value): string {
  return String(value.value);
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, (_, char: string) => ({ n: '\n', t: '\t', r: '\r', '0': '\0' })[char] ?? char);
}

function canonical(value: Value): ConstantValue {
  switch (value.kind) {
    case 'int':
    case 'float':
      return `n:${value.value}`;
    case 'string':
      return `s:${value.value}`;
    case 'char':
      return `c:${value.value}`;
    case 'bool':
      return `b:${value.value}`;
    default:
      return 'null';
  }
}

function fromCanonical(value: ConstantValue): Value {
  if (value === 'null') return { kind: 'null', value: 'null' };
  const [kind, ...rest] = value.split(':');
  const text = rest.join(':');
  if (kind === 'n') return { kind: Number.isInteger(Number(text)) ? 'int' : 'float', value: Number(text) };
  return { kind: ({ s: 'string', c: 'char', b: 'bool' } as const)[kind as 's' | 'c' | 'b'], value: text };
}

/** How a value reads in a sentence: `49`, `"abc"`, `'x'`, `true`. */
export function describeValue(value: ConstantValue): string {
  if (value.startsWith('s:')) return JSON.stringify(value.slice(2));
  if (value.startsWith('c:')) return `'${value.slice(2)}'`;
  return value === 'null' ? 'null' : value.slice(2);
}

/**
 * Every literal in the text, each on its own (a minus sign before a number that follows an
 * operator or an opening bracket belongs to it): the values a test passes in.
 */
export function literalsIn(text: string): ConstantValue[] {
  const tokens = tokenize(text);
  const out: ConstantValue[] = [];
  tokens.forEach((token, index) => {
    if (!/^["'\d.]|^(true|false)$/.test(token) || token === '.') return;
    const previous = tokens[index - 1];
    const signed = previous === '-' && !/^[\w$)\]"'.]/u.test(tokens[index - 2] ?? '(');
    const value = constantValue(signed ? `-${token}` : token);
    if (value) out.push(value);
  });
  return out;
}

/**
 * The parts of a condition joined by `&&` or `||` at the top level (not inside brackets),
 * each without its outer brackets.
 */
export function conditionParts(condition: string): string[] {
  const tokens = unwrap(tokenize(condition));
  const parts: string[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    if (token === '(') depth++;
    if (token === ')') depth--;
    if (depth === 0 && (token === '&&' || token === '||')) parts.push([]);
    else parts.at(-1)!.push(token);
  }
  if (parts.length === 1) return tokens.length > 0 ? [tokens.join(' ')] : [];
  // `(a || b)` inside an `&&`: each of a and b may take the branch.
  return parts.flatMap((part) => conditionParts(part.join(' ')));
}

function unwrap(tokens: string[]): string[] {
  let current = tokens;
  while (current[0] === '(' && current.at(-1) === ')' && closes(current)) current = current.slice(1, -1);
  return current;
}

/** Whether the first bracket closes at the last token. */
function closes(tokens: string[]): boolean {
  let depth = 0;
  for (const [index, token] of tokens.entries()) {
    if (token === '(') depth++;
    if (token === ')') depth--;
    if (depth === 0) return index === tokens.length - 1;
  }
  return false;
}

export interface Equality {
  /** The side that is not a constant: `n`, `s.trim()`. */
  subject: string;
  value: ConstantValue;
  /** `!=` or `!x.equals(...)`: the branch is taken when they differ. */
  negated: boolean;
}

/**
 * `n == 7`, `7 == n`, `n != 7`, `"JPY".equals(code)`, `code.equals("JPY")`,
 * `Objects.equals(code, "JPY")`, `!code.equalsIgnoreCase("jpy")`: one side a constant.
 */
export function equalityOf(part: string, names: ReadonlyMap<string, ConstantValue> = new Map()): Equality | undefined {
  let tokens = unwrap(tokenize(part));
  let negated = false;
  while (tokens[0] === '!') {
    negated = !negated;
    tokens = unwrap(tokens.slice(1));
  }
  const sides = splitAt(tokens, ['==', '!=']);
  if (sides) return pair(sides.left.join(' '), sides.right.join(' '), negated !== (sides.operator === '!='), names);
  const text = tokens.join(' ');
  const objects = /^(?:java\.util\.)?Objects\.equals \( ([\s\S]+) \)$/.exec(text);
  if (objects) {
    const args = splitAt(tokenize(objects[1]!), [',']);
    return args ? pair(args.left.join(' '), args.right.join(' '), negated, names) : undefined;
  }
  const call = /^([\s\S]+?)(?: \. |\.)equals(?:IgnoreCase)? \( ([\s\S]+) \)$/.exec(text);
  if (call && closes(tokenize(`(${call[2]!})`))) return pair(call[1]!, call[2]!, negated, names);
  return undefined;
}

function pair(
  left: string,
  right: string,
  negated: boolean,
  names: ReadonlyMap<string, ConstantValue>,
): Equality | undefined {
  const a = constantValue(left, names);
  const b = constantValue(right, names);
  if ((a === undefined) === (b === undefined)) return undefined;
  return a === undefined ? { subject: left, value: b!, negated } : { subject: right, value: a, negated };
}

/** The first operator of `operators` at the top level, and what stands either side. */
function splitAt(
  tokens: string[],
  operators: string[],
): { left: string[]; operator: string; right: string[] } | undefined {
  let depth = 0;
  for (const [index, token] of tokens.entries()) {
    if (token === '(') depth++;
    if (token === ')') depth--;
    if (depth === 0 && operators.includes(token))
      return { left: tokens.slice(0, index), operator: token, right: tokens.slice(index + 1) };
  }
  return undefined;
}
