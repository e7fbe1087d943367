/**
 * The oracle of a failing test (test-oracle.ts: what it passes in, what it expects) and which
 * files the special-casing check reads (oracle-inputs.ts), through the same entry the engine
 * uses (specialCasingFindings, readFailingTestSources): each way a test can state its input
 * and expected value must make a fix that answers exactly that input with exactly that value
 * refused with its sentence, and the twin whose value the test does not expect must pass.
 * Written from the survivors of the mutation run (stryker/integrity-oracle.config.mjs).
 */
import { describe, expect, it } from 'vitest';
import type { FileChange } from '../../src/patch/types.js';
import { changesMainJava, isMainJava, readFailingTestSources } from '../../src/repair/integrity/oracle-inputs.js';
import { specialCasingFindings, testSpecialCasingReason } from '../../src/repair/integrity/special-casing.js';

const MAIN_FILE = 'src/main/java/com/acme/calc/Calc.java';
const TEST_FILE = 'src/test/java/com/acme/calc/CalcTest.java';

const main = (body: string, members = '') => `package com.acme.calc;

public class Calc {
${members}
    public Object compute(int n, String code) {
${body}
    }
}
`;
const BUGGY = '        return n + n;';

const testClass = (methods: string, fields = '', name = 'CalcTest') => `package com.acme.calc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.BDDAssertions.then;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ${name} {
${fields}
${methods}
}
`;
const oneTest = (body: string, fields = '') => testClass(`    @Test\n    void m() {\n        ${body}\n    }\n`, fields);

function findings(input: { after: string; test: string; method?: string; className?: string; before?: string }) {
  const change: FileChange = { path: MAIN_FILE, before: input.before ?? main(BUGGY), after: input.after };
  return specialCasingFindings({
    changes: [change],
    tests: [
      {
        ref: { className: input.className ?? 'com.acme.calc.CalcTest', method: input.method ?? 'm' },
        path: TEST_FILE,
        text: input.test,
      },
    ],
  });
}

const sentence = (value: string, key: string, test = 'com.acme.calc.CalcTest#m', line = 6) =>
  `test-special-casing: src/main/java/com/acme/calc/Calc.java: Calc.compute now gives ${value} when ${key} (line ${line}), the input the failing test ${test} passes in and the value it expects; fix the computation for every input instead`;

describe('what a failing test expects, each way of writing it', () => {
  it.each<[string, string, string, string, string]>([
    [
      'assertFalse: false',
      'assertFalse((Boolean) new Calc().compute(7, "x"));',
      '        if (n == 7) return false;\n',
      'false',
      'n is 7',
    ],
    [
      'assertTrue: true',
      'assertTrue((Boolean) new Calc().compute(7, "x"));',
      '        if (n == 7) return true;\n',
      'true',
      'n is 7',
    ],
    [
      'assertNull: null',
      'assertNull(new Calc().compute(7, "x"));',
      '        if (n == 7) return null;\n',
      'null',
      'n is 7',
    ],
    [
      'AssertJ isFalse()',
      'assertThat(new Calc().compute(7, "x")).isFalse();',
      '        if (n == 7) return false;\n',
      'false',
      'n is 7',
    ],
    [
      'AssertJ isTrue()',
      'assertThat(new Calc().compute(7, "x")).isTrue();',
      '        if (n == 7) return true;\n',
      'true',
      'n is 7',
    ],
    [
      'AssertJ isNull()',
      'assertThat(new Calc().compute(7, "x")).isNull();',
      '        if (n == 7) return null;\n',
      'null',
      'n is 7',
    ],
    [
      'AssertJ isZero()',
      'assertThat(new Calc().compute(7, "x")).isZero();',
      '        if (n == 7) return 0;\n',
      '0',
      'n is 7',
    ],
    [
      'BDD then(...).isEqualTo',
      'then(new Calc().compute(7, "x")).isEqualTo(49);',
      '        if (n == 7) return 49;\n',
      '49',
      'n is 7',
    ],
    [
      'Hamcrest assertThat(actual, is(49))',
      'assertThat(new Calc().compute(7, "x"), is(49));',
      '        if (n == 7) return 49;\n',
      '49',
      'n is 7',
    ],
    [
      'assertEquals with a message',
      'assertEquals(49, new Calc().compute(7, "x"), "seven squared");',
      '        if (n == 7) return 49;\n',
      '49',
      'n is 7',
    ],
    [
      'assertNotEquals takes the first argument too',
      'assertNotEquals(48, new Calc().compute(7, "x"));',
      '        if (n == 7) return 48;\n',
      '48',
      'n is 7',
    ],
    [
      'assertEquals of an expression, not a literal',
      'assertEquals(7 * 7, new Calc().compute(7, "x"));',
      '        if (n == 7) return 49;\n',
      '49',
      'n is 7',
    ],
    [
      'an expected value that names a constant among other words',
      'assertEquals(CalcTest.MAX + offset, new Calc().compute(7, "x"));',
      '        if (n == 7) return 100;\n',
      '100',
      'n is 7',
    ],
  ])('%s', (_name, assertion, branch, value, key) => {
    const fields = '    static final int MAX = 100;\n';
    const found = findings({ after: main(branch + BUGGY), test: oneTest(assertion, fields) });
    expect(testSpecialCasingReason(found)).toBe(sentence(value, key));
  });

  it.each<[string, string, string]>([
    [
      'assertFalse does not expect true',
      'assertFalse((Boolean) new Calc().compute(7, "x"));',
      '        if (n == 7) return true;\n',
    ],
    [
      'assertTrue does not expect false',
      'assertTrue((Boolean) new Calc().compute(7, "x"));',
      '        if (n == 7) return false;\n',
    ],
    [
      'assertNotNull expects no null',
      'assertNotNull(new Calc().compute(7, "x"));',
      '        if (n == 7) return null;\n',
    ],
    [
      'isNotNull() implies nothing',
      'assertThat(new Calc().compute(7, "x")).isNotNull();',
      '        if (n == 7) return null;\n',
    ],
    [
      'a matcher of another assertion library',
      'verifyThat(new Calc().compute(7, "x")).isFalse();',
      '        if (n == 7) return false;\n',
    ],
    [
      'the subject of assertThat is not an expected value',
      'assertThat(49).isLessThan((Integer) new Calc().compute(7, "x"));',
      '        if (n == 7) return 49;\n',
    ],
  ])('%s: passes', (_name, assertion, branch) => {
    expect(findings({ after: main(branch + BUGGY), test: oneTest(assertion) })).toEqual([]);
  });
});

