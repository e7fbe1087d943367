import path from 'node:path';
import { expect } from 'vitest';
import { runToolTable } from '../../../../helpers/agent-tool-tester.js';
import { MAX_TOOL_OUTPUT_CHARS } from '../../../../../src/plugins/contracts.js';
import { extractMethod } from '../../../../../src/repair/agent/tools/extract-method.js';
import {
  BIG,
  BIG_LINES,
  CALC,
  CALCULATOR,
  CALCULATOR_TEST,
  GENERATED,
  OP,
  OPERATION,
  OUTSIDE,
  PROJECT,
  RANGE,
  RANGE_LINES,
  row,
  rows,
  TEST,
} from './calc-project.js';

const overloads = `${rows(CALCULATOR, 22, 25)}\n\n${rows(CALCULATOR, 27, 30)}`;
const leaving = (file: string) =>
  `extract_method refuses "${file}": files outside the project are not readable; give a path inside the project without ".."`;
const absolute = (file: string) =>
  `extract_method refuses "${file}": files outside the project are not readable; give a path relative to the project root`;

runToolTable(extractMethod, {
  files: PROJECT,
  outside: OUTSIDE,
  rows: [
    {
      name: 'shows every overload with line numbers, separated by a blank line',
      args: { file: CALC, method: 'add' },
      ok: true,
      output: overloads,
    },
    {
      name: 'finds constructors',
      args: { file: CALC, method: 'Calculator' },
      ok: true,
      output: rows(CALCULATOR, 13, 15),
    },
    {
      name: 'finds methods of nested classes',
      args: { file: CALC, method: 'store' },
      ok: true,
      output: rows(CALCULATOR, 43, 45),
    },
    { name: 'finds one-liners', args: { file: CALC, method: 'recall' }, ok: true, output: row(CALCULATOR, 47) },
    {
      name: 'finds a method of a one-line interface nested in a record',
      args: { file: RANGE, method: 'visit' },
      ok: true,
      output: row(RANGE_LINES, 11),
    },
    {
      name: 'includes the annotations above a method',
      args: { file: CALC, method: 'apply' },
      ok: true,
      output: rows(CALCULATOR, 17, 20),
    },
    {
      name: 'includes the annotations above a method without a body',
      args: { file: OP, method: 'symbol' },
      ok: true,
      output: rows(OPERATION, 11, 13),
    },
    {
      name: "includes a test method's annotations",
      args: { file: TEST, method: 'addsTwoNumbers' },
      ok: true,
      output: rows(CALCULATOR_TEST, 13, 17),
    },
    {
      name: "includes a parameterized test's annotations",
      args: { file: TEST, method: 'addsZero' },
      ok: true,
      output: rows(CALCULATOR_TEST, 24, 28),
    },
    {
      name: 'takes the name out of Class.method(...)',
      direct: true,
      args: { file: CALC, method: 'Calculator.add(int, int)' },
      ok: true,
      output: overloads,
    },
    {
      name: 'takes the name out of Class#method',
      direct: true,
      args: { file: CALC, method: 'Calculator#add' },
      ok: true,
      output: overloads,
    },
    {
      name: 'lists the methods the file has when the name is not among them',
      direct: true,
      args: { file: CALC, method: 'subtract' },
      ok: false,
      output: `no method subtract in ${CALC}; its methods are: Calculator, apply, add, symbol, describe, store, recall`,
    },
    {
      name: 'lists the first 40 methods and counts the rest',
      direct: true,
      args: { file: GENERATED, method: 'value0' },
      ok: false,
      output: `no method value0 in ${GENERATED}; its methods are: ${Array.from({ length: 40 }, (_, i) => `value${i + 1}`).join(', ')} and 260 more`,
    },
    {
      name: 'reads only Java files',
      direct: true,
      args: { file: 'pom.xml', method: 'build' },
      ok: false,
      output:
        'extract_method reads Java source files; pom.xml is not one (read it with {"tool":"read_range","args":{"file":"pom.xml","start":1}})',
    },
    {
      name: 'stops at the output limit and says where to read on',
      args: { file: BIG, method: 'sum' },
      ok: true,
      output: `${rows(BIG_LINES, 4, 218)}\n... cut at the output limit: read the rest with read_range from line 219`,
      check: (output) => expect(output.length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS),
    },
    // Each bad argument answered with one line naming it: the tool's own checks (the middleware
    // looks a method's file up first and answers with what it finds).
    ...(
      [
        [{ method: 'add' }, 'extract_method needs "file" (a project-relative path)'],
        [{ file: CALC }, 'extract_method needs "method" (a method or constructor name)'],
        [{ file: CALC, method: 7 }, 'extract_method needs "method" (a method or constructor name), got 7'],
        [{ file: CALC, method: '123' }, 'extract_method needs "method" as a name such as add, got "123"'],
        [{ file: CALC, method: '(int a)' }, 'extract_method needs "method" as a name such as add, got "(int a)"'],
        [
          { file: 'src/main/java/Calculator.java', method: 'add' },
          `no file src/main/java/Calculator.java in the project; files named Calculator.java: ${CALC}`,
        ],
      ] as const
    ).map(([args, output]) => ({ direct: true, args, ok: false, output })),
    ...['../secret.txt', 'src/../../secret.txt', '..\\secret.txt'].map((file) => ({
      direct: true,
      args: { file, method: 'add' },
      ok: false,
      output: leaving(file),
    })),
    ...['/etc/passwd', 'C:\\Windows\\win.ini'].map((file) => ({
      direct: true,
      args: { file, method: 'add' },
      ok: false,
      output: absolute(file),
    })),
    {
      name: 'refuses an absolute path outside the project',
      direct: true,
      args: ({ base }) => ({ file: path.join(base, 'secret.txt'), method: 'add' }),
      ok: false,
      output: ({ base }) => absolute(path.join(base, 'secret.txt')),
    },
  ],
});
