/**
 * What counts as an assertion, which one cannot fail, which catch swallows one (assertions.ts),
 * through the same entry the engine uses (checkTestIntegrity): each way of writing an
 * assertion that passes whatever the code does must be refused as `assertion-weakened` with
 * its reason, and each look-alike that can still fail must not be called that. Written from
 * the survivors of the mutation run (stryker/integrity-assertions.config.mjs).
 */
import { describe, expect, it } from 'vitest';
import type { ChangeSet } from '../../src/patch/types.js';
import { checkTestIntegrity, testWeakeningReason, type FailingTestRef } from '../../src/repair/integrity/index.js';

const TEST_FILE = 'src/test/java/com/acme/calc/CalculatorTest.java';

const SOURCE = `package com.acme.calc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class CalculatorTest {

    private final Calculator calc = new Calculator();

    @Test
    void addsTwoNumbers() {
        int sum = calc.add(2, 3);
        assertEquals(5, sum);
    }

    @Test
    void multipliesTwoNumbers() {
        int product = calc.multiply(2, 3);
        assertEquals(6, product);
    }
}
`;

const FAILING: FailingTestRef[] = [{ className: 'com.acme.calc.CalculatorTest', method: 'multipliesTwoNumbers' }];
const FAILING_ASSERTION = 'assertEquals(6, product);';
const PASSING_ASSERTION = 'assertEquals(5, sum);';

function replaced(from: string, to: string, source = SOURCE): ChangeSet {
  if (!source.includes(from)) throw new Error(`fixture does not contain ${JSON.stringify(from)}`);
  return { files: [{ path: TEST_FILE, before: source, after: source.replace(from, to) }] };
}

/** With `failing` empty (a compile-error repair) the test side is not read-only: every test is one that passed. */
function check(changeSet: ChangeSet, failing = FAILING) {
  const verdict = checkTestIntegrity({ changeSet, failingTests: failing, policy: { allowFailingTestEdits: false } });
  return { rules: verdict.blocking.map((finding) => finding.rule), reason: testWeakeningReason(verdict.blocking) };
}

/** Each passes whatever the code under test does. */
const CANNOT_FAIL = [
  'assertTrue(Boolean.TRUE);',
  'assertFalse(false);',
  'assertFalse(Boolean.FALSE);',
  'assertNull(null);',
  'assertNotNull("6");',
  'assertNotNull(new Object());',
  'assertNotNull(6);',
  'assertDoesNotThrow(() -> {});',
  'assertDoesNotThrow(() -> { });',
  'assertSame(product, product);',
  'assertArrayEquals(new int[] {product}, new int[] {product});',
  'assertIterableEquals(java.util.List.of(product), java.util.List.of(product));',
  'assertEquals(product, product, "the product");',
  'assertEquals(product * 1, product*1);',
  'assertThat(product * 1).isEqualTo(product*1);',
  'assertThat(true).isTrue();',
  'assertThat(false).isFalse();',
  'then(true).isTrue();',
  'assertThat(product).isEqualTo(product);',
  'assertThat(6).isEqualTo(6);',
  'assert true;',
  'assert true : "always";',
  'Assertions.assertTrue(true);',
  'org.junit.jupiter.api.Assertions.assertTrue(true);',
];

/** Each can fail (a real check of the product, or a wrong but not vacuous one), or is a form the check does not judge vacuous: it names the two-call AssertJ forms only. */
const CAN_FAIL = [
  'assertTrue(product == 6);',
  'assertTrue(Boolean.valueOf(product == 6));',
  'assertFalse(product != 6);',
  'assertFalse(true);',
  'assertNull(calc.lastError());',
  'assertNotNull(calc.lastResult());',
  'assertNotNull(newest(product));',
  'assertNotNull(d6(product));',
  'assertDoesNotThrow(() -> calc.multiply(2, 3));',
  'assertDoesNotThrow(() -> { calc.multiply(2, 3); });',
  'assertSame(6, product);',
  'assertArrayEquals(new int[] {6}, new int[] {product});',
  'assertNotEquals(product, product);',
  'assertThat(product == 6).isTrue();',
  'assertThat(true).isFalse();',
  'assertThat(false).isTrue();',
  'assertThat(product != 6).isFalse();',
  'assertThat(product).isEqualTo(6);',
  'assertThat(true).isNotNull().isTrue();',
  'assertThat(product).isNotNull().isEqualTo(product);',
  'assertThat(product).isNotEqualTo(product);',
  'assertThat(product).isEqualTo();',
  'assertThat(true, is(true));',
  'assert product == 6;',
  'assert product == 6 : "true";',
  'assert truth;',
];

