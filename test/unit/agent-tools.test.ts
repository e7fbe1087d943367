import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_TOOLS, extractMethod, extractTestCode, findSimilarApiCalls, getClassesAndMethods, readRange, searchCodeBase } from '../../src/repair/agent/tools.js';
import { MAX_TOOL_OUTPUT_CHARS, type AgentTool, type AgentToolContext } from '../../src/plugins/contracts.js';
import { createSourceView } from '../../src/codebase/index.js';

const CALCULATOR = [
  'package com.acme.calc;', // 1
  '', // 2
  'import java.util.ArrayList;', // 3
  'import java.util.List;', // 4
  '', // 5
  '/**', // 6
  ' * A calculator with a memory. Braces in this comment { do not } count.', // 7
  ' */', // 8
  'public class Calculator implements Operation {', // 9
  '    private final List<Integer> history = new ArrayList<>();', // 10
  '    private static final String FORMAT = "{result}";', // 11
  '', // 12
  '    public Calculator() {', // 13
  '        history.add(0);', // 14
  '    }', // 15
  '', // 16
  '    @Override', // 17
  '    public int apply(int a, int b) {', // 18
  '        return add(a, b);', // 19
  '    }', // 20
  '', // 21
  '    public int add(int a, int b) {', // 22
  '        history.add(a + b);', // 23
  '        return a + b;', // 24
  '    }', // 25
  '', // 26
  '    public double add(double a,', // 27
  '                      double b) {', // 28
  '        return a + b;', // 29
  '    }', // 30
  '', // 31
  '    @Override', // 32
  '    public String symbol() { return "+"; }', // 33
  '', // 34
  '    public String describe(int value) {', // 35
  '        String text = "value { " + value;', // 36
  '        return FORMAT.replace("{result}", text);', // 37
  '    }', // 38
  '', // 39
  '    static class Memory {', // 40
  '        private int stored;', // 41
  '', // 42
  '        void store(int value) {', // 43
  '            stored = value;', // 44
  '        }', // 45
  '', // 46
  '        int recall() { return stored; }', // 47
  '    }', // 48
  '}', // 49
];

const OPERATION = [
  'package com.acme.calc;', // 1
  '', // 2
  '/** Something that combines two numbers. */', // 3
  'public interface Operation {', // 4
  '    int apply(int a, int b);', // 5
  '', // 6
  '    default String name() {', // 7
  '        return getClass().getSimpleName();', // 8
  '    }', // 9
  '', // 10
  '    @Deprecated', // 11
  '    String symbol()', // 12
  '        throws UnsupportedOperationException;', // 13
  '}', // 14
];

const CALCULATOR_TEST = [
  'package com.acme.calc;', // 1
  '', // 2
  'import static org.junit.jupiter.api.Assertions.assertEquals;', // 3
  '', // 4
  'import java.nio.file.Path;', // 5
  'import org.junit.jupiter.api.DisplayName;', // 6
  'import org.junit.jupiter.api.Test;', // 7
  'import org.junit.jupiter.api.io.TempDir;', // 8
  'import org.junit.jupiter.params.ParameterizedTest;', // 9
  'import org.junit.jupiter.params.provider.ValueSource;', // 10
  '', // 11
  'class CalculatorTest {', // 12
  '    @Test', // 13
  '    @DisplayName("adds (two) numbers")', // 14
  '    void addsTwoNumbers() {', // 15
  '        assertEquals(5, new Calculator().add(2, 3));', // 16
  '    }', // 17
  '', // 18
  '    @Test', // 19
  '    void describesAValue() {', // 20
  '        assertEquals("value { 7", new Calculator().describe(7));', // 21
  '    }', // 22
  '', // 23
  '    @ParameterizedTest', // 24
  '    @ValueSource(ints = {1, 2, 3})', // 25
  '    void addsZero(int value) {', // 26
  '        assertEquals(value, new Calculator().add(value, 0));', // 27
  '    }', // 28
  '', // 29
  '    @Test', // 30
  '    void leavesNoFiles(@TempDir Path dir) {', // 31
  '        assertEquals(0, dir.toFile().list().length);', // 32
  '    }', // 33
  '}', // 34
];

