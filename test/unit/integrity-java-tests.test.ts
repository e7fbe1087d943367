/**
 * javaTestFindings on its own (the Java side of test integrity), with the exact findings:
 * integrity-check.test.ts goes through checkTestIntegrity, which reports most test-file edits
 * as test-side changes anyway, so these pin what the class-by-class and method-by-method
 * comparison finds itself. Cases from the integrity-java-tests mutation run's survivors
 * (bench/results-mutation.md). Which changes are read and deleted test classes are a table in
 * test/unit/repair/integrity/rules/test-comparison.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { FileChange } from '../../src/patch/types.js';
import { javaTestFindings } from '../../src/repair/integrity/rules/test-comparison.js';
import type { FailingTestRef, IntegrityFinding } from '../../src/repair/integrity/types.js';

const FILE = 'src/test/java/com/acme/CalcTest.java';
const CLASS = 'com.acme.CalcTest';

/** A test class: `members` inside `class CalcTest { ... }`, one member per line group. */
const testClass = (members: string, header = 'class CalcTest') => `package com.acme;

import org.junit.jupiter.api.*;
import static org.junit.jupiter.api.Assertions.*;

${header} {
${members}
}
`;

const ADDS = '    @Test\n    void adds() {\n        assertEquals(2, 1 + 1);\n    }\n';

function find(
  before: string | null,
  after: string | null,
  failing: FailingTestRef[] = [],
  path = FILE,
  extra: Partial<FileChange> = {},
): IntegrityFinding[] {
  return javaTestFindings([{ path, before, after, ...extra }], failing);
}
const rules = (findings: IntegrityFinding[]) => findings.map((finding) => finding.rule);
const messages = (findings: IntegrityFinding[]) => findings.map((finding) => finding.message);
const passedRef = [{ className: 'com.acme.OtherTest', method: 'elsewhere' }];

describe('the class and its methods compared', () => {
  it('an unchanged class without @Nested has nothing removed', () => {
    expect(find(testClass(ADDS), testClass(ADDS + '\n    private int helper() {\n        return 1;\n    }\n'))).toEqual(
      [],
    );
  });

  it('removing @Nested is found, with where it is', () => {
    const nested = (annotation: string) =>
      testClass(
        ADDS +
          `    ${annotation}class Inner {\n        @Test\n        void inner() {\n            assertTrue(true);\n        }\n    }\n`,
      );
    expect(find(nested('@Nested\n    '), nested(''))).toEqual([
      {
        rule: 'test-annotation-removed',
        file: FILE,
        line: 11,
        message: 'removed @Nested from com.acme.CalcTest$Inner, so its tests no longer run',
        failingTestEdit: false,
      },
    ]);
  });

  it('an assumption added to a test: the test and line are named, the call on one line', () => {
    const after = testClass(
      ADDS.replace(
        '        assertEquals',
        '        Assumptions.assumeTrue(\n                false);\n        assertEquals',
      ),
    );
    expect(find(testClass(ADDS), after)).toEqual([
      {
        rule: 'assumption-added',
        file: FILE,
        test: `${CLASS}#adds`,
        line: 7,
        message:
          'added `Assumptions.assumeTrue( false)` to com.acme.CalcTest#adds, which can skip tests instead of running them',
        failingTestEdit: false,
      },
    ]);
  });

  it('an assumption that was there before is not added again', () => {
    const before = testClass(
      ADDS.replace('        assertEquals', '        assumeTrue(System.getenv("CI") == null);\n        assertEquals'),
    );
    expect(find(before, before.replace('assertEquals(2, 1 + 1)', 'assertEquals(2, 2 * 1)'))).not.toContainEqual(
      expect.objectContaining({ rule: 'assumption-added' }),
    );
  });

  it('a @Disabled that was there before is not added again', () => {
    const before = testClass(ADDS.replace('    @Test\n', '    @Test\n    @Disabled\n'));
    expect(rules(find(before, before.replace('assertEquals(2, 1 + 1)', 'assertEquals(2, 2 * 1)')))).not.toContain(
      'test-disabled',
    );
  });
});

