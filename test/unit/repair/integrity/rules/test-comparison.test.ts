/**
 * test-comparison, as a table: which changes it reads, and deleted test classes. The
 * methods compared one by one, the bodies and the assertions are in
 * test/unit/integrity-java-tests.test.ts, integrity-java-test-body.test.ts,
 * integrity-assertions.test.ts and integrity-check.test.ts.
 */
import { describe } from 'vitest';
import { testComparison } from '../../../../../src/repair/integrity/rules/test-comparison.js';
import { testIntegrityRule } from '../../../../helpers/integrity-rule-tester.js';

const FILE = 'src/test/java/com/acme/CalcTest.java';

/** A test class: `members` inside `class CalcTest { ... }`. */
const testClass = (members: string, header = 'class CalcTest') => `package com.acme;

import org.junit.jupiter.api.*;
import static org.junit.jupiter.api.Assertions.*;

${header} {
${members}
}
`;

const ADDS = '    @Test\n    void adds() {\n        assertEquals(2, 1 + 1);\n    }\n';
const SUBTRACTS = '    @Test\n    void subtracts() {\n        assertEquals(0, 1 - 1);\n    }\n';
const NESTED =
  '    @Nested\n    class Rounding {\n        @Test\n        void rounds() {\n            assertEquals(3, Math.round(2.5));\n        }\n    }\n';

describe('test-comparison: which changes are read', () => {
  testIntegrityRule(testComparison, [
    {
      name: 'a binary change is not compared',
      files: [{ path: FILE, before: testClass(ADDS), after: null, binary: true }],
      findings: [],
    },
    {
      name: 'a new test file is not compared',
      files: [{ path: FILE, before: null, after: testClass(ADDS) }],
      findings: [],
    },
    {
      name: 'a test class moved to a file that is not .java is deleted',
      files: [{ path: `${FILE}.disabled`, oldPath: FILE, before: testClass(ADDS), after: testClass(ADDS) }],
      findings: [
        {
          rule: 'test-class-deleted',
          file: FILE,
          message: 'deleted test class com.acme.CalcTest with its 1 test (adds)',
        },
      ],
    },
    {
      name: 'a test file that does not parse: one exact finding',
      files: [{ path: FILE, before: 'class CalcTest { @Test void x() { int a = ; } }', after: 'class CalcTest { }' }],
      findings: [{ rule: 'unreadable-test', file: FILE, failingTestEdit: false }],
    },
  ]);
});

describe('test-comparison: deleted test classes', () => {
  testIntegrityRule(testComparison, [
    {
      name: 'the whole class: one finding for the outer class, counting the nested tests',
      files: [{ path: FILE, before: testClass(ADDS + SUBTRACTS + NESTED), after: null }],
      findings: [
        {
          rule: 'test-class-deleted',
          file: FILE,
          line: 6,
          message: 'deleted test class com.acme.CalcTest with its 3 tests (adds, subtracts, rounds)',
          failingTestEdit: false,
        },
      ],
    },
    {
      name: 'a nested class alone, the outer one kept',
      files: [{ path: FILE, before: testClass(ADDS + NESTED), after: testClass(ADDS) }],
      findings: [
        {
          rule: 'test-class-deleted',
          file: FILE,
          message: 'deleted test class com.acme.CalcTest$Rounding with its 1 test (rounds)',
        },
      ],
    },
    {
      name: 'an empty @Nested class is a test class too',
      files: [
        { path: FILE, before: testClass(ADDS + '    @Nested\n    class Later {\n    }\n'), after: testClass(ADDS) },
      ],
      findings: [
        {
          rule: 'test-class-deleted',
          file: FILE,
          message: 'deleted test class com.acme.CalcTest$Later with its 0 tests ()',
        },
      ],
    },
    {
      name: 'an outer class with tests only in nested ones is one',
      files: [
        {
          path: FILE,
          before: testClass(
            '    private int helper() {\n        return 1;\n    }\n\n    class Plain {\n    }\n\n' + NESTED,
          ),
          after: null,
        },
      ],
      findings: [
        {
          rule: 'test-class-deleted',
          file: FILE,
          message: 'deleted test class com.acme.CalcTest with its 1 test (rounds)',
        },
      ],
    },
    {
      name: 'two classes whose names differ by a last letter are two findings',
      files: [
        { path: FILE, before: testClass(ADDS), after: null },
        { path: 'src/test/java/com/acme/CalcTests.java', before: testClass(SUBTRACTS, 'class CalcTests'), after: null },
      ],
      findings: [
        {
          rule: 'test-class-deleted',
          file: FILE,
          message: 'deleted test class com.acme.CalcTest with its 1 test (adds)',
        },
        {
          rule: 'test-class-deleted',
          file: 'src/test/java/com/acme/CalcTests.java',
          message: 'deleted test class com.acme.CalcTests with its 1 test (subtracts)',
        },
      ],
    },
    {
      name: 'a helper class without tests (a constructor is not a test) may go',
      files: [
        {
          path: FILE,
          before: testClass('    CalcTest(int seed) {\n    }\n\n    int seed() {\n        return 1;\n    }\n'),
          after: null,
        },
      ],
      findings: [],
    },
  ]);
});
