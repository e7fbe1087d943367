import { missingThrowsFixer } from '../../../../src/repair/fixers/missing-throws.js';
import { PROJECT_ROOT, testFixer, type FixerTestRow } from '../../../helpers/fixer-tester.js';

const A = 'src/main/java/a/A.java';
const java = (...lines: string[]) => `${lines.join('\n')}\n`;
/** A class whose one method, declared by `header`, calls `x.run()` on line 5 plus one line per line of `extra` (above the class). */
const cls = (header: string, extra: string[] = []) =>
  java('package a;', '', ...extra, 'class A {', `  ${header} {`, '    x.run();', '  }', '}');
/** javac points at the call's opening parenthesis. */
const unreported = (exception: string, line = 5, column = 10) =>
  `[ERROR] ${PROJECT_ROOT}/${A}:[${line},${column}] unreported exception ${exception}; must be caught or declared to be thrown`;

const refusedHeaders: [string, string][] = [
  ['a public method: its signature is API', 'public void f()'],
  ['a protected method: its signature is API', 'protected void f()'],
  ['an override: the supertype decides what it throws', '@Override void f()'],
];
/** A CRLF file with one LF line pasted in. */
const mixed = (header: string) =>
  [
    'package a;\r\n',
    'import java.io.IOException;\n',
    'class A {\r\n',
    '  void a() {\r\n',
    '  }\r\n',
    `  ${header} {\r\n`,
    '    x.run();\r\n',
    '  }\r\n',
    '}\r\n',
  ].join('');

testFixer(missingThrowsFixer, [
  {
    name: 'adds to an existing throws clause and needs no import for java.lang',
    files: { [A]: cls('private void f() throws IOException', ['import java.io.IOException;', '']) },
    log: [unreported('java.lang.InterruptedException', 7)],
    edit: {
      [A]: cls('private void f() throws IOException, InterruptedException', ['import java.io.IOException;', '']),
    },
    reason:
      'unreported java.lang.InterruptedException: declare it on the non-public method that throws it in src/main/java/a/A.java',
  },
  {
    name: 'writes the qualified name when another class of that simple name is imported',
    files: { [A]: cls('void f()', ['import x.y.TimeoutException;', '']) },
    log: [unreported('java.util.concurrent.TimeoutException', 7)],
    edit: { [A]: cls('void f() throws java.util.concurrent.TimeoutException', ['import x.y.TimeoutException;', '']) },
  },
  {
    name: 'declares it on a private constructor and imports it',
    files: { [A]: cls('private A()') },
    log: [unreported('java.io.IOException')],
    edit: {
      [A]: java(
        'package a;',
        '',
        'import java.io.IOException;',
        '',
        'class A {',
        '  private A() throws IOException {',
        '    x.run();',
        '  }',
        '}',
      ),
    },
  },
  {
    name: 'declares two exceptions of one method in one clause',
    files: { [A]: java('package a;', '', 'class A {', '  void f() {', '    x.run();', '    y.sleep();', '  }', '}') },
    log: [unreported('java.io.IOException', 5, 10), unreported('java.lang.InterruptedException', 6, 12)],
    edit: {
      [A]: java(
        'package a;',
        '',
        'import java.io.IOException;',
        '',
        'class A {',
        '  void f() throws IOException, InterruptedException {',
        '    x.run();',
        '    y.sleep();',
        '  }',
        '}',
      ),
    },
  },
  ...refusedHeaders.map(([why, header]): FixerTestRow => ({
    name: `refuses ${why}`,
    files: { [A]: cls(header) },
    log: [unreported('java.io.IOException')],
    edit: 'none',
  })),
  {
    name: 'finds the method in a file with mixed line endings',
    files: { [A]: mixed('void b()') },
    log: [unreported('java.io.IOException', 7)],
    edit: { [A]: mixed('void b() throws IOException') },
  },
  {
    name: 'refuses inside a lambda',
    files: {
      [A]: java(
        'class A {',
        '  private void f() {',
        '    Runnable r = () -> {',
        '      x.run();',
        '    };',
        '  }',
        '}',
      ),
    },
    log: [unreported('java.io.IOException', 4, 12)],
    edit: 'none',
  },
  {
    name: 'refuses inside an interface',
    files: { [A]: java('interface A {', '  default void f() {', '    x.run();', '  }', '}') },
    log: [unreported('java.io.IOException', 3)],
    edit: 'none',
  },
]);
