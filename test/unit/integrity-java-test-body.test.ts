/**
 * One test method compared before and after the patch (test-body.ts), through the entry the
 * engine uses (checkTestIntegrity): annotations on a failing test, which new assertion stands
 * in for which old one, the expected value that moved inside an assertion, assertions
 * commented out or only mentioned in a comment elsewhere, statements added before asserting,
 * and the statement alignment itself (differingRuns). Written from the survivors of the
 * mutation run (stryker/integrity-test-body.config.mjs).
 */
import { describe, expect, it } from 'vitest';
import { checkTestIntegrity, testWeakeningReason, type IntegrityFinding } from '../../src/repair/integrity/index.js';
import { differingRuns } from '../../src/repair/integrity/test-body.js';

const FILE = 'src/test/java/com/acme/calc/CalculatorTest.java';
const CLASS = 'com.acme.calc.CalculatorTest';
const TEST = `${CLASS}#multipliesTwoNumbers`;

/** A test class holding `method` (annotations and body) beside a test that is not touched. */
function source(method: string, before = '', after = ''): string {
  return `package com.acme.calc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

${before}class CalculatorTest {

    private final Calculator calc = new Calculator();

    @Test
    void addsTwoNumbers() {
        assertEquals(5, calc.add(2, 3));
    }

${method}
}
${after}`;
}

/**
 * The findings of the body comparison for `multipliesTwoNumbers` changed from `before` to
 * `after`. While a test fails the whole test side is read-only too (test-side-rule.ts): that
 * finding says nothing about the body and is left out here.
 */
function compare(
  before: string,
  after: string,
  options: { failed?: boolean; around?: [string, string] } = {},
): { findings: IntegrityFinding[]; rules: string[]; reason: string } {
  const [above, below] = options.around ?? ['', ''];
  const failed = options.failed ?? true;
  const verdict = checkTestIntegrity({
    changeSet: { files: [{ path: FILE, before: source(before, above, below), after: source(after, above, below) }] },
    failingTests: [{ className: CLASS, method: failed ? 'multipliesTwoNumbers' : 'addsTwoNumbers' }],
    policy: { allowFailingTestEdits: false },
  });
  const findings = verdict.blocking.filter((finding) => finding.rule !== 'test-side-changed');
  return { findings, rules: findings.map((finding) => finding.rule), reason: testWeakeningReason(findings) };
}

const method = (annotations: string, body: string) => `    ${annotations}
    void multipliesTwoNumbers() {
${body
  .split('\n')
  .map((line) => `        ${line}`)
  .join('\n')}
    }`;

const BODY = 'int product = calc.multiply(2, 3);\nassertEquals(6, product);';

describe('annotations on a test that failed', () => {
  it('reports an annotation added to the failing test, with its text', () => {
    const { rules, reason } = compare(method('@Test', BODY), method('@Test\n    @Tag("slow")', BODY));
    expect(rules).toEqual(['failing-test-changed']);
    expect(reason).toBe(`test-weakening: added \`@Tag("slow")\` to ${TEST}`);
  });

  it('reports an annotation removed from the failing test, at the line it stood on', () => {
    const { findings, reason } = compare(method('@Test\n    @Tag("slow")', BODY), method('@Test', BODY));
    expect(reason).toBe(`test-weakening: removed \`@Tag("slow")\` from ${TEST}`);
    expect(findings[0]?.line).toBe(19);
  });

  it('reports an annotation whose arguments changed once, as a change, not a removal and an addition', () => {
    const { rules, reason } = compare(method('@Test\n    @Timeout(1)', BODY), method('@Test\n    @Timeout(10)', BODY));
    expect(rules).toEqual(['failing-test-changed']);
    expect(reason).toBe(`test-weakening: changed \`@Timeout(1)\` to \`@Timeout(10)\` on ${TEST}`);
  });

  it('pairs a changed annotation only with one of the same name', () => {
    const { reason } = compare(method('@Test\n    @Tag("slow")', BODY), method('@Test\n    @Timeout(10)', BODY));
    expect(reason).toBe(`test-weakening: removed \`@Tag("slow")\` from ${TEST}; added \`@Timeout(10)\` to ${TEST}`);
  });

  it('does not report an annotation re-spaced', () => {
    expect(compare(method('@Test\n    @Timeout(1)', BODY), method('@Test\n    @Timeout( 1 )', BODY)).rules).toEqual([]);
  });

  it('leaves @Disabled to the disabling rule: one finding, not two', () => {
    expect(compare(method('@Test', BODY), method('@Test\n    @Disabled', BODY)).rules).toEqual(['test-disabled']);
  });

  it('lets a test that passed get a new annotation', () => {
    expect(compare(method('@Test', BODY), method('@Test\n    @Tag("slow")', BODY), { failed: false }).rules).toEqual(
      [],
    );
  });
});

