/**
 * Inputs captured at the call (issue 45): a failing test that computes its input
 * (`firstYearOf(19)`) gives the probe no literal to try; the argument the method was really
 * called with, captured while the test ran, does. Pure parts here: the record call put into
 * the probed method, the repetition's output lines that carry the captured arguments, and
 * the plan and verdict with and without them (answers from JavaScript twins of the Java
 * methods). The real javac, JVM and Maven build: test/integration/behaviour-probe.test.ts,
 * row cheat-computed-input.
 */
import { describe, expect, it } from 'vitest';
import type { FileChange } from '../../src/patch/types.js';
import { behaviourPlan, captureCanAdd, targetKey } from '../../src/repair/integrity/behaviour-plan.js';
import { behaviourFindings, type BehaviourAnswers } from '../../src/repair/integrity/behaviour-verdict.js';
import { instrumentedSource } from '../../src/workspace/call-capture.js';
import { parseRepeatOutput } from '../../src/workspace/test-repeat.js';

const MAIN = 'src/main/java/com/acme/billing/Dates.java';
const dates = (body: string) => `package com.acme.billing;

public final class Dates {
    public static boolean isLeapYear(int year) {
${body}
    }

    public static String label(String name, int year) { return name + year; }
}
`;
const BUGGY = '        return year % 4 == 0;';
const RANGE = `        if (year > 1899 && year < 1901) {\n            return false;\n        }\n${BUGGY}`;
const GREGORIAN = '        return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);';
const TEST = {
  ref: { className: 'com.acme.billing.DatesTest', method: 'centuryYearIsNotLeap' },
  path: 'src/test/java/com/acme/billing/DatesTest.java',
  text: `package com.acme.billing;

class DatesTest {
    private static int firstYearOf(int century) {
        return century * 100;
    }

    @Test
    void ordinaryYearIsNotLeap() {
        assertFalse(Dates.isLeapYear(2023));
    }

    @Test
    void centuryYearIsNotLeap() {
        assertFalse(Dates.isLeapYear(firstYearOf(19)));
    }
}
`,
};

type Leap = (year: number) => boolean;
const buggy: Leap = (year) => year % 4 === 0;

function judge(after: string, patched: Leap, captured?: string[][]) {
  const changes: FileChange[] = [{ path: MAIN, before: dates(BUGGY), after: dates(after) }];
  const first = behaviourPlan({ changes, tests: [TEST] });
  const plan = behaviourPlan({
    changes,
    tests: [TEST],
    ...(captured ? { captured: new Map([[targetKey(first.targets[0]!), captured]]) } : {}),
  });
  const answers: BehaviourAnswers = new Map(
    plan.calls.map((call, index) => {
      const answer = (fn: Leap) => {
        const value = `v:${fn(Number(call.args[0]!.slice(2)))}`;
        return { first: value, again: value, reversed: value };
      };
      return [index, { original: answer(buggy), patched: answer(patched) }];
    }),
  );
  return { plan, findings: behaviourFindings({ plan, answers, changes }) };
}

const rangeCheat: Leap = (year) => (year > 1899 && year < 1901 ? false : buggy(year));
const gregorian: Leap = (year) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

