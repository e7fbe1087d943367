/**
 * The Java side of test integrity: the test classes a patch touches, parsed before and
 * after and compared type by type and method by method (never line by line). Existing
 * tests must not be deleted, lose their test annotation, be disabled, get an assumption
 * that can skip them or an early return; the body of each test is compared in
 * test-body.ts, closely for the tests that failed.
 */
import {
  allTypes,
  findMethodCalls,
  findReturnStatements,
  parseJava,
  tokenText,
  type JavaMethod,
  type JavaSourceFile,
  type JavaType,
} from '../../../java/index.js';
import type { FileChange } from '../../../patch/types.js';
import { assertionsIn, oneLine } from '../assertions.js';
import { looksLikeTest } from '../scope.js';
import { testBodyFindings } from '../test-body.js';
import {
  TEST_COMPARISON_FINDINGS,
  type FailingTestRef,
  type IntegrityFinding,
  type IntegrityRule,
  type TestComparisonFinding,
} from '../types.js';

const TEST_ANNOTATIONS = new Set([
  'Test',
  'ParameterizedTest',
  'RepeatedTest',
  'TestFactory',
  'TestTemplate',
  'Theory',
]);
/** JUnit 5's @Disabled and every condition annotation (@DisabledIf..., @EnabledOnOs, ...), JUnit 4's @Ignore. */
const DISABLING = /^(Disabled|Ignore|Disabled[A-Z]\w*|Enabled[A-Z]\w*)$/;
const LIFECYCLE = new Set([
  'BeforeEach',
  'BeforeAll',
  'AfterEach',
  'AfterAll',
  'Before',
  'After',
  'BeforeClass',
  'AfterClass',
]);
const ASSUMPTION = /^(assume[A-Z]\w*|assuming\w*)$/;

interface Declared {
  type: JavaType;
  file: string;
  source: JavaSourceFile;
}

export const testComparison = {
  id: 'test-comparison',
  description:
    'no test the patch touches is deleted, disabled, skipped or weakened, and a failing test keeps what it checks',
  reports: TEST_COMPARISON_FINDINGS,
  check: (input) => javaTestFindings(input.changes, input.failingTests),
} as const satisfies IntegrityRule;

export function javaTestFindings(
  changes: readonly FileChange[],
  failing: readonly FailingTestRef[],
): IntegrityFinding[] {
  const findings: IntegrityFinding[] = [];
  const before = new Map<string, Declared>();
  const after = new Map<string, Declared>();
  /** Test files whose patched text does not parse: javac will refuse them, nothing to compare. */
  const unreadableAfter = new Set<string>();

  for (const change of changes) {
    if (change.binary) continue;
    const beforePath = change.oldPath ?? change.path;
    const isTestBefore =
      change.before !== null && beforePath.endsWith('.java') && looksLikeTest(beforePath, change.before);
    if (isTestBefore) {
      const parsed = parseJava(change.before!);
      if (!parsed.ok) {
        findings.push({
          rule: 'unreadable-test',
          file: beforePath,
          message: `cannot check ${beforePath}: mvnx cannot read it as Java (${parsed.error.message}), so a patch may not change it`,
          failingTestEdit: false,
        });
        continue;
      }
      for (const type of allTypes(parsed.file))
        before.set(type.binaryName, { type, file: beforePath, source: parsed.file });
    }
    if (change.after !== null && change.path.endsWith('.java')) {
      const parsed = parseJava(change.after);
      if (parsed.ok)
        for (const type of allTypes(parsed.file))
          after.set(type.binaryName, { type, file: change.path, source: parsed.file });
      else if (isTestBefore) unreadableAfter.add(beforePath);
    }
  }

  const isFailing = failingMatcher(failing, before);
  for (const [name, old] of before) {
    if (!hasTests(old.type)) continue;
    const now = after.get(name);
    if (now) {
      findings.push(...compareType(old, now, isFailing));
      continue;
    }
    if (unreadableAfter.has(old.file)) continue;
    const outer = name.includes('$') ? name.slice(0, name.lastIndexOf('$')) : undefined;
    if (outer && before.has(outer) && !after.has(outer)) continue; // reported with its outer class
    const tests = testNames(old.type);
    findings.push({
      rule: 'test-class-deleted',
      file: old.file,
      line: old.type.range.startLine,
      message: `deleted test class ${name} with its ${tests.length} test${tests.length === 1 ? '' : 's'} (${oneLine(tests.join(', '), 120)})`,
      failingTestEdit: false,
    });
  }
  return findings;
}