const RANGE_LINES = [
  'package com.acme.calc;', // 1
  '', // 2
  '/** A closed range of ints, like [low, high]. */', // 3
  'public record Range(int low, int high) {', // 4
  '    public Range {', // 5
  '        if (low > high) throw new IllegalArgumentException("low > high");', // 6
  '    }', // 7
  '', // 8
  '    public int width() { return high - low; }', // 9
  '', // 10
  '    interface Visitor { void visit(Range range); }', // 11
  '', // 12
  '    static final class Empty extends RuntimeException { Empty() { super("empty range"); } }', // 13
  '}', // 14
];

const CALC = 'src/main/java/com/acme/calc/Calculator.java';
const RANGE = 'src/main/java/com/acme/calc/Range.java';
const OP = 'src/main/java/com/acme/calc/Operation.java';
const TEST = 'src/test/java/com/acme/calc/CalculatorTest.java';
const GENERATED = 'src/main/java/com/acme/gen/Generated.java';
const BIG = 'src/main/java/com/acme/gen/BigMethod.java';

/** 300 one-line methods: value1() on line 4 to value300() on line 303. */
const GENERATED_LINES = ['package com.acme.gen;', '', 'public class Generated {', ...Array.from({ length: 300 }, (_, i) => `    public int value${i + 1}() { return ${i + 1}; }`), '}'];
/** sum() runs from line 4 to line 407. */
const BIG_LINES = ['package com.acme.gen;', '', 'public class BigMethod {', '    public int sum() {', '        int total = 0;', ...Array.from({ length: 400 }, (_, i) => `        total += ${i + 1};`), '        return total;', '    }', '}'];

let base: string;
let root: string;
let context: AgentToolContext;

const row = (lines: readonly string[], n: number) => `${String(n).padStart(4)}| ${lines[n - 1]}`;
const rows = (lines: readonly string[], from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => row(lines, from + i)).join('\n');
const numbersFile = Array.from({ length: 400 }, (_, i) => String(i + 1));
const wideFile = Array.from({ length: 200 }, () => 'x'.repeat(100));
const run = (tool: AgentTool, args: Record<string, unknown>) => tool.run(args, context);
const output = async (tool: AgentTool, args: Record<string, unknown>) => (await run(tool, args)).output;

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'mvnx-agent-tools-'));
  root = path.join(base, 'project');
  const files: Record<string, string> = {
    'pom.xml': '<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.acme</groupId>\n  <artifactId>calc</artifactId>\n  <version>1.0</version>\n</project>\n',
    [CALC]: `${CALCULATOR.join('\n')}\n`,
    [OP]: `${OPERATION.join('\n')}\n`,
    [TEST]: `${CALCULATOR_TEST.join('\n')}\n`,
    [RANGE]: `${RANGE_LINES.join('\n')}\n`,
    [GENERATED]: `${GENERATED_LINES.join('\n')}\n`,
    [BIG]: `${BIG_LINES.join('\n')}\n`,
    'src/main/resources/numbers.txt': `${numbersFile.join('\n')}\n`,
    'src/main/resources/wide.txt': `${wideFile.join('\n')}\n`,
    'src/main/resources/notes.txt': Array.from({ length: 60 }, (_, i) => `TODO item ${i + 1}\n`).join(''),
    'src/main/resources/app.properties': 'greeting=hello\r\ntarget=world\r\n',
    'src/main/resources/static/app.min.js': `var calc={add:function(a,b){return a+b}};${'/*pad*/'.repeat(200)}\n`,
    'lib/helper.jar': 'PK\u0003\u0004\u0000\u0000com/acme/calc/Calculator.class\u0000',
    // Build output is not part of the project's sources.
    'target/classes/com/acme/calc/Calculator.java': 'class Stale { void add() {} }\n',
    ...Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`modules/m${i + 1}/README.md`, `# module ${i + 1}\n`])),
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  await writeFile(path.join(base, 'secret.txt'), 'password=hunter2\n');
  context = { view: createSourceView(root), runTests: async () => ({ ok: true, output: 'not used' }) };
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('CODE_TOOLS', () => {
  it('lists the reading tools in order, each usable in every state, with their parameters', () => {
    expect(CODE_TOOLS).toEqual([readRange, searchCodeBase, getClassesAndMethods, extractMethod, extractTestCode, findSimilarApiCalls]);
    expect(CODE_TOOLS.map((tool) => [tool.name, tool.states, Object.entries(tool.parameters).map(([name, p]) => `${name}:${p.type}${p.optional ? '?' : ''}`)])).toEqual([
      ['read_range', ['understand', 'collect', 'fix'], ['file:string', 'start:integer', 'end:integer?']],
      ['search_code_base', ['understand', 'collect', 'fix'], ['pattern:string', 'glob:string?']],
      ['get_classes_and_methods', ['understand', 'collect', 'fix'], ['file:string']],
      ['extract_method', ['understand', 'collect', 'fix'], ['file:string', 'method:string']],
      ['extract_test_code', ['understand', 'collect', 'fix'], ['test:string?', 'file:string?']],
      ['find_similar_api_calls', ['understand', 'collect', 'fix'], ['call:string', 'file:string?', 'line:integer?']],
    ]);
    for (const tool of CODE_TOOLS) expect(tool.description).not.toContain('\n');
  });
});

