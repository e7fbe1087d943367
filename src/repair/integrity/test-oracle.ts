/**
 * The oracle of a failing test, read from its source with the Java parser: the values it
 * passes in (`factorial(5)`, `int n = 7`, a `static final` constant of the test class, a
 * `@CsvSource` row) and the values it expects (`assertEquals(120, ...)`,
 * `assertThat(x).isEqualTo("abc")`, `assertTrue(...)`), and the type names it mentions.
 * special-casing.ts asks whether a patch to main code answers these inputs with these
 * expected values instead of fixing the code.
 */
import {
  allTypes,
  fieldsOf,
  findMethodCalls,
  maskCommentsAndLiterals,
  parseKept,
  type JavaMethod,
  type JavaType,
} from '../../java/index.js';
import { assertionsIn, checkingCalls, EXPECTED_FIRST, type Assertion } from './assertions.js';
import { constantValue, literalsIn, tokenize, type ConstantValue } from './constant-value.js';
import type { FailingTestRef } from './types.js';

/** A failing test and the text of the file that declares it (as it is before the patch). */
export interface FailingTestSource {
  ref: FailingTestRef;
  /** Project-relative path of the test's file. */
  path: string;
  text: string;
}

export interface TestOracle {
  /** `com.acme.FooTest#method` */
  test: string;
  inputs: Set<ConstantValue>;
  expected: Set<ConstantValue>;
  /** Capitalised names the test's file mentions: the types it uses, compares and asserts on. */
  typeNames: Set<string>;
  /** Simple name of the test class (`FooTest`). */
  className: string;
}

const TEST_ANNOTATION = /^(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Theory)$/;
/** Chain calls whose name says what they expect: `isTrue()`, `isNull()`, `isZero()`. */
const IMPLIED: Record<string, ConstantValue> = { isTrue: 'b:true', isFalse: 'b:false', isNull: 'null', isZero: 'n:0' };

/** One oracle per failing test method found in the sources; a test that does not parse gives none. */
export function testOracles(sources: readonly FailingTestSource[]): TestOracle[] {
  const oracles: TestOracle[] = [];
  for (const source of sources) {
    const parsed = parseKept(source.text);
    if (!parsed.ok) continue;
    const types = allTypes(parsed.file);
    const type = types.find((candidate) => candidate.binaryName === source.ref.className);
    if (!type) continue;
    const constants = constantsOf(types);
    // Stryker disable next-line ArrayDeclaration: the made-up text is not a Java name, so no type is ever taken for it
    const typeNames = new Set(maskCommentsAndLiterals(source.text).match(/\b[A-Z][\w$]*\b/g) ?? []);
    const tests = type.methods.filter(
      (method) => method.kind === 'method' && method.annotations.some((a) => TEST_ANNOTATION.test(a.name)),
    );
    const named = tests.filter((method) => method.name === source.ref.method);
    for (const method of named.length > 0 ? named : tests) {
      oracles.push({
        test: `${type.binaryName}#${method.name}`,
        ...valuesOf(method, type, constants),
        typeNames,
        className: type.name,
      });
    }
  }
  return oracles;
}

/** `static final` fields whose initialiser is a constant, by simple name. */
export function constantsOf(types: readonly JavaType[]): Map<string, ConstantValue> {
  const names = new Map<string, ConstantValue>();
  const fields = types
    .flatMap((type) => fieldsOf(type))
    .filter((field) => field.modifiers.includes('static') && field.modifiers.includes('final'));
  // Twice: a constant may be defined by one declared after it.
  for (let pass = 0; pass < 2; pass++) {
    for (const field of fields) {
      const initialiser = new RegExp(`\\b${field.name.replace(/\$/g, '\\$')}\\s*=\\s*([^,;]+)`).exec(field.text)?.[1];
      const value = initialiser === undefined ? undefined : constantValue(initialiser, names);
      if (value !== undefined) names.set(field.name, value);
    }
  }
  return names;
}

