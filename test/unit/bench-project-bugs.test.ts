/** src/bench/project-bugs.ts: the one-line bugs `bench:verify --project` writes into a copy of a real project. */
import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { BUG_KINDS, findProjectBugs, type ProjectBug } from '../../src/bench/project-bugs.js';

const MAIN = 'src/main/java/com/acme/';
const TEST = 'src/test/java/com/acme/';
const calc = `package com.acme;

/*
 * for (int i = 0; i < n; i++) in a comment is no candidate
 */
class Calc {
  static int sum(int[] values) {
    if (values == null) return 0;
    int total = 0;
    for (int i = 0; i < values.length; i++) total += values[i];
    return total;
  }

  static boolean same(int a, int b) {
    if (a == b) {
      return true;
    }
    return false;
  }
}
`;

function files(extra: [string, string][] = []): Map<string, string> {
  return new Map<string, string>([
    [`${MAIN}Calc.java`, calc],
    [`${TEST}CalcTest.java`, 'class CalcTest { void t() { Calc.sum(new int[] {1}); } }'],
    // No test class of its own: never a candidate.
    [`${MAIN}Untested.java`, calc.replace('class Calc', 'class Untested')],
    ...extra,
  ]);
}

/** The reply's diff applied to the broken file. */
function applyReply(bug: ProjectBug, reply: string): string {
  const diff = /```diff\n([\s\S]*?)```/.exec(reply)![1]!;
  const result = applyPatch(bug.broken, diff);
  if (result === false) throw new Error(`the reply does not apply:\n${diff}`);
  return result;
}

describe('findProjectBugs', () => {
  it('finds one bug of each kind, in a class that has a test class, on lines outside comments', () => {
    const bugs = findProjectBugs(files());
    expect(bugs.map((bug) => bug.kind)).toEqual([...BUG_KINDS]);
    for (const bug of bugs) expect(bug.file).toBe(`${MAIN}Calc.java`);
    const line = (bug: ProjectBug) => bug.correct.split('\n')[bug.line - 1]!.trim();
    expect(bugs.map(line)).toEqual([
      'for (int i = 0; i < values.length; i++) total += values[i];',
      'if (a == b) {',
      'return true;',
      'if (values == null) return 0;',
      'return total;',
    ]);
  });

  it('writes each bug as a one-line change; the fix reply gives back the correct file, the other replies something else', () => {
    for (const bug of findProjectBugs(files())) {
      const correct = bug.correct.split('\n');
      const broken = bug.broken.split('\n');
      expect(Math.abs(correct.length - broken.length)).toBeLessThanOrEqual(1);
      expect(correct.filter((line, i) => line !== broken[i]).length).toBeGreaterThan(0);
      expect(applyReply(bug, bug.replies.fix)).toBe(bug.correct);
      const wrong = applyReply(bug, bug.replies.doesNotCompile);
      expect(wrong).not.toBe(bug.correct);
      expect(wrong).not.toBe(bug.broken);
      if (bug.kind === 'compile-error') expect(bug.replies.testStillFails).toBeUndefined();
      else expect(applyReply(bug, bug.replies.testStillFails!)).not.toBe(bug.correct);
    }
    const offByOne = findProjectBugs(files()).find((bug) => bug.kind === 'off-by-one')!;
    expect(offByOne.broken).toContain('for (int i = 0; i < values.length - 1; i++)');
    expect(applyReply(offByOne, offByOne.replies.testStillFails!)).toContain('i < -1 + values.length');
  });

  it('takes classes named by fewer test files first, several per kind, and nothing from a project without tests', () => {
    const popular = calc.replace('class Calc', 'class Popular');
    const bugs = findProjectBugs(
      files([
        [`${MAIN}Popular.java`, popular],
        [`${TEST}PopularTest.java`, 'class PopularTest { Popular p; }'],
        [`${TEST}OtherTest.java`, 'class OtherTest { Popular p; }'],
      ]),
      2,
    );
    expect(bugs.filter((bug) => bug.kind === 'off-by-one').map((bug) => bug.file)).toEqual([
      `${MAIN}Calc.java`,
      `${MAIN}Popular.java`,
    ]);
    expect(findProjectBugs(new Map([[`${MAIN}Calc.java`, calc]]))).toEqual([]);
  });
});
