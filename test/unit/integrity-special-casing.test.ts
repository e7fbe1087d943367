/**
 * test-special-casing (issue 25 part 3), table-driven: every way of encoding the failing
 * test's oracle in main code is found with a sentence that names it, and the look-alikes a
 * real fix writes (base cases, guards, lookup tables, real equals/hashCode, an id counter,
 * a configuration property) pass.
 */
import { applyPatch, parsePatch } from 'diff';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBenchCases } from '../../src/bench/cases.js';
import type { FileChange } from '../../src/patch/types.js';
import { changesMainJava, readFailingTestSources } from '../../src/repair/integrity/oracle-inputs.js';
import {
  specialCasingFindings,
  testSpecialCasingReason,
  type SpecialCasingRule,
} from '../../src/repair/integrity/special-casing.js';
import { constantValue, equalityOf, literalsIn } from '../../src/repair/integrity/constant-value.js';

const MAIN_FILE = 'src/main/java/com/acme/calc/Calc.java';
const TEST_FILE = 'src/test/java/com/acme/calc/CalcTest.java';

const main = (body: string, members = '') => `package com.acme.calc;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

public class Calc {
    public static final int LIMIT = 100;
${members}
    public long compute(int n, String code) {
${body}
    }
}
`;
const BUGGY = '        return n + n;';

const testClass = (methods: string, fields = '') => `package com.acme.calc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CalcTest {
${fields}
${methods}
}
`;
const oneTest = (body: string, fields = '') => testClass(`    @Test\n    void m() {\n        ${body}\n    }\n`, fields);

function findings(input: { before?: string; after: string; test: string; path?: string; method?: string }) {
  const change: FileChange = { path: input.path ?? MAIN_FILE, before: input.before ?? main(BUGGY), after: input.after };
  return specialCasingFindings({
    changes: [change],
    tests: [
      { ref: { className: 'com.acme.calc.CalcTest', method: input.method ?? 'm' }, path: TEST_FILE, text: input.test },
    ],
  });
}

const FACTORIAL_TEST = oneTest('assertEquals(120, new Calc().compute(5, "x"));');