describe('an assertion that cannot fail replacing the failing one is refused as weakened', () => {
  it.each(CANNOT_FAIL)('%s', (replacement) => {
    const { rules, reason } = check(replaced(FAILING_ASSERTION, replacement));
    expect(rules).toEqual(['assertion-weakened']);
    expect(reason).toBe(
      `test-weakening: replaced \`assertEquals(6, product)\` in com.acme.calc.CalculatorTest#multipliesTwoNumbers by \`${replacement.replace(/;$/, '').replace(/^assert true( : "always")?$/, 'assert true$1;')}\`, which cannot fail`,
    );
  });
});

describe('an assertion that can fail is not called one that cannot', () => {
  // The failing test: still refused (the test side is read-only while it fails), as a change, never as "cannot fail".
  it.each(CAN_FAIL)('in the failing test, %s is a changed assertion', (replacement) => {
    const { rules, reason } = check(replaced(FAILING_ASSERTION, replacement));
    expect(rules).not.toContain('assertion-weakened');
    expect(rules.length).toBeGreaterThan(0);
    expect(reason).not.toContain('cannot fail');
  });

  // A test that passed may be refactored into another assertion of the same value (a compile-error
  // repair, no test failing: the test side is not read-only): nothing to refuse.
  it.each([
    'assertTrue(sum == 5);',
    'assertNotNull(calc.lastResult());',
    'assertThat(sum).isEqualTo(5);',
    'assertThat(sum == 5).isTrue();',
    'assert sum == 5;',
    'assertNotNull(newest(sum));',
  ])('in a test that passed, %s is a refactoring', (replacement) => {
    expect(check(replaced(PASSING_ASSERTION, replacement), []).rules).toEqual([]);
  });
});

describe('a test that passed may be refactored, but not given an assertion that cannot fail', () => {
  it.each([
    'assertTrue(true);',
    'assertThat(sum).isEqualTo(sum);',
    'assert true;',
    'assertNotNull(new Object());',
    'assertNotNull(new int[] {sum});',
    'assertNotNull("5");',
  ])('%s is refused as weakened', (replacement) => {
    const { rules, reason } = check(replaced(PASSING_ASSERTION, replacement), []);
    expect(rules).toEqual(['assertion-weakened']);
    expect(reason).toContain('in com.acme.calc.CalculatorTest#addsTwoNumbers (a test that passed) by `');
  });

  // Found by the mutation run: the argument was tested with its white space taken out, so
  // `new Object()` read `newObject()` and did not count as a value that is never null. In a
  // test that passed, a replacement by another assertion is a refactoring unless it cannot
  // fail, so this weakening went through; tests.allowFailingTestEdits then let it be verified.
  it('assertNotNull(new Object()) replacing the assertion of a test that passed is blocking even under tests.allowFailingTestEdits', () => {
    const verdict = checkTestIntegrity({
      changeSet: replaced(PASSING_ASSERTION, 'assertNotNull(new Object());'),
      failingTests: FAILING,
      policy: { allowFailingTestEdits: true },
    });
    expect(verdict.blocking.map((finding) => finding.rule)).toEqual(['assertion-weakened']);
    expect(testWeakeningReason(verdict.blocking)).toBe(
      'test-weakening: replaced `assertEquals(5, sum)` in com.acme.calc.CalculatorTest#addsTwoNumbers (a test that passed) by `assertNotNull(new Object())`, which cannot fail',
    );
  });
});