function compareType(
  old: Declared,
  now: Declared,
  isFailing: (type: JavaType, method: JavaMethod) => boolean,
): IntegrityFinding[] {
  const findings: IntegrityFinding[] = [];
  const className = old.type.binaryName;
  const add = (
    rule: TestComparisonFinding,
    message: string,
    line: number | undefined,
    test?: string,
    failingTestEdit = false,
  ) =>
    findings.push({
      rule,
      file: now.file,
      ...(test ? { test } : {}),
      ...(line ? { line } : {}),
      message,
      failingTestEdit,
    });

  for (const annotation of addedAnnotations(old.type.annotations, now.type.annotations, DISABLING)) {
    add(
      'test-disabled',
      `added \`${annotation.text}\` to test class ${className}, which can stop its tests from running`,
      annotation.range.startLine,
    );
  }
  if (old.type.annotations.some((a) => a.name === 'Nested') && !now.type.annotations.some((a) => a.name === 'Nested')) {
    add(
      'test-annotation-removed',
      `removed @Nested from ${className}, so its tests no longer run`,
      now.type.range.startLine,
    );
  }
  if (!old.type.modifiers.includes('abstract') && now.type.modifiers.includes('abstract')) {
    add('test-disabled', `made test class ${className} abstract, so its tests no longer run`, now.type.range.startLine);
  }

  const failingInType = old.type.methods.some(
    (method) => isTestMethod(old.type, method) && isFailing(old.type, method),
  );
  for (const method of now.type.methods) {
    const previous = matchMethod(old.type.methods, method);
    // A new test may skip itself; it weakens nothing that ran.
    if (!previous && isTestMethod(now.type, method)) continue;
    // Compared without whitespace: an assumption only re-wrapped over lines is the same one.
    // Stryker disable next-line ArrayDeclaration: an assumption is a Java call chain, never the text of a stray element
    const known = new Set((previous ? assumptionsIn(previous) : []).map(withoutSpaces));
    for (const assumption of assumptionsIn(method).filter((text) => !known.has(withoutSpaces(text)))) {
      add(
        'assumption-added',
        `added \`${oneLine(assumption)}\` to ${className}#${method.name}, which can skip tests instead of running them`,
        method.range.startLine,
        `${className}#${method.name}`,
      );
    }
  }

  // A new set-up method can change the state the failing tests run in (a static setter, a system property).
  for (const method of failingInType
    ? now.type.methods.filter((m) => isLifecycle(m) && !matchMethod(old.type.methods, m))
    : []) {
    const annotation = method.annotations.find((a) => LIFECYCLE.has(a.name));
    // Stryker disable next-line ArrayDeclaration: a made-up element has no text, and joined it gives '' as no statement
    // does
    const body = (method.body?.statements ?? []).map((statement) => statement.text).join(' ');
    add(
      'failing-test-changed',
      `added ${annotation ? `\`@${annotation.name}\` ` : ''}${method.name}() to ${className}, which runs before the tests that failed: \`${oneLine(body, 120)}\``,
      method.range.startLine,
      undefined,
      true,
    );
  }

  for (const method of old.type.methods) {
    const test = `${className}#${method.name}`;
    const counterpart = matchMethod(now.type.methods, method);
    if (failingInType && isLifecycle(method) && (!counterpart || tokenText(counterpart) !== tokenText(method))) {
      const how = counterpart ? 'changed' : 'deleted';
      // JUnit 3's setUp()/tearDown() carry no annotation.
      const annotation = method.annotations.find((a) => LIFECYCLE.has(a.name));
      add(
        'failing-test-changed',
        `${how} ${method.name}()${annotation ? ` (${annotation.text})` : ''} of ${className}, which sets up a test that failed`,
        (counterpart ?? method).range.startLine,
        undefined,
        true,
      );
    }
    if (!isTestMethod(old.type, method)) continue;
    if (!counterpart) {
      add('test-deleted', `deleted test ${test}`, method.range.startLine, test);
      continue;
    }
    if (!isTestMethod(now.type, counterpart)) {
      const annotation = method.annotations.find((a) => TEST_ANNOTATIONS.has(a.name));
      add(
        'test-annotation-removed',
        `removed ${annotation ? `\`${annotation.text}\`` : 'the test annotation'} from ${test}, so it no longer runs`,
        counterpart.range.startLine,
        test,
      );
    }
    for (const annotation of addedAnnotations(method.annotations, counterpart.annotations, DISABLING)) {
      add(
        'test-disabled',
        `added \`${annotation.text}\` to ${test}, which can stop it from running`,
        annotation.range.startLine,
        test,
      );
    }
    const disabledTestNg = counterpart.annotations.find(
      (a) => a.name === 'Test' && /\benabled\s*=\s*false\b/.test(a.text),
    );
    if (disabledTestNg && !method.annotations.some((a) => a.text === disabledTestNg.text)) {
      add(
        'test-disabled',
        `added \`${disabledTestNg.text}\` to ${test}, which stops it from running`,
        disabledTestNg.range.startLine,
        test,
      );
    }
    const early = earlyReturns(counterpart);
    if (early.length > earlyReturns(method).length) {
      add(
        'early-return',
        `added an early \`${oneLine(early.at(-1)!.text)}\` to ${test}, which skips the rest of the test`,
        early.at(-1)!.range.startLine,
        test,
      );
    }
    findings.push(
      ...testBodyFindings({
        before: method,
        after: counterpart,
        afterFile: now.source,
        test,
        file: now.file,
        judgedElsewhere: (name) => TEST_ANNOTATIONS.has(name) || DISABLING.test(name),
        failed: isFailing(old.type, method),
      }),
    );
  }
  return findings;
}