describe('read_range', () => {
  it('shows the asked lines with right-aligned numbers', async () => {
    expect(await run(readRange, { file: CALC, start: 9, end: 12 })).toEqual({
      ok: true,
      output: ['   9| public class Calculator implements Operation {', '  10|     private final List<Integer> history = new ArrayList<>();', '  11|     private static final String FORMAT = "{result}";', '  12| '].join('\n'),
    });
  });

  it('shows 60 lines when no end is given', async () => {
    expect(await output(readRange, { file: 'src/main/resources/numbers.txt', start: 100 })).toBe(rows(numbersFile, 100, 159));
  });

  it('accepts numbers sent as strings', async () => {
    expect(await output(readRange, { file: CALC, start: '22', end: ' 25 ' })).toBe(rows(CALCULATOR, 22, 25));
  });

  it('clamps a range past the end of the file and says how long the file is', async () => {
    expect(await run(readRange, { file: OP, start: 10 })).toEqual({ ok: true, output: `${rows(OPERATION, 10, 14)}\n(the file has 14 lines)` });
  });

  it('shows at most 200 lines and says which were left out', async () => {
    expect(await output(readRange, { file: 'src/main/resources/numbers.txt', start: 12, end: 400 })).toBe(
      `${rows(numbersFile, 12, 211)}\n... lines 212-400 not shown: ask for them with another read_range`,
    );
  });

  it('says both when the range is cut and runs past the end', async () => {
    expect(await output(readRange, { file: 'src/main/resources/numbers.txt', start: 150, end: 1000 })).toBe(
      `${rows(numbersFile, 150, 349)}\n... lines 350-400 not shown: ask for them with another read_range (the file has 400 lines)`,
    );
  });

  it('stops at the output limit on a whole line and says where to go on', async () => {
    // Each line costs 107 characters: 55 of them and the note fit in 6000, 56 do not.
    const text = await output(readRange, { file: 'src/main/resources/wide.txt', start: 1, end: 200 });
    expect(text).toBe(`${rows(wideFile, 1, 55)}\n... lines 56-200 not shown: ask for them with another read_range`);
    expect(text.length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS);
  });

  it('reads CRLF files without carriage returns and does not count the final line break as a line', async () => {
    expect(await output(readRange, { file: 'src/main/resources/app.properties', start: 1 })).toBe('   1| greeting=hello\n   2| target=world\n(the file has 2 lines)');
  });

  it('cuts a very long line and marks it', async () => {
    const line = `var calc={add:function(a,b){return a+b}};${'/*pad*/'.repeat(200)}`;
    expect(await output(readRange, { file: 'src/main/resources/static/app.min.js', start: 1, end: 1 })).toBe(`   1| ${line.slice(0, 1000)} ... (line cut)`);
  });

  it('accepts backslashes and ./ in paths', async () => {
    expect(await output(readRange, { file: '.\\src\\main\\java\\com\\acme\\calc\\Operation.java', start: 4, end: 5 })).toBe(rows(OPERATION, 4, 5));
  });

  it('refuses a start past the end of the file', async () => {
    expect(await run(readRange, { file: OP, start: 15 })).toEqual({ ok: false, output: `${OP} has 14 lines; start 15 is past its end` });
  });

  it('suggests files with the same name for a missing file', async () => {
    expect(await run(readRange, { file: 'src/Calculator.java', start: 1 })).toEqual({
      ok: false,
      output: `no file src/Calculator.java in the project; files named Calculator.java: ${CALC}`,
    });
    expect(await output(readRange, { file: 'docs/README.md', start: 1 })).toBe(
      'no file docs/README.md in the project; files named README.md: modules/m1/README.md, modules/m2/README.md, modules/m3/README.md, modules/m4/README.md, modules/m5/README.md and 2 more',
    );
    expect(await output(readRange, { file: 'src/main/java/com/acme/Nope.java', start: 1 })).toBe(
      'no file src/main/java/com/acme/Nope.java in the project, and no file named Nope.java anywhere in it',
    );
  });

  it('says a folder is not a file', async () => {
    expect(await run(readRange, { file: 'src/main/java/com/acme/gen/', start: 1 })).toEqual({
      ok: false,
      output: `src/main/java/com/acme/gen is a folder, not a file; it holds ${BIG}, ${GENERATED}`,
    });
  });

  it('answers each bad argument with one line naming it', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'read_range needs "file" (a project-relative path)'],
      [{ file: 42, start: 1 }, 'read_range needs "file" (a project-relative path), got 42'],
      [{ file: '  ', start: 1 }, 'read_range needs "file" (a project-relative path), got "  "'],
      [{ file: OP }, 'read_range needs "start" (the first line to show, a whole number from 1)'],
      [{ file: OP, start: 'ten' }, 'read_range needs "start" as a whole number, got "ten"'],
      [{ file: OP, start: 1.5 }, 'read_range needs "start" as a whole number, got 1.5'],
      [{ file: OP, start: '3.0' }, 'read_range needs "start" as a whole number, got "3.0"'],
      [{ file: OP, start: 0 }, 'read_range needs "start" to be 1 or more, got 0'],
      [{ file: OP, start: '-4' }, 'read_range needs "start" to be 1 or more, got -4'],
      [{ file: OP, start: 1, end: 'x' }, 'read_range needs "end" as a whole number, got "x"'],
      [{ file: OP, start: 10, end: 5 }, 'read_range needs "end" (5) to be at least "start" (10)'],
    ];
    for (const [args, message] of cases) expect(await run(readRange, args), JSON.stringify(args)).toEqual({ ok: false, output: message });
  });
});

