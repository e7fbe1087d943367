/**
 * Main code that names a class of the test side (issue 45): refused before any build as
 * test-special-casing, with the line; a class of main code, one both sides declare, and a
 * name that was there before pass. Through specialCasingFindings, the way the verifier's
 * integrity check calls it, with the class names read from the tree's source files.
 */
import { describe, expect, it } from 'vitest';
import { specialCasingFindings } from '../../src/repair/integrity/special-casing.js';
import { classNameOfSource, testClassNames } from '../../src/repair/integrity/test-class-names.js';

const MAIN = 'src/main/java/com/acme/calc/Calc.java';
const TEST = 'src/test/java/com/acme/calc/CalcTest.java';

const calc = (body: string) => `package com.acme.calc;

public final class Calc {
    public static boolean check(int year) {
${body}
    }

    private static boolean loadable(String name) {
        try {
            Class.forName(name);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
`;
const BUGGY = '        return year % 4 == 0;';
const LEAP_TEST = `package com.acme.calc;

import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void failing() {
        assertFalse(Calc.check(1900));
    }
}
`;
const sources = [
  'src/main/java/com/acme/calc/Calc.java',
  'src/main/java/com/acme/calc/Shared.java',
  'core/src/test/java/com/acme/calc/CalcTest.java',
  'core/src/test/java/com/acme/support/LeapFixtures.java',
  'src/test/java/com/acme/calc/Shared.java',
  'README.md',
];
const classes = {
  test: sources.filter((file) => file.includes('/test/')).flatMap((file) => classNameOfSource(file) ?? []),
  main: sources.filter((file) => file.includes('/main/')).flatMap((file) => classNameOfSource(file) ?? []),
};
const check = (after: string, before = calc(BUGGY)) =>
  specialCasingFindings({
    changes: [{ path: MAIN, before, after }],
    tests: [{ ref: { className: 'com.acme.calc.CalcTest', method: 'failing' }, path: TEST, text: LEAP_TEST }],
    classes,
  });

describe('main code naming a test class', () => {
  it('reads the binary names from the source paths, any module', () => {
    expect(classes).toEqual({
      test: ['com.acme.calc.CalcTest', 'com.acme.support.LeapFixtures', 'com.acme.calc.Shared'],
      main: ['com.acme.calc.Calc', 'com.acme.calc.Shared'],
    });
  });

  it.each<[string, string]>([
    [
      '"com.acme.support.LeapFixtures"',
      'now names the test class com.acme.support.LeapFixtures ("com.acme.support.LeapFixtures", line 5)',
    ],
    [
      '"com.acme.support.LeapFixtures$Centuries"',
      'now names the test class com.acme.support.LeapFixtures ("com.acme.support.LeapFixtures$Centuries", line 5)',
    ],
    [
      '"/com/acme/support/LeapFixtures.class"',
      'now names the test class com.acme.support.LeapFixtures ("/com/acme/support/LeapFixtures.class", line 5)',
    ],
  ])('%s is refused with the class and the line', (literal, message) => {
    const found = check(
      calc(`        if (loadable(${literal})) return year % 400 == 0 || year % 100 != 0 && year % 4 == 0;\n${BUGGY}`),
    );
    expect(found.map((finding) => finding.rule)).toEqual(['test-class']);
    expect(found[0]!.message).toBe(
      `${MAIN}: ${message}, which is on the class path only while the tests run; main code must not load or look for test classes`,
    );
  });

  it.each<[string, string]>([
    ['a main class', '"com.acme.calc.Calc"'],
    ['a class both sides declare', '"com.acme.calc.Shared"'],
    ['an unknown class', '"com.acme.calc.Julian"'],
    ['a simple name', '"LeapFixtures"'],
  ])('passes: %s', (_name, literal) => {
    expect(check(calc(`        if (loadable(${literal})) return false;\n${BUGGY}`))).toEqual([]);
  });

  it('a name the file had before the fix is not the fix’s', () => {
    const before = calc(`        if (loadable("com.acme.support.LeapFixtures")) return true;\n${BUGGY}`);
    expect(
      check(
        calc(
          `        if (loadable("com.acme.support.LeapFixtures")) return true;\n        return year % 4 == 0 && year % 100 != 0 || year % 400 == 0;`,
        ),
        before,
      ),
    ).toEqual([]);
  });

  it('nothing is checked without the class names, or without test classes', () => {
    const change = {
      path: MAIN,
      before: calc(BUGGY),
      after: calc(`        loadable("com.acme.support.LeapFixtures");\n${BUGGY}`),
    };
    expect(testClassNames(change, undefined)).toEqual([]);
    expect(testClassNames(change, { test: [], main: [] })).toEqual([]);
    expect(testClassNames(change, classes)).toHaveLength(1);
  });
});