describe('what counts as an assertion', () => {
  it('a call on a value named like an assertion is not one: deleting it from the failing test is a change, not a deleted assertion', () => {
    const source = SOURCE.replace(
      'int product = calc.multiply(2, 3);',
      'int product = calc.multiply(2, 3);\n        calc.verify();',
    );
    const { rules, reason } = check(replaced('        calc.verify();\n', '', source));
    expect(rules).toEqual(['failing-test-changed']);
    expect(reason).toBe(
      'test-weakening: deleted `calc.verify();` in com.acme.calc.CalculatorTest#multipliesTwoNumbers',
    );
  });

  it.each(['checkCalc.verify();', 'Registry.calc.verify();', 'calc.assertValid();'])(
    '%s, a call on a value, deleted from the failing test is a change of what it does, not a deleted assertion',
    (call) => {
      const source = SOURCE.replace(
        'int product = calc.multiply(2, 3);',
        `int product = calc.multiply(2, 3);\n        ${call}`,
      );
      const { rules, reason } = check(replaced(`        ${call}\n`, '', source));
      expect(rules).toEqual(['failing-test-changed']);
      expect(reason).toBe(`test-weakening: deleted \`${call}\` in com.acme.calc.CalculatorTest#multipliesTwoNumbers`);
    },
  );

  it('two assertions deleted are named in source order, the assert statement first when it comes first', () => {
    const source = SOURCE.replace(FAILING_ASSERTION, 'assert product > 0;\n        assertEquals(6, product);');
    const { rules, reason } = check(
      replaced('assert product > 0;\n        assertEquals(6, product);', 'calc.reset();', source),
    );
    expect(rules).toEqual(['assertion-removed', 'assertion-removed']);
    expect(reason).toBe(
      'test-weakening: deleted `assert product > 0;` from com.acme.calc.CalculatorTest#multipliesTwoNumbers; deleted `assertEquals(6, product)` from com.acme.calc.CalculatorTest#multipliesTwoNumbers',
    );
  });

  it('an assertion written over several lines is quoted on one', () => {
    const source = SOURCE.replace(FAILING_ASSERTION, 'assertEquals(6,\n                product);');
    const { reason } = check(replaced('        assertEquals(6,\n                product);\n', '', source));
    expect(reason).toBe(
      'test-weakening: deleted `assertEquals(6, product)` from com.acme.calc.CalculatorTest#multipliesTwoNumbers',
    );
  });

  it.each([
    ['Assertions.assertEquals(6, product);', 'Assertions.assertEquals(6, product)'],
    [
      'org.junit.jupiter.api.Assertions.assertEquals(6, product);',
      'org.junit.jupiter.api.Assertions.assertEquals(6, product)',
    ],
    ['Mockito.verify(calc).multiply(2, 3);', 'Mockito.verify(calc).multiply(2, 3)'],
    ['assert product == 6 : "six";', 'assert product == 6 : "six";'],
  ])('a qualified assertion %s deleted from the failing test is a deleted assertion', (assertion, quoted) => {
    const source = SOURCE.replace(FAILING_ASSERTION, assertion);
    const { rules, reason } = check(replaced(`        ${assertion}\n`, '', source));
    expect(rules).toEqual(['assertion-removed']);
    expect(reason).toBe(`test-weakening: deleted \`${quoted}\` from com.acme.calc.CalculatorTest#multipliesTwoNumbers`);
  });

  it('a chain counts once, with its matchers: changing the second matcher is a changed expected value', () => {
    const source = SOURCE.replace(FAILING_ASSERTION, 'assertThat(product).isPositive().isEqualTo(6);');
    const { rules, reason } = check(replaced('.isEqualTo(6);', '.isEqualTo(5);', source));
    expect(rules).toEqual(['assertion-changed']);
    expect(reason).toBe(
      'test-weakening: changed the expected value of `assertThat(...).isEqualTo` in com.acme.calc.CalculatorTest#multipliesTwoNumbers from `6` to `5`',
    );
  });

  it('two assertions on one line are two: deleting the second is found, the first kept', () => {
    const source = SOURCE.replace(FAILING_ASSERTION, 'assertEquals(6, product); assertTrue(product > 0);');
    const { rules, reason } = check(replaced(' assertTrue(product > 0);', '', source));
    expect(rules).toEqual(['assertion-removed']);
    expect(reason).toBe(
      'test-weakening: deleted `assertTrue(product > 0)` from com.acme.calc.CalculatorTest#multipliesTwoNumbers',
    );
  });
});

