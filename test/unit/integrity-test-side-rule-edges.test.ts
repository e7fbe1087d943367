/**
 * The edges of the read-only test side rule (test-side-rule.ts) and of the differing part its
 * reasons quote (differing-part.ts) that the first mutation run of the integrity-test-side-rule
 * slice left untested (bench/results-mutation.md, "integrity-test-side-rule: survivors reviewed"):
 * renamed files another check already named, how lines are keyed before they are compared, which
 * added line a removed one is paired with, long lines, and how the differing part is widened.
 */
import { describe, expect, it } from 'vitest';
import type { ChangeSet, FileChange } from '../../src/patch/types.js';
import { describeDifference, differingPart, similarity } from '../../src/repair/integrity/differing-part.js';
import { checkTestIntegrity, testWeakeningReason } from '../../src/repair/integrity/index.js';
import { testSideFindings } from '../../src/repair/integrity/rules/test-side-changed.js';

const FAILING = [{ className: 'com.acme.PriceTest', method: 'discount' }];
const READ_ONLY = '; the test side is read-only while tests fail: fix the code under test instead';
const RESOURCE = 'src/test/resources/expected/receipt.txt';
const WHERE = `${RESOURCE} (test sources and resources)`;

function reasonOf(files: FileChange[]): string | undefined {
  const changeSet: ChangeSet = { files };
  return testWeakeningReason(
    checkTestIntegrity({ changeSet, failingTests: FAILING, policy: { allowFailingTestEdits: false } }).blocking,
  );
}
const changed = (before: string, after: string, path = RESOURCE) => reasonOf([{ path, before, after }]);

describe('which changes are findings', () => {
  it('leaves a moved file to the check that already named it by either path', () => {
    const moved: FileChange = { path: 'src/test/resources/b.txt', oldPath: RESOURCE, before: 'x\n', after: 'y\n' };
    const input = {
      changes: [moved],
      testSide: { roots: [] },
      testsFailed: true,
      compileErrorFiles: new Set<string>(),
    };
    expect(testSideFindings({ ...input, alreadyFound: new Set([RESOURCE]) })).toEqual([]);
    expect(testSideFindings({ ...input, alreadyFound: new Set(['src/test/resources/b.txt']) })).toEqual([]);
    expect(testSideFindings({ ...input, alreadyFound: new Set() })).toHaveLength(1);
  });

  it('does not call a change moved when its old path is its path', () => {
    expect(reasonOf([{ path: RESOURCE, oldPath: RESOURCE, before: 'total 9.00\n', after: 'total 9.90\n' }])).toBe(
      `test-weakening: changed ${WHERE}: line 1: \`total 9.00\` became \`total 9.90\`${READ_ONLY}`,
    );
  });

  it('names no Java member in a file that is not a .java file, however Java-like its text', () => {
    const fixture = (call: string) => `class Fixture {\n    void m() {\n        ${call}\n    }\n}\n`;
    expect(changed(fixture('x(1);'), fixture('x(2);'), 'src/test/resources/Fixture.txt')).toBe(
      `test-weakening: changed src/test/resources/Fixture.txt (test sources and resources): line 3: \`x(1);\` became \`x(2);\`${READ_ONLY}`,
    );
  });
});

