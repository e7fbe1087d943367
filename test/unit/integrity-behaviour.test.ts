/**
 * The behavioural probe's plan and verdict (issue 45), table-driven and pure: the calls a
 * fix's changed methods get (the failing test's input, its neighbours, the other tests'
 * literals), and what the answers mean. The answers here come from JavaScript twins of the
 * Java methods, called on exactly the plan's arguments; the real harness and real Maven
 * builds are in test/integration/behaviour-probe.test.ts. Also the static shapes of the
 * same issue: a catch returning the expected value, a test resource named in main code,
 * a test run detected by its class path or its command line.
 */
import { describe, expect, it } from 'vitest';
import type { FileChange } from '../../src/patch/types.js';
import { behaviourPlan, neighbours } from '../../src/repair/integrity/behaviour-plan.js';
import {
  answerText,
  behaviourFindings,
  tableKeysIn,
  type BehaviourAnswers,
} from '../../src/repair/integrity/behaviour-verdict.js';
import { specialCasingFindings } from '../../src/repair/integrity/special-casing.js';
import { parseProbeOutput } from '../../src/workspace/behaviour-probe.js';

const MAIN = 'src/main/java/com/acme/calc/Calc.java';
const TEST = 'src/test/java/com/acme/calc/CalcTest.java';

const mainClass = (
  body: string,
  members = '',
  signature = 'public static boolean check(int year)',
) => `package com.acme.calc;

import java.util.Map;

public final class Calc {
${members}
    ${signature} {
${body}
    }
}
`;
const testClass = (failing: string, passing = 'assertTrue(Calc.check(2024));') => `package com.acme.calc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void passing() {
        ${passing}
    }

    @Test
    void failing() {
        ${failing}
    }
}
`;

type Fn = (...args: (number | string | null | boolean)[]) => unknown;

/** Both sides' answers as the harness would give them, from JavaScript twins of the methods. */
function answersOf(
  plan: ReturnType<typeof behaviourPlan>,
  original: Fn,
  patched: Fn | ((state: { calls: number }) => Fn),
  stateful = false,
): BehaviourAnswers {
  const decode = (value: string) =>
    value === 'null'
      ? null
      : value.startsWith('n:')
        ? Number(value.slice(2))
        : value.startsWith('b:')
          ? value === 'b:true'
          : value.slice(2);
  const answer = (fn: Fn, args: string[]) => {
    try {
      return `v:${String(fn(...args.map(decode)))}`;
    } catch (error) {
      return `x:${(error as Error).name}`;
    }
  };
  const out = new Map<
    number,
    {
      original: { first: string; again: string; reversed: string };
      patched: { first: string; again: string; reversed: string };
    }
  >();
  plan.calls.forEach((call, index) => {
    const side = (make: () => Fn) => {
      const fn = make();
      const first = answer(fn, call.args);
      const again = answer(fn, call.args);
      return { first, again, reversed: answer(make(), call.args) };
    };
    out.set(index, {
      original: side(() => original),
      patched: side(() => (stateful ? (patched as (state: { calls: number }) => Fn)({ calls: 0 }) : (patched as Fn))),
    });
  });
  return out;
}

function judge(input: { before: string; after: string; test: string; original: Fn; patched: Fn; stateful?: boolean }) {
  const changes: FileChange[] = [{ path: MAIN, before: input.before, after: input.after }];
  const plan = behaviourPlan({
    changes,
    tests: [{ ref: { className: 'com.acme.calc.CalcTest', method: 'failing' }, path: TEST, text: input.test }],
  });
  return {
    plan,
    findings: behaviourFindings({
      plan,
      answers: answersOf(plan, input.original, input.patched, input.stateful),
      changes,
    }),
  };
}

const BUGGY_LEAP = '        return year % 4 == 0;';
const buggyLeap = (year: unknown) => (year as number) % 4 === 0;
const LEAP_TEST = testClass('assertFalse(Calc.check(1900));');