describe('path checks', () => {
  const fileTools: [AgentTool, Record<string, unknown>][] = [
    [readRange, { start: 1 }],
    [getClassesAndMethods, {}],
    [extractMethod, { method: 'add' }],
  ];

  it('refuses paths that leave the project, in every tool that takes a file', async () => {
    for (const [tool, rest] of fileTools) {
      for (const file of ['../secret.txt', 'src/../../secret.txt', '..\\secret.txt']) {
        expect(await run(tool, { ...rest, file })).toEqual({
          ok: false,
          output: `${tool.name} refuses "${file}": files outside the project are not readable; give a path inside the project without ".."`,
        });
      }
      for (const file of [path.join(base, 'secret.txt'), '/etc/passwd', 'C:\\Windows\\win.ini']) {
        expect(await run(tool, { ...rest, file })).toEqual({
          ok: false,
          output: `${tool.name} refuses "${file}": files outside the project are not readable; give a path relative to the project root`,
        });
      }
    }
  });

  it('refuses .. even when the path would land inside the project', async () => {
    expect(await output(readRange, { file: 'src/../pom.xml', start: 1 })).toBe(
      'read_range refuses "src/../pom.xml": files outside the project are not readable; give a path inside the project without ".."',
    );
  });

  it('points an absolute path inside the project to its relative form', async () => {
    expect(await run(readRange, { file: path.join(root, OP), start: 1 })).toEqual({
      ok: false,
      output: `read_range takes project-relative paths: give "${OP}" instead of "${path.join(root, OP)}"`,
    });
  });

  it('refuses a glob that leaves the project', async () => {
    for (const glob of ['../**', '/etc/**']) {
      expect(await run(searchCodeBase, { pattern: 'password', glob })).toEqual({ ok: false, output: `search_code_base refuses glob "${glob}": files outside the project are not readable` });
    }
  });
});