describe('which new assertion stands in for a removed one', () => {
  it('pairs each removed assertion with the new one of the same name, whatever the order', () => {
    const before = 'int product = calc.multiply(2, 3);\nassertEquals(6, product);\nassertTrue(product > 0);';
    const after = 'int product = calc.multiply(2, 3);\nassertTrue(product > 1);\nassertEquals(7, product);';
    const { reason } = compare(method('@Test', before), method('@Test', after));
    expect(reason).toContain(`changed the expected value of \`assertEquals\` in ${TEST} from \`6\` to \`7\``);
    expect(reason).toContain(`changed \`assertTrue(product > 0)\` to \`assertTrue(product > 1)\` in ${TEST}`);
  });

  it('reports a delta changed with the expected value as a changed assertion, not a changed expected value', () => {
    const before = 'double product = calc.multiply(2, 3);\nassertEquals(6.0, product, 0.1);';
    const after = 'double product = calc.multiply(2, 3);\nassertEquals(7.0, product, 0.5);';
    expect(compare(method('@Test', before), method('@Test', after)).reason).toBe(
      `test-weakening: changed \`assertEquals(6.0, product, 0.1)\` to \`assertEquals(7.0, product, 0.5)\` in ${TEST}`,
    );
  });

  it('reports a delta added with another expected value as a changed assertion', () => {
    const before = 'double product = calc.multiply(2, 3);\nassertEquals(6.0, product);';
    const after = 'double product = calc.multiply(2, 3);\nassertEquals(7.0, product, 0.5);';
    expect(compare(method('@Test', before), method('@Test', after)).reason).toBe(
      `test-weakening: changed \`assertEquals(6.0, product)\` to \`assertEquals(7.0, product, 0.5)\` in ${TEST}`,
    );
  });

  it('names the matcher whose argument changed in a chain, and every argument of it', () => {
    const before =
      'java.util.List<Integer> products = calc.products();\nassertThat(products).hasSize(2).containsExactly(6, 9);';
    const after =
      'java.util.List<Integer> products = calc.products();\nassertThat(products).hasSize(2).containsExactly(6, 8);';
    expect(compare(method('@Test', before), method('@Test', after)).reason).toBe(
      `test-weakening: changed the expected value of \`assertThat(...).containsExactly\` in ${TEST} from \`6, 9\` to \`6, 8\``,
    );
  });

  it('finds the changed matcher before an unchanged one at the end of the chain', () => {
    const before = 'java.util.List<Integer> products = calc.products();\nassertThat(products).hasSize(2).contains(6);';
    const after = 'java.util.List<Integer> products = calc.products();\nassertThat(products).hasSize(3).contains(6);';
    expect(compare(method('@Test', before), method('@Test', after)).reason).toBe(
      `test-weakening: changed the expected value of \`assertThat(...).hasSize\` in ${TEST} from \`2\` to \`3\``,
    );
  });

  it('compares the subject of a chain without its white space', () => {
    const before = 'assertThat(calc.multiply(2, 3) + 0).isEqualTo(6);';
    const after = 'assertThat(calc.multiply(2,3)+0).isEqualTo(7);';
    expect(compare(method('@Test', before), method('@Test', after)).reason).toBe(
      `test-weakening: changed the expected value of \`assertThat(...).isEqualTo\` in ${TEST} from \`6\` to \`7\``,
    );
  });

  it('does not call a changed subject a changed expected value', () => {
    const before = 'assertThat(calc.multiply(2, 3)).isEqualTo(6);';
    const after = 'assertThat(calc.multiply(3, 2)).isEqualTo(7);';
    expect(compare(method('@Test', before), method('@Test', after)).reason).toBe(
      `test-weakening: changed \`assertThat(calc.multiply(2, 3)).isEqualTo(6)\` to \`assertThat(calc.multiply(3, 2)).isEqualTo(7)\` in ${TEST}`,
    );
  });

  it('does not call another matcher a changed expected value', () => {
    const before = 'assertThat(calc.multiply(2, 3)).isEqualTo(6);';
    const after = 'assertThat(calc.multiply(2, 3)).isNotEqualTo(7);';
    expect(compare(method('@Test', before), method('@Test', after)).reason).toBe(
      `test-weakening: changed \`assertThat(calc.multiply(2, 3)).isEqualTo(6)\` to \`assertThat(calc.multiply(2, 3)).isNotEqualTo(7)\` in ${TEST}`,
    );
  });

  it('reports a chain that lost a matcher as a changed assertion', () => {
    const before = 'assertThat(calc.multiply(2, 3)).isPositive().isEqualTo(6);';
    const after = 'assertThat(calc.multiply(2, 3)).isEqualTo(6);';
    expect(compare(method('@Test', before), method('@Test', after)).reason).toBe(
      `test-weakening: changed \`assertThat(calc.multiply(2, 3)).isPositive().isEqualTo(6)\` to \`assertThat(calc.multiply(2, 3)).isEqualTo(6)\` in ${TEST}`,
    );
  });
});