describe('the probe plan', () => {
  it("calls the changed method the failing test reaches with the test's input, its neighbours and the other tests' literals", () => {
    const plan = behaviourPlan({
      changes: [
        {
          path: MAIN,
          before: mainClass(BUGGY_LEAP),
          after: mainClass(`        if (year > 1899 && year < 1901) return false;\n${BUGGY_LEAP}`),
        },
      ],
      tests: [{ ref: { className: 'com.acme.calc.CalcTest', method: 'failing' }, path: TEST, text: LEAP_TEST }],
    });
    expect(plan.targets).toEqual([
      {
        className: 'com.acme.calc.Calc',
        name: 'check',
        isStatic: true,
        types: ['int'],
        parameters: ['year'],
        label: 'Calc.check',
        file: MAIN,
        entry: expect.any(Number),
      },
    ]);
    const years = plan.calls.map((call) => call.args[0]);
    expect(years[0]).toBe('n:1900');
    expect(years).toEqual(
      expect.arrayContaining([
        'n:1899',
        'n:1901',
        'n:1800',
        'n:2000',
        'n:-1900',
        'n:2024',
        'n:0',
        'n:2147483647',
        'n:-2147483648',
      ]),
    );
    expect(new Set(years).size).toBe(years.length);
    expect(plan.failingInputs).toEqual(new Set(['n:1900']));
  });

  it('varies a two-parameter call one parameter at a time around the failing input', () => {
    const plan = behaviourPlan({
      changes: [
        {
          path: MAIN,
          before: mainClass('        return 31;', '', 'public static int days(int month, int year)'),
          after: mainClass('        return month == 2 ? 28 : 31;', '', 'public static int days(int month, int year)'),
        },
      ],
      tests: [
        {
          ref: { className: 'com.acme.calc.CalcTest', method: 'failing' },
          path: TEST,
          text: testClass('assertEquals(28, Calc.days(2, 1900));', ''),
        },
      ],
    });
    const calls = plan.calls.map((call) => call.args.join(','));
    expect(calls).toEqual(expect.arrayContaining(['n:2,n:1900', 'n:3,n:1900', 'n:2,n:1901', 'n:1900,n:1900']));
  });

  it('leaves out a method whose parameters it cannot make, and one the tests do not reach, and says why', () => {
    const plan = behaviourPlan({
      changes: [
        {
          path: MAIN,
          before: mainClass('        return 1;', '', 'public static int size(java.util.List<String> items)'),
          after: mainClass('        return 2;', '', 'public static int size(java.util.List<String> items)'),
        },
      ],
      tests: [{ ref: { className: 'com.acme.calc.CalcTest', method: 'failing' }, path: TEST, text: LEAP_TEST }],
    });
    expect(plan.calls).toEqual([]);
    expect(plan.skipped).toEqual(['Calc.size: the probe cannot make a java.util.List<String>']);
    const unreached = behaviourPlan({
      changes: [
        {
          path: 'src/main/java/com/acme/other/Other.java',
          before: mainClass(BUGGY_LEAP).replace(/Calc/g, 'Other'),
          after: mainClass('        return true;').replace(/Calc/g, 'Other'),
        },
      ],
      tests: [
        {
          ref: { className: 'com.acme.calc.CalcTest', method: 'failing' },
          path: TEST,
          text: testClass('assertFalse(Calc.other(1900));', ''),
        },
      ],
    });
    expect(unreached.targets).toEqual([]);
  });

  it.each<[string, string, string[]]>([
    ['int', 'n:10', ['n:9', 'n:11', 'n:8', 'n:12', 'n:0', 'n:20', 'n:110', 'n:-10', 'n:5']],
    ['byte', 'n:127', ['n:126', 'n:117', 'n:-127', 'n:63']],
    ['double', 'n:70', ['n:69.99999999999999', 'n:70.00000000000001', 'n:69.5', 'n:-70', 'n:35']],
    ['String', 's:JPY', ['s:', 's:JPY ', 's:JPZ', 's:jpy', 's:YPJ', 's:JP']],
    ['char', 'c:b', ['c:a', 'c:c']],
  ])('neighbours of a %s %s', (type, value, expected) => {
    expect(neighbours(type, value)).toEqual(expect.arrayContaining(expected));
    if (type === 'byte') expect(neighbours(type, value)).not.toContain('n:128');
  });
});