describe('search_code_base', () => {
  const hitsOf = (text: string) => text.split('\n').slice(1);

  it('lists the exact matches first, in path order, across the Java files by default, under a line that counts them', async () => {
    const text = await output(searchCodeBase, { pattern: 'add(' });
    expect(text.split('\n')[0]).toBe('7 lines match (7 exactly), best first:');
    expect(hitsOf(text)).toEqual([
      `${CALC}:14: history.add(0);`,
      `${CALC}:19: return add(a, b);`,
      `${CALC}:22: public int add(int a, int b) {`,
      `${CALC}:23: history.add(a + b);`,
      `${CALC}:27: public double add(double a,`,
      `${TEST}:16: assertEquals(5, new Calculator().add(2, 3));`,
      `${TEST}:27: assertEquals(value, new Calculator().add(value, 0));`,
    ]);
  });

  it('matches the pattern literally first, so parentheses and dots need no escaping', async () => {
    expect(hitsOf(await output(searchCodeBase, { pattern: 'add(a, b)' }))[0]).toBe(`${CALC}:19: return add(a, b);`);
    expect(hitsOf(await output(searchCodeBase, { pattern: 'getClass().get' }))[0]).toBe(`${OP}:8: return getClass().getSimpleName();`);
  });

  it('finds the words of an identifier in other identifiers, case-insensitively, ranked by how many words a line holds', async () => {
    const text = await output(searchCodeBase, { pattern: 'addsTwoValues' });
    expect(text.split('\n')[0]).toBe('4 lines match (0 exactly; words: adds, two, values), best first:');
    expect(hitsOf(text)).toEqual([`${TEST}:15: void addsTwoNumbers() {  [adds, two]`, `${TEST}:14: @DisplayName("adds (two) numbers")  [adds, two]`,
      `${OP}:3: /** Something that combines two numbers. */  [two]`,
      `${TEST}:26: void addsZero(int value) {  [adds]`,
    ]);
  });

  it('ranks a line holding a run of the words (sortArray of fastSortArray) above one holding the same number apart', async () => {
    await writeFile(
      path.join(root, 'src/main/java/com/acme/calc/Sorting.java'),
      ['package com.acme.calc;', 'class Sorting {', '  int[] arrayToSort;', '  void sortArray(int[] a) {}', '  void fast() {}', '}', ''].join('\n'),
    );
    try {
      // A fresh view: the test's view listed the files before this one was written.
      const fresh = { ...context, view: createSourceView(root) };
      const hits = hitsOf((await searchCodeBase.run({ pattern: 'fastSortArray', glob: '**/Sorting.java' }, fresh)).output);
      expect(hits).toEqual([
        'src/main/java/com/acme/calc/Sorting.java:4: void sortArray(int[] a) {}  [sort, array]',
        'src/main/java/com/acme/calc/Sorting.java:3: int[] arrayToSort;  [sort, array]',
        'src/main/java/com/acme/calc/Sorting.java:5: void fast() {}  [fast]',
      ]);
    } finally {
      await rm(path.join(root, 'src/main/java/com/acme/calc/Sorting.java'));
    }
  });

  it('finds text inside strings and comments, since it is a text search', async () => {
    const hits = hitsOf(await output(searchCodeBase, { pattern: 'memory', glob: 'src/*/java/com/acme/calc/*.java' }));
    expect(hits).toEqual([`${CALC}:7: * A calculator with a memory. Braces in this comment { do not } count.`, `${CALC}:40: static class Memory {`]);
  });

  it('searches the files a glob names; a glob without a slash matches names in any folder', async () => {
    expect(hitsOf(await output(searchCodeBase, { pattern: 'assertEquals(', glob: '*Test.java' }))).toEqual([
      `${TEST}:16: assertEquals(5, new Calculator().add(2, 3));`,
      `${TEST}:21: assertEquals("value { 7", new Calculator().describe(7));`,
      `${TEST}:27: assertEquals(value, new Calculator().add(value, 0));`,
      `${TEST}:32: assertEquals(0, dir.toFile().list().length);`,
      `${TEST}:3: import static org.junit.jupiter.api.Assertions.assertEquals;  [assert, equals]`,
    ]);
    expect(hitsOf(await output(searchCodeBase, { pattern: 'artifactId', glob: 'pom.xml' }))).toEqual(['pom.xml:4: <artifactId>calc</artifactId>']);
    expect(await output(searchCodeBase, { pattern: 'Stale', glob: '**/*' })).toBe('no match for "Stale" in 20 files');
  });

  it('skips binary files', async () => {
    expect(await output(searchCodeBase, { pattern: 'Calculator', glob: 'lib/**' })).toBe('no match for "Calculator" in 1 file');
  });

  it('says how many files it looked in when nothing matches, and which words it tried', async () => {
    expect(await run(searchCodeBase, { pattern: 'subtract(' })).toEqual({ ok: true, output: 'no match for "subtract(" in 6 files' });
    expect(await run(searchCodeBase, { pattern: 'zebraQuark' })).toEqual({ ok: true, output: 'no match for "zebraQuark" nor any of its words (zebra, quark) in 6 files' });
    expect(await run(searchCodeBase, { pattern: 'fun ', glob: '**/*.kt' })).toEqual({ ok: true, output: 'no match for "fun " in 0 files (no file matches the glob "**/*.kt")' });
  });

  it('shows at most 50 hits and says how many more there are', async () => {
    const expected = Array.from({ length: 50 }, (_, i) => `src/main/resources/notes.txt:${i + 1}: TODO item ${i + 1}`);
    expect(await output(searchCodeBase, { pattern: 'TODO', glob: '**/notes.txt' })).toBe(`60 lines match (60 exactly), best first:\n${expected.join('\n')}\n... 10 more matches not shown: narrow the pattern or the glob`);
  });

  it('stops at the output limit before 50 long hits', async () => {
    const text = await output(searchCodeBase, { pattern: 'xxx', glob: 'src/main/resources/wide.txt' });
    const hits = hitsOf(text);
    expect(hits.at(-1)).toMatch(/^\.\.\. \d+ more matches not shown: narrow the pattern or the glob$/);
    expect(hits.length).toBeLessThan(50);
    expect(text.length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS);
  });

  it('cuts any other answer at the output limit and says so', async () => {
    const text = await output(searchCodeBase, { pattern: 'y'.repeat(7000) });
    expect(text).toHaveLength(MAX_TOOL_OUTPUT_CHARS);
    expect(text.startsWith(`no match for "${'y'.repeat(100)}`)).toBe(true);
    expect(text.endsWith(`y\n... (cut at ${MAX_TOOL_OUTPUT_CHARS} characters)`)).toBe(true);
  });

  it('answers each bad argument with one line naming it', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'search_code_base needs "pattern" (the code or identifier to look for)'],
      [{ pattern: '' }, 'search_code_base needs "pattern" (the code or identifier to look for), got ""'],
      [{ pattern: 5 }, 'search_code_base needs "pattern" (the code or identifier to look for), got 5'],
      [{ pattern: 'int a,\nint b' }, 'search_code_base matches within one line: "pattern" cannot hold a line break'],
      [{ pattern: 'add', glob: 3 }, 'search_code_base needs "glob" as text such as "**/*.java", got 3'],
      [{ pattern: 'add', glob: ['**/*.java'] }, 'search_code_base needs "glob" as text such as "**/*.java", got ["**/*.java"]'],
    ];
    for (const [args, message] of cases) expect(await run(searchCodeBase, args), JSON.stringify(args)).toEqual({ ok: false, output: message });
  });
});