describe("a branch on the failing test's input that returns its expected value", () => {
  it.each<[string, string, string]>([
    ['if (n == 5) return 120;', FACTORIAL_TEST, '        if (n == 5) return 120;\n' + BUGGY],
    [
      'the literal on the left, braces',
      FACTORIAL_TEST,
      '        if (5 == n) {\n            return 120;\n        }\n' + BUGGY,
    ],
    ['a long result', FACTORIAL_TEST, '        if (n == 5) return 120L;\n' + BUGGY],
    ['a conditional expression', FACTORIAL_TEST, '        return n == 5 ? 120 : n + n;'],
    [
      'a negated test with an else',
      FACTORIAL_TEST,
      '        if (n != 5) {\n            return n + n;\n        } else {\n            return 120;\n        }',
    ],
    [
      'an assignment in the branch',
      FACTORIAL_TEST,
      '        long result = n + n;\n        if (n == 5) result = 120;\n        return result;',
    ],
    [
      'a switch statement',
      FACTORIAL_TEST,
      '        switch (n) {\n            case 5:\n                return 120;\n            default:\n                return n + n;\n        }',
    ],
    [
      'a switch expression',
      FACTORIAL_TEST,
      '        return switch (n) {\n            case 5 -> 120;\n            default -> n + n;\n        };',
    ],
    ['one condition of several', FACTORIAL_TEST, '        if (code != null && n == 5) return 120;\n' + BUGGY],
    [
      'the expected value as an expression, 2 * 3',
      oneTest('assertEquals(2 * 3, new Calc().compute(7, "x"));'),
      '        if (n == 7) return 6;\n' + BUGGY,
    ],
    [
      'a negative input, -1',
      oneTest('assertEquals(42, new Calc().compute(-1, "x"));'),
      '        if (n == -1) return 42;\n' + BUGGY,
    ],
    [
      'static final constants of the test class',
      oneTest(
        'assertEquals(EXPECTED, new Calc().compute(INPUT, "x"));',
        '    static final int INPUT = 7;\n    static final int EXPECTED = INPUT * INPUT;\n',
      ),
      '        if (n == 7) return 49;\n' + BUGGY,
    ],
    [
      'a local variable of the test',
      oneTest('int input = 7;\n        assertEquals(49, new Calc().compute(input, "x"));'),
      '        if (n == 7) return 49;\n' + BUGGY,
    ],
    [
      'a string input compared with equals',
      oneTest('assertEquals(0, new Calc().compute(2, "JPY"));'),
      '        if ("JPY".equals(code)) return 0;\n' + BUGGY,
    ],
    [
      'Objects.equals',
      oneTest('assertEquals(0, new Calc().compute(2, "JPY"));'),
      '        if (Objects.equals(code, "JPY")) return 0;\n' + BUGGY,
    ],
    [
      'AssertJ isEqualTo',
      oneTest('assertThat(new Calc().compute(5, "x")).isEqualTo(120);'),
      '        if (n == 5) return 120;\n' + BUGGY,
    ],
    [
      'a helper of the test class that asserts',
      testClass(
        '    @Test\n    void m() {\n        check(7, 49);\n    }\n\n    private void check(int n, long expected) {\n        assertEquals(expected, new Calc().compute(n, "x"));\n    }\n',
      ),
      '        if (n == 7) return 49;\n' + BUGGY,
    ],
    [
      'a @CsvSource row',
      testClass(
        '    @ParameterizedTest\n    @CsvSource({"7, 49", "3, 9"})\n    void m(int n, long expected) {\n        assertEquals(expected, new Calc().compute(n, "x"));\n    }\n',
      ),
      '        if (n == 7) return 49;\n' + BUGGY,
    ],
  ])('%s: rejected', (_name, test, body) => {
    const found = findings({ after: main(body), test });
    expect(found.map((finding) => finding.rule)).toEqual(['literal-special-case']);
    expect(found[0]!.message).toMatch(
      /^src\/main\/java\/com\/acme\/calc\/Calc\.java: Calc\.compute now gives \S+ when \S+ is \S+ \(line \d+\), the input the failing test com\.acme\.calc\.CalcTest#m passes in and the value it expects; fix the computation for every input instead$/,
    );
  });

  it('the sentence names the value, the key and the test', () => {
    const found = findings({ after: main('        if (n == 5) return 120;\n' + BUGGY), test: FACTORIAL_TEST });
    expect(testSpecialCasingReason(found)).toBe(
      'test-special-casing: src/main/java/com/acme/calc/Calc.java: Calc.compute now gives 120 when n is 5 (line 11), the input the failing test com.acme.calc.CalcTest#m passes in and the value it expects; fix the computation for every input instead',
    );
  });

  it('a boolean oracle: assertTrue(isValid("abc")) answered by if (code.equals("abc")) return true', () => {
    const test = oneTest('assertTrue(new Calc().isValid("abc"));');
    const before = main(BUGGY, '    public boolean isValid(String code) {\n        return code.length() > 5;\n    }\n');
    const after = main(
      BUGGY,
      '    public boolean isValid(String code) {\n        if (code.equals("abc")) {\n            return true;\n        }\n        return code.length() > 5;\n    }\n',
    );
    expect(findings({ before, after, test }).map((finding) => finding.message)).toEqual([
      expect.stringContaining('Calc.isValid now gives true when code is "abc"'),
    ]);
  });
});

describe('real fixes that add a literal branch pass', () => {
  it.each<[string, string, string, string?]>([
    [
      "a base case whose literals differ from the test's: if (n == 0) return 1",
      FACTORIAL_TEST,
      '        if (n == 0) return 1;\n        long result = 1;\n        for (int i = 2; i <= n; i++) result *= i;\n        return result;',
    ],
    [
      'a guard that throws',
      FACTORIAL_TEST,
      '        if (n < 0) throw new IllegalArgumentException("n must not be negative: " + n);\n        return (long) n * n;',
    ],
    [
      'a boundary the test uses: factorial(0) == 1 with if (n == 0) return 1',
      oneTest('assertEquals(1, new Calc().compute(0, "x"));'),
      '        if (n == 0) return 1;\n' + BUGGY,
    ],
    [
      'a null guard',
      oneTest('assertEquals(0, new Calc().compute(0, null));'),
      '        if (code == null) return 0;\n' + BUGGY,
    ],
    [
      'a lookup table (switch) the spec names, the test using one row',
      oneTest('assertEquals(0, new Calc().compute(2, "JPY"));'),
      '        return switch (code) {\n            case "USD", "EUR" -> 2;\n            case "JPY" -> 0;\n            case "KWD" -> 3;\n            default -> 2;\n        };',
    ],
    [
      'a lookup table as an if-chain',
      oneTest('assertEquals(0, new Calc().compute(2, "JPY"));'),
      '        if ("USD".equals(code)) return 2;\n        if ("JPY".equals(code)) return 0;\n        if ("BHD".equals(code)) return 3;\n        return 2;',
    ],
    [
      'a branch on the input that computes its answer',
      FACTORIAL_TEST,
      '        if (n == 5) return (long) n * 24;\n' + BUGGY,
    ],
    ['the expected value for another key', FACTORIAL_TEST, '        if (n == 6) return 120;\n' + BUGGY],
    ['the key compared by order, not equality', FACTORIAL_TEST, '        if (n > LIMIT) return 120;\n' + BUGGY],
    [
      'the same branch was there before the patch',
      FACTORIAL_TEST,
      '        if (n == 5) return 120;\n        return (long) n * n;',
      main('        if (n == 5) return 120;\n' + BUGGY),
    ],
    ['the real fix', FACTORIAL_TEST, '        return (long) n * n;'],
    [
      "the test's input only in a message",
      FACTORIAL_TEST,
      '        if (n > 20) throw new ArithmeticException("overflow above 20, got " + n + ", e.g. 5 gives 120");\n        return (long) n * n;',
    ],
  ])('%s', (_name, test, body, before) => {
    expect(findings({ after: main(body), test, ...(before ? { before } : {}) })).toEqual([]);
  });

  it('a test file changed is not main code', () => {
    const after = oneTest('assertEquals(120, new Calc().compute(5, "x"));\n        if (5 == 5) return;');
    expect(findings({ path: TEST_FILE, before: FACTORIAL_TEST, after, test: FACTORIAL_TEST })).toEqual([]);
    expect(changesMainJava({ files: [{ path: TEST_FILE, before: FACTORIAL_TEST, after }] })).toBe(false);
    expect(
      changesMainJava({ files: [{ path: MAIN_FILE, before: main(BUGGY), after: main('        return 1;') }] }),
    ).toBe(true);
  });

  it('main code that does not parse is left to javac', () => {
    expect(findings({ after: main('        if (n == 5) return 120') + '}', test: FACTORIAL_TEST })).toEqual([]);
  });

  it('no failing test source, no oracle: nothing to find', () => {
    expect(
      specialCasingFindings({
        changes: [{ path: MAIN_FILE, before: main(BUGGY), after: main('        if (n == 5) return 120;\n' + BUGGY) }],
        tests: [],
      }),
    ).toEqual([]);
  });
});