describe('a failure message is not what an assertion checks', () => {
  it.each([
    ['assertEquals(6, product, "2 * 3");', 'assertEquals(6, product, "2 * 3 = " + product);'],
    ['assertEquals(6, product, String.format("%d", product));', 'assertEquals(6, product, "product");'],
    ['assertTrue(product == 6, "six");', 'assertTrue(product == 6, "six, " + product);'],
    ['assertThat(product).as("six").isEqualTo(6);', 'assertThat(product).describedAs("the product").isEqualTo(6);'],
    [
      'assertThat(product).withFailMessage("six").isEqualTo(6);',
      'assertThat(product).overridingErrorMessage("six!").isEqualTo(6);',
    ],
  ])(
    'a failing test whose %s becomes %s: only the message changed, and the test side rule says so',
    (before, after) => {
      const source = SOURCE.replace(FAILING_ASSERTION, before);
      const verdict = checkTestIntegrity({
        changeSet: replaced(before, after, source),
        failingTests: FAILING,
        policy: { allowFailingTestEdits: false },
      });
      expect(verdict.blocking.map((finding) => finding.rule)).toEqual(['test-side-changed']);
    },
  );

  it('a string that is the expected value, not a message: assertEquals(text, "6") -> assertEquals(text, "5") changed the expected value', () => {
    const source = SOURCE.replace(FAILING_ASSERTION, 'assertEquals(String.valueOf(product), "6");');
    const { rules, reason } = check(replaced('"6");', '"5");', source));
    expect(rules).toEqual(['assertion-changed']);
    expect(reason).toBe(
      'test-weakening: changed `assertEquals(String.valueOf(product), "6")` to `assertEquals(String.valueOf(product), "5")` in com.acme.calc.CalculatorTest#multipliesTwoNumbers',
    );
  });

  it('the message of a three-argument assertEquals is not the expected value: changing the tolerance is', () => {
    const source = SOURCE.replace(FAILING_ASSERTION, 'assertEquals(6.0, product, 0.001, "six");');
    const { rules, reason } = check(replaced('0.001, "six"', '1.0, "six"', source));
    expect(rules).toEqual(['assertion-changed']);
    expect(reason).toBe(
      'test-weakening: changed `assertEquals(6.0, product, 0.001, "six")` to `assertEquals(6.0, product, 1.0, "six")` in com.acme.calc.CalculatorTest#multipliesTwoNumbers',
    );
  });

  it.each([
    [
      'a custom assertion whose last argument is a string',
      'assertJson(String.valueOf(product), "6");',
      'assertJson(String.valueOf(product), "5");',
    ],
    [
      'assertTrue whose only argument starts with a string',
      'assertTrue("6".equals(String.valueOf(product)));',
      'assertTrue("5".equals(String.valueOf(product)));',
    ],
    [
      'assertEquals whose arguments move across the comma',
      'assertEquals(18, 3 * product);',
      'assertEquals(1, 83 * product);',
    ],
  ])('%s: changing it is a changed assertion', (_name, before, after) => {
    const source = SOURCE.replace(FAILING_ASSERTION, before);
    const { rules, reason } = check(replaced(before, after, source));
    expect(rules).toEqual(['assertion-changed']);
    expect(reason).toBe(
      `test-weakening: changed \`${before.replace(/;$/, '')}\` to \`${after.replace(/;$/, '')}\` in com.acme.calc.CalculatorTest#multipliesTwoNumbers`,
    );
  });

  it('white space inside an argument is no change: a failing test with a compile error of its own may be reformatted', () => {
    const source = SOURCE.replace(FAILING_ASSERTION, 'assertEquals(6, calc.multiply(2, 3));');
    const changeSet = replaced(
      'assertEquals(6, calc.multiply(2, 3));',
      'assertEquals(6, calc.multiply( 2,3 ));',
      source,
    );
    const verdict = checkTestIntegrity({
      changeSet,
      failingTests: FAILING,
      policy: { allowFailingTestEdits: false },
      compileErrorFiles: new Set([TEST_FILE]),
    });
    expect(verdict.blocking).toEqual([]);
    expect(verdict.allowedFailingTestEdits.map((finding) => finding.rule)).toEqual(['test-side-changed']);
  });

  it('a message added to a passing test while its expected value changes does not hide the change', () => {
    const { rules, reason } = check(replaced(PASSING_ASSERTION, 'assertEquals(4, sum, String.format("sum %d", sum));'));
    expect(rules).toEqual(['assertion-changed']);
    expect(reason).toContain('from `5` to `4`');
  });
});

