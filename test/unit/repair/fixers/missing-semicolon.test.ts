import { missingSemicolonFixer } from '../../../../src/repair/fixers/missing-semicolon.js';
import { PROJECT_ROOT, testFixer } from '../../../helpers/fixer-tester.js';

const A = 'src/main/java/a/A.java';
const java = (...lines: string[]) => `${lines.join('\n')}\n`;
/** `statement` as the third line of a method body, `next` the line after it. */
const body = (statement: string, next = '    }') => java('class A {', '  void f() {', statement, next, '}');
const semicolonExpected = (line: number, column: number) =>
  `[ERROR] ${PROJECT_ROOT}/${A}:[${line},${column}] ';' expected`;

const refusals: [string, string, number][] = [
  ['after an opening brace', '    if (x) {', 15],
  ['after a comma', '    call(a,', 12],
  ['in the middle of code', '    int x = 1 int y = 2;', 14],
  ['after an operator', '    int x = 1 +', 16],
  ['on a method header', '    private int g()', 20],
  ['on a control statement', '    while (x)', 14],
];

testFixer(missingSemicolonFixer, [
  {
    name: 'inserts right after the token javac points at',
    files: { [A]: body('    int x = 1') },
    log: [semicolonExpected(3, 14)],
    edit: { [A]: body('    int x = 1;') },
    reason: `add the missing semicolon at ${A}:3:14`,
  },
  {
    name: 'inserts before a trailing comment',
    files: { [A]: body('    i++ /* bump */') },
    log: [semicolonExpected(3, 8)],
    edit: { [A]: body('    i++; /* bump */') },
  },
  ...refusals.map(([why, statement, column]) => ({
    name: `refuses ${why}`,
    files: { [A]: body(statement) },
    log: [semicolonExpected(3, column)],
    edit: 'none' as const,
  })),
  {
    name: 'refuses when the next line continues the expression',
    files: { [A]: body('    String s = a', '        .trim();') },
    log: [semicolonExpected(3, 17)],
    edit: 'none',
  },
  {
    name: 'refuses a line past the end of the file',
    files: { [A]: body('    int x = 1') },
    log: [semicolonExpected(99, 2)],
    edit: 'none',
  },
  {
    name: 'refuses a column past the end of the line',
    files: { [A]: body('    int x = 1') },
    log: [semicolonExpected(3, 80)],
    edit: 'none',
  },
  { name: 'refuses line 0', files: { [A]: body('    int x = 1') }, log: [semicolonExpected(0, 1)], edit: 'none' },
]);