describe('set-up methods of a class with a failing test', () => {
  const SETUP = '    int x;\n\n    @BeforeEach\n    void init() {\n        x = 1;\n    }\n\n';

  it('a new one is named with its annotation and its statements on one line', () => {
    const found = find(
      testClass(ADDS),
      testClass('    int x;\n\n    @BeforeEach\n    void init() {\n        x = 1;\n        y = 2;\n    }\n\n' + ADDS),
      [{ className: CLASS, method: 'adds' }],
    );
    expect(found).toEqual([
      {
        rule: 'failing-test-changed',
        file: FILE,
        line: 9,
        message:
          'added `@BeforeEach` init() to com.acme.CalcTest, which runs before the tests that failed: `x = 1; y = 2;`',
        failingTestEdit: true,
      },
    ]);
  });

  it('a new setUp() without annotation (JUnit 3 style) is named without one', () => {
    expect(
      messages(
        find(testClass(ADDS), testClass('    void setUp() {\n        x = 1;\n    }\n\n' + ADDS), [
          { className: CLASS, method: 'adds' },
        ]),
      ),
    ).toEqual(['added setUp() to com.acme.CalcTest, which runs before the tests that failed: `x = 1;`']);
  });

  it('changed and deleted ones: the line is the new one for a change, the old one for a deletion', () => {
    const changed = find(testClass(SETUP + ADDS), testClass('\n\n' + SETUP.replace('x = 1;', 'x = 2;') + ADDS), [
      { className: CLASS, method: 'adds' },
    ]);
    expect(changed).toEqual([
      {
        rule: 'failing-test-changed',
        file: FILE,
        line: 11,
        message: 'changed init() (@BeforeEach) of com.acme.CalcTest, which sets up a test that failed',
        failingTestEdit: true,
      },
    ]);
    const deleted = find(testClass(SETUP + ADDS), testClass(ADDS), [{ className: CLASS, method: 'adds' }]);
    expect(deleted).toEqual([
      {
        rule: 'failing-test-changed',
        file: FILE,
        line: 9,
        message: 'deleted init() (@BeforeEach) of com.acme.CalcTest, which sets up a test that failed',
        failingTestEdit: true,
      },
    ]);
  });

  it('JUnit 3 setUp() and tearDown() changed in a failing TestCase (this threw before)', () => {
    const legacy = (setUp: string, tearDown: string) =>
      `package com.acme;\nimport junit.framework.TestCase;\npublic class LegacyTest extends TestCase {\n  int x;\n  protected void setUp() { x = ${setUp}; }\n  protected void tearDown() { x = ${tearDown}; }\n  public void testSum() { assertEquals(2, 1 + 1); }\n}\n`;
    const found = find(
      legacy('1', '0'),
      legacy('2', '-1'),
      [{ className: 'com.acme.LegacyTest', method: 'testSum' }],
      'src/test/java/com/acme/LegacyTest.java',
    );
    expect(messages(found)).toEqual([
      'changed setUp() of com.acme.LegacyTest, which sets up a test that failed',
      'changed tearDown() of com.acme.LegacyTest, which sets up a test that failed',
    ]);
  });

  it('no failing test in the class: a set-up change is not a failing-test change', () => {
    expect(find(testClass(SETUP + ADDS), testClass(SETUP.replace('x = 1;', 'x = 2;') + ADDS), passedRef)).toEqual([]);
  });
});

describe('which tests count as failing', () => {
  const changedAssertion = (failing: FailingTestRef[]) =>
    messages(find(testClass(ADDS), testClass(ADDS.replace('assertEquals(2,', 'assertEquals(3,')), failing));

  it('a failure of a method the class does not declare makes every test of the class count', () => {
    expect(changedAssertion([{ className: CLASS, method: 'inheritedOne' }])).toEqual([
      expect.not.stringContaining('a test that passed'),
    ]);
  });

  it("a failure in another class with another method name leaves the class's tests as passed", () => {
    expect(changedAssertion(passedRef)).toEqual([expect.stringContaining('(a test that passed)')]);
  });
});