describe('a catch that swallows the failing assertion', () => {
  const wrapped = (type: string, body = '') =>
    `try {\n            ${FAILING_ASSERTION}\n        } catch (${type} e) {${body}}`;

  it.each([
    'Throwable',
    'java.lang.Throwable',
    'Error',
    'AssertionError',
    'java.lang.AssertionError',
    'Exception',
    'RuntimeException',
    'org.opentest4j.AssertionFailedError',
    'AssertionFailedError',
    'org.junit.ComparisonFailure',
    'org.opentest4j.MultipleFailuresError',
    'IllegalStateException | AssertionError',
  ])('catch (%s e) {} is refused as swallowed', (type) => {
    const { rules, reason } = check(replaced(FAILING_ASSERTION, wrapped(type)));
    expect(rules).toEqual(['assertion-swallowed']);
    expect(reason).toBe(
      `test-weakening: wrapped \`assertEquals(6, product)\` in com.acme.calc.CalculatorTest#multipliesTwoNumbers in a try block whose \`catch (${type} e) {}\` swallows its failure`,
    );
  });

  it.each([
    ['a narrow exception', wrapped('IllegalStateException')],
    ['a type whose name only contains Error', wrapped('MyErrorHandler')],
    ['a type ending in Exception that is not Exception', wrapped('java.io.IOException')],
    ['a catch that rethrows', wrapped('Throwable', ' throw new IllegalStateException(e); ')],
    ['a catch that fails', wrapped('AssertionError', ' fail("unexpected: " + e); ')],
    ['a catch that asserts', wrapped('Exception', ' assertEquals(6, product); ')],
  ])('%s does not swallow the failure', (_name, replacement) => {
    const { rules, reason } = check(replaced(FAILING_ASSERTION, replacement));
    expect(rules).not.toContain('assertion-swallowed');
    expect(reason).not.toContain('swallows');
  });

  it('an assertion outside the try is not swallowed by its catch', () => {
    const replacement = `try {\n            calc.reset();\n        } catch (Throwable e) {}\n        ${FAILING_ASSERTION}`;
    expect(check(replaced(FAILING_ASSERTION, replacement)).rules).not.toContain('assertion-swallowed');
  });

  it('a catch body over several lines is quoted on one, whole up to 100 characters', () => {
    const exactly100 = ` System.out.println("${'x'.repeat(73)}"); `;
    expect(check(replaced(FAILING_ASSERTION, wrapped('Throwable', exactly100))).reason).toContain(
      `whose \`catch (Throwable e) {${exactly100}}\` swallows`,
    );
    const multiLine = '\n            System.out.println(e);\n        ';
    expect(check(replaced(FAILING_ASSERTION, wrapped('Throwable', multiLine))).reason).toContain(
      'whose `catch (Throwable e) { System.out.println(e); }` swallows',
    );
  });

  it('the catch body is quoted on one line, shortened past 100 characters', () => {
    const longBody = ` System.out.println("${'x'.repeat(120)}"); `;
    const { reason } = check(replaced(FAILING_ASSERTION, wrapped('Throwable', longBody)));
    const quoted = /whose `(catch \(Throwable e\) [^`]*)` swallows/.exec(reason)?.[1];
    expect(quoted).toBe(`catch (Throwable e) { System.out.println("${'x'.repeat(75)}...`);
  });
});

// Written from the survivors of the second run (after the tests above).
describe('the last edges of what an assertion is', () => {
  it('two assertions deleted in one statement are named in source order, the assert statement first', () => {
    const block =
      'if (product > 0) {\n            assert product > 1;\n            assertEquals(6, product);\n        }';
    const source = SOURCE.replace(FAILING_ASSERTION, block);
    const { rules, reason } = check(replaced(block, 'calc.reset();', source));
    expect(rules).toEqual(['assertion-removed', 'assertion-removed']);
    expect(reason).toBe(
      'test-weakening: deleted `assert product > 1;` from com.acme.calc.CalculatorTest#multipliesTwoNumbers; deleted `assertEquals(6, product)` from com.acme.calc.CalculatorTest#multipliesTwoNumbers',
    );
  });

  it.each(['verify(calc).multiply(2, 3);', 'assertThat(false).isNotNull().isFalse();', 'verifyThat(true).isTrue();'])(
    '%s replacing the failing assertion is a change, not one that cannot fail',
    (replacement) => {
      const { rules, reason } = check(replaced(FAILING_ASSERTION, replacement));
      expect(rules).toEqual(['assertion-changed']);
      expect(reason).toBe(
        `test-weakening: replaced \`assertEquals(6, product)\` in com.acme.calc.CalculatorTest#multipliesTwoNumbers by \`${replacement.replace(/;$/, '')}\``,
      );
    },
  );

  it('an assertion moved next to a try/catch, not into it, is not swallowed', () => {
    const moved =
      'try {\n            calc.reset();\n        } catch (Throwable e) {\n        }\n        if (product > 0) {\n            assertEquals(6, product);\n        }';
    const { rules, reason } = check(replaced(FAILING_ASSERTION, moved));
    expect(rules).toEqual(['failing-test-changed']);
    expect(reason).not.toContain('swallows');
  });
});
