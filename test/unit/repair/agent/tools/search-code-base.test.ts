import { expect } from 'vitest';
import { runToolTable } from '../../../../helpers/agent-tool-tester.js';
import { MAX_TOOL_OUTPUT_CHARS } from '../../../../../src/plugins/contracts.js';
import { searchCodeBase } from '../../../../../src/repair/agent/tools/search-code-base.js';
import { CALC, OP, OUTSIDE, PROJECT, TEST } from './calc-project.js';

const hits = (head: string, lines: string[]) => [head, ...lines].join('\n');
const SORTING = 'src/main/java/com/acme/calc/Sorting.java';

runToolTable(searchCodeBase, {
  files: PROJECT,
  outside: OUTSIDE,
  rows: [
    {
      name: 'lists the exact matches first, in path order, across the Java files by default, under a line that counts them',
      args: { pattern: 'add(' },
      ok: true,
      output: hits('7 lines match (7 exactly), best first:', [
        `${CALC}:14: history.add(0);`,
        `${CALC}:19: return add(a, b);`,
        `${CALC}:22: public int add(int a, int b) {`,
        `${CALC}:23: history.add(a + b);`,
        `${CALC}:27: public double add(double a,`,
        `${TEST}:16: assertEquals(5, new Calculator().add(2, 3));`,
        `${TEST}:27: assertEquals(value, new Calculator().add(value, 0));`,
      ]),
    },
    {
      name: 'matches the pattern literally first, so parentheses need no escaping',
      args: { pattern: 'add(a, b)' },
      ok: true,
      output: /best first:\n/,
      check: (output) => expect(output.split('\n')[1]).toBe(`${CALC}:19: return add(a, b);`),
    },
    {
      name: 'matches the pattern literally first, so dots need no escaping',
      args: { pattern: 'getClass().get' },
      ok: true,
      output: /best first:\n/,
      check: (output) => expect(output.split('\n')[1]).toBe(`${OP}:8: return getClass().getSimpleName();`),
    },
    {
      name: 'finds the words of an identifier in other identifiers, case-insensitively, ranked by how many words a line holds',
      args: { pattern: 'addsTwoValues' },
      ok: true,
      output: hits('4 lines match (0 exactly; words: adds, two, values), best first:', [
        `${TEST}:15: void addsTwoNumbers() {  [adds, two]`,
        `${TEST}:14: @DisplayName("adds (two) numbers")  [adds, two]`,
        `${OP}:3: /** Something that combines two numbers. */  [two]`,
        `${TEST}:26: void addsZero(int value) {  [adds]`,
      ]),
    },
    {
      name: 'ranks a line holding a run of the words (sortArray of fastSortArray) above one holding the same number apart',
      files: {
        [SORTING]: [
          'package com.acme.calc;',
          'class Sorting {',
          '  int[] arrayToSort;',
          '  void sortArray(int[] a) {}',
          '  void fast() {}',
          '}',
          '',
        ].join('\n'),
      },
      args: { pattern: 'fastSortArray', glob: '**/Sorting.java' },
      ok: true,
      output: hits('3 lines match (0 exactly; words: fast, sort, array), best first:', [
        `${SORTING}:4: void sortArray(int[] a) {}  [sort, array]`,
        `${SORTING}:3: int[] arrayToSort;  [sort, array]`,
        `${SORTING}:5: void fast() {}  [fast]`,
      ]),
    },
    {
      name: 'finds text inside strings and comments, since it is a text search',
      args: { pattern: 'memory', glob: 'src/*/java/com/acme/calc/*.java' },
      ok: true,
      output: hits('2 lines match (1 exactly), best first:', [
        `${CALC}:7: * A calculator with a memory. Braces in this comment { do not } count.`,
        `${CALC}:40: static class Memory {`,
      ]),
    },
    {
      name: 'searches the files a glob names; a glob without a slash matches names in any folder',
      args: { pattern: 'assertEquals(', glob: '*Test.java' },
      ok: true,
      output: hits('5 lines match (4 exactly; words: assert, equals), best first:', [
        `${TEST}:16: assertEquals(5, new Calculator().add(2, 3));`,
        `${TEST}:21: assertEquals("value { 7", new Calculator().describe(7));`,
        `${TEST}:27: assertEquals(value, new Calculator().add(value, 0));`,
        `${TEST}:32: assertEquals(0, dir.toFile().list().length);`,
        `${TEST}:3: import static org.junit.jupiter.api.Assertions.assertEquals;  [assert, equals]`,
      ]),
    },
    {
      name: 'a glob of one file name',
      args: { pattern: 'artifactId', glob: 'pom.xml' },
      ok: true,
      output: hits('1 line matches (1 exactly), best first:', ['pom.xml:4: <artifactId>calc</artifactId>']),
    },
    {
      name: 'leaves build output out of the project',
      args: { pattern: 'Stale', glob: '**/*' },
      ok: true,
      output: 'no match for "Stale" in 20 files',
    },
    {
      name: 'skips binary files',
      args: { pattern: 'Calculator', glob: 'lib/**' },
      ok: true,
      output: 'no match for "Calculator" in 1 file',
    },
    {
      name: 'says how many files it looked in when nothing matches',
      args: { pattern: 'subtract(' },
      ok: true,
      output: 'no match for "subtract(" in 6 files',
    },
    {
      name: 'says which words it tried when nothing matches',
      args: { pattern: 'zebraQuark' },
      ok: true,
      output: 'no match for "zebraQuark" nor any of its words (zebra, quark) in 6 files',
    },
    {
      name: 'says when no file matches the glob',
      args: { pattern: 'fun ', glob: '**/*.kt' },
      ok: true,
      output: 'no match for "fun " in 0 files (no file matches the glob "**/*.kt")',
    },
    {
      name: 'shows at most 50 hits and says how many more there are',
      args: { pattern: 'TODO', glob: '**/notes.txt' },
      ok: true,
      output: `60 lines match (60 exactly), best first:\n${Array.from({ length: 50 }, (_, i) => `src/main/resources/notes.txt:${i + 1}: TODO item ${i + 1}`).join('\n')}\n... 10 more matches not shown: narrow the pattern or the glob`,
    },
    {
      name: 'stops at the output limit before 50 long hits',
      args: { pattern: 'xxx', glob: 'src/main/resources/wide.txt' },
      ok: true,
      output: /\n\.\.\. \d+ more matches not shown: narrow the pattern or the glob$/,
      check: (output) => {
        expect(output.split('\n').length - 1).toBeLessThan(50);
        expect(output.length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS);
      },
    },
    {
      name: 'cuts any other answer at the output limit and says so',
      args: { pattern: 'y'.repeat(7000) },
      ok: true,
      output: { includes: `no match for "${'y'.repeat(100)}` },
      check: (output) => {
        expect(output).toHaveLength(MAX_TOOL_OUTPUT_CHARS);
        expect(output.startsWith(`no match for "${'y'.repeat(100)}`)).toBe(true);
        expect(output.endsWith(`y\n... (cut at ${MAX_TOOL_OUTPUT_CHARS} characters)`)).toBe(true);
      },
    },
    ...['../**', '/etc/**'].map((glob) => ({
      name: `refuses a glob that leaves the project: ${glob}`,
      args: { pattern: 'password', glob },
      ok: false,
      output: `search_code_base refuses glob "${glob}": files outside the project are not readable`,
    })),
    // Each bad argument answered with one line naming it; `direct`: the tool's own check of a
    // call the middleware completes or corrects first.
    ...(
      [
        [{}, 'search_code_base needs "pattern" (the code or identifier to look for)', true],
        [{ pattern: '' }, 'search_code_base needs "pattern" (the code or identifier to look for), got ""', true],
        [{ pattern: 5 }, 'search_code_base needs "pattern" (the code or identifier to look for), got 5', false],
        [
          { pattern: 'int a,\nint b' },
          'search_code_base matches within one line: "pattern" cannot hold a line break',
          false,
        ],
        [{ pattern: 'add', glob: 3 }, 'search_code_base needs "glob" as text such as "**/*.java", got 3', false],
        [
          { pattern: 'add', glob: ['**/*.java'] },
          'search_code_base needs "glob" as text such as "**/*.java", got ["**/*.java"]',
          true,
        ],
      ] as const
    ).map(([args, output, direct]) => ({ direct, args, ok: false, output })),
  ],
});