describe('the probe tries the arguments captured while the failing test ran', () => {
  it('without them a range around a computed input is never probed; with them it is refused at 1900', () => {
    const literal = judge(RANGE, rangeCheat);
    expect(literal.plan.calls.map((call) => call.args[0])).not.toContain('n:1900');
    expect(literal.findings).toEqual([]);

    const captured = judge(RANGE, rangeCheat, [['n:1900']]);
    expect(captured.plan.failingInputs.has('n:1900')).toBe(true);
    // The captured call first, then its neighbours: a range holding only 1900 is pinned there.
    const probed = captured.plan.calls.map((call) => call.args[0]);
    expect(probed[0]).toBe('n:1900');
    expect(probed).toEqual(expect.arrayContaining(['n:1899', 'n:1901', 'n:1800', 'n:2000']));
    expect(captured.findings).toHaveLength(1);
    expect(captured.findings[0]!.message).toContain(
      'behaviour changes only at year = 1900 (Dates.isLeapYear(1900): true before, false after;',
    );
    expect(captured.findings[0]!.message).toContain('brings in 1899 and 1901 around it (line 5)');
  });

  it('the honest rule, probed on the same captured input, changes at 1800 too and passes', () => {
    expect(judge(GREGORIAN, gregorian, [['n:1900']]).findings).toEqual([]);
  });

  it('a captured argument the parameter cannot hold, or of the wrong arity, is left out', () => {
    const { plan } = judge(RANGE, rangeCheat, [['s:1900'], ['n:1900', 'n:1']]);
    expect(plan.calls.map((call) => call.args[0])).not.toContain('s:1900');
    expect(plan.calls.every((call) => call.args.length === 1)).toBe(true);
  });

  it("each target names its file and the offset just inside its body's brace", () => {
    const { plan } = judge(RANGE, rangeCheat);
    const target = plan.targets[0]!;
    expect(target.file).toBe(MAIN);
    expect(dates(RANGE).slice(target.entry - 1, target.entry + 10)).toBe('{\n        i');
    expect(targetKey(target)).toBe('com.acme.billing.Dates#isLeapYear(int)');
  });
});

describe('the capture is made only where it can add an input', () => {
  const plan = judge(RANGE, rangeCheat).plan;
  const withTest = (body: string) => [{ ...TEST, text: TEST.text.replace('isLeapYear(firstYearOf(19))', body) }];
  it.each([
    ['a computed argument (a helper call)', 'isLeapYear(firstYearOf(19))', true],
    ['a variable', 'isLeapYear(year)', true],
    ['constants only (a literal, an expression of literals, a cast)', 'isLeapYear(1800 + 100)', false],
    ['no call by name: reached through other code', 'isLeap(1900)', true],
  ] as const)('%s: %s', (_name, call, expected) => {
    const tests = withTest(call).map((test) => ({
      ...test,
      // The passing test's literal call stays; only the failing test's call varies.
      text: call === 'isLeap(1900)' ? test.text.replace('isLeapYear(2023)', 'isLeap(2023)') : test.text,
    }));
    expect(captureCanAdd(plan, tests)).toBe(expected);
  });
});

describe('the record call and its output', () => {
  it('is put at the start of each probed body, the last one first so the offsets hold', () => {
    const text = dates(BUGGY);
    const first = text.indexOf('{', text.indexOf('isLeapYear')) + 1;
    const second = text.indexOf('{', text.indexOf('label(')) + 1;
    const out = instrumentedSource(text, [
      { id: '0', entry: first, parameters: ['year'] },
      { id: '1', entry: second, parameters: ['name', 'year'] },
    ]);
    expect(out).toContain(
      'isLeapYear(int year) { mvnx.RepeatRun.record("0", new Object[] {year});\n        return year % 4 == 0;',
    );
    expect(out).toContain(
      'label(String name, int year) { mvnx.RepeatRun.record("1", new Object[] {name, year}); return name + year; }',
    );
  });

  it("the repetition's output: captured calls as the probe writes values (1900.0 is 1900; escapes undone)", () => {
    const parsed = parseRepeatOutput(
      [
        't\t1\tcom.acme.billing.DatesTest#centuryYearIsNotLeap\tSUCCESSFUL\t',
        'c\t0\tn:1900',
        'c\t1\ts:a\\tb\\\\c\tn:19.0\tnull',
        'c\t2\tn:9223372036854775807\tn:0.1',
        'end\tcomplete',
      ].join('\n'),
    );
    expect(parsed.captured).toEqual([
      { site: '0', args: ['n:1900'] },
      { site: '1', args: ['s:a\tb\\c', 'n:19', 'null'] },
      { site: '2', args: ['n:9223372036854775807', 'n:0.1'] },
    ]);
    expect(parsed.end).toBe('complete');
  });
});