describe('how lines are compared', () => {
  it('ignores the indentation and white space runs of a line, but not white space between words', () => {
    // A line changed only in white space does not join the run of the real change after it.
    expect(changed('x\na\n', '  x\nb\n')).toBe(
      `test-weakening: changed ${WHERE}: line 2: added \`b\`, deleted \`a\`${READ_ONLY}`,
    );
    expect(changed('a  b\nc\n', 'a b\nd\n')).toBe(
      `test-weakening: changed ${WHERE}: line 2: added \`d\`, deleted \`c\`${READ_ONLY}`,
    );
    expect(changed('a b\n', 'ab\n')).toBe(
      `test-weakening: changed ${WHERE}: line 1: added \`ab\`, deleted \`a b\`${READ_ONLY}`,
    );
  });

  it('quotes a changed line with its white space runs made one space', () => {
    expect(changed('int  x = 1;\n', 'int  x = 2;\n')).toBe(
      `test-weakening: changed ${WHERE}: line 1: \`int x = 1;\` became \`int x = 2;\`${READ_ONLY}`,
    );
  });

  it('pairs a removed line with the first of two added lines as like it', () => {
    expect(changed('foo(1);\n', 'foo(2);\nfoo(3);\n')).toBe(
      `test-weakening: changed ${WHERE}: line 1: \`foo(1);\` became \`foo(2);\`, added \`foo(3);\`${READ_ONLY}`,
    );
  });

  it('names the part that differs when either line of a pair is longer than 80 characters', () => {
    const was = 'assertEquals(expectedValueOfTheComputation, actual);';
    const now = 'assertEquals(expectedValueOfTheComputation, actual, 0.000001, "a long message that pushes it over");';
    expect(was.length).toBeLessThanOrEqual(80);
    expect(now.length).toBeGreaterThan(80);
    expect(changed(`${was}\n`, `${now}\n`)).toBe(
      `test-weakening: changed ${WHERE}: line 1: ${describeDifference(was, now)}${READ_ONLY}`,
    );
    expect(describeDifference(was, now)).toBe(
      'added `0.000001, "a long message that pushes it over"` in `assertEquals(...)`',
    );
    expect(changed(`${now}\n`, `${was}\n`)).toBe(
      `test-weakening: changed ${WHERE}: line 1: deleted \`0.000001, "a long message that pushes it over"\` in \`assertEquals(...)\`${READ_ONLY}`,
    );
  });

  it('says nothing of a long pair whose tokens are the same, only of the other lines of its run', () => {
    const line = (sum: string) =>
      `assertEquals(expectedValueOfTheComputation, ${sum}, "a long enough message to pass eighty");`;
    expect(changed(`${line('actual+offset')}\n`, `${line('actual + offset')}\nlog(actual);\n`)).toBe(
      `test-weakening: changed ${WHERE}: line 1: added \`log(actual);\`${READ_ONLY}`,
    );
  });
});

describe('the member of lines only deleted', () => {
  it('is the one the deleted line was in, not the one two lines above', () => {
    const file = 'src/test/java/com/acme/Steps.java';
    const steps = (body: string) =>
      `package com.acme;\n\nfinal class Steps {\n    void a() {\n    }\n\n    void b() {\n${body}    }\n}\n`;
    expect(changed(steps('        x();\n'), steps(''), file)).toBe(
      `test-weakening: changed ${file} (test sources and resources): in Steps#b(), line 8: deleted \`x();\`${READ_ONLY}`,
    );
  });
});

describe('differingPart and similarity', () => {
  it('never lets the common end overlap the common start', () => {
    expect(differingPart('a a a', 'a a')).toEqual({ removed: 'a', added: '' });
    expect(differingPart('a a', 'a a a')).toEqual({ removed: '', added: 'a' });
    expect(similarity('a a', 'a a a')).toBeCloseTo(2 / 3);
  });

  it('widens to the left for a closer, to the right for an opener, and stops at the ends', () => {
    expect(differingPart('f(a) + 1;', 'f(a + 1);')).toEqual({ removed: '(a) + 1', added: '(a + 1)' });
    expect(differingPart('x = f(a', 'x = g(b')).toEqual({ removed: 'f(a', added: 'g(b' });
    expect(differingPart('a) + 1', 'b) + 2')).toEqual({ removed: 'a) + 1', added: 'b) + 2' });
  });

  it('widens by at most 64 tokens', () => {
    const qs = (n: number) => Array.from({ length: n }, () => 'q').join(' ');
    expect(differingPart(`( ${qs(70)} )`, `${qs(70)} )`)).toEqual({ removed: `( ${qs(64)}`, added: qs(64) });
  });

  it('drops the comma before a list item however it is spaced, and keeps commas inside an item', () => {
    expect(differingPart('f(a,b)', 'f(a)')).toEqual({ removed: 'b', added: '', within: 'f' });
    expect(differingPart('f(x,b)', 'f()')).toEqual({ removed: 'x,b', added: '', within: 'f' });
  });

  it('names a call whose name has digits', () => {
    expect(differingPart('Math.log10(1, x)', 'Math.log10(2, x)')).toEqual({
      removed: '1',
      added: '2',
      within: 'Math.log10',
    });
  });

  it('quotes a part with its white space runs made one space', () => {
    expect(describeDifference('x = a  +  b;', 'x = c;')).toBe('`a + b` became `c`');
  });
});