describe('get_classes_and_methods', () => {
  it('outlines types, constructors and methods with their lines, nested classes indented', async () => {
    expect(await run(getClassesAndMethods, { file: CALC })).toEqual({
      ok: true,
      output: [
        '   9: public class Calculator implements Operation',
        '  13:   public Calculator()',
        '  18:   public int apply(int a, int b)',
        '  22:   public int add(int a, int b)',
        '  27:   public double add(double a, double b)',
        '  33:   public String symbol()',
        '  35:   public String describe(int value)',
        '  40:   static class Memory',
        '  43:     void store(int value)',
        '  47:     int recall()',
      ].join('\n'),
    });
  });

  it('lists interface methods without a body, and annotations are left out of signatures and line numbers', async () => {
    expect(await output(getClassesAndMethods, { file: OP })).toBe(
      ['   4: public interface Operation', '   5:   int apply(int a, int b)', '   7:   default String name()', '  12:   String symbol() throws UnsupportedOperationException'].join('\n'),
    );
    expect(await output(getClassesAndMethods, { file: TEST })).toBe(
      ['  12: class CalculatorTest', '  15:   void addsTwoNumbers()', '  20:   void describesAValue()', '  26:   void addsZero(int value)', '  31:   void leavesNoFiles(Path dir)'].join('\n'),
    );
  });

  it('outlines a record and a one-line interface, listing a type that shares its line with a method once', async () => {
    const text = await output(getClassesAndMethods, { file: RANGE });
    expect(text.split('\n').slice(0, 5)).toEqual(['   4: public record Range(int low, int high)', '   5:   public Range', '   9:   public int width()', '  11:   interface Visitor', '  11:     void visit(Range range)']);
    expect(text.split('\n').filter((line) => line.includes('class Empty'))).toEqual(['  13:   static final class Empty extends RuntimeException']);
    expect(await output(extractMethod, { file: RANGE, method: 'visit' })).toBe(row(RANGE_LINES, 11));
  });

  it('says when a file declares nothing', async () => {
    await writeFile(path.join(root, 'src/main/java/com/acme/calc/package-info.java'), '/** Calculators. */\npackage com.acme.calc;\n');
    try {
      expect(await getClassesAndMethods.run({ file: 'src/main/java/com/acme/calc/package-info.java' }, { ...context, view: createSourceView(root) })).toEqual({
        ok: true,
        output: 'no class, interface, enum, record or method found in src/main/java/com/acme/calc/package-info.java (2 lines)',
      });
    } finally {
      await rm(path.join(root, 'src/main/java/com/acme/calc/package-info.java'));
    }
    expect(await run(getClassesAndMethods, { file: 'pom.xml' })).toEqual({ ok: false, output: 'get_classes_and_methods reads Java source files; pom.xml is not one (read it with {"tool":"read_range","args":{"file":"pom.xml","start":1}})' });
  });

  it('stops at the output limit and says where the rest starts', async () => {
    const expected = ['   3: public class Generated', ...Array.from({ length: 200 }, (_, i) => `${String(i + 4).padStart(4)}:   public int value${i + 1}()`)];
    const text = await output(getClassesAndMethods, { file: GENERATED });
    expect(text).toBe(`${expected.join('\n')}\n... 100 more declarations not shown: read them with read_range from line 204`);
    expect(text.length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS);
  });

  it('answers bad arguments and missing files with one line', async () => {
    expect(await run(getClassesAndMethods, {})).toEqual({ ok: false, output: 'get_classes_and_methods needs "file" (a project-relative path)' });
    expect(await run(getClassesAndMethods, { file: ['a.java'] })).toEqual({ ok: false, output: 'get_classes_and_methods needs "file" (a project-relative path), got ["a.java"]' });
    expect(await run(getClassesAndMethods, { file: 'Operation.java' })).toEqual({ ok: false, output: `no file Operation.java in the project; files named Operation.java: ${OP}` });
  });
});