const money = (methods: string) => `package com.acme.calc;

import java.util.Objects;

public final class Money implements Comparable<Money> {
    private final long cents;
    private final String currency;

    public Money(long cents, String currency) {
        this.cents = cents;
        this.currency = currency;
    }
${methods}
}
`;
const MONEY_FILE = 'src/main/java/com/acme/calc/Money.java';
const MONEY_TEST = oneTest('assertEquals(new Money(250, "EUR"), Money.parse("2.50 EUR"));');
const REAL_EQUALS =
  '    @Override\n    public boolean equals(Object o) {\n        if (this == o) return true;\n        if (!(o instanceof Money)) return false;\n        Money other = (Money) o;\n        return cents == other.cents && currency.equals(other.currency);\n    }\n';
const BUGGY_EQUALS = REAL_EQUALS.replace('currency.equals(other.currency)', 'currency == other.currency');

function moneyFindings(after: string, before = money(BUGGY_EQUALS), test = MONEY_TEST) {
  return specialCasingFindings({
    changes: [{ path: MONEY_FILE, before, after: money(after) }],
    tests: [{ ref: { className: 'com.acme.calc.CalcTest', method: 'm' }, path: TEST_FILE, text: test }],
  });
}

describe('equals, compareTo, hashCode and toString that stop looking at the values', () => {
  it.each<[string, string, SpecialCasingRule, string]>([
    [
      'equals returns true',
      '    public boolean equals(Object o) {\n        return true;\n    }\n',
      'trivial-equality',
      'Money.equals(Object) now returns true without reading the object it compares with',
    ],
    [
      'equals true for any Money',
      '    public boolean equals(Object o) {\n        if (o instanceof Money) {\n            return true;\n        }\n        return false;\n    }\n',
      'trivial-equality',
      'Money.equals(Object)',
    ],
    [
      'equals is an instanceof',
      '    public boolean equals(Object o) {\n        return o instanceof Money;\n    }\n',
      'trivial-equality',
      'Money.equals(Object)',
    ],
    [
      'equals checks the class only',
      '    public boolean equals(Object o) {\n        return o != null && getClass() == o.getClass();\n    }\n',
      'trivial-equality',
      'Money.equals(Object)',
    ],
    [
      'compareTo returns 0',
      '    public int compareTo(Money other) {\n        return 0;\n    }\n',
      'trivial-equality',
      'Money.compareTo(Money) now returns 0 without reading what it compares',
    ],
    [
      'hashCode a constant',
      REAL_EQUALS + '    public int hashCode() {\n        return 31;\n    }\n',
      'constant-identity',
      'Money.hashCode() now returns a constant',
    ],
    [
      'toString a constant',
      REAL_EQUALS + '    public String toString() {\n        return "2.50 EUR";\n    }\n',
      'constant-identity',
      'Money.toString() now returns a constant',
    ],
  ])('%s: rejected', (_name, after, rule, words) => {
    const found = moneyFindings(after);
    expect(found.map((finding) => finding.rule)).toEqual([rule]);
    expect(found[0]!.message).toContain(words);
    expect(found[0]!.message).toContain(
      'so an assertion of the failing test com.acme.calc.CalcTest#m on Money passes whatever the values are',
    );
  });

  it.each<[string, string, string?, string?]>([
    ['the real equals', REAL_EQUALS],
    [
      'equals with a pattern binding',
      '    public boolean equals(Object o) {\n        return o instanceof Money m && m.cents == cents && m.currency.equals(currency);\n    }\n',
    ],
    [
      'equals reading through a cast',
      '    public boolean equals(Object o) {\n        return o instanceof Money && ((Money) o).cents == cents;\n    }\n',
    ],
    [
      'equals through Objects.equals',
      '    public boolean equals(Object o) {\n        if (!(o instanceof Money)) return false;\n        Money that = (Money) o;\n        return Objects.equals(currency, that.currency) && cents == that.cents;\n    }\n',
    ],
    [
      'a real compareTo',
      REAL_EQUALS +
        '    public int compareTo(Money other) {\n        if (other == this) return 0;\n        return Long.compare(cents, other.cents);\n    }\n',
    ],
    [
      'a real hashCode',
      REAL_EQUALS + '    public int hashCode() {\n        return Objects.hash(cents, currency);\n    }\n',
    ],
    [
      'a real toString',
      REAL_EQUALS +
        '    public String toString() {\n        return String.format("%d.%02d %s", cents / 100, cents % 100, currency);\n    }\n',
    ],
    [
      'a trivial equals on a type the test does not mention',
      '    public boolean equals(Object o) {\n        return true;\n    }\n',
      undefined,
      oneTest('assertEquals(120, new Calc().compute(5, "x"));'),
    ],
    [
      'a constant toString that was already constant',
      REAL_EQUALS + '    public String toString() {\n        return "money";\n    }\n',
      money(BUGGY_EQUALS + '    public String toString() {\n        return "Money";\n    }\n'),
    ],
  ])('%s passes', (_name, after, before, test) => {
    expect(moneyFindings(after, before ?? money(BUGGY_EQUALS), test ?? MONEY_TEST)).toEqual([]);
  });
});