function valuesOf(
  method: JavaMethod,
  type: JavaType,
  constants: ReadonlyMap<string, ConstantValue>,
): Pick<TestOracle, 'inputs' | 'expected'> {
  const inputs = new Set<ConstantValue>();
  const expected = new Set<ConstantValue>();
  const assertions = assertionsIn(method);
  // Stryker disable next-line ArrayDeclaration: a made-up text holds no literal or constant name, and replacing it in
  // the body changes nothing
  const expectedTexts: string[] = [];
  for (const assertion of assertions) expectedTexts.push(...expectedOf(assertion, expected));
  for (const text of expectedTexts) valuesIn(text, constants).forEach((value) => expected.add(value));

  // What is left of the method once the expected values are taken out: what it passes in.
  // Stryker disable next-line StringLiteral: only a method without a body gets the made-up text, which holds no literal
  // or constant name
  let rest = method.body?.text ?? '';
  // The expected value itself, not the same characters inside another literal or name
  // (`int a = 353; assertEquals(5, f(a))` passes in 353).
  for (const text of expectedTexts)
    rest = rest.replace(new RegExp(String.raw`(?<![\w$.])${escapeRegExp(text)}(?![\w$.])`), ' ');
  valuesIn(rest, constants).forEach((value) => inputs.add(value));
  const inAssertion = new Set(
    assertions.flatMap((assertion) => assertion.calls.map((call) => `${call.range.start}:${call.name}`)),
  );
  // Only the methods this test calls are asked whether they assert: reading every method of
  // a large test class for each failing test (jsoup's HtmlParserTest) took a second.
  const asserts = new Map<string, boolean>();
  const isHelper = (name: string) => {
    let known = asserts.get(name);
    if (known === undefined) {
      known = type.methods.some(
        (candidate) => candidate !== method && candidate.name === name && assertionsIn(candidate).length > 0,
      );
      asserts.set(name, known);
    }
    return known;
  };
  for (const call of findMethodCalls(method)) {
    if (inAssertion.has(`${call.range.start}:${call.name}`)) continue;
    const values = call.arguments
      .map((argument) => constantValue(argument, constants))
      .filter((value): value is ConstantValue => value !== undefined);
    values.forEach((value) => inputs.add(value));
    // `check(7, 49)`: a helper of the test class that asserts; its arguments are inputs and expectations alike.
    if ((!call.qualifier || call.qualifier === 'this') && isHelper(call.name))
      values.forEach((value) => expected.add(value));
  }
  // Parameterised tests: `@CsvSource({"7, 49"})` rows hold both; `@ValueSource(ints = {7})` inputs.
  for (const annotation of method.annotations) {
    if (annotation.name === 'CsvSource') {
      for (const row of literalsIn(annotation.text).filter((value) => value.startsWith('s:'))) {
        for (const cell of row.slice(2).split(',')) {
          const value = csvCell(cell.trim());
          inputs.add(value);
          expected.add(value);
        }
      }
    } else if (annotation.name === 'ValueSource') {
      literalsIn(annotation.text).forEach((value) => inputs.add(value));
    }
  }
  return { inputs, expected };
}

/** The texts of an assertion's expected values; values implied by its name go straight into `expected`. */
function expectedOf(assertion: Assertion, expected: Set<ConstantValue>): string[] {
  const calls = checkingCalls(assertion.calls);
  const first = calls[0];
  // Stryker disable next-line ArrayDeclaration: a made-up expected text holds no value, and it is nowhere in the body
  // to take out
  if (!first) return [];
  if (EXPECTED_FIRST.has(first.name) && first.arguments.length >= 2) return [first.arguments[0]!];
  if (first.name === 'assertTrue') expected.add('b:true');
  if (first.name === 'assertFalse') expected.add('b:false');
  if (first.name === 'assertNull') expected.add('null');
  // Stryker disable next-line ArrayDeclaration: a made-up expected text holds no value, and it is nowhere in the body
  // to take out
  if (first.name !== 'assertThat' && first.name !== 'then') return [];
  // Stryker disable next-line MethodExpression: the first call is assertThat or then, which IMPLIED does not name
  for (const call of calls.slice(1)) if (IMPLIED[call.name]) expected.add(IMPLIED[call.name]!);
  // AssertJ: the matchers' arguments; Hamcrest: `assertThat(actual, is(49))`.
  return [...calls.slice(1).flatMap((call) => call.arguments), ...first.arguments.slice(1)];
}

/** The text's value if it is a constant, else every literal and constant name in it. */
function valuesIn(text: string, constants: ReadonlyMap<string, ConstantValue>): ConstantValue[] {
  const whole = constantValue(text, constants);
  if (whole !== undefined) return [whole];
  const named = tokenize(maskCommentsAndLiterals(text)).flatMap((token) => {
    const value = constants.get(token) ?? constants.get(token.slice(token.lastIndexOf('.') + 1));
    return value === undefined ? [] : [value];
  });
  return [...literalsIn(text), ...named];
}

function csvCell(cell: string): ConstantValue {
  if (/^'.*'$/.test(cell)) return `s:${cell.slice(1, -1)}`;
  return constantValue(cell) ?? `s:${cell}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
