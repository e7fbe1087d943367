import path from 'node:path';
import { expect } from 'vitest';
import { runToolTable } from '../../../../helpers/agent-tool-tester.js';
import { MAX_TOOL_OUTPUT_CHARS } from '../../../../../src/plugins/contracts.js';
import { getClassesAndMethods } from '../../../../../src/repair/agent/tools/get-classes-and-methods.js';
import { CALC, GENERATED, OP, OUTSIDE, PROJECT, RANGE, TEST } from './calc-project.js';

const leaving = (file: string) =>
  `get_classes_and_methods refuses "${file}": files outside the project are not readable; give a path inside the project without ".."`;
const absolute = (file: string) =>
  `get_classes_and_methods refuses "${file}": files outside the project are not readable; give a path relative to the project root`;

runToolTable(getClassesAndMethods, {
  files: PROJECT,
  outside: OUTSIDE,
  rows: [
    {
      name: 'outlines types, constructors and methods with their lines, nested classes indented',
      args: { file: CALC },
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
    },
    {
      name: 'lists interface methods without a body',
      args: { file: OP },
      ok: true,
      output: [
        '   4: public interface Operation',
        '   5:   int apply(int a, int b)',
        '   7:   default String name()',
        '  12:   String symbol() throws UnsupportedOperationException',
      ].join('\n'),
    },
    {
      name: 'leaves annotations out of signatures and line numbers',
      args: { file: TEST },
      ok: true,
      output: [
        '  12: class CalculatorTest',
        '  15:   void addsTwoNumbers()',
        '  20:   void describesAValue()',
        '  26:   void addsZero(int value)',
        '  31:   void leavesNoFiles(Path dir)',
      ].join('\n'),
    },
    {
      name: 'outlines a record and a one-line interface, listing a type that shares its line with a method once',
      args: { file: RANGE },
      ok: true,
      output:
        /^ {3}4: public record Range\(int low, int high\)\n {3}5: {3}public Range\n {3}9: {3}public int width\(\)\n {2}11: {3}interface Visitor\n {2}11: {5}void visit\(Range range\)\n/,
      check: (output) =>
        expect(output.split('\n').filter((line) => line.includes('class Empty'))).toEqual([
          '  13:   static final class Empty extends RuntimeException',
        ]),
    },
    {
      name: 'says when a file declares nothing',
      files: { 'src/main/java/com/acme/calc/package-info.java': '/** Calculators. */\npackage com.acme.calc;\n' },
      args: { file: 'src/main/java/com/acme/calc/package-info.java' },
      ok: true,
      output:
        'no class, interface, enum, record or method found in src/main/java/com/acme/calc/package-info.java (2 lines)',
    },
    {
      name: 'reads only Java files',
      args: { file: 'pom.xml' },
      ok: false,
      output:
        'get_classes_and_methods reads Java source files; pom.xml is not one (read it with {"tool":"read_range","args":{"file":"pom.xml","start":1}})',
    },
    {
      name: 'stops at the output limit and says where the rest starts',
      args: { file: GENERATED },
      ok: true,
      output: `${['   3: public class Generated', ...Array.from({ length: 200 }, (_, i) => `${String(i + 4).padStart(4)}:   public int value${i + 1}()`)].join('\n')}\n... 100 more declarations not shown: read them with read_range from line 204`,
      check: (output) => expect(output.length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS),
    },
    {
      name: 'answers a missing file with one line',
      direct: true,
      args: {},
      ok: false,
      output: 'get_classes_and_methods needs "file" (a project-relative path)',
    },
    {
      name: 'answers a file that is not text',
      direct: true,
      args: { file: ['a.java'] },
      ok: false,
      output: 'get_classes_and_methods needs "file" (a project-relative path), got ["a.java"]',
    },
    {
      name: 'names the file of a bare file name',
      direct: true,
      args: { file: 'Operation.java' },
      ok: false,
      output: `no file Operation.java in the project; files named Operation.java: ${OP}`,
    },
    ...['../secret.txt', 'src/../../secret.txt', '..\\secret.txt'].map((file) => ({
      args: { file },
      ok: false,
      output: leaving(file),
    })),
    ...['/etc/passwd', 'C:\\Windows\\win.ini'].map((file) => ({ args: { file }, ok: false, output: absolute(file) })),
    {
      name: 'refuses an absolute path outside the project',
      args: ({ base }) => ({ file: path.join(base, 'secret.txt') }),
      ok: false,
      output: ({ base }) => absolute(path.join(base, 'secret.txt')),
    },
  ],
});