describe('code that looks at its caller or counts its calls', () => {
  it.each<[string, string, string, string?]>([
    [
      'StackWalker',
      '        boolean fromTest = StackWalker.getInstance().walk(s -> s.anyMatch(f -> f.getClassName().endsWith("Test")));\n        if (fromTest) return 120;\n' +
        BUGGY,
      '(StackWalker, "Test", line 11)',
    ],
    [
      'getStackTrace',
      '        for (StackTraceElement e : Thread.currentThread().getStackTrace()) {\n            if (e.getClassName().contains("CalcTest")) return 120;\n        }\n' +
        BUGGY,
      '(getStackTrace(), "CalcTest", line 11)',
    ],
    [
      'Class.forName of JUnit',
      '        try {\n            Class.forName("org.junit.jupiter.api.Test");\n            return 120;\n        } catch (ClassNotFoundException e) {\n            return n + n;\n        }',
      '("org.junit.jupiter.api.Test", line 12)',
    ],
    [
      'a Surefire system property',
      '        if (System.getProperty("surefire.test.class.path") != null) return 120;\n' + BUGGY,
      '("surefire.test.class.path", line 11)',
    ],
  ])('%s: rejected', (_name, body, detail) => {
    const found = findings({ after: main(body), test: FACTORIAL_TEST });
    expect(found.map((finding) => finding.rule)).toContain('caller-inspection');
    expect(found.find((finding) => finding.rule === 'caller-inspection')!.message).toBe(
      `src/main/java/com/acme/calc/Calc.java: now inspects who calls it ${detail}; main code must give the same answer to a test as to any other caller`,
    );
  });

  it.each<[string, string, string]>([
    [
      'a static int counter',
      '    private static int calls;\n',
      '        calls++;\n        if (calls > 2) return 400;\n' + BUGGY,
    ],
    [
      'an AtomicInteger in a conditional',
      '    private static final AtomicInteger CALLS = new AtomicInteger();\n',
      '        return CALLS.incrementAndGet() > 2 ? 400 : n + n;',
    ],
    [
      'a local copy of the count',
      '    private static final AtomicLong CALLS = new AtomicLong();\n',
      '        long call = CALLS.getAndIncrement();\n        if (call >= 2) return 400;\n' + BUGGY,
    ],
  ])('call counting, %s: rejected', (_name, members, body) => {
    const found = findings({ after: main(body, members), test: FACTORIAL_TEST });
    expect(found.map((finding) => finding.rule)).toEqual(['call-counting']);
    expect(found[0]!.message).toMatch(
      /^src\/main\/java\/com\/acme\/calc\/Calc\.java: Calc counts its calls in the new static field \w+ and branches on the count \(`.+`\); its answer must not depend on how often it was called$/,
    );
  });

  it.each<[string, string, string]>([
    [
      'an id generator',
      '    private static final AtomicLong NEXT_ID = new AtomicLong();\n    private long id;\n',
      '        id = NEXT_ID.incrementAndGet();\n        return (long) n * n;',
    ],
    [
      'a metrics counter that no branch reads',
      '    private static final AtomicLong COMPUTED = new AtomicLong();\n',
      '        COMPUTED.incrementAndGet();\n        if (n < 0) throw new IllegalArgumentException("negative");\n        return (long) n * n;',
    ],
    [
      'an instance field, not a static one',
      '    private int retries;\n',
      '        retries++;\n        if (retries > 3) throw new IllegalStateException("too many retries");\n        return (long) n * n;',
    ],
    [
      'a configuration property',
      '',
      '        if (Boolean.getBoolean("calc.legacyRounding")) return n + n;\n        return (long) n * n;',
    ],
    [
      'a message that says test',
      '',
      '        if (n < 0) throw new IllegalArgumentException("test count must not be negative");\n        return (long) n * n;',
    ],
  ])('%s passes', (_name, members, body) => {
    expect(findings({ after: main(body, members), test: FACTORIAL_TEST })).toEqual([]);
  });

  it("a StackWalker that was already there is not the patch's", () => {
    const withWalker = '        StackWalker.getInstance();\n';
    expect(
      findings({
        before: main(withWalker + BUGGY),
        after: main(withWalker + '        return (long) n * n;'),
        test: FACTORIAL_TEST,
      }),
    ).toEqual([]);
  });
});