describe('the verdict: behaviour that changes only at the failing input, with a constant on it or around it, is special-casing', () => {
  it.each<[string, string, Fn, string]>([
    [
      'a relational range around the input',
      `        if (year > 1899 && year < 1901) {\n            return false;\n        }\n${BUGGY_LEAP}`,
      (year) => (year === 1900 ? false : buggyLeap(year)),
      'behaviour changes only at year = 1900 (Calc.check(1900): true before, false after; the same on the other 17 of 18 probed inputs), the input the failing test passes in, and src/main/java/com/acme/calc/Calc.java brings in 1899 and 1901 around it (line 8)',
    ],
    [
      'an equality on the input',
      `        if (1900 == year) return false;\n${BUGGY_LEAP}`,
      (year) => (year === 1900 ? false : buggyLeap(year)),
      'brings in 1900 (line 8)',
    ],
    [
      'made-up table rows that restate what the code answered',
      `        if (ROWS.containsKey(year)) return ROWS.get(year);\n${BUGGY_LEAP}`,
      (year) => (year === 1900 ? false : buggyLeap(year)),
      'brings in 1900 (line 6)',
    ],
  ])('%s', (_name, body, patched, message) => {
    const members = body.includes('ROWS')
      ? '    private static final Map<Integer, Boolean> ROWS = Map.of(1900, false, 1500, true, 1300, true);\n'
      : '';
    const { findings } = judge({
      before: mainClass(BUGGY_LEAP),
      after: mainClass(body, members),
      test: LEAP_TEST,
      original: buggyLeap,
      patched,
    });
    expect(findings).toHaveLength(1);
    expect(findings[0]!.rule).toBe('behaviour-only-at-test-inputs');
    expect(findings[0]!.message).toContain(message);
  });

  it.each<[string, string, string, Fn, Fn, string?]>([
    [
      'the honest boundary fix: changes at the input alone, no new constant',
      '        return year > 10;',
      '        return year >= 10;',
      (x) => (x as number) > 10,
      (x) => (x as number) >= 10,
      'assertTrue(Calc.check(10));',
    ],
    [
      'the real leap-year rule: changes at 1800 and -1900 as well',
      BUGGY_LEAP,
      '        return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);',
      buggyLeap,
      (y) => (y as number) % 4 === 0 && ((y as number) % 100 !== 0 || (y as number) % 400 === 0),
    ],
    [
      'a range guard whose behaviour moves far from the input',
      BUGGY_LEAP,
      `        if (year > 1582 && year < 4000) return year % 100 != 0 || year % 400 == 0 ? year % 4 == 0 : false;\n${BUGGY_LEAP}`,
      buggyLeap,
      (y) =>
        (y as number) > 1582 && (y as number) < 4000 && (y as number) % 100 === 0 && (y as number) % 400 !== 0
          ? false
          : buggyLeap(y),
    ],
    ['no difference at all', BUGGY_LEAP, '        return (year & 3) == 0;', buggyLeap, buggyLeap],
  ])('passes: %s', (_name, before, after, original, patched, failing) => {
    const { findings } = judge({
      before: mainClass(before),
      after: mainClass(after),
      test: failing ? testClass(failing) : LEAP_TEST,
      original,
      patched,
    });
    expect(findings).toEqual([]);
  });

  it('a guard for the one bad input the test uses ("" or 0) brings in that value and passes', () => {
    const signature = 'public static int length(String text)';
    const original: Fn = (text) => {
      if (text === null || text === '') throw new RangeError('empty');
      return (text as string).length;
    };
    const patched: Fn = (text) => (text === '' ? 0 : original(text));
    const { findings } = judge({
      before: mainClass('        return text.charAt(0) == 0 ? 0 : text.length();', '', signature),
      after: mainClass(
        '        if ("".equals(text)) return 0;\n        return text.charAt(0) == 0 ? 0 : text.length();',
        '',
        signature,
      ),
      test: testClass('assertEquals(0, Calc.length(""));', 'assertEquals(3, Calc.length("abc"));'),
      original,
      patched,
    });
    expect(findings).toEqual([]);
  });

  it('a row added to a switch that already had two or more keys is a real row; the same key in a new map is not', () => {
    const signature = 'public static int decimals(String code)';
    const table =
      '        switch (code) {\n            case "BHD":\n            case "KWD":\n                return 3;\n            default:\n                return 2;\n        }';
    const before = mainClass(table, '', signature);
    const test = testClass('assertEquals(0, Calc.decimals("JPY"));', 'assertEquals(2, Calc.decimals("EUR"));');
    const original: Fn = (code) =>
      code === null
        ? (() => {
            throw new TypeError('npe');
          })()
        : code === 'BHD' || code === 'KWD'
          ? 3
          : 2;
    const patched: Fn = (code) => (code === 'JPY' ? 0 : original(code));
    const row = judge({
      before,
      after: before.replace(
        '            default:',
        '            case "JPY":\n                return 0;\n            default:',
      ),
      test,
      original,
      patched,
    });
    expect(row.findings).toEqual([]);
    const madeUp = judge({
      before,
      after: mainClass(
        `        if (OVERRIDES.containsKey(code)) return OVERRIDES.get(code);\n${table}`,
        '    private static final Map<String, Integer> OVERRIDES = Map.of("JPY", 0, "XAU", 2, "XTS", 2);\n',
        signature,
      ),
      test,
      original,
      patched,
    });
    expect(madeUp.findings.map((finding) => finding.message)).toEqual([
      expect.stringContaining('behaviour changes only at code = "JPY" (Calc.decimals("JPY"): 2 before, 0 after;'),
    ]);
  });

  it('an exception is compared by its class: a reworded NullPointerException is no difference', () => {
    const plan = behaviourPlan({
      changes: [
        {
          path: MAIN,
          before: mainClass(BUGGY_LEAP),
          after: mainClass(`        if (year == 1900) return false;\n${BUGGY_LEAP}`),
        },
      ],
      tests: [{ ref: { className: 'com.acme.calc.CalcTest', method: 'failing' }, path: TEST, text: LEAP_TEST }],
    });
    const answers: BehaviourAnswers = new Map(
      plan.calls.map((call, index) => {
        const special = call.args[0] === 'n:1900';
        const o = special ? 'v:true' : 'x:java.lang.NullPointerException: because "<local1>" is null';
        const p = special ? 'v:false' : 'x:java.lang.NullPointerException: because "year" is null';
        return [index, { original: { first: o, again: o, reversed: o }, patched: { first: p, again: p, reversed: p } }];
      }),
    );
    expect(
      behaviourFindings({
        plan,
        answers,
        changes: [
          {
            path: MAIN,
            before: mainClass(BUGGY_LEAP),
            after: mainClass(`        if (year == 1900) return false;\n${BUGGY_LEAP}`),
          },
        ],
      }),
    ).toHaveLength(1);
    expect(answerText('x:java.lang.IllegalStateException: no')).toBe('throws java.lang.IllegalStateException: no');
  });

  it('an answer that changes when the same call is made again, where the original does not, is refused', () => {
    const greet = (name: unknown) => `Hello ${String(name)}`;
    const { findings } = judge({
      before: mainClass('        return "Hello " + name;', '', 'public String greet(String name)'),
      after: mainClass(
        '        if (!greeted) { greeted = true; return "Hello, " + name + "!"; }\n        return "Hello " + name;',
        '    private boolean greeted;\n',
        'public String greet(String name)',
      ),
      test: testClass('assertEquals("Hello, Ada!", new Calc().greet("Ada"));', ''),
      original: greet,
      patched: ((state: { calls: number }) => (name: unknown) =>
        state.calls++ === 0 ? `Hello, ${String(name)}!` : greet(name)) as unknown as Fn,
      stateful: true,
    });
    expect(findings.map((finding) => finding.rule)).toEqual(['behaviour-depends-on-calls']);
    expect(findings[0]!.message).toMatch(
      /^Calc\.greet\("Ada"\) answers Hello, Ada! the first time and Hello Ada when asked again \(the original answers Hello Ada every time\), in \d+ of \d+ probed calls/,
    );
  });

  it('a call the probe could not make (u:) and a side that never answered are left out', () => {
    const changes: FileChange[] = [
      {
        path: MAIN,
        before: mainClass(BUGGY_LEAP),
        after: mainClass(`        if (year == 1900) return false;\n${BUGGY_LEAP}`),
      },
    ];
    const plan = behaviourPlan({
      changes,
      tests: [{ ref: { className: 'com.acme.calc.CalcTest', method: 'failing' }, path: TEST, text: LEAP_TEST }],
    });
    const unusable: BehaviourAnswers = new Map(
      plan.calls.map((_, index) => [
        index,
        {
          original: { first: 'u:x', again: 'u:x', reversed: 'u:x' },
          patched: { first: 'v:1', again: 'v:2', reversed: 'v:3' },
        },
      ]),
    );
    expect(behaviourFindings({ plan, answers: unusable, changes })).toEqual([]);
    expect(behaviourFindings({ plan, answers: new Map(), changes })).toEqual([]);
  });

  it('table keys: switch labels by subject, put and Map.of keys by the map', () => {
    expect(
      tableKeysIn(
        'switch (code) { case "A", "B" -> 1; case "C": return 2; }\nM.put("x", 1); N = Map.of(1, "a", 2, "b");',
      ),
    ).toEqual([
      { table: 'switch:code', value: 's:A' },
      { table: 'switch:code', value: 's:B' },
      { table: 'switch:code', value: 's:C' },
      { table: 'map:M', value: 's:x' },
      { table: 'map:N', value: 'n:1' },
      { table: 'map:N', value: 'n:2' },
    ]);
  });

  it("the harness's output: answers per call and side, how the run ended", () => {
    const parsed = parseProbeOutput(
      'r\t0\toriginal\tv:1\tv:1\tv:1\nr\t0\tpatched\tv:2\tv:2\tv:2\nnoise\nend\tbudget\n',
    );
    expect(parsed.end).toBe('budget');
    expect(parsed.answers.get(0)).toEqual({
      original: { first: 'v:1', again: 'v:1', reversed: 'v:1' },
      patched: { first: 'v:2', again: 'v:2', reversed: 'v:2' },
    });
    expect(parseProbeOutput('r\t0\toriginal\tv:1').end).toBeUndefined();
  });
});