describe('an assertion that is gone: commented out or deleted', () => {
  const before = 'String url = calc.home();\nassertEquals("h://a/*b*/", url);';

  it('reads a line comment holding `//`, `/*` and `*/` inside the assertion as the assertion commented out', () => {
    const after = 'String url = calc.home();\n// assertEquals("h://a/*b*/", url);';
    expect(compare(method('@Test', before), method('@Test', after)).reason).toBe(
      `test-weakening: commented out \`assertEquals("h://a/*b*/", url)\` in ${TEST}`,
    );
  });

  it('calls it deleted when only a comment above the method holds its text', () => {
    const after = 'String url = calc.home();';
    const around: [string, string] = ['// assertEquals("h://a/*b*/", url);\n', ''];
    expect(compare(method('@Test', before), method('@Test', after), { around }).reason).toBe(
      `test-weakening: deleted \`assertEquals("h://a/*b*/", url)\` from ${TEST}`,
    );
  });

  it('calls it deleted when only a comment below the class holds its text', () => {
    const after = 'String url = calc.home();';
    const around: [string, string] = ['', '// assertEquals("h://a/*b*/", url);\n'];
    expect(compare(method('@Test', before), method('@Test', after), { around }).reason).toBe(
      `test-weakening: deleted \`assertEquals("h://a/*b*/", url)\` from ${TEST}`,
    );
  });
});

describe('what the failing test does before asserting', () => {
  it('quotes two changed statements joined by one space, each on one line', () => {
    const before =
      'int product =\n        calc.multiply(2, 3);\nint square = calc.multiply(3, 3);\nassertEquals(6, product);';
    const after =
      'int product =\n        calc.multiply(3, 2);\nint square = calc.multiply(3, 4);\nassertEquals(6, product);';
    expect(compare(method('@Test', before), method('@Test', after)).reason).toBe(
      `test-weakening: changed \`int product = calc.multiply(2, 3); int square = calc.multiply(3, 3);\` to \`int product = calc.multiply(3, 2); int square = calc.multiply(3, 4);\` in ${TEST}`,
    );
  });

  it('quotes a change of exactly 100 characters whole', () => {
    const text = (digit: string) => `String label = "${digit.repeat(82)}";`;
    expect(text('a')).toHaveLength(100);
    const { reason } = compare(method('@Test', `${text('a')}\n${BODY}`), method('@Test', `${text('b')}\n${BODY}`));
    expect(reason).toBe(`test-weakening: changed \`${text('a')}\` to \`${text('b')}\` in ${TEST}`);
  });

  it('quotes the part that differs when the old statement is longer than 100 characters', () => {
    const long = `String label = "${'a'.repeat(84)}";`;
    const { reason } = compare(method('@Test', `${long}\n${BODY}`), method('@Test', `String label = "a";\n${BODY}`));
    expect(reason).toMatch(
      new RegExp(`^test-weakening: changed \`String label = "a{40,}\\.\\.\\.\` in ${TEST.replace('.', '\\.')}: `),
    );
  });

  it('quotes the part that differs when the new statement is longer than 100 characters', () => {
    const long = `String label = "${'a'.repeat(84)}";`;
    const { reason } = compare(method('@Test', `String label = "a";\n${BODY}`), method('@Test', `${long}\n${BODY}`));
    expect(reason).toMatch(
      new RegExp(`^test-weakening: changed \`String label = "a";\` in ${TEST.replace('.', '\\.')}: `),
    );
  });

  it('welcomes a new assert statement and a new assertion call', () => {
    expect(
      compare(method('@Test', BODY), method('@Test', `${BODY}\nassert product > 0;\nassertTrue(product > 1);`)).rules,
    ).toEqual([]);
  });

  it('reports a new declaration and a call that only contains an assertion', () => {
    const after = `${BODY}\nint extra = calc.add(1, 1);\njava.util.List.of(product).forEach(p -> assertTrue(p > 0));`;
    expect(compare(method('@Test', BODY), method('@Test', after)).reason).toBe(
      `test-weakening: added \`int extra = calc.add(1, 1);\` to ${TEST}; added \`java.util.List.of(product).forEach(p -> assertTrue(p > 0));\` to ${TEST}`,
    );
  });

  it.each(['assumeTrue(product > 0);', 'assumeTrue (product > 0);'])(
    'leaves a new `%s` to the assumption rule',
    (assumption) => {
      expect(compare(method('@Test', BODY), method('@Test', `${BODY}\n${assumption}`)).rules).toEqual([
        'assumption-added',
      ]);
    },
  );
});