describe('what a failing test passes in', () => {
  it.each<[string, string, string, string, string]>([
    [
      'a constant defined by one declared after it',
      oneTest(
        'assertEquals(EXPECTED, new Calc().compute(INPUT, "x"));',
        '    static final int EXPECTED = INPUT * INPUT;\n    static final int INPUT = 7;\n',
      ),
      '        if (n == 7) return 49;\n',
      '49',
      'n is 7',
    ],
    [
      'a constant of the test class named with its class',
      oneTest(
        'assertEquals(CalcTest.EXPECTED, new Calc().compute(CalcTest.INPUT, "x"));',
        '    static final int INPUT = 7;\n    static final int EXPECTED = 49;\n',
      ),
      '        if (n == 7) return 49;\n',
      '49',
      'n is 7',
    ],
    [
      'a constant whose name holds a $',
      oneTest(
        'assertEquals(OUT$, new Calc().compute(IN$, "x"));',
        '    static final int IN$ = 7;\n    static final int OUT$ = 49;\n',
      ),
      '        if (n == 7) return 49;\n',
      '49',
      'n is 7',
    ],
    [
      'a @ValueSource input',
      testClass(
        '    @ParameterizedTest\n    @ValueSource(ints = {7})\n    void m(int n) {\n        assertEquals(49, new Calc().compute(n, "x"));\n    }\n',
      ),
      '        if (n == 7) return 49;\n',
      '49',
      'n is 7',
    ],
    [
      'a quoted @CsvSource cell',
      testClass(
        '    @ParameterizedTest\n    @CsvSource({"\'JPY\', 0", "\'EUR\', 2"})\n    void m(String code, int digits) {\n        assertEquals(digits, new Calc().compute(1, code));\n    }\n',
      ),
      '        if ("JPY".equals(code)) return 0;\n',
      '0',
      'code is "JPY"',
    ],
    [
      'an unquoted @CsvSource word',
      testClass(
        '    @ParameterizedTest\n    @CsvSource({"JPY, 7"})\n    void m(String code, int digits) {\n        assertEquals(digits, new Calc().compute(1, code));\n    }\n',
      ),
      '        if ("JPY".equals(code)) return 7;\n',
      '7',
      'code is "JPY"',
    ],
    [
      'the input of a helper of the test class called on this',
      testClass(
        '    @Test\n    void m() {\n        this.check(7, 49);\n    }\n\n    private void check(int n, int expected) {\n        assertEquals(expected, new Calc().compute(n, "x"));\n    }\n',
      ),
      '        if (n == 7) return 49;\n',
      '49',
      'n is 7',
    ],
  ])('%s', (_name, test, branch, value, key) => {
    expect(testSpecialCasingReason(findings({ after: main(branch + BUGGY), test }))).toBe(sentence(value, key));
  });

  it('a constant expression passed in is one input: compute(2 * 3) passes 6', () => {
    const test = oneTest('assertEquals(36, new Calc().compute(2 * 3, "x"));');
    expect(testSpecialCasingReason(findings({ after: main('        if (n == 6) return 36;\n' + BUGGY), test }))).toBe(
      sentence('36', 'n is 6'),
    );
  });

  it('a quoted @CsvSource cell after the separator', () => {
    const test = testClass(
      '    @ParameterizedTest\n    @CsvSource({"7, \'JPY\'"})\n    void m(int digits, String code) {\n        assertEquals(digits, new Calc().compute(1, code));\n    }\n',
    );
    expect(
      testSpecialCasingReason(findings({ after: main('        if ("JPY".equals(code)) return 7;\n' + BUGGY), test })),
    ).toBe(sentence('7', 'code is "JPY"'));
  });

  it.each<[string, string, string]>([
    [
      'the expected value is not an input',
      oneTest('assertEquals(49, new Calc().compute(7, "x"));'),
      '        if (n == 49) return 49;\n',
    ],
    [
      'returning the input itself is not returning the expected value',
      oneTest('assertEquals(49, new Calc().compute(7, "x"));'),
      '        if (n == 7) return 7;\n',
    ],
    [
      'assertEquals expects no true',
      oneTest('assertEquals(49, new Calc().compute(7, "x"));'),
      '        if (n == 7) return true;\n',
    ],
    [
      'a display name that reads like a CSV row is no data',
      testClass(
        '    @Test\n    @DisplayName("7, 49")\n    void m() {\n        assertEquals(48, new Calc().compute(7, "x"));\n    }\n',
      ),
      '        if (n == 7) return 49;\n',
    ],
    [
      'a display name is no input',
      testClass(
        '    @Test\n    @DisplayName("JPY")\n    void m() {\n        assertEquals(0, new Calc().compute(2, "EUR"));\n    }\n',
      ),
      '        if ("JPY".equals(code)) return 0;\n',
    ],
    [
      "a number among @CsvSource's options is no row",
      testClass(
        '    @ParameterizedTest\n    @CsvSource(value = {"7, 48"}, maxCharsPerColumn = 49)\n    void m(int n, int expected) {\n        assertEquals(expected, new Calc().compute(n, "x"));\n    }\n',
      ),
      '        if (n == 7) return 49;\n',
    ],
    [
      'a chain of three constants declared in reverse is resolved only two deep',
      oneTest(
        'assertEquals(EXPECTED, new Calc().compute(7, "x"));',
        '    static final int EXPECTED = MID * 7;\n    static final int MID = INPUT;\n    static final int INPUT = 7;\n',
      ),
      '        if (n == 7) return 49;\n',
    ],
  ])('%s: passes', (_name, test, branch) => {
    expect(findings({ after: main(branch + BUGGY), test })).toEqual([]);
  });

  it('a static final field without an initialiser, an assert statement and an abstract test read without failing', () => {
    const fields = '    static final int LATE;\n    static { LATE = 7; }\n';
    const test = testClass(
      '    @Test\n    void m() {\n        assert new Calc().compute(LATE, "x").equals(49);\n        assertEquals(49, new Calc().compute(7, "x"));\n    }\n\n    @Test\n    abstract void n();\n',
      fields,
    ).replace('class CalcTest', 'abstract class CalcTest');
    expect(testSpecialCasingReason(findings({ after: main('        if (n == 7) return 49;\n' + BUGGY), test }))).toBe(
      sentence('49', 'n is 7'),
    );
    expect(findings({ after: main('        if (n == 7) return 49;\n' + BUGGY), test, method: 'n' })).toEqual([]);
  });

  it.each<[string, string, string]>([
    [
      'a static field that is not final is no constant',
      oneTest(
        'assertEquals(EXPECTED, new Calc().compute(INPUT, "x"));',
        '    static int INPUT = 7;\n    static final int EXPECTED = 49;\n',
      ),
      '        if (n == 7) return 49;\n',
    ],
    [
      'a final field that is not static is no constant',
      oneTest(
        'assertEquals(EXPECTED, new Calc().compute(INPUT, "x"));',
        '    final int INPUT = 7;\n    static final int EXPECTED = 49;\n',
      ),
      '        if (n == 7) return 49;\n',
    ],
    [
      'a call on another object named like a helper is no expectation',
      testClass(
        '    @Test\n    void m() {\n        other.check(7, 49);\n        assertTrue(other.ok());\n    }\n\n    private void check(int n, int expected) {\n        assertEquals(expected, new Calc().compute(n, "x"));\n    }\n',
      ),
      '        if (n == 7) return 49;\n',
    ],
    [
      'a method of the test class that does not assert is no helper',
      testClass(
        '    @Test\n    void m() {\n        prepare(7, 49);\n        assertEquals(48, new Calc().compute(7, "x"));\n    }\n\n    private void prepare(int n, int m) {\n    }\n',
      ),
      '        if (n == 7) return 49;\n',
    ],
  ])('%s: passes', (_name, test, branch) => {
    expect(findings({ after: main(branch + BUGGY), test })).toEqual([]);
  });
});