describe('JUnit 3 tests', () => {
  const legacy = (members: string, superclass = ' extends TestCase') =>
    `package com.acme;\nimport junit.framework.TestCase;\npublic class LegacyTest${superclass} {\n  public void testSum() { assertEquals(2, 1 + 1); }\n${members}}\n`;
  const LEGACY_FILE = 'src/test/java/com/acme/LegacyTest.java';

  it('only public no-argument test* methods of a TestCase are tests', () => {
    const helpers =
      '  public void helper() { }\n  public void testWith(int n) { }\n  void testHidden() { }\n  public void latest() { }\n';
    expect(find(legacy(helpers), legacy(''), [], LEGACY_FILE)).toEqual([]);
    expect(find(legacy('  public void testMore() { }\n', ''), legacy('', ''), [], LEGACY_FILE)).toEqual([]);
  });

  it('a test that stops being public loses its test-ness, said without an annotation', () => {
    const found = find(
      legacy('  public void testMore() { assertTrue(true); }\n'),
      legacy('  void testMore() { assertTrue(true); }\n'),
      [],
      LEGACY_FILE,
    );
    expect(messages(found)).toEqual([
      'removed the test annotation from com.acme.LegacyTest#testMore, so it no longer runs',
    ]);
  });
});

describe('TestNG @Test(enabled = false)', () => {
  it.each(['@Test(enabled = false)', '@Test(enabled=false)'])('%s added is found', (annotation) => {
    expect(find(testClass(ADDS), testClass(ADDS.replace('@Test', annotation)))).toEqual([
      {
        rule: 'test-disabled',
        file: FILE,
        test: `${CLASS}#adds`,
        line: 7,
        message: `added \`${annotation}\` to com.acme.CalcTest#adds, which stops it from running`,
        failingTestEdit: false,
      },
    ]);
  });

  it('already there, or on another annotation, it is not', () => {
    const disabled = testClass(ADDS.replace('@Test', '@Test(enabled = false)'));
    expect(find(disabled, disabled.replace('assertEquals(2, 1 + 1)', 'assertEquals(2, 2 * 1)'))).toEqual([]);
    expect(
      rules(find(testClass(ADDS), testClass(ADDS.replace('@Test', '@Test\n    @Tag("enabled = false")')))),
    ).not.toContain('test-disabled');
  });
});

describe('matching methods across the patch', () => {
  const overloads =
    '    @Test\n    void m() {\n        assertTrue(true);\n    }\n\n    @Test\n    void m(int n) {\n        assertTrue(n > 0);\n    }\n';

  it('overloaded tests match by signature', () => {
    expect(find(testClass(overloads + ADDS), testClass(overloads + ADDS.replace('1 + 1', '2 * 1')))).toEqual([]);
  });

  it('a test whose parameters change is the same test when it is the only one of its name', () => {
    expect(rules(find(testClass(ADDS), testClass(ADDS.replace('void adds()', 'void adds(int n)'))))).not.toContain(
      'test-deleted',
    );
  });

  it('an overload whose parameters change cannot be told apart: reported deleted', () => {
    expect(
      rules(find(testClass(overloads), testClass(overloads.replace('void m(int n)', 'void m(long n)')))),
    ).toContain('test-deleted');
  });
});

describe('early returns', () => {
  const body = (statements: string) => testClass(`    @Test\n    void adds() {\n${statements}\n    }\n`);
  const earlyRules = (before: string, after: string) =>
    rules(find(body(before), body(after))).filter((rule) => rule === 'early-return');

  it('a return before the last statement, with no assertion after it', () => {
    const before = '        int a = 1;\n        int b = 2;\n        log(a + b);';
    expect(earlyRules(before, before.replace('        log', '        if (a > b) return;\n        log'))).toEqual([
      'early-return',
    ]);
    expect(earlyRules(before, before.replace('\n        log', ' if (a > b) return;log'))).toEqual(['early-return']);
  });

  it('a return inside the last statement before its last assertion', () => {
    const before =
      '        for (int i : xs) {\n            assertNotNull(xs);\n            assertTrue(i >= -1);\n            assertTrue(i > 0);\n        }';
    expect(
      earlyRules(
        before,
        before.replace(
          '            assertTrue(i > 0);',
          '            if (i < 0) return;\n            assertTrue(i > 0);',
        ),
      ),
    ).toEqual(['early-return']);
    expect(
      earlyRules(
        before,
        before.replace('            assertTrue(i > 0);', '            if (i < 0) return;assertTrue(i > 0);'),
      ),
    ).toEqual(['early-return']);
  });

  it('a return inside the last statement with nothing asserted after it, or at the very end, is not early', () => {
    const loop = '        for (int i : xs) {\n            log(i);\n        }';
    expect(
      earlyRules(loop, loop.replace('            log(i);', '            log(i);\n            if (i < 0) return;')),
    ).toEqual([]);
    expect(earlyRules('        assertTrue(true);', '        assertTrue(true);\n        return;')).toEqual([]);
  });
});