describe('a test that passed', () => {
  it('may move an assertion while another stays swallowed as it was', () => {
    const before =
      'int sum = calc.add(2, 3);\nassertEquals(5, sum);\nint diff = calc.subtract(3, 2);\ntry { assertEquals(1, diff); } catch (AssertionError ignored) { }';
    const after =
      'int sum = calc.add(2, 3);\nint diff = calc.subtract(3, 2);\nassertEquals(5, sum);\ntry { assertEquals(1, diff); } catch (AssertionError ignored) { }';
    expect(compare(method('@Test', before), method('@Test', after), { failed: false }).rules).toEqual([]);
  });
});

describe('an abstract test method', () => {
  it('is compared without a body on either side', () => {
    const abstractClass = (body: string) =>
      source(
        `    @Test\n    abstract void multipliesTwoNumbers();\n\n    @Test\n    void dividesTwoNumbers() {\n        ${body}\n    }`,
      ).replace('class CalculatorTest', 'abstract class CalculatorTest');
    const verdict = checkTestIntegrity({
      changeSet: {
        files: [
          {
            path: FILE,
            before: abstractClass('assertEquals(2, calc.divide(4, 2));'),
            after: abstractClass('assertEquals(3, calc.divide(4, 2));'),
          },
        ],
      },
      failingTests: [{ className: CLASS, method: 'dividesTwoNumbers' }],
      policy: { allowFailingTestEdits: false },
    });
    expect(verdict.blocking.map((finding) => finding.rule)).toEqual(['assertion-changed']);
  });
});

describe('differingRuns: the statements that differ, in runs', () => {
  it('gives nothing for equal lists', () => {
    expect(differingRuns(['a', 'b'], ['a', 'b'])).toEqual([]);
  });

  it('gives a replaced statement as one run', () => {
    expect(differingRuns(['a', 'b', 'c'], ['a', 'x', 'c'])).toEqual([{ removed: [1], added: [1] }]);
  });

  it('gives statements added at the end', () => {
    expect(differingRuns(['a'], ['a', 'b'])).toEqual([{ removed: [], added: [1] }]);
  });

  it('gives a statement removed at the start alone', () => {
    expect(differingRuns(['a', 'b'], ['b'])).toEqual([{ removed: [0], added: [] }]);
  });

  it('keeps the later statement when two swap places, and adds before it removes', () => {
    expect(differingRuns(['a', 'b'], ['b', 'a'])).toEqual([
      { removed: [], added: [0] },
      { removed: [1], added: [] },
    ]);
  });

  it('aligns on the longest common run', () => {
    expect(differingRuns(['x', 'a', 'b', 'c'], ['a', 'b', 'y', 'c'])).toEqual([
      { removed: [0], added: [] },
      { removed: [], added: [2] },
    ]);
  });
});
