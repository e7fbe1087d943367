/**
 * What counts as an assertion in a test, what makes one unable to fail, and which
 * catch clauses swallow a failing assertion. Pure over the Java source model.
 */
import {
  findMethodCalls,
  findStatements,
  findTryStatements,
  isInside,
  tokenTextOfRange,
  type JavaMethod,
  type JavaMethodCall,
  type JavaScope,
  type SourceRange,
} from '../../java/index.js';

/** JUnit 4/5, AssertJ, Hamcrest, Truth, Mockito's verify and BDD `then`: the first call of the chain. */
const ASSERTION_NAME = /^(assert[A-Z]\w*|assertThat|fail|verify\w*|then|expectThrows|check[A-Z]\w*That)$/;
/** `fail(...)` and friends: an assertion that fails by being reached. */
const FAIL_NAME = /^fail$/;
/** Assertions whose first argument is the expected value. */
export const EXPECTED_FIRST = new Set([
  'assertEquals',
  'assertNotEquals',
  'assertArrayEquals',
  'assertIterableEquals',
  'assertLinesMatch',
  'assertSame',
  'assertNotSame',
]);

export interface Assertion {
  /** The first call's name: `assertEquals`, `assertThat`, `fail`, or `assert` for the keyword. */
  name: string;
  /** The whole assertion as tokens joined by spaces (whitespace and comments do not matter). */
  tokens: string;
  /**
   * What the assertion checks, without its failure message: adding or rewording a message
   * (`assertEquals(6, x)` -> `assertEquals(6, x, "diagnostics: " + report)`, `.as("...")`)
   * does not change what passes.
   */
  key: string;
  /** As written. */
  text: string;
  range: SourceRange;
  /** Calls of the chain: `assertThat(x)` then `isEqualTo(3)`. Empty for the `assert` keyword. */
  calls: JavaMethodCall[];
}

/** Every assertion in the scope, in source order (a chain counts once). */
export function assertionsIn(scope: JavaScope): Assertion[] {
  const calls = findMethodCalls(scope);
  const out: Assertion[] = [];
  for (const call of calls) {
    if (!call.firstInChain || !ASSERTION_NAME.test(call.name)) continue;
    // `Assertions.assertThat(...)` qualifies; `list.verify()` (a call on a value) does not.
    if (call.qualifier && !/^([a-z_$][\w$]*\.)*[A-Z][\w$]*$/.test(call.qualifier)) continue;
    const chain = calls.filter(
      (other) => other.chain.range.start === call.chain.range.start && other.chain.range.end === call.chain.range.end,
    );
    out.push({
      name: call.name,
      tokens: tokenTextOfRange(scope, call.chain.range),
      key: keyOf(chain),
      text: call.chain.text,
      range: call.chain.range,
      calls: chain,
    });
  }
  for (const statement of findStatements(scope, 'assert')) {
    const tokens = tokenTextOfRange(scope, statement.range);
    out.push({ name: 'assert', tokens, key: tokens, text: statement.text, range: statement.range, calls: [] });
  }
  return out.sort((a, b) => a.range.start - b.range.start);
}