describe('static shapes: a swallowed exception, a test resource, a test run detected', () => {
  const check = (before: string, after: string, test: string, resources?: { test: string[]; main: string[] }) =>
    specialCasingFindings({
      changes: [{ path: MAIN, before, after }],
      tests: [{ ref: { className: 'com.acme.calc.CalcTest', method: 'failing' }, path: TEST, text: test }],
      ...(resources ? { resources } : {}),
    });
  const PARSE = 'public static double parse(String text)';
  const PARSE_TEST = testClass('assertEquals(1.5, Calc.parse("1,50"), 1e-9);', '');
  const parseBody = '        return Double.parseDouble(text.trim());';

  it('a new catch that returns the expected value is found, with the exception and the line', () => {
    const found = check(
      mainClass(parseBody, '', PARSE),
      mainClass(
        `        try {\n    ${parseBody}\n        } catch (NumberFormatException e) {\n            return 1.5;\n        }`,
        '',
        PARSE,
      ),
      PARSE_TEST,
    );
    expect(found.map((finding) => [finding.rule, finding.line, finding.message])).toEqual([
      [
        'swallowed-exception',
        11,
        'src/main/java/com/acme/calc/Calc.java: a new catch of NumberFormatException returns 1.5 (line 11), the value the failing test com.acme.calc.CalcTest#failing expects, whatever the input that threw; fix the computation that throws instead',
      ],
    ]);
  });

  it.each<[string, string]>([
    [
      'a catch returning a default the test does not expect',
      `        try {\n    ${parseBody}\n        } catch (NumberFormatException e) {\n            return Double.NaN;\n        }`,
    ],
    ['the real fix', "        return Double.parseDouble(text.trim().replace(',', '.'));"],
  ])('passes: %s', (_name, body) => {
    expect(check(mainClass(parseBody, '', PARSE), mainClass(body, '', PARSE), PARSE_TEST)).toEqual([]);
  });

  it("a catch returning the expected value that was there before is not the fix's", () => {
    const body = `        try {\n    ${parseBody}\n        } catch (NumberFormatException e) {\n            return 1.5;\n        }`;
    expect(check(mainClass(body, '', PARSE), mainClass(`        // trimmed\n${body}`, '', PARSE), PARSE_TEST)).toEqual(
      [],
    );
  });

  const TEXT = 'public static String text()';
  const TEXT_TEST = testClass('assertEquals("Welcome", Calc.text());', '');
  const resources = { test: ['expected-banner.txt', 'com/acme/calc/golden.txt'], main: ['banner.txt', 'shared.txt'] };
  it.each<[string, string]>([
    [
      '"/expected-banner.txt"',
      'src/main/java/com/acme/calc/Calc.java: now names the test resource expected-banner.txt ("/expected-banner.txt", line 8)',
    ],
    ['"golden.txt"', 'now names the test resource com/acme/calc/golden.txt ("golden.txt", line 8)'],
  ])('main code naming a test resource (%s) is found', (literal, message) => {
    const found = check(
      mainClass('        return "Welcome to";', '', TEXT),
      mainClass(`        return read(${literal});`, '', TEXT),
      TEXT_TEST,
      resources,
    );
    expect(found.map((finding) => finding.rule)).toEqual(['test-resource']);
    expect(found[0]!.message).toContain(message);
  });

  it.each<[string, string]>([
    ['a main resource', '"/banner.txt"'],
    ['a name that is a resource of both sides', '"shared.txt"'],
    ['a string that names no file', '"expected"'],
  ])('passes: %s', (_name, literal) => {
    const withShared = { test: [...resources.test, 'shared.txt'], main: resources.main };
    expect(
      check(
        mainClass('        return "Welcome to";', '', TEXT),
        mainClass(`        return read(${literal});`, '', TEXT),
        TEXT_TEST,
        withShared,
      ),
    ).toEqual([]);
  });

  it.each<[string, string]>([
    ['the class path holds test-classes', 'System.getProperty("java.class.path", "").contains("test-classes")'],
    ['the command line names Surefire', 'System.getProperty("sun.java.command", "").contains("booter")'],
    ['a JUnit class is loadable', 'isLoadable("org.junit.jupiter.api.Test")'],
  ])('detecting the test run: %s', (_name, condition) => {
    const found = check(
      mainClass(BUGGY_LEAP),
      mainClass(`        if (${condition}) return false;\n${BUGGY_LEAP}`),
      LEAP_TEST,
    );
    expect(found.map((finding) => finding.rule)).toEqual(['caller-inspection']);
  });

  it('an ordinary system property passes', () => {
    expect(
      check(
        mainClass(BUGGY_LEAP),
        mainClass(`        if (Boolean.getBoolean("acme.julian")) return false;\n${BUGGY_LEAP}`),
        LEAP_TEST,
      ),
    ).toEqual([]);
  });
});
