import { literalReturnFixer } from '../../../../src/repair/fixers/literal-return.js';
import { PROJECT_ROOT, testFixer, type FixerTestRow } from '../../../helpers/fixer-tester.js';

const A = 'src/main/java/a/A.java';
const java = (...lines: string[]) => `${lines.join('\n')}\n`;
/** A method declared to return `type` whose third line returns `literal`: javac points at the literal, column 12. */
const returning = (type: string, literal: string) =>
  java('class A {', `  ${type} f() {`, `    return ${literal};`, '  }', '}');
const error = (line: number, message: string) => `[ERROR] ${PROJECT_ROOT}/${A}:[${line},12] ${message}`;
/** javac's message for `literal` returned where `type` is declared. */
const mismatch = (literal: string, type: string) => {
  if (literal.startsWith('"')) return `incompatible types: String cannot be converted to ${type}`;
  if (type === 'String') return `incompatible types: int cannot be converted to String`;
  return `incompatible types: possible lossy conversion from ${/[lL]$/.test(literal) ? 'long' : 'double'} to ${type}`;
};

const kept: [string, string, string][] = [
  ['"42"', 'int', '42'],
  ['"-7"', 'long', '-7'],
  ['"9999999999"', 'long', '9999999999L'],
  ['"true"', 'boolean', 'true'],
  ['"2.5"', 'double', '2.5'],
  ['7', 'String', '"7"'],
  ['5L', 'int', '5'],
];
const changed: [string, string][] = [
  ['"9999999999"', 'int'],
  ['"007"', 'int'],
  ['"3 apples"', 'int'],
  ['1.5', 'int'],
  ['"x"', 'char'],
  ['9999999999L', 'int'],
  ['"yes"', 'boolean'],
];

const twoMethods = java(
  'class A {',
  '  long f() {',
  '    return "3";',
  '  }',
  '  int g() {',
  '    return value;',
  '  }',
  '}',
);

testFixer(literalReturnFixer, [
  ...kept.map(([literal, type, written]): FixerTestRow => ({
    name: `${literal} returned as ${type} becomes ${written}`,
    files: { [A]: returning(type, literal) },
    log: [error(3, mismatch(literal, type))],
    edit: { [A]: returning(type, written) },
  })),
  ...changed.map(([literal, type]): FixerTestRow => ({
    name: `${literal} returned as ${type} is refused: no rewrite keeps the value`,
    files: { [A]: returning(type, literal) },
    log: [error(3, mismatch(literal, type))],
    edit: 'none',
  })),
  {
    name: 'rewrites for the type the method returns',
    files: { [A]: twoMethods },
    log: [error(3, 'incompatible types: String cannot be converted to long')],
    edit: { [A]: twoMethods.replace('"3"', '3') },
    reason: 'rewrite the returned literal as long at src/main/java/a/A.java:3',
  },
  {
    name: 'refuses when the method does not return the type javac wanted',
    files: { [A]: twoMethods },
    log: [error(3, 'incompatible types: String cannot be converted to int')],
    edit: 'none',
  },
  {
    name: 'refuses a line that is no literal return',
    files: { [A]: twoMethods },
    log: [error(6, 'incompatible types: String cannot be converted to int')],
    edit: 'none',
  },
]);