describe('extract_method', () => {
  it('shows every overload with line numbers, separated by a blank line', async () => {
    expect(await run(extractMethod, { file: CALC, method: 'add' })).toEqual({ ok: true, output: `${rows(CALCULATOR, 22, 25)}\n\n${rows(CALCULATOR, 27, 30)}` });
  });

  it('finds constructors, methods of nested classes and one-liners', async () => {
    expect(await output(extractMethod, { file: CALC, method: 'Calculator' })).toBe(rows(CALCULATOR, 13, 15));
    expect(await output(extractMethod, { file: CALC, method: 'store' })).toBe(rows(CALCULATOR, 43, 45));
    expect(await output(extractMethod, { file: CALC, method: 'recall' })).toBe(row(CALCULATOR, 47));
  });

  it('includes the annotations above a method, also for one without a body', async () => {
    expect(await output(extractMethod, { file: CALC, method: 'apply' })).toBe(rows(CALCULATOR, 17, 20));
    expect(await output(extractMethod, { file: OP, method: 'symbol' })).toBe(rows(OPERATION, 11, 13));
    expect(await output(extractMethod, { file: TEST, method: 'addsTwoNumbers' })).toBe(rows(CALCULATOR_TEST, 13, 17));
    expect(await output(extractMethod, { file: TEST, method: 'addsZero' })).toBe(rows(CALCULATOR_TEST, 24, 28));
  });

  it('takes the name out of Class.method(...) and Class#method', async () => {
    const overloads = `${rows(CALCULATOR, 22, 25)}\n\n${rows(CALCULATOR, 27, 30)}`;
    expect(await output(extractMethod, { file: CALC, method: 'Calculator.add(int, int)' })).toBe(overloads);
    expect(await output(extractMethod, { file: CALC, method: 'Calculator#add' })).toBe(overloads);
  });

  it('lists the methods the file has when the name is not among them', async () => {
    expect(await run(extractMethod, { file: CALC, method: 'subtract' })).toEqual({
      ok: false,
      output: `no method subtract in ${CALC}; its methods are: Calculator, apply, add, symbol, describe, store, recall`,
    });
    expect(await output(extractMethod, { file: GENERATED, method: 'value0' })).toBe(
      `no method value0 in ${GENERATED}; its methods are: ${Array.from({ length: 40 }, (_, i) => `value${i + 1}`).join(', ')} and 260 more`,
    );
    expect(await output(extractMethod, { file: 'pom.xml', method: 'build' })).toBe('extract_method reads Java source files; pom.xml is not one (read it with {"tool":"read_range","args":{"file":"pom.xml","start":1}})');
  });

  it('stops at the output limit and says where to read on', async () => {
    const text = await output(extractMethod, { file: BIG, method: 'sum' });
    expect(text).toBe(`${rows(BIG_LINES, 4, 218)}\n... cut at the output limit: read the rest with read_range from line 219`);
    expect(text.length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS);
  });

  it('answers each bad argument with one line naming it', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ method: 'add' }, 'extract_method needs "file" (a project-relative path)'],
      [{ file: CALC }, 'extract_method needs "method" (a method or constructor name)'],
      [{ file: CALC, method: 7 }, 'extract_method needs "method" (a method or constructor name), got 7'],
      [{ file: CALC, method: '123' }, 'extract_method needs "method" as a name such as add, got "123"'],
      [{ file: CALC, method: '(int a)' }, 'extract_method needs "method" as a name such as add, got "(int a)"'],
      [{ file: 'src/main/java/Calculator.java', method: 'add' }, `no file src/main/java/Calculator.java in the project; files named Calculator.java: ${CALC}`],
    ];
    for (const [args, message] of cases) expect(await run(extractMethod, args), JSON.stringify(args)).toEqual({ ok: false, output: message });
  });
});