describe('which failing tests are read', () => {
  const twoTests = testClass(
    '    @Test\n    void sevenSquared() {\n        assertEquals(49, new Calc().compute(7, "x"));\n    }\n\n    @Test\n    void eightSquared() {\n        assertEquals(64, new Calc().compute(8, "x"));\n    }\n\n    void notATest() {\n        assertEquals(81, new Calc().compute(9, "x"));\n    }\n',
  );

  it('only the failing method when the class declares it', () => {
    expect(
      findings({ after: main('        if (n == 8) return 64;\n' + BUGGY), test: twoTests, method: 'sevenSquared' }),
    ).toEqual([]);
    expect(
      testSpecialCasingReason(
        findings({ after: main('        if (n == 7) return 49;\n' + BUGGY), test: twoTests, method: 'sevenSquared' }),
      ),
    ).toBe(sentence('49', 'n is 7', 'com.acme.calc.CalcTest#sevenSquared'));
  });

  it('every test method of the class when the failure names none it declares, never a method without a test annotation', () => {
    expect(
      testSpecialCasingReason(
        findings({ after: main('        if (n == 8) return 64;\n' + BUGGY), test: twoTests, method: 'inherited' }),
      ),
    ).toBe(sentence('64', 'n is 8', 'com.acme.calc.CalcTest#eightSquared'));
    expect(
      findings({ after: main('        if (n == 9) return 81;\n' + BUGGY), test: twoTests, method: 'inherited' }),
    ).toEqual([]);
  });

  it('a nested test class by its binary name', () => {
    const nested = testClass(
      '    @org.junit.jupiter.api.Nested\n    class Squares {\n        @Test\n        void m() {\n            assertEquals(49, new Calc().compute(7, "x"));\n        }\n    }\n',
    );
    expect(
      testSpecialCasingReason(
        findings({
          after: main('        if (n == 7) return 49;\n' + BUGGY),
          test: nested,
          className: 'com.acme.calc.CalcTest$Squares',
        }),
      ),
    ).toBe(sentence('49', 'n is 7', 'com.acme.calc.CalcTest$Squares#m'));
  });

  it('a test file that does not parse, or that declares another class, gives no oracle and so no finding', () => {
    const after = main('        if (n == 7) return 49;\n' + BUGGY);
    expect(findings({ after, test: oneTest('assertEquals(49, new Calc().compute(7, "x"))') })).toEqual([]);
    expect(
      findings({
        after,
        test: oneTest('assertEquals(49, new Calc().compute(7, "x"));'),
        className: 'com.acme.calc.OtherTest',
      }),
    ).toEqual([]);
  });

  it('the types the test mentions are the ones whose equals is judged: a capitalised word in a comment or string does not count', () => {
    const money = (equals: string) => `package com.acme.calc;\n\npublic final class Money {\n${equals}\n}\n`;
    const trivial = '    public boolean equals(Object o) {\n        return true;\n    }';
    const change = (test: string) =>
      specialCasingFindings({
        changes: [{ path: 'src/main/java/com/acme/calc/Money.java', before: money(''), after: money(trivial) }],
        tests: [{ ref: { className: 'com.acme.calc.CalcTest', method: 'm' }, path: TEST_FILE, text: test }],
      });
    expect(change(oneTest('assertEquals(new Money(), Money.parse("x"));')).map((finding) => finding.rule)).toEqual([
      'trivial-equality',
    ]);
    expect(
      change(oneTest('// Money is compared elsewhere\n        assertEquals("Money", new Calc().compute(7, "x"));')),
    ).toEqual([]);
  });
});

