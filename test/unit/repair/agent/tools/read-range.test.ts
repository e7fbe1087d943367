import path from 'node:path';
import { expect } from 'vitest';
import { runToolTable } from '../../../../helpers/agent-tool-tester.js';
import { MAX_TOOL_OUTPUT_CHARS } from '../../../../../src/plugins/contracts.js';
import { readRange } from '../../../../../src/repair/agent/tools/read-range.js';
import {
  BIG,
  CALC,
  CALCULATOR,
  GENERATED,
  numbersFile,
  OP,
  OPERATION,
  OUTSIDE,
  PROJECT,
  rows,
  wideFile,
} from './calc-project.js';

const line = `var calc={add:function(a,b){return a+b}};${'/*pad*/'.repeat(200)}`;
const leaving = (file: string) =>
  `read_range refuses "${file}": files outside the project are not readable; give a path inside the project without ".."`;
const absolute = (file: string) =>
  `read_range refuses "${file}": files outside the project are not readable; give a path relative to the project root`;

runToolTable(readRange, {
  files: PROJECT,
  outside: OUTSIDE,
  rows: [
    {
      name: 'shows the asked lines with right-aligned numbers',
      args: { file: CALC, start: 9, end: 12 },
      ok: true,
      output: [
        '   9| public class Calculator implements Operation {',
        '  10|     private final List<Integer> history = new ArrayList<>();',
        '  11|     private static final String FORMAT = "{result}";',
        '  12| ',
      ].join('\n'),
    },
    {
      name: 'shows 60 lines when no end is given',
      args: { file: 'src/main/resources/numbers.txt', start: 100 },
      ok: true,
      output: rows(numbersFile, 100, 159),
    },
    // The tool's own reading of numbers as text; through the middleware the call is corrected first and the model told so.
    {
      name: 'accepts numbers sent as strings',
      direct: true,
      args: { file: CALC, start: '22', end: ' 25 ' },
      ok: true,
      output: rows(CALCULATOR, 22, 25),
    },
    {
      name: 'numbers sent as strings, as the model sends them: corrected and said',
      args: { file: CALC, start: '22', end: ' 25 ' },
      ok: true,
      output: `(mvnx corrected your call: "22" → 22; " 25 " → 25)\n${rows(CALCULATOR, 22, 25)}`,
    },
    {
      name: 'clamps a range past the end of the file and says how long the file is',
      args: { file: OP, start: 10 },
      ok: true,
      output: `${rows(OPERATION, 10, 14)}\n(the file has 14 lines)`,
    },
    {
      name: 'shows at most 200 lines and says which were left out',
      args: { file: 'src/main/resources/numbers.txt', start: 12, end: 400 },
      ok: true,
      output: `${rows(numbersFile, 12, 211)}\n... lines 212-400 not shown: ask for them with another read_range`,
    },
    {
      name: 'says both when the range is cut and runs past the end',
      args: { file: 'src/main/resources/numbers.txt', start: 150, end: 1000 },
      ok: true,
      output: `${rows(numbersFile, 150, 349)}\n... lines 350-400 not shown: ask for them with another read_range (the file has 400 lines)`,
    },
    {
      // Each line costs 107 characters: 55 of them and the note fit in 6000, 56 do not.
      name: 'stops at the output limit on a whole line and says where to go on',
      args: { file: 'src/main/resources/wide.txt', start: 1, end: 200 },
      ok: true,
      output: `${rows(wideFile, 1, 55)}\n... lines 56-200 not shown: ask for them with another read_range`,
      check: (output) => expect(output.length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS),
    },
    {
      name: 'reads CRLF files without carriage returns and does not count the final line break as a line',
      args: { file: 'src/main/resources/app.properties', start: 1 },
      ok: true,
      output: '   1| greeting=hello\n   2| target=world\n(the file has 2 lines)',
    },
    {
      name: 'cuts a very long line and marks it',
      args: { file: 'src/main/resources/static/app.min.js', start: 1, end: 1 },
      ok: true,
      output: `   1| ${line.slice(0, 1000)} ... (line cut)`,
    },
    {
      name: 'accepts backslashes and ./ in paths',
      direct: true,
      args: { file: '.\\src\\main\\java\\com\\acme\\calc\\Operation.java', start: 4, end: 5 },
      ok: true,
      output: rows(OPERATION, 4, 5),
    },
    {
      name: 'refuses a start past the end of the file',
      args: { file: OP, start: 15 },
      ok: false,
      output: `${OP} has 14 lines; start 15 is past its end`,
    },
    {
      name: 'suggests files with the same name for a missing file',
      direct: true,
      args: { file: 'src/Calculator.java', start: 1 },
      ok: false,
      output: `no file src/Calculator.java in the project; files named Calculator.java: ${CALC}`,
    },
    {
      name: 'suggests the first five files of that name and counts the rest',
      direct: true,
      args: { file: 'docs/README.md', start: 1 },
      ok: false,
      output:
        'no file docs/README.md in the project; files named README.md: modules/m1/README.md, modules/m2/README.md, modules/m3/README.md, modules/m4/README.md, modules/m5/README.md and 2 more',
    },
    {
      name: 'says when no file has the name',
      args: { file: 'src/main/java/com/acme/Nope.java', start: 1 },
      ok: false,
      output: 'no file src/main/java/com/acme/Nope.java in the project, and no file named Nope.java anywhere in it',
    },
    {
      name: 'says a folder is not a file',
      args: { file: 'src/main/java/com/acme/gen/', start: 1 },
      ok: false,
      output: `src/main/java/com/acme/gen is a folder, not a file; it holds ${BIG}, ${GENERATED}`,
    },
    // Each bad argument answered with one line naming it. `direct`: the tool's own check of a
    // call the middleware corrects or completes first (a missing start, a number as text).
    ...(
      [
        [{}, 'read_range needs "file" (a project-relative path)', true],
        [{ file: 42, start: 1 }, 'read_range needs "file" (a project-relative path), got 42', false],
        [{ file: '  ', start: 1 }, 'read_range needs "file" (a project-relative path), got "  "', false],
        [{ file: OP }, 'read_range needs "start" (the first line to show, a whole number from 1)', true],
        [{ file: OP, start: 'ten' }, 'read_range needs "start" as a whole number, got "ten"', false],
        [{ file: OP, start: 1.5 }, 'read_range needs "start" as a whole number, got 1.5', false],
        [{ file: OP, start: '3.0' }, 'read_range needs "start" as a whole number, got "3.0"', true],
        [{ file: OP, start: 0 }, 'read_range needs "start" to be 1 or more, got 0', false],
        [{ file: OP, start: '-4' }, 'read_range needs "start" to be 1 or more, got -4', true],
        [{ file: OP, start: 1, end: 'x' }, 'read_range needs "end" as a whole number, got "x"', false],
        [{ file: OP, start: 10, end: 5 }, 'read_range needs "end" (5) to be at least "start" (10)', false],
      ] as const
    ).map(([args, output, direct]) => ({ direct, args, ok: false, output })),
    // Paths that leave the project.
    ...['../secret.txt', 'src/../../secret.txt', '..\\secret.txt', 'src/../pom.xml'].map((file) => ({
      args: { file, start: 1 },
      ok: false,
      output: leaving(file),
    })),
    ...['/etc/passwd', 'C:\\Windows\\win.ini'].map((file) => ({
      args: { file, start: 1 },
      ok: false,
      output: absolute(file),
    })),
    {
      name: 'refuses an absolute path outside the project',
      args: ({ base }) => ({ file: path.join(base, 'secret.txt'), start: 1 }),
      ok: false,
      output: ({ base }) => absolute(path.join(base, 'secret.txt')),
    },
    {
      name: 'points an absolute path inside the project to its relative form',
      direct: true,
      args: ({ root }) => ({ file: path.join(root, OP), start: 1 }),
      ok: false,
      output: ({ root }) => `read_range takes project-relative paths: give "${OP}" instead of "${path.join(root, OP)}"`,
    },
  ],
});