describe('after the first mutation rerun', () => {
  it('a class with other annotations has no @Nested to remove; @Nested removed beside another annotation is found', () => {
    const tagged = testClass(ADDS, '@Tag("fast")\nclass CalcTest');
    expect(find(tagged, tagged.replace('1 + 1', '2 * 1'))).toEqual([]);
    const inner = (annotations: string) =>
      testClass(
        ADDS +
          `    ${annotations}@DisplayName("inner")\n    class Inner {\n        @Test\n        void inner() {\n            assertTrue(true);\n        }\n    }\n`,
      );
    expect(rules(find(inner('@Nested\n    '), inner('')))).toEqual(['test-annotation-removed']);
  });

  it('a new abstract set-up method has no statements to quote', () => {
    const abstractClass = (members: string) => testClass(members + ADDS, 'abstract class CalcTest');
    expect(
      messages(
        find(abstractClass(''), abstractClass('    @BeforeEach\n    abstract void init();\n\n'), [
          { className: CLASS, method: 'adds' },
        ]),
      ),
    ).toEqual(['added `@BeforeEach` init() to com.acme.CalcTest, which runs before the tests that failed: ``']);
  });

  it('other annotations added to a test, or @Test given other attributes, do not disable it', () => {
    expect(
      rules(find(testClass(ADDS), testClass(ADDS.replace('    @Test\n', '    @DisplayName("adds")\n    @Test\n')))),
    ).not.toContain('test-disabled');
    expect(rules(find(testClass(ADDS), testClass(ADDS.replace('@Test', '@Test(timeout = 1000)'))))).not.toContain(
      'test-disabled',
    );
  });

  it('@Test(enabled = false) that was there before among other annotations is not added again', () => {
    const disabled = testClass(ADDS.replace('@Test', '@Tag("slow")\n    @Test(enabled = false)'));
    expect(find(disabled, disabled.replace('1 + 1', '2 * 1'))).toEqual([]);
  });

  it('an annotated helper class without tests may go', () => {
    expect(
      find(
        testClass('    int seed() {\n        return 1;\n    }\n', '@SuppressWarnings("unused")\nclass CalcTest'),
        null,
      ),
    ).toEqual([]);
  });

  it('an assumption only re-wrapped is not a new one', () => {
    const assumed = (call: string) =>
      testClass(ADDS.replace('        assertEquals', `        ${call};\n        assertEquals`));
    expect(
      rules(
        find(
          assumed('assumeTrue(System.getenv("CI") == null)'),
          assumed('assumeTrue(\n                System.getenv("CI") == null)'),
        ),
      ),
    ).not.toContain('assumption-added');
  });
});

describe('after the second mutation rerun', () => {
  it('a second, different assumption beside one that was there is found', () => {
    const assumed = (calls: string) => testClass(ADDS.replace('        assertEquals', `${calls}        assertEquals`));
    const found = find(
      assumed('        assumeTrue(System.getenv("CI") == null);\n'),
      assumed('        assumeTrue(System.getenv("CI") == null);\n        assumeFalse(Boolean.getBoolean("slow"));\n'),
    );
    expect(messages(found)).toEqual([
      'added `assumeFalse(Boolean.getBoolean("slow"))` to com.acme.CalcTest#adds, which can skip tests instead of running them',
    ]);
  });
});
