/**
 * What a developer reads to understand a failing test: the test method, the fields of
 * its class and the set-up methods that run before it (JUnit 5, JUnit 4, JUnit 3 and
 * TestNG spellings), and where in the method the assertions are.
 */
import { fieldsOf, type JavaField } from './members.js';
import { hasAnnotation, initializersOf, type JavaInitializer } from './outline.js';
import { allTypes } from './model.js';
import { findMethodCalls } from './queries.js';
import type { JavaMethod, JavaSourceFile, JavaType } from './types.js';

export interface TestCode {
  type: JavaType;
  /** Fields declared in the test class, and in the classes it is nested in (JUnit 5 @Nested). */
  fields: JavaField[];
  initializers: JavaInitializer[];
  /** Methods that run before (and after) each test or the class, outer classes' first. */
  setup: JavaMethod[];
  /** Every overload with the test's name (normally one). */
  tests: JavaMethod[];
  /** Lines (1-based) in the test methods holding an assertion call. */
  assertionLines: number[];
}

const SETUP_ANNOTATIONS = [
  'BeforeEach',
  'BeforeAll',
  'Before',
  'BeforeClass',
  'AfterEach',
  'AfterAll',
  'After',
  'AfterClass',
  'BeforeMethod',
  'AfterMethod',
];
/** JUnit 3 runs these by name. */
const SETUP_NAMES = ['setUp', 'tearDown'];
const ASSERTION_CALL = /^(?:assert\w*|fail|verify\w*|expect\w*|check\w*)$/;

/**
 * The test code for `method` in the class named `className` (simple or binary name, or
 * undefined for any class of the file). Undefined when the file has no such method.
 */
export function findTestCode(file: JavaSourceFile, method: string, className?: string): TestCode | undefined {
  const types = allTypes(file).filter(
    (type) =>
      className === undefined ||
      type.binaryName === className ||
      type.name === className ||
      type.binaryName.endsWith(`.${className}`),
  );
  for (const type of types) {
    const tests = type.methods.filter((candidate) => candidate.kind === 'method' && candidate.name === method);
    if (tests.length === 0) continue;
    const chain = enclosingChain(file, type);
    return {
      type,
      fields: chain.flatMap(fieldsOf).filter((field) => field.kind === 'field'),
      initializers: chain.flatMap(initializersOf),
      setup: chain.flatMap((owner) =>
        owner.methods.filter(
          (candidate) =>
            candidate !== tests[0] &&
            (hasAnnotation(candidate, ...SETUP_ANNOTATIONS) ||
              (SETUP_NAMES.includes(candidate.name) && candidate.parameters.length === 0)),
        ),
      ),
      tests,
      assertionLines: [
        ...new Set(
          tests.flatMap((test) =>
            findMethodCalls(test, (call) => ASSERTION_CALL.test(call.name) && call.firstInChain).map(
              (call) => call.range.startLine,
            ),
          ),
        ),
      ].sort((a, b) => a - b),
    };
  }
  return undefined;
}

/** The type and the types it is nested in, outermost first. */
function enclosingChain(file: JavaSourceFile, type: JavaType): JavaType[] {
  const chain: JavaType[] = [];
  const search = (types: JavaType[], path: JavaType[]): boolean => {
    for (const candidate of types) {
      if (candidate === type) {
        chain.push(...path, candidate);
        return true;
      }
      if (search(candidate.types, [...path, candidate])) return true;
    }
    return false;
  };
  search(file.types, []);
  return chain;
}