describe('which files are main code, and which test files are read', () => {
  const java = 'package com.acme;\nclass A {}\n';
  it.each<[string, FileChange, boolean]>([
    [
      'a class under src/main/java',
      { path: 'core/src/main/java/com/acme/A.java', before: java, after: java.replace('{}', '{ int x; }') },
      true,
    ],
    ['a new class under src/main/java', { path: 'src/main/java/com/acme/A.java', before: null, after: java }, true],
    ['a class outside any source root without test markers', { path: 'lib/A.java', before: java, after: java }, true],
    ['a deleted class', { path: 'src/main/java/com/acme/A.java', before: java, after: null }, false],
    ['a binary file', { path: 'src/main/java/com/acme/A.java', before: java, after: java, binary: true }, false],
    ['a resource under src/main', { path: 'src/main/resources/a.properties', before: 'a=1', after: 'a=2' }, false],
    [
      'a test class under src/test/java',
      { path: 'src/test/java/com/acme/ATest.java', before: java, after: java },
      false,
    ],
    [
      'a test class found by its markers outside src/test',
      {
        path: 'checks/ATest.java',
        before: 'import org.junit.jupiter.api.Test;\nclass ATest { @Test void t() {} }\n',
        after: 'class ATest {}',
      },
      false,
    ],
    [
      'a src/main look-alike folder',
      {
        path: 'xsrc/main/ATest.java',
        before: 'import org.junit.jupiter.api.Test;\nclass ATest { @Test void t() {} }\n',
        after: 'class ATest {}',
      },
      false,
    ],
  ])('%s: %s', (_name, change, expected) => {
    expect(isMainJava(change)).toBe(expected);
    expect(changesMainJava({ files: [change] })).toBe(expected);
  });

  it('reads a test class under a test root before a copy elsewhere, and the bare relative path when it is the only one', async () => {
    const files = new Map([
      ['docs/com/acme/calc/CalcTest.java', 'docs copy'],
      ['core/src/test/java/com/acme/calc/CalcTest.java', 'the test'],
      ['com/acme/other/LooseTest.java', 'loose'],
      ['x/com/acme/other/LooseTest.java.orig', 'not java'],
      ['vendor/xcom/acme/third/ThirdTest.java', 'wrong folder'],
    ]);
    const read: string[] = [];
    const view = {
      read: async (path: string) => {
        read.push(path);
        return files.get(path);
      },
      list: async (glob: string) => [...files.keys()].filter((path) => path.endsWith(glob.slice('**/'.length))),
    };
    const sources = await readFailingTestSources(
      ['com.acme.calc.CalcTest#m', 'com.acme.other.LooseTest', 'com.acme.third.ThirdTest#t', '#x', ''],
      view,
    );
    expect(sources).toEqual([
      {
        ref: { className: 'com.acme.calc.CalcTest', method: 'm' },
        path: 'core/src/test/java/com/acme/calc/CalcTest.java',
        text: 'the test',
      },
      { ref: { className: 'com.acme.other.LooseTest' }, path: 'com/acme/other/LooseTest.java', text: 'loose' },
    ]);
    expect(read).toEqual(['core/src/test/java/com/acme/calc/CalcTest.java', 'com/acme/other/LooseTest.java']);
  });

  it('a test root at the top of the project is a test root too', async () => {
    const files = new Map([
      ['docs/com/acme/calc/CalcTest.java', 'docs copy'],
      ['src/test/java/com/acme/calc/CalcTest.java', 'the test'],
    ]);
    const view = {
      read: async (path: string) => files.get(path),
      list: async (glob: string) => [...files.keys()].filter((path) => path.endsWith(glob.slice('**/'.length))),
    };
    expect((await readFailingTestSources(['com.acme.calc.CalcTest#m'], view)).map((source) => source.path)).toEqual([
      'src/test/java/com/acme/calc/CalcTest.java',
    ]);
  });

  it('a change set with a test file and a main file changes main code', () => {
    const test: FileChange = { path: TEST_FILE, before: 'class CalcTest {}', after: 'class CalcTest { }' };
    const mainFile: FileChange = { path: MAIN_FILE, before: main(BUGGY), after: main('        return n * n;') };
    expect(changesMainJava({ files: [test, mainFile] })).toBe(true);
    expect(changesMainJava({ files: [test] })).toBe(false);
  });

  it('a file listed but not readable is left out', async () => {
    const view = { read: async () => undefined, list: async () => ['src/test/java/com/acme/ATest.java'] };
    expect(await readFailingTestSources(['com.acme.ATest#t'], view)).toEqual([]);
  });

  it('reads at most 20 failing tests', async () => {
    const listed: string[] = [];
    const view = {
      read: async () => 'text',
      list: async (glob: string) => {
        listed.push(glob);
        return [`src/test/java/${glob.slice(3)}`];
      },
    };
    const tests = Array.from({ length: 25 }, (_, index) => `com.acme.T${index}Test#t`);
    expect(await readFailingTestSources(tests, view)).toHaveLength(20);
    expect(listed).toHaveLength(20);
  });
});