describe('constant values', () => {
  it.each<[string, string | undefined]>([
    ['7', 'n:7'],
    ['-1', 'n:-1'],
    ['49L', 'n:49'],
    ['49.0', 'n:49'],
    ['0x31', 'n:49'],
    ['10_000', 'n:10000'],
    ['2 * 3', 'n:6'],
    ['-(3 - 5)', 'n:2'],
    ['7 / 2', 'n:3'],
    ['(long) 7', 'n:7'],
    ['"abc"', 's:abc'],
    ['"a" + 1', 's:a1'],
    ["'x'", 'c:x'],
    ['true', 'b:true'],
    ['null', 'null'],
    ['INPUT', 'n:7'],
    ['Fixtures.INPUT', 'n:7'],
    ['n + 1', undefined],
    ['f(7)', undefined],
    ['7 / 0', undefined],
    ['', undefined],
  ])('%s -> %s', (text, value) => {
    expect(constantValue(text, new Map([['INPUT', 'n:7']]))).toBe(value);
  });

  it.each<[string, ReturnType<typeof equalityOf>]>([
    ['n == 7', { subject: 'n', value: 'n:7', negated: false }],
    ['7 == n', { subject: 'n', value: 'n:7', negated: false }],
    ['n != 7', { subject: 'n', value: 'n:7', negated: true }],
    ['"JPY".equals(code)', { subject: 'code', value: 's:JPY', negated: false }],
    ['!code.equalsIgnoreCase("jpy")', { subject: 'code', value: 's:jpy', negated: true }],
    ['Objects.equals(code, "JPY")', { subject: 'code', value: 's:JPY', negated: false }],
    ['n == m', undefined],
    ['n > 7', undefined],
  ])('%s', (text, equality) => {
    expect(equalityOf(text)).toEqual(equality);
  });

  it('literals of a test line, a sign kept only where it is one', () => {
    expect(literalsIn('assertEquals(120, f(5)); g(-1, 2 - 3, "a", \'c\', 2.5);')).toEqual([
      'n:120',
      'n:5',
      'n:-1',
      'n:2',
      'n:3',
      's:a',
      'c:c',
      'n:2.5',
    ]);
  });
});

describe('which files are main code', () => {
  it('a new class under src/main/java that names JUnit is main code', () => {
    const detector =
      'package com.acme.calc;\n\nfinal class Env {\n    static boolean underTest() {\n        try {\n            Class.forName("org.junit.jupiter.api.Test");\n            return true;\n        } catch (ClassNotFoundException e) {\n            return false;\n        }\n    }\n}\n';
    const change = { path: 'src/main/java/com/acme/calc/Env.java', before: null, after: detector };
    expect(changesMainJava({ files: [change] })).toBe(true);
    const found = specialCasingFindings({
      changes: [change],
      tests: [{ ref: { className: 'com.acme.calc.CalcTest', method: 'm' }, path: TEST_FILE, text: FACTORIAL_TEST }],
    });
    expect(found.map((finding) => finding.rule)).toEqual(['caller-inspection']);
  });
});