/**
 * Which methods failed: by class and method name; a class that failed as a whole (or a
 * failure named after a method the class does not declare) makes all its tests count,
 * and an inherited test counts in whichever changed class declares a method of its name.
 */
function failingMatcher(failing: readonly FailingTestRef[], before: ReadonlyMap<string, Declared>) {
  const declares = (className: string, method: string) =>
    before.get(className)?.type.methods.some((m) => m.name === method) ?? false;
  return (type: JavaType, method: JavaMethod): boolean =>
    failing.some((ref) => {
      if (ref.className === type.binaryName)
        return !ref.method || ref.method === method.name || !declares(ref.className, ref.method);
      return ref.method === method.name && !declares(ref.className, ref.method);
    });
}

function isTestMethod(type: JavaType, method: JavaMethod): boolean {
  if (method.kind !== 'method') return false;
  if (method.annotations.some((a) => TEST_ANNOTATIONS.has(a.name))) return true;
  // JUnit 3: public void testX() in a TestCase.
  // Stryker disable next-line StringLiteral: no superclass and any text without the word TestCase both fail the test
  return (
    /\bTestCase\b/.test(type.superclass ?? '') &&
    /^test/.test(method.name) &&
    method.parameters.length === 0 &&
    method.modifiers.includes('public')
  );
}

function isLifecycle(method: JavaMethod): boolean {
  return method.annotations.some((a) => LIFECYCLE.has(a.name)) || method.name === 'setUp' || method.name === 'tearDown';
}

function hasTests(type: JavaType): boolean {
  return (
    type.methods.some((method) => isTestMethod(type, method)) ||
    type.annotations.some((a) => a.name === 'Nested') ||
    type.types.some(hasTests)
  );
}

function testNames(type: JavaType): string[] {
  return [
    ...type.methods.filter((method) => isTestMethod(type, method)).map((method) => method.name),
    ...type.types.flatMap(testNames),
  ];
}

/** The same method after the patch: same signature, else the only one of that name. */
function matchMethod(candidates: readonly JavaMethod[], method: JavaMethod): JavaMethod | undefined {
  const exact = candidates.find(
    (candidate) => candidate.signature === method.signature && candidate.kind === method.kind,
  );
  if (exact) return exact;
  const named = candidates.filter((candidate) => candidate.name === method.name && candidate.kind === method.kind);
  return named.length === 1 ? named[0] : undefined;
}

function addedAnnotations(
  before: JavaMethod['annotations'],
  after: JavaMethod['annotations'],
  pattern: RegExp,
): JavaMethod['annotations'] {
  return after.filter(
    (annotation) => pattern.test(annotation.name) && !before.some((old) => old.name === annotation.name),
  );
}

function withoutSpaces(text: string): string {
  return text.replace(/\s+/g, '');
}

function assumptionsIn(method: JavaMethod): string[] {
  return findMethodCalls(method, (call) => call.firstInChain && ASSUMPTION.test(call.name)).map(
    (call) => call.chain.text,
  );
}

/** Returns that leave the test while an assertion or another statement still follows. */
function earlyReturns(method: JavaMethod) {
  // Stryker disable next-line ArrayDeclaration: only a method without a body gets the stray element, and it has no
  // return statement for the filter to compare with it
  const statements = method.body?.statements ?? [];
  const last = statements.at(-1);
  const assertions = assertionsIn(method);
  const lastAssertion = assertions.at(-1);
  return findReturnStatements(method).filter(
    (ret) =>
      (last !== undefined && ret.range.end <= last.range.start) ||
      (lastAssertion !== undefined && ret.range.end <= lastAssertion.range.start),
  );
}