/** Arguments before the optional trailing message (JUnit 5 puts the message last). */
const ARITY: Record<string, number> = {
  assertEquals: 2,
  assertNotEquals: 2,
  assertSame: 2,
  assertNotSame: 2,
  assertArrayEquals: 2,
  assertIterableEquals: 2,
  assertLinesMatch: 2,
  assertInstanceOf: 2,
  assertThrows: 2,
  assertThrowsExactly: 2,
  assertTimeout: 2,
  assertTimeoutPreemptively: 2,
  assertTrue: 1,
  assertFalse: 1,
  assertNull: 1,
  assertNotNull: 1,
  assertDoesNotThrow: 1,
  fail: 0,
};
/** AssertJ's ways of setting the failure message on a chain. */
const MESSAGE_CALLS = new Set(['as', 'describedAs', 'withFailMessage', 'overridingErrorMessage']);
/** A message is text: a string literal (maybe concatenated) or String.format(...). */
const MESSAGE_LIKE = /^("|String\.format\()/;

/**
 * A call's arguments without a trailing failure message. Only a message past the required
 * arguments counts: in `assertEquals(actual, "expected")` the string is the expected value.
 */
export function argumentsWithoutMessage(call: JavaMethodCall): string[] {
  const arity = ARITY[call.name];
  const args = call.arguments;
  return arity !== undefined && args.length > arity && MESSAGE_LIKE.test(args.at(-1)!.trim())
    ? args.slice(0, -1)
    : args;
}

/** The chain without message calls, its first call without a message argument. */
export function checkingCalls(chain: readonly JavaMethodCall[]): JavaMethodCall[] {
  return chain
    .filter((call, index) => index === 0 || !MESSAGE_CALLS.has(call.name))
    .map((call, index) => (index === 0 ? { ...call, arguments: argumentsWithoutMessage(call) } : call));
}

function keyOf(chain: readonly JavaMethodCall[]): string {
  const compact = (text: string) => text.replace(/\s+/g, '');
  return checkingCalls(chain)
    .map((call) => `${call.name}(${call.arguments.map(compact).join(',')})`)
    .join('.');
}

export function isFail(assertion: Assertion): boolean {
  return FAIL_NAME.test(assertion.name);
}

const compact = (text: string) => text.replace(/\s+/g, '');

/**
 * `assertTrue(true)`, `assertEquals(x, x)`, `assertThat(true).isTrue()`, `assert true;`: passes whatever the code does.
 */
export function cannotFail(assertion: Assertion): boolean {
  const first = assertion.calls[0];
  if (assertion.name === 'assert') return /^assert\s+true\s*(:|;)/.test(assertion.tokens);
  if (!first) return false;
  const args = first.arguments.map(compact);
  if (assertion.calls.length === 1) {
    if (first.name === 'assertTrue') return args[0] === 'true' || args[0] === 'Boolean.TRUE';
    if (first.name === 'assertFalse') return args[0] === 'false' || args[0] === 'Boolean.FALSE';
    if (first.name === 'assertNull') return args[0] === 'null';
    // Tested on the argument as written: with its white space taken out, `new Object()` reads `newObject()`.
    if (first.name === 'assertNotNull')
      return first.arguments[0] !== undefined && /^("|new\b|\d)/.test(first.arguments[0].trim());
    if (first.name === 'assertDoesNotThrow') return args[0] !== undefined && /^\(\)->\{?\}?;?$/.test(args[0]);
    if (['assertEquals', 'assertSame', 'assertArrayEquals', 'assertIterableEquals'].includes(first.name))
      return args.length >= 2 && args[0] === args[1];
    return false;
  }
  // assertThat(true).isTrue(), assertThat(x).isEqualTo(x), assertThat(1).isEqualTo(1)
  if (first.name !== 'assertThat' && first.name !== 'then') return false;
  const subject = args[0];
  // Stryker disable next-line UnaryOperator: every check below also wants exactly two calls, where at(1) is at(-1)
  const last = assertion.calls.at(-1)!;
  if (assertion.calls.length === 2 && last.name === 'isTrue') return subject === 'true';
  if (assertion.calls.length === 2 && last.name === 'isFalse') return subject === 'false';
  if (assertion.calls.length === 2 && last.name === 'isEqualTo') return compact(last.arguments[0] ?? '') === subject;
  return false;
}

/** Catching these lets a failing assertion (an Error) or the exception under test pass silently. */
const SWALLOWED_TYPES =
  /^(java\.lang\.)?(Throwable|Error|AssertionError|Exception|RuntimeException)$|(^|\.)(AssertionFailedError|ComparisonFailure|MultipleFailuresError)$/;

/**
 * The try/catch that swallows a failure at `range`: the range is in the try block, and
 * a catch clause that catches a broad type neither rethrows nor fails.
 */
export function swallowingTry(method: JavaMethod, range: SourceRange): string | undefined {
  for (const statement of findTryStatements(method)) {
    if (!isInside(range, statement.block.range)) continue;
    for (const clause of statement.catches) {
      if (!clause.types.some((type) => SWALLOWED_TYPES.test(type.trim()))) continue;
      const rethrows = /\bthrow\b/.test(clause.body.text) || assertionsIn(clause.body).length > 0;
      if (!rethrows) return `catch (${clause.types.join(' | ')} ${clause.parameter}) ${oneLine(clause.body.text)}`;
    }
  }
  return undefined;
}

/** Source text on one line, shortened for a sentence. */
export function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}