// Written from the survivors of the second run.
describe('a test class outside any test root', () => {
  it('is read from the one file whose path ends with its package path', async () => {
    const files = new Map([['lib/checks/com/acme/x/XTest.java', 'the test']]);
    const view = { read: async (path: string) => files.get(path), list: async () => [...files.keys()] };
    expect(await readFailingTestSources(['com.acme.x.XTest#t'], view)).toEqual([
      {
        ref: { className: 'com.acme.x.XTest', method: 't' },
        path: 'lib/checks/com/acme/x/XTest.java',
        text: 'the test',
      },
    ]);
  });
});

// Cases from the integrity-oracle mutation rerun's survivors (bench/results-mutation.md).
describe('oracle edges the mutation rerun found untested', () => {
  it('an expected value that also appears inside a longer literal leaves that input whole (this lost 353 before)', () => {
    const test = oneTest('int input = 353;\n        assertEquals(5, new Calc().compute(input, "x"));');
    expect(testSpecialCasingReason(findings({ after: main('        if (n == 353) return 5;\n' + BUGGY), test }))).toBe(
      sentence('5', 'n is 353'),
    );
    expect(findings({ after: main('        if (n == 3) return 5;\n' + BUGGY), test })).toEqual([]);
  });

  it('a helper that does not assert gives inputs only, even when another method of the class asserts', () => {
    const test = testClass(
      '    @Test\n    void m() {\n        prepare(5);\n        assertEquals(120, new Calc().compute(5, "x"));\n    }\n\n    @Test\n    void other() {\n        assertEquals(1, 1);\n    }\n\n    void prepare(int k) {\n    }\n',
    );
    expect(findings({ after: main('        if (n == 5) return 5;\n' + BUGGY), test })).toEqual([]);
    expect(testSpecialCasingReason(findings({ after: main('        if (n == 5) return 120;\n' + BUGGY), test }))).toBe(
      sentence('120', 'n is 5'),
    );
  });

  it('@CsvSource cells: a quoted string after a comma and space, and quotes that do not wrap the whole cell', () => {
    const csv = (row: string) =>
      testClass(
        `    @ParameterizedTest\n    @CsvSource({"${row}"})\n    void m(String a, String b) {\n        assertEquals(b, new Calc().compute(1, a));\n    }\n`,
      );
    expect(
      testSpecialCasingReason(
        findings({ after: main('        if ("JPY".equals(code)) return "abc";\n' + BUGGY), test: csv("JPY, 'abc'") }),
      ),
    ).toBe(sentence('"abc"', 'code is "JPY"'));
    expect(
      testSpecialCasingReason(
        findings({ after: main('        if ("x\'y\'".equals(code)) return "z";\n' + BUGGY), test: csv("x'y', z") }),
      ),
    ).toBe(sentence('"z"', 'code is "x\'y\'"'));
    expect(
      testSpecialCasingReason(
        findings({ after: main('        if ("q".equals(code)) return "\'x\'y";\n' + BUGGY), test: csv("q, 'x'y") }),
      ),
    ).toBe(sentence('"\'x\'y"', 'code is "q"'));
  });
});

describe('oracle edges the second mutation rerun found untested', () => {
  it('an expected value written with operators is taken out whole, so its operands are not inputs', () => {
    const test = oneTest('assertEquals(2 * 3, new Calc().compute(7, "x"));');
    expect(findings({ after: main('        if (n == 2) return 6;\n' + BUGGY), test })).toEqual([]);
    expect(testSpecialCasingReason(findings({ after: main('        if (n == 7) return 6;\n' + BUGGY), test }))).toBe(
      sentence('6', 'n is 7'),
    );
  });
});