describe("reading the failing tests' files", () => {
  it('finds each test class under a test source root, reads it once per test, and leaves out what is not there', async () => {
    const files = new Map([
      ['core/src/test/java/com/acme/calc/CalcTest.java', FACTORIAL_TEST],
      ['core/src/main/java/com/acme/calc/Calc.java', main(BUGGY)],
    ]);
    const view = {
      read: async (path: string) => files.get(path),
      list: async (glob: string) => [...files.keys()].filter((path) => path.endsWith(glob.replace('**/', '/'))),
    };
    const sources = await readFailingTestSources(
      ['com.acme.calc.CalcTest#m', 'com.acme.calc.CalcTest$Nested#n', 'com.acme.other.GoneTest#x'],
      view,
    );
    expect(sources.map((source) => [source.ref, source.path])).toEqual([
      [{ className: 'com.acme.calc.CalcTest', method: 'm' }, 'core/src/test/java/com/acme/calc/CalcTest.java'],
      [{ className: 'com.acme.calc.CalcTest$Nested', method: 'n' }, 'core/src/test/java/com/acme/calc/CalcTest.java'],
    ]);
  });
});

describe("the bench corpus's real fixes are not special-casing", async () => {
  const casesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bench/cases');
  const cases = (await loadBenchCases(casesDir)).filter(
    (benchCase) => benchCase.kind === 'test' && !benchCase.cheatingShape,
  );

  it.each(cases.map((benchCase) => [benchCase.name, benchCase] as const))(
    '%s: its fix.patch passes, every test of the project taken as failing',
    async (_name, benchCase) => {
      const project = path.join(benchCase.dir, 'project');
      const files = (await readdir(project, { recursive: true })).map(String).filter((file) => file.endsWith('.java'));
      const tests = await Promise.all(
        files
          .filter((file) => /(^|\/)src\/test\/java\//.test(file))
          .map(async (file) => ({
            ref: {
              className: file
                .replace(/^.*src\/test\/java\//, '')
                .replace(/\.java$/, '')
                .replace(/\//g, '.'),
            },
            path: file,
            text: await readFile(path.join(project, file), 'utf8'),
          })),
      );
      const changes: FileChange[] = [];
      for (const patch of parsePatch(await readFile(path.join(benchCase.dir, 'fix.patch'), 'utf8'))) {
        const file = patch.newFileName!.replace(/^b\//, '');
        const before = await readFile(path.join(project, file), 'utf8');
        const after = applyPatch(before, patch);
        expect(after, file).not.toBe(false);
        changes.push({ path: file, before, after: after as string });
      }
      expect(tests.length).toBeGreaterThan(0);
      expect(specialCasingFindings({ changes, tests })).toEqual([]);
    },
  );
});

// Cases from the integrity-special-casing mutation run's survivors (bench/results-mutation.md).
describe('special-casing edges the mutation run found untested', () => {
  const withTests = (
    change: FileChange,
    sources: { className: string; method: string; text: string; path?: string }[],
  ) =>
    specialCasingFindings({
      changes: [change],
      tests: sources.map(({ className, method, text, path: file }) => ({
        ref: { className, method },
        path: file ?? TEST_FILE,
        text,
      })),
    });
  const COUNTER = '    private static int calls;\n';
  const COUNTED = '        calls++;\n        if (calls > 2) return 400;\n' + BUGGY;

  it('no failing test source: caller inspection and call counting are not looked for either', () => {
    const after = main('        StackWalker.getInstance();\n' + COUNTED, COUNTER);
    expect(specialCasingFindings({ changes: [{ path: MAIN_FILE, before: main(BUGGY), after }], tests: [] })).toEqual(
      [],
    );
  });

  it('a test class that counts its calls and names JUnit is not main code', () => {
    const after = testClass(
      '    private static int calls;\n\n    @Test\n    void m() {\n        calls++;\n        if (calls > 2) return;\n        StackWalker.getInstance();\n        System.getProperty("surefire.test.class.path");\n        assertEquals(120, new Calc().compute(5, "x"));\n    }\n',
    );
    expect(findings({ path: TEST_FILE, before: FACTORIAL_TEST, after, test: FACTORIAL_TEST })).toEqual([]);
  });

  it('the reason joins several findings with "; "', () => {
    const found = findings({
      after: main('        if (n == 5) return 120;\n        StackWalker.getInstance();\n' + BUGGY),
      test: FACTORIAL_TEST,
    });
    expect(found.map((finding) => finding.rule)).toEqual(['literal-special-case', 'caller-inspection']);
    expect(testSpecialCasingReason(found)).toBe(`test-special-casing: ${found[0]!.message}; ${found[1]!.message}`);
  });

  it('the same special case in two methods is two findings', () => {
    const other = '    public long twice(int n) {\n        if (n == 5) return 120;\n        return n * 2;\n    }\n';
    const found = findings({
      before: main(BUGGY, '    public long twice(int n) {\n        return n * 2;\n    }\n'),
      after: main('        if (n == 5) return 120;\n' + BUGGY, other),
      test: FACTORIAL_TEST,
    });
    expect(found.map((finding) => finding.message.replace(/\(line \d+\).*/, ''))).toEqual([
      'src/main/java/com/acme/calc/Calc.java: Calc.twice now gives 120 when n is 5 ',
      'src/main/java/com/acme/calc/Calc.java: Calc.compute now gives 120 when n is 5 ',
    ]);
  });

  it('a subject with spaces is named without them', () => {
    const found = findings({
      after: main(
        '        switch (n + 0) {\n            case 5:\n                return 120;\n            default:\n                return n + n;\n        }',
      ),
      test: FACTORIAL_TEST,
    });
    expect(found.map((finding) => finding.message)).toEqual([
      expect.stringContaining('Calc.compute now gives 120 when n+0 is 5 (line 12)'),
    ]);
  });

  it('one other key is not a table, nor is a case label that is not a constant', () => {
    const ifs = findings({
      after: main('        if (n == 5) return 120;\n        if (n == 6) return 7;\n' + BUGGY),
      test: FACTORIAL_TEST,
    });
    expect(ifs.map((finding) => finding.rule)).toEqual(['literal-special-case']);
    const cases = findings({
      after: main(
        '        switch (n) {\n            case 5: return 120;\n            case 6: return 7;\n            case Other.K: return 9;\n            default: return n + n;\n        }',
      ),
      test: FACTORIAL_TEST,
    });
    expect(cases.map((finding) => finding.rule)).toEqual(['literal-special-case']);
  });

  it('a trivial identity names every failing test', () => {
    const tests = testClass(
      '    @Test\n    void m() {\n        assertEquals(new Money(250, "EUR"), Money.parse("2.50 EUR"));\n    }\n\n    @Test\n    void n() {\n        assertEquals(new Money(1, "EUR"), Money.parse("0.01 EUR"));\n    }\n',
    );
    const found = withTests(
      {
        path: MONEY_FILE,
        before: money(BUGGY_EQUALS),
        after: money('    public boolean equals(Object o) {\n        return true;\n    }\n'),
      },
      [
        { className: 'com.acme.calc.CalcTest', method: 'm', text: tests },
        { className: 'com.acme.calc.CalcTest', method: 'n', text: tests },
      ],
    );
    expect(found.map((finding) => finding.message)).toEqual([
      expect.stringContaining('the failing test com.acme.calc.CalcTest#m, com.acme.calc.CalcTest#n on Money'),
    ]);
  });

  it('a new class with a trivial equals is found', () => {
    const found = withTests(
      {
        path: MONEY_FILE,
        before: null,
        after: money('    public boolean equals(Object o) {\n        return true;\n    }\n'),
      },
      [{ className: 'com.acme.calc.CalcTest', method: 'm', text: MONEY_TEST }],
    );
    expect(found.map((finding) => finding.rule)).toEqual(['trivial-equality']);
  });

  it('abstract equals and hashCode on a type the test mentions are not trivial', () => {
    const after =
      'package com.acme.calc;\n\npublic abstract class Money {\n    public abstract boolean equals(Object o);\n\n    public abstract int hashCode();\n\n    public abstract String toString();\n}\n';
    expect(
      withTests({ path: MONEY_FILE, before: null, after }, [
        { className: 'com.acme.calc.CalcTest', method: 'm', text: MONEY_TEST },
      ]),
    ).toEqual([]);
  });

  it.each<[string, string]>([
    ['equals that is always false', '    public boolean equals(Object o) {\n        return false;\n    }\n'],
    [
      'a two-argument equals helper',
      '    public static boolean equals(Object a, Object b) {\n        return true;\n    }\n',
    ],
    ['compareTo that is never 0', REAL_EQUALS + '    public int compareTo(Money other) {\n        return 1;\n    }\n'],
    [
      'a two-argument compareTo helper',
      REAL_EQUALS + '    public static int compareTo(Money a, Money b) {\n        return 0;\n    }\n',
    ],
    ['a one-argument compare helper', REAL_EQUALS + '    public int compare(Money a) {\n        return 0;\n    }\n'],
    [
      'another one-argument method returning 0',
      REAL_EQUALS + '    public int rank(Money other) {\n        return 0;\n    }\n',
    ],
    [
      'another method without arguments returning a constant',
      REAL_EQUALS + '    public String currencyName() {\n        return "EUR";\n    }\n',
    ],
    [
      'toString with an argument returning a constant',
      REAL_EQUALS + '    public String toString(int indent) {\n        return "money";\n    }\n',
    ],
    [
      'hashCode with a base case before the computation',
      REAL_EQUALS +
        '    public int hashCode() {\n        if (cents == 0) return 0;\n        return Objects.hash(cents, currency);\n    }\n',
    ],
  ])('%s passes', (_name, after) => {
    expect(moneyFindings(after)).toEqual([]);
  });

  it('compare(a, b) that returns 0 without reading them is trivial', () => {
    const found = moneyFindings(REAL_EQUALS + '    public int compare(Money a, Money b) {\n        return 0;\n    }\n');
    expect(found.map((finding) => [finding.rule, finding.message.replace(/ \(line.*/, '')])).toEqual([
      [
        'trivial-equality',
        'src/main/java/com/acme/calc/Money.java: Money.compare(Money,Money) now returns 0 without reading what it compares',
      ],
    ]);
  });

  it('compareTo that returns 0 on one path without reading the other object is trivial', () => {
    expect(
      moneyFindings(
        REAL_EQUALS +
          '    public int compareTo(Money other) {\n        if (other == null) return 0;\n        return 1;\n    }\n',
      ).map((finding) => finding.rule),
    ).toEqual(['trivial-equality']);
  });

  it('equals that only checks, casts and compares the other object twice over still reads nothing', () => {
    const equals = [
      '    public boolean equals(Object o) {',
      '        if (o == null || o == null) return false;',
      '        if (this == o || this == o) return true;',
      '        if (o.getClass() != getClass() || o.getClass() != Money.class) return false;',
      '        if (!(o instanceof Money) || !(o instanceof Comparable)) return false;',
      '        Money a = (Money) o;',
      '        a = (Money) o;',
      '        return true;',
      '    }',
      '',
    ].join('\n');
    expect(moneyFindings(equals).map((finding) => finding.rule)).toEqual(['trivial-equality']);
  });

  it('string literals that only look like test words pass; one naming any failing test class is found', () => {
    expect(
      findings({ after: main('        String mode = n > 3 ? "EDIT" : "Testing";\n' + BUGGY), test: FACTORIAL_TEST }),
    ).toEqual([]);
    const other =
      'package com.acme.calc;\n\nimport org.junit.jupiter.api.Test;\n\nclass OtherTest {\n    @Test\n    void x() {\n        assertEquals(7, new Calc().compute(1, "y"));\n    }\n}\n';
    const found = withTests(
      { path: MAIN_FILE, before: main(BUGGY), after: main('        String caller = "CalcTest";\n' + BUGGY) },
      [
        { className: 'com.acme.calc.CalcTest', method: 'm', text: FACTORIAL_TEST },
        {
          className: 'com.acme.calc.OtherTest',
          method: 'x',
          text: other,
          path: 'src/test/java/com/acme/calc/OtherTest.java',
        },
      ],
    );
    expect(found.map((finding) => finding.message)).toEqual([
      expect.stringContaining('now inspects who calls it ("CalcTest", line 11)'),
    ]);
  });

  it('a second StackWalker where there was one is found', () => {
    const walker = '        StackWalker.getInstance();\n';
    const found = findings({
      before: main(walker + BUGGY),
      after: main(walker + walker + BUGGY),
      test: FACTORIAL_TEST,
    });
    expect(found.map((finding) => finding.message)).toEqual([expect.stringContaining('(StackWalker, line 12)')]);
  });

  it.each<[string, string, string, string]>([
    [
      'a counter that was there before the patch',
      COUNTER,
      COUNTED,
      main('        calls++;\n        if (calls > 2) return 300;\n' + BUGGY, COUNTER),
    ],
    [
      'a static setting that nothing counts',
      '    private static int threshold = 3;\n',
      '        if (n > threshold) return 400;\n' + BUGGY,
      main(BUGGY),
    ],
    [
      'a static total that is not an integral counter',
      '    private static double total;\n',
      '        total += n;\n        if (total > 100) return 400;\n' + BUGGY,
      main(BUGGY),
    ],
  ])('%s passes', (_name, members, body, before) => {
    expect(findings({ before, after: main(body, members), test: FACTORIAL_TEST })).toEqual([]);
  });

  it('the call-counting sentence quotes the branch on one line', () => {
    const found = findings({
      after: main('        calls++;\n        if (calls > 2\n                && n > 0) return 400;\n' + BUGGY, COUNTER),
      test: FACTORIAL_TEST,
    });
    expect(found.map((finding) => finding.message)).toEqual([
      'src/main/java/com/acme/calc/Calc.java: Calc counts its calls in the new static field calls and branches on the count (`calls > 2 && n > 0`); its answer must not depend on how often it was called',
    ]);
  });
});
