/**
 * The read-only test side rule (test-side-rule.ts) and the differing part its reasons quote
 * (differing-part.ts), through checkTestIntegrity: while tests fail, every edit on the test
 * side is refused with a reason that names the file, the member and line it is in and what
 * changed, precisely enough for the model to see what it may not do. Written from the
 * survivors of the mutation run (stryker/integrity-test-side-rule.config.mjs). What each kind
 * of change is called is a table in test/unit/repair/integrity/rules/test-side-changed.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { ChangeSet, FileChange } from '../../src/patch/types.js';
import { describeDifference, differingPart, similarity } from '../../src/repair/integrity/differing-part.js';
import { checkTestIntegrity, testWeakeningReason } from '../../src/repair/integrity/index.js';

const FAILING = [{ className: 'com.acme.PriceTest', method: 'discount' }];
const READ_ONLY = '; the test side is read-only while tests fail: fix the code under test instead';

function verdictOf(files: FileChange[], extra: { compileErrorFiles?: Set<string>; failing?: typeof FAILING } = {}) {
  const changeSet: ChangeSet = { files };
  return checkTestIntegrity({
    changeSet,
    failingTests: extra.failing ?? FAILING,
    policy: { allowFailingTestEdits: false },
    ...(extra.compileErrorFiles ? { compileErrorFiles: extra.compileErrorFiles } : {}),
  });
}
const reasonOf = (files: FileChange[]) => testWeakeningReason(verdictOf(files).blocking);

const RESOURCE = 'src/test/resources/expected/receipt.txt';
const lines = (...texts: string[]) => `${texts.join('\n')}\n`;

describe('what a test-side change is called', () => {
  it('a file with a compile error of its own, by its old path too: allowed, said so', () => {
    const verdict = verdictOf(
      [{ path: 'src/test/resources/b.txt', oldPath: RESOURCE, before: 'x = 1\n', after: 'x = 2\n' }],
      { compileErrorFiles: new Set([RESOURCE]) },
    );
    expect(verdict.blocking).toEqual([]);
    expect(verdict.allowedFailingTestEdits).toEqual([
      {
        rule: 'test-side-changed',
        file: 'src/test/resources/b.txt',
        message: `changed src/test/resources/b.txt (test sources and resources) (moved from ${RESOURCE}): line 1: \`x = 1\` became \`x = 2\`, which had a compile error of its own`,
        failingTestEdit: true,
        compileErrorFix: true,
      },
    ]);
  });
});

describe('the changed places of a file', () => {
  it('each run of changed lines by its line; at most three, then how many more', () => {
    const before = lines('a=1', '', 'b=2', '', 'c=3', '', 'd=4', '', 'e=5');
    const after = lines('a=10', '', 'b=20', '', 'c=30', '', 'd=40', '', 'e=50');
    expect(reasonOf([{ path: RESOURCE, before, after }])).toBe(
      `test-weakening: changed ${RESOURCE} (test sources and resources): line 1: \`a=1\` became \`a=10\`; line 3: \`b=2\` became \`b=20\`; line 5: \`c=3\` became \`c=30\`; and 2 more changes${READ_ONLY}`,
    );
    expect(
      reasonOf([{ path: RESOURCE, before: before.replace('e=5', 'e=5'), after: after.replace('e=50', 'e=5') }]),
    ).toContain('; and 1 more change;');
    expect(
      reasonOf([
        { path: RESOURCE, before: lines('a=1', '', 'b=2', '', 'c=3'), after: lines('a=10', '', 'b=20', '', 'c=30') },
      ]),
    ).not.toContain('more change');
  });

  it('lines added, deleted and changed in one run; blank lines are not named', () => {
    expect(
      reasonOf([
        {
          path: RESOURCE,
          before: lines('keep', 'total 9.00', 'tax 0.90', 'end'),
          after: lines('keep', 'total 9.90', '', 'rounding up', 'end'),
        },
      ]),
    ).toBe(
      `test-weakening: changed ${RESOURCE} (test sources and resources): line 2: \`total 9.00\` became \`total 9.90\`, added \`rounding up\`, deleted \`tax 0.90\`${READ_ONLY}`,
    );
    expect(reasonOf([{ path: RESOURCE, before: lines('keep', 'end'), after: lines('keep', '', 'end') }])).toBe(
      `test-weakening: changed ${RESOURCE} (test sources and resources) (white space only)${READ_ONLY}`,
    );
    expect(reasonOf([{ path: RESOURCE, before: lines('keep', '', 'end'), after: lines('keep', 'end') }])).toBe(
      `test-weakening: changed ${RESOURCE} (test sources and resources) (white space only)${READ_ONLY}`,
    );
  });

  it('a line paired only with one like it: a line quite unlike the old one is an addition and a deletion', () => {
    expect(
      reasonOf([{ path: RESOURCE, before: lines('total 9.00 EUR'), after: lines('something else entirely') }]),
    ).toBe(
      `test-weakening: changed ${RESOURCE} (test sources and resources): line 1: added \`something else entirely\`, deleted \`total 9.00 EUR\`${READ_ONLY}`,
    );
  });

  it('each removed line is paired with the added line most like it, never two with one', () => {
    expect(
      reasonOf([
        {
          path: RESOURCE,
          before: lines('total = 9 . 00 EUR', 'tax = 0 . 90 EUR'),
          after: lines('tax = 0 . 95 EUR', 'total = 9 . 90 EUR'),
        },
      ]),
    ).toBe(
      `test-weakening: changed ${RESOURCE} (test sources and resources): line 1: \`tax = 0 . 90 EUR\` became \`tax = 0 . 95 EUR\`, \`total = 9 . 00 EUR\` became \`total = 9 . 90 EUR\`${READ_ONLY}`,
    );
    expect(
      reasonOf([
        {
          path: RESOURCE,
          before: lines('total = 9 . 00 EUR'),
          after: lines('total = 9 . 90 EUR', 'total = 9 . 00 EUR !'),
        },
      ]),
    ).toBe(
      `test-weakening: changed ${RESOURCE} (test sources and resources): line 1: added \`total = 9 . 90 EUR\`, \`total = 9 . 00 EUR\` became \`total = 9 . 00 EUR !\`${READ_ONLY}`,
    );
  });

  it('a long line is named by the part that differs; lines up to 80 characters are quoted whole', () => {
    const long = (value: string) =>
      `expected = {"id": 7, "name": "tea", "price": ${value}, "currency": "EUR", "tags": ["green", "loose"]}`;
    expect(reasonOf([{ path: RESOURCE, before: lines(long('9.00')), after: lines(long('9.90')) }])).toBe(
      `test-weakening: changed ${RESOURCE} (test sources and resources): line 1: \`9.00\` became \`9.90\`${READ_ONLY}`,
    );
    const eighty = (value: string) => `x = "${'a'.repeat(71)}${value}"`;
    expect(eighty('1.0').length).toBe(80);
    expect(reasonOf([{ path: RESOURCE, before: lines(eighty('1.0')), after: lines(eighty('2.0')) }])).toBe(
      `test-weakening: changed ${RESOURCE} (test sources and resources): line 1: \`${eighty('1.0')}\` became \`${eighty('2.0')}\`${READ_ONLY}`,
    );
  });

  it('an added or deleted line is shortened past 120 characters', () => {
    const long = `note ${'n'.repeat(130)}`;
    expect(reasonOf([{ path: RESOURCE, before: lines('a'), after: lines('a', long) }])).toBe(
      `test-weakening: changed ${RESOURCE} (test sources and resources): line 2: added \`${long.slice(0, 117)}...\`${READ_ONLY}`,
    );
  });
});

describe('a Java file on the test side: the member a change is in', () => {
  const helper = (body: string) => `package com.acme;

final class Tolerance {
    static final long CENTS = 0;

    static void near(long expected, long actual) {
${body}
    }
}
`;
  const file = 'src/test/java/com/acme/Tolerance.java';

  it('a method by its type, name and parameter types; a field by its class', () => {
    expect(
      reasonOf([
        {
          path: file,
          before: helper('        check(expected, actual);'),
          after: helper('        check(expected, actual + 1);'),
        },
      ]),
    ).toBe(
      `test-weakening: changed ${file} (test sources and resources): in Tolerance#near(long, long), line 7: \`check(expected, actual);\` became \`check(expected, actual + 1);\`${READ_ONLY}`,
    );
    expect(
      reasonOf([
        {
          path: file,
          before: helper('        check(expected, actual);'),
          after: helper('        check(expected, actual);').replace('CENTS = 0', 'CENTS = 5'),
        },
      ]),
    ).toBe(
      `test-weakening: changed ${file} (test sources and resources): in class Tolerance, line 4: \`static final long CENTS = 0;\` became \`static final long CENTS = 5;\`${READ_ONLY}`,
    );
  });

  it('lines only deleted are named where they were; a file that does not parse by line alone', () => {
    expect(
      reasonOf([
        {
          path: file,
          before: helper('        check(expected, actual);\n        log(actual);'),
          after: helper('        check(expected, actual);'),
        },
      ]),
    ).toBe(
      `test-weakening: changed ${file} (test sources and resources): in Tolerance#near(long, long), line 8: deleted \`log(actual);\`${READ_ONLY}`,
    );
    const broken = 'lib/src/testFixtures/java/Broken.java';
    expect(reasonOf([{ path: broken, before: 'class {\n  x = 1\n', after: 'class {\n  x = 2\n' }])).toBe(
      `test-weakening: changed ${broken} (test fixtures): line 2: \`x = 1\` became \`x = 2\`${READ_ONLY}`,
    );
  });

  it('the first changed line inside a member names it, even when the run starts between members', () => {
    const before = helper('        check(expected, actual);');
    const after = before.replace(
      '    static void near(long expected, long actual) {',
      '    // loosened\n    static void near(long expected, long actual, long slack) {',
    );
    expect(reasonOf([{ path: file, before, after }])).toBe(
      `test-weakening: changed ${file} (test sources and resources): in Tolerance#near(long, long, long), line 6: added \`// loosened\`, \`static void near(long expected, long actual) {\` became \`static void near(long expected, long actual, long slack) {\`${READ_ONLY}`,
    );
  });
});

describe('the part that differs', () => {
  it.each([
    ['assertThat(total, is(900L));', 'assertThat(total, is(901L));', '`900L` became `901L` in `is(...)`'],
    ['@CsvSource({"1, 1", "2, 4"})', '@CsvSource({"1, 1", "2, 4", "3, 9"})', 'added `"3, 9"` in `@CsvSource(...)`'],
    ['check(a, "x, y", b);', 'check(a, b);', 'deleted `"x, y"` in `check(...)`'],
    ['f(a)[0] = g(b);', 'f(a)[1] = g(b);', '`0` became `1`'],
    ['run(() -> { step(1); });', 'run(() -> { step(2); });', '`1` became `2` in `step(...)`'],
    ['x = (a + b) * c;', 'x = (a - b) * c;', '`+` became `-`'],
    ['é = naïve(1);', 'é = naïve(2);', '`1` became `2` in `naïve(...)`'],
    ["c = 'a';", "c = 'b';", "`'a'` became `'b'`"],
    ['s = "a \\" b";', 's = "a \\" c";', '`"a \\" b"` became `"a \\" c"`'],
    ['call(x).then(y);', 'call(x).then(z);', '`y` became `z`'],
    ['a(1) + b(2)', 'a(1) + b(3) + c(4)', '`(2)` became `(3) + c(4)`'],
    ['m(1, 2)', 'm(1, 2, 3)', 'added `3` in `m(...)`'],
    ['total 9.00', 'total 9.00 EUR', 'added `EUR`'],
  ])('%s -> %s: %s', (before, after, described) => {
    expect(describeDifference(before, after)).toBe(described);
  });

  it('brackets are balanced on both sides: a change spanning a call is widened to the whole call', () => {
    expect(differingPart('assertThat(x, is(5));', 'assertThat(x, greaterThan(0));')).toEqual({
      removed: 'is(5)',
      added: 'greaterThan(0)',
      within: 'assertThat',
    });
    expect(differingPart('[a, (b), c]', '[a, (b, d), c]')).toEqual({ removed: '', added: 'd' });
    expect(differingPart('f(a))', 'f(b))')).toEqual({ removed: 'a', added: 'b', within: 'f' });
  });

  it('within is the innermost open call, not an annotation without a name, a cast or an opening at the start', () => {
    expect(differingPart('(1 + 2)', '(1 + 3)')).toEqual({ removed: '2', added: '3' });
    expect(differingPart('x = (int) (a + 1)', 'x = (int) (a + 2)')).toEqual({ removed: '1', added: '2' });
    expect(differingPart('@Tag("a") f(1)', '@Tag("a") f(2)')).toEqual({ removed: '1', added: '2', within: 'f' });
    expect(differingPart('if (a == 1)', 'if (a == 2)')).toEqual({ removed: '1', added: '2', within: 'if' });
    expect(differingPart('@Timeout(5)', '@Timeout(50)')).toEqual({ removed: '5', added: '50', within: '@Timeout' });
    expect(differingPart('x = "s"(1)', 'x = "s"(2)')).toEqual({ removed: '1', added: '2' });
  });

  it('quotes are cut to the length asked for', () => {
    const long = 'v'.repeat(50);
    expect(describeDifference(`a ${long} z`, `a ${long}w z`, 20)).toBe(
      `\`${'v'.repeat(17)}...\` became \`${'v'.repeat(17)}...\``,
    );
    expect(describeDifference('a', `a ${long}`, 20)).toBe(`added \`${'v'.repeat(17)}...\``);
    expect(describeDifference(`a ${long}`, 'a', 50)).toBe(`deleted \`${long}\``);
    expect(describeDifference('x', 'x')).toBeUndefined();
  });

  it('similarity: the share of tokens at the common start and end', () => {
    expect(similarity('', '')).toBe(1);
    expect(similarity('a b c d', 'a b c d')).toBe(1);
    expect(similarity('a b c d', 'a x c d')).toBe(0.75);
    expect(similarity('a b', 'x y z w')).toBe(0);
    expect(similarity('a a', 'a')).toBe(0.5);
  });
});
