/**
 * The test-integrity check, table-driven: every weakening shape of issue 12 must be found
 * with a precise reason, and the benign look-alikes (a main-code fix, a new assertion, a
 * renamed variable, a new test, reformatting) must pass.
 */
import { describe, expect, it } from 'vitest';
import type { ChangeSet, FileChange } from '../../src/patch/types.js';
import {
  checkTestIntegrity,
  testWeakeningReason,
  type FailingTestRef,
  type IntegrityFindingName,
} from '../../src/repair/integrity/index.js';

const TEST_FILE = 'src/test/java/com/acme/calc/CalculatorTest.java';
const MAIN_FILE = 'src/main/java/com/acme/calc/Calculator.java';

const TEST_SOURCE = `package com.acme.calc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class CalculatorTest {

    private Calculator calc;

    @BeforeEach
    void setUp() {
        calc = new Calculator();
    }

    @Test
    void addsTwoNumbers() {
        int sum = calc.add(2, 3);
        assertEquals(5, sum);
    }

    @Test
    void multipliesTwoNumbers() {
        int product = calc.multiply(2, 3);
        assertEquals(6, product, "2 * 3");
        assertThat(calc.multiply(3, 3)).isEqualTo(9);
    }

    @Test
    void rejectsNegativeDivisor() {
        try {
            calc.divide(1, -1);
            fail("expected an exception");
        } catch (IllegalArgumentException expected) {
            assertTrue(expected.getMessage().contains("negative"));
        }
    }

    @Nested
    class Rounding {
        @Test
        void roundsHalfUp() {
            assertEquals(3, calc.round(2.5));
        }
    }
}
`;

const MAIN_SOURCE = `package com.acme.calc;

public class Calculator {
    public int add(int a, int b) { return a + b; }
    public int multiply(int a, int b) { return a + b; }
}
`;

const POM = `<project>
  <modelVersion>4.0.0</modelVersion>
  <artifactId>calc</artifactId>
  <modules>
    <module>core</module>
    <module>app</module>
  </modules>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
  </properties>
  <build>
    <plugins>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>3.2.5</version>
      </plugin>
    </plugins>
  </build>
</project>
`;

const MULTIPLY = 'com.acme.calc.CalculatorTest#multipliesTwoNumbers';
const failing = (...tests: string[]): FailingTestRef[] =>
  tests.map((test) => ({ className: test.split('#')[0]!, method: test.split('#')[1]! }));

function edit(path: string, before: string | null, after: string | null, oldPath?: string): FileChange {
  return { path, before, after, ...(oldPath ? { oldPath } : {}) };
}

/** One replacement in the test source; fails loudly when the text is not there. */
function testEdit(from: string, to: string, source = TEST_SOURCE): ChangeSet {
  if (!source.includes(from)) throw new Error(`fixture does not contain ${JSON.stringify(from)}`);
  return { files: [edit(TEST_FILE, source, source.replace(from, to))] };
}

function configEdit(path: string, before: string, after: string): ChangeSet {
  return { files: [edit(path, before, after)] };
}

interface Shape {
  name: string;
  changeSet: ChangeSet;
  failing?: FailingTestRef[];
  rule: IntegrityFindingName;
  /** A piece of the reason that says precisely what happened. */
  says: string;
}

const WEAKENING: Shape[] = [
  {
    name: 'changes the expected value of the failing assertEquals',
    changeSet: testEdit('assertEquals(6, product, "2 * 3");', 'assertEquals(5, product, "2 * 3");'),
    rule: 'assertion-changed',
    says: 'changed the expected value of `assertEquals` in com.acme.calc.CalculatorTest#multipliesTwoNumbers from `6` to `5`',
  },
  {
    name: 'changes the expected value and adds a message to hide it',
    changeSet: testEdit(
      'assertEquals(6, product, "2 * 3");',
      'assertEquals(5, product, "2 * 3, see the diagnostics");',
    ),
    rule: 'assertion-changed',
    says: 'changed the expected value of `assertEquals` in com.acme.calc.CalculatorTest#multipliesTwoNumbers from `6` to `5`',
  },
  {
    name: 'adds a message to a passing test while changing what it expects',
    changeSet: testEdit('assertEquals(5, sum);', 'assertEquals(4, sum, "sum");'),
    rule: 'assertion-changed',
    says: 'in com.acme.calc.CalculatorTest#addsTwoNumbers (a test that passed) from `5` to `4`',
  },
  {
    name: "changes an AssertJ matcher's expected value",
    changeSet: testEdit('.isEqualTo(9);', '.isEqualTo(6);'),
    rule: 'assertion-changed',
    says: 'changed the expected value of `assertThat(...).isEqualTo` in com.acme.calc.CalculatorTest#multipliesTwoNumbers from `9` to `6`',
  },
  {
    name: 'deletes the failing assertion',
    changeSet: testEdit('        assertEquals(6, product, "2 * 3");\n', ''),
    rule: 'assertion-removed',
    says: 'deleted `assertEquals(6, product, "2 * 3")`',
  },
  {
    name: 'comments the failing assertion out',
    changeSet: testEdit('        assertEquals(6, product, "2 * 3");', '        // assertEquals(6, product, "2 * 3");'),
    rule: 'assertion-removed',
    says: 'commented out `assertEquals(6, product, "2 * 3")`',
  },
  {
    name: 'comments it out in a block comment',
    changeSet: testEdit(
      '        assertEquals(6, product, "2 * 3");',
      '        /* assertEquals(6, product, "2 * 3"); */',
    ),
    rule: 'assertion-removed',
    says: 'commented out',
  },
  {
    name: 'replaces it by assertTrue(true)',
    changeSet: testEdit('assertEquals(6, product, "2 * 3");', 'assertTrue(true);'),
    rule: 'assertion-weakened',
    says: 'by `assertTrue(true)`, which cannot fail',
  },
  {
    name: 'replaces it by assertEquals(product, product)',
    changeSet: testEdit('assertEquals(6, product, "2 * 3");', 'assertEquals(product, product);'),
    rule: 'assertion-weakened',
    says: 'which cannot fail',
  },
  {
    name: 'wraps it in a try/catch(Throwable) that swallows it',
    changeSet: testEdit(
      '        assertEquals(6, product, "2 * 3");',
      '        try {\n            assertEquals(6, product, "2 * 3");\n        } catch (Throwable ignored) {\n        }',
    ),
    rule: 'assertion-swallowed',
    says: 'catch (Throwable ignored)',
  },
  {
    name: 'wraps it in a catch of AssertionFailedError that only logs',
    changeSet: testEdit(
      '        assertEquals(6, product, "2 * 3");',
      '        try {\n            assertEquals(6, product, "2 * 3");\n        } catch (org.opentest4j.AssertionFailedError e) {\n            System.out.println(e);\n        }',
    ),
    rule: 'assertion-swallowed',
    says: 'swallows its failure',
  },
  {
    name: 'removes a fail(...) from a failing test',
    changeSet: testEdit('            fail("expected an exception");\n', ''),
    failing: failing('com.acme.calc.CalculatorTest#rejectsNegativeDivisor'),
    rule: 'fail-removed',
    says: 'removed `fail("expected an exception")` from com.acme.calc.CalculatorTest#rejectsNegativeDivisor',
  },
  {
    name: 'changes the value the failing assertion checks',
    changeSet: testEdit('int product = calc.multiply(2, 3);', 'int product = 6;'),
    rule: 'failing-test-changed',
    says: 'changed `int product = calc.multiply(2, 3);` to `int product = 6;`',
  },
  {
    name: 'adds a statement that bends the failing test',
    changeSet: testEdit(
      '        int product = calc.multiply(2, 3);',
      '        calc.setMode("add");\n        int product = calc.multiply(2, 3);',
    ),
    rule: 'failing-test-changed',
    says: 'added `calc.setMode("add");`',
  },
  {
    name: 'changes the setup of a class with a failing test',
    changeSet: testEdit('calc = new Calculator();', 'calc = new FakeCalculator();'),
    rule: 'failing-test-changed',
    says: 'changed setUp() (@BeforeEach) of com.acme.calc.CalculatorTest',
  },
  {
    name: 'adds @Disabled to the failing test',
    changeSet: testEdit(
      '    @Test\n    void multipliesTwoNumbers',
      '    @Test\n    @Disabled("flaky")\n    void multipliesTwoNumbers',
    ),
    rule: 'test-disabled',
    says: 'added `@Disabled("flaky")` to com.acme.calc.CalculatorTest#multipliesTwoNumbers',
  },
  {
    name: 'adds @Disabled to a passing test',
    changeSet: testEdit('    @Test\n    void addsTwoNumbers', '    @Disabled\n    @Test\n    void addsTwoNumbers'),
    rule: 'test-disabled',
    says: 'com.acme.calc.CalculatorTest#addsTwoNumbers',
  },
  {
    name: 'adds @Disabled to the whole class',
    changeSet: testEdit('class CalculatorTest {', '@org.junit.jupiter.api.Disabled\nclass CalculatorTest {'),
    rule: 'test-disabled',
    says: 'to test class com.acme.calc.CalculatorTest',
  },
  {
    name: 'adds @DisabledIfEnvironmentVariable',
    changeSet: testEdit(
      '    @Test\n    void multipliesTwoNumbers',
      '    @Test\n    @DisabledIfEnvironmentVariable(named = "CI", matches = "true")\n    void multipliesTwoNumbers',
    ),
    rule: 'test-disabled',
    says: '@DisabledIfEnvironmentVariable',
  },
  {
    name: 'adds @EnabledOnOs',
    changeSet: testEdit(
      '    @Test\n    void multipliesTwoNumbers',
      '    @Test\n    @EnabledOnOs(OS.WINDOWS)\n    void multipliesTwoNumbers',
    ),
    rule: 'test-disabled',
    says: '@EnabledOnOs(OS.WINDOWS)',
  },
  {
    name: "adds JUnit 4's @Ignore",
    changeSet: testEdit(
      '    @Test\n    void multipliesTwoNumbers',
      '    @Ignore\n    @Test\n    void multipliesTwoNumbers',
    ),
    rule: 'test-disabled',
    says: '@Ignore',
  },
  {
    name: 'adds an assumption that skips the failing test',
    changeSet: testEdit(
      '        int product = calc.multiply(2, 3);',
      '        Assumptions.assumeTrue(false, "not ready");\n        int product = calc.multiply(2, 3);',
    ),
    rule: 'assumption-added',
    says: 'added `Assumptions.assumeTrue(false, "not ready")` to com.acme.calc.CalculatorTest#multipliesTwoNumbers',
  },
  {
    name: 'adds an assumption to the setup, skipping every test',
    changeSet: testEdit(
      '        calc = new Calculator();',
      '        assumeTrue(System.getenv("CI") == null);\n        calc = new Calculator();',
    ),
    failing: [],
    rule: 'assumption-added',
    says: 'CalculatorTest#setUp',
  },
  {
    name: "adds JUnit 4's Assume.assumeTrue",
    changeSet: testEdit(
      '        int sum = calc.add(2, 3);',
      '        Assume.assumeTrue(false);\n        int sum = calc.add(2, 3);',
    ),
    rule: 'assumption-added',
    says: 'Assume.assumeTrue(false)',
  },
  {
    name: 'adds an early return before the assertions',
    changeSet: testEdit(
      '        int product = calc.multiply(2, 3);',
      '        if (true) return;\n        int product = calc.multiply(2, 3);',
    ),
    rule: 'early-return',
    says: 'added an early `return;` to com.acme.calc.CalculatorTest#multipliesTwoNumbers',
  },
  {
    name: 'adds an early return to a passing test',
    changeSet: testEdit(
      '        int sum = calc.add(2, 3);',
      '        if (sum() < 0) { return; }\n        int sum = calc.add(2, 3);',
    ),
    rule: 'early-return',
    says: 'com.acme.calc.CalculatorTest#addsTwoNumbers',
  },
  {
    name: 'deletes a passing test method',
    changeSet: testEdit(
      '    @Test\n    void addsTwoNumbers() {\n        int sum = calc.add(2, 3);\n        assertEquals(5, sum);\n    }\n',
      '',
    ),
    rule: 'test-deleted',
    says: 'deleted test com.acme.calc.CalculatorTest#addsTwoNumbers',
  },
  {
    name: 'renames the failing test method',
    changeSet: testEdit('void multipliesTwoNumbers()', 'void multipliesTwoNumbersLater()'),
    rule: 'test-deleted',
    says: 'deleted test com.acme.calc.CalculatorTest#multipliesTwoNumbers',
  },
  {
    name: 'removes @Test from a test',
    changeSet: testEdit('    @Test\n    void addsTwoNumbers', '    void addsTwoNumbers'),
    rule: 'test-annotation-removed',
    says: 'removed `@Test` from com.acme.calc.CalculatorTest#addsTwoNumbers',
  },
  {
    name: 'removes @Nested from a nested test class',
    changeSet: testEdit('    @Nested\n    class Rounding', '    class Rounding'),
    rule: 'test-annotation-removed',
    says: 'removed @Nested from com.acme.calc.CalculatorTest$Rounding',
  },
  {
    name: 'changes the failing nested test (binary name with $)',
    changeSet: testEdit('assertEquals(3, calc.round(2.5));', 'assertEquals(2, calc.round(2.5));'),
    failing: failing('com.acme.calc.CalculatorTest$Rounding#roundsHalfUp'),
    rule: 'assertion-changed',
    says: 'com.acme.calc.CalculatorTest$Rounding#roundsHalfUp from `3` to `2`',
  },
  {
    name: 'deletes the whole test class',
    changeSet: { files: [edit(TEST_FILE, TEST_SOURCE, null)] },
    rule: 'test-class-deleted',
    says: 'deleted test class com.acme.calc.CalculatorTest with its 4 tests',
  },
  {
    name: 'renames the test class so Surefire no longer picks it up',
    changeSet: {
      files: [
        edit(
          'src/test/java/com/acme/calc/CalculatorChecks.java',
          TEST_SOURCE,
          TEST_SOURCE.replace('class CalculatorTest', 'class CalculatorChecks'),
          TEST_FILE,
        ),
      ],
    },
    rule: 'test-class-deleted',
    says: 'deleted test class com.acme.calc.CalculatorTest',
  },
  {
    name: 'makes the test class abstract',
    changeSet: testEdit('class CalculatorTest {', 'abstract class CalculatorTest {'),
    rule: 'test-disabled',
    says: 'made test class com.acme.calc.CalculatorTest abstract',
  },
  {
    name: 'changes the data of a failing parameterized test',
    changeSet: testEdit(
      '@ValueSource(ints = {1, 2, 3})',
      '@ValueSource(ints = {1, 2})',
      TEST_SOURCE.replace(
        '    @Test\n    void addsTwoNumbers() {',
        '    @ParameterizedTest\n    @ValueSource(ints = {1, 2, 3})\n    void addsTwoNumbers(int n) {',
      ),
    ),
    failing: failing('com.acme.calc.CalculatorTest#addsTwoNumbers'),
    rule: 'failing-test-changed',
    says: 'changed `@ValueSource(ints = {1, 2, 3})` to `@ValueSource(ints = {1, 2})`',
  },
  {
    name: 'changes the literal a passing test expects',
    changeSet: testEdit('assertEquals(5, sum);', 'assertEquals(4, sum);'),
    rule: 'assertion-changed',
    says: 'in com.acme.calc.CalculatorTest#addsTwoNumbers (a test that passed) from `5` to `4`',
  },
  {
    name: 'deletes an assertion of a passing test',
    changeSet: testEdit('        assertEquals(5, sum);\n', ''),
    rule: 'assertion-removed',
    says: 'deleted `assertEquals(5, sum)` from com.acme.calc.CalculatorTest#addsTwoNumbers (a test that passed)',
  },
  {
    name: 'deletes a JUnit 3 test method',
    changeSet: {
      files: [
        edit(
          'src/test/java/com/acme/LegacyTest.java',
          'package com.acme;\nimport junit.framework.TestCase;\npublic class LegacyTest extends TestCase {\n  public void testSum() { assertEquals(2, 1 + 1); }\n  public void testProduct() { assertEquals(4, 2 * 2); }\n}\n',
          'package com.acme;\nimport junit.framework.TestCase;\npublic class LegacyTest extends TestCase {\n  public void testSum() { assertEquals(2, 1 + 1); }\n}\n',
        ),
      ],
    },
    rule: 'test-deleted',
    says: 'deleted test com.acme.LegacyTest#testProduct',
  },
  {
    name: 'changes an inherited failing test in its base class',
    changeSet: {
      files: [
        edit(
          'src/test/java/com/acme/AbstractRepoTest.java',
          'package com.acme;\nabstract class AbstractRepoTest {\n  @Test void saves() { assertEquals(1, repo().count()); }\n  abstract Repo repo();\n}\n',
          'package com.acme;\nabstract class AbstractRepoTest {\n  @Test void saves() { assertEquals(0, repo().count()); }\n  abstract Repo repo();\n}\n',
        ),
      ],
    },
    failing: failing('com.acme.MemoryRepoTest#saves'),
    rule: 'assertion-changed',
    says: 'com.acme.AbstractRepoTest#saves from `1` to `0`',
  },
  {
    name: 'edits a test file mvnx cannot read as Java',
    changeSet: {
      files: [edit(TEST_FILE, 'class CalculatorTest { @Test void x() { int a = ; } }', 'class CalculatorTest { }')],
    },
    rule: 'unreadable-test',
    says: 'cannot check src/test/java/com/acme/calc/CalculatorTest.java',
  },
  // Build files, .mvn/maven.config and JUnit platform settings.
  {
    name: 'sets testFailureIgnore in the surefire configuration',
    changeSet: configEdit(
      'pom.xml',
      POM,
      POM.replace(
        '<version>3.2.5</version>',
        '<version>3.2.5</version>\n        <configuration>\n          <testFailureIgnore>true</testFailureIgnore>\n        </configuration>',
      ),
    ),
    rule: 'tests-skipped-by-config',
    says: "pom.xml: adds <testFailureIgnore>true</testFailureIgnore> to maven-surefire-plugin's configuration, which lets failing tests pass the build",
  },
  {
    name: 'sets skipTests as a property',
    changeSet: configEdit(
      'pom.xml',
      POM,
      POM.replace(
        '<maven.compiler.release>17</maven.compiler.release>',
        '<maven.compiler.release>17</maven.compiler.release>\n    <skipTests>true</skipTests>',
      ),
    ),
    rule: 'tests-skipped-by-config',
    says: 'sets the property <skipTests>true</skipTests>',
  },
  {
    name: 'sets maven.test.skip in a profile',
    changeSet: configEdit(
      'core/pom.xml',
      POM,
      POM.replace(
        '</build>',
        '</build>\n  <profiles><profile><id>ci</id><properties><maven.test.skip>true</maven.test.skip></properties></profile></profiles>',
      ),
    ),
    rule: 'tests-skipped-by-config',
    says: 'core/pom.xml: sets the property <maven.test.skip>true</maven.test.skip>',
  },
  {
    name: 'excludes the failing test in surefire',
    changeSet: configEdit(
      'pom.xml',
      POM,
      POM.replace(
        '<version>3.2.5</version>',
        '<version>3.2.5</version>\n        <configuration><excludes><exclude>**/CalculatorTest.java</exclude></excludes></configuration>',
      ),
    ),
    rule: 'tests-skipped-by-config',
    says: 'adds <exclude>**/CalculatorTest.java</exclude>',
  },
  {
    name: 'selects other tests with <test>',
    changeSet: configEdit(
      'pom.xml',
      POM,
      POM.replace(
        '<version>3.2.5</version>',
        '<version>3.2.5</version>\n        <configuration><test>OtherTest</test></configuration>',
      ),
    ),
    rule: 'tests-skipped-by-config',
    says: '<test>OtherTest</test>',
  },
  {
    name: 'removes a module from the build',
    changeSet: configEdit('pom.xml', POM, POM.replace('    <module>app</module>\n', '')),
    rule: 'tests-skipped-by-config',
    says: 'removes the module app from the build',
  },
  {
    name: 'deactivates JUnit conditions through surefire properties',
    changeSet: configEdit(
      'pom.xml',
      POM,
      POM.replace(
        '<version>3.2.5</version>',
        '<version>3.2.5</version>\n        <configuration><configurationParameters>junit.jupiter.conditions.deactivate = *</configurationParameters></configuration>',
      ),
    ),
    rule: 'tests-skipped-by-config',
    says: 'a JUnit setting that changes which tests run',
  },
  {
    name: 'adds -DskipTests to .mvn/maven.config',
    changeSet: configEdit('.mvn/maven.config', '-B\n', '-B\n-DskipTests\n'),
    rule: 'tests-skipped-by-config',
    says: '.mvn/maven.config: adds `-DskipTests`',
  },
  {
    name: 'adds a -Dtest= pattern to .mvn/maven.config',
    changeSet: configEdit('.mvn/maven.config', '', '-Dtest=!CalculatorTest'),
    rule: 'tests-skipped-by-config',
    says: '`-Dtest=!CalculatorTest`',
  },
  {
    name: 'adds --fail-never to .mvn/maven.config',
    changeSet: configEdit('.mvn/maven.config', '-B', '-B --fail-never'),
    rule: 'tests-skipped-by-config',
    says: 'makes a failing build pass',
  },
  {
    name: 'deactivates conditions in junit-platform.properties',
    changeSet: configEdit(
      'src/test/resources/junit-platform.properties',
      '',
      'junit.jupiter.conditions.deactivate=org.junit.*DisabledCondition\n',
    ),
    rule: 'tests-skipped-by-config',
    says: 'sets `junit.jupiter.conditions.deactivate=org.junit.*DisabledCondition`',
  },
  {
    name: 'registers a JUnit post-discovery filter',
    changeSet: {
      files: [
        edit(
          'src/test/resources/META-INF/services/org.junit.platform.launcher.PostDiscoveryFilter',
          null,
          'com.acme.SkipSlow\n',
        ),
      ],
    },
    rule: 'tests-skipped-by-config',
    says: 'registers a JUnit service',
  },
];

const MAIN_FIX: ChangeSet = {
  files: [edit(MAIN_FILE, MAIN_SOURCE, MAIN_SOURCE.replace('return a + b; }\n}', 'return a * b; }\n}'))],
};

const BENIGN: { name: string; changeSet: ChangeSet; failing?: FailingTestRef[] }[] = [
  { name: 'fixes the main code', changeSet: MAIN_FIX },
  {
    name: 'adds a new assertion to the failing test',
    changeSet: testEdit(
      '        assertThat(calc.multiply(3, 3)).isEqualTo(9);',
      '        assertThat(calc.multiply(3, 3)).isEqualTo(9);\n        assertEquals(0, calc.multiply(0, 3));',
    ),
  },
  {
    name: 'renames a local variable in a test that did not fail',
    changeSet: testEdit(
      '        int sum = calc.add(2, 3);\n        assertEquals(5, sum);',
      '        int total = calc.add(2, 3);\n        assertEquals(5, total);',
    ),
  },
  {
    name: 'adds a new test, even one with an assumption',
    changeSet: testEdit(
      '    @Nested',
      '    @Test\n    void subtracts() {\n        assumeTrue(calc != null);\n        assertEquals(1, calc.subtract(3, 2));\n    }\n\n    @Nested',
    ),
  },
  {
    name: 'reformats the failing test and adds a comment',
    changeSet: testEdit(
      '        assertEquals(6, product, "2 * 3");',
      '        // the product of two numbers\n        assertEquals(6,\n                product,\n                "2 * 3");',
    ),
  },
  {
    name: 'adds a main-code fix and touches an unrelated helper',
    changeSet: {
      files: [
        ...MAIN_FIX.files,
        ...testEdit(
          'class CalculatorTest {',
          'class CalculatorTest {\n\n    private static int twice(int x) { return 2 * x; }',
        ).files,
      ],
    },
  },
  {
    name: 'rewords the message of the failing assertion',
    changeSet: testEdit('assertEquals(6, product, "2 * 3");', 'assertEquals(6, product, "2 * 3 = " + product);'),
  },
  {
    name: 'adds a message to an assertion of a passing test',
    changeSet: testEdit('assertEquals(5, sum);', 'assertEquals(5, sum, "diagnostics:" + calc);'),
  },
  {
    name: 'describes an AssertJ assertion with as(...)',
    changeSet: testEdit(
      'assertThat(calc.multiply(3, 3)).isEqualTo(9);',
      'assertThat(calc.multiply(3, 3)).as("3 squared").isEqualTo(9);',
    ),
  },
  {
    name: 'adds a dependency to the pom',
    changeSet: configEdit(
      'pom.xml',
      POM,
      POM.replace(
        '<build>',
        '<dependencies><dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>2.0.13</version></dependency></dependencies>\n  <build>',
      ),
    ),
  },
  {
    name: 'sets skipTests to false explicitly',
    changeSet: configEdit(
      'pom.xml',
      POM,
      POM.replace(
        '<version>3.2.5</version>',
        '<version>3.2.5</version>\n        <configuration><skipTests>false</skipTests></configuration>',
      ),
    ),
  },
  { name: 'adds -T 2 to .mvn/maven.config', changeSet: configEdit('.mvn/maven.config', '-B\n', '-B\n-T 2\n') },
  {
    name: 'turns on parallel execution in junit-platform.properties',
    changeSet: configEdit(
      'src/test/resources/junit-platform.properties',
      '',
      'junit.jupiter.execution.parallel.enabled=true\n',
    ),
  },
  {
    name: 'edits a main file that does not parse (javac will say so)',
    changeSet: { files: [edit(MAIN_FILE, MAIN_SOURCE, `${MAIN_SOURCE}}`)] },
  },
  {
    name: 'leaves a test file unparseable after the patch (javac will refuse it)',
    changeSet: testEdit('int product = calc.multiply(2, 3);', 'int product = calc.multiply(2, 3)'),
  },
];

describe('test integrity: weakening shapes are found, with a precise reason', () => {
  it.each(WEAKENING)('$name', ({ changeSet, failing: failingTests, rule, says }) => {
    const verdict = checkTestIntegrity({
      changeSet,
      failingTests: failingTests ?? failing(MULTIPLY),
      policy: { allowFailingTestEdits: false },
    });
    expect(verdict.blocking.map((finding) => finding.rule)).toContain(rule);
    const reason = testWeakeningReason(verdict.blocking);
    expect(reason.startsWith('test-weakening: ')).toBe(true);
    expect(reason).toContain(says);
  });
});

// The method-by-method comparison: what a repair may do to a test file that has a compile error of its own.
describe('test integrity: benign look-alikes pass the method-by-method comparison', () => {
  it.each(BENIGN)('$name', ({ changeSet, failing: failingTests }) => {
    const compileErrorFiles = new Set(changeSet.files.map((file) => file.path));
    const verdict = checkTestIntegrity({
      changeSet,
      failingTests: failingTests ?? failing(MULTIPLY),
      policy: { allowFailingTestEdits: false },
      compileErrorFiles,
    });
    expect(verdict.blocking).toEqual([]);
    // Tests failed too: the fixed test-side file is recorded (high risk), and nothing else is found.
    expect(verdict.allowedFailingTestEdits.map((finding) => [finding.rule, finding.compileErrorFix])).toEqual(
      changeSet.files.filter((file) => file.path.startsWith('src/test/')).map(() => ['test-side-changed', true]),
    );
  });
});

// Issue 25: while tests fail, the test side is read-only, however harmless the edit looks.
describe('test integrity: while tests fail, the look-alikes that touch the test side are refused', () => {
  const onTestSide = (changeSet: ChangeSet) => changeSet.files.some((file) => file.path.startsWith('src/test/'));
  it.each(BENIGN.filter(({ changeSet }) => onTestSide(changeSet)))('$name', ({ changeSet, failing: failingTests }) => {
    const verdict = checkTestIntegrity({
      changeSet,
      failingTests: failingTests ?? failing(MULTIPLY),
      policy: { allowFailingTestEdits: false },
    });
    expect(verdict.blocking.map((finding) => finding.rule)).toContain('test-side-changed');
    expect(testWeakeningReason(verdict.blocking)).toMatch(
      /^test-weakening: changed src\/test\/\S+ \(test sources and resources\)/,
    );
  });
  it.each(BENIGN.filter(({ changeSet }) => !onTestSide(changeSet)))(
    '$name: not on the test side, passes',
    ({ changeSet, failing: failingTests }) => {
      const verdict = checkTestIntegrity({
        changeSet,
        failingTests: failingTests ?? failing(MULTIPLY),
        policy: { allowFailingTestEdits: false },
      });
      expect(verdict.blocking).toEqual([]);
    },
  );
});

describe('tests.allowFailingTestEdits', () => {
  it('lets an edit of the failing test through, and says so', () => {
    const verdict = checkTestIntegrity({
      changeSet: testEdit('assertEquals(6, product, "2 * 3");', 'assertEquals(5, product, "2 * 3");'),
      failingTests: failing(MULTIPLY),
      policy: { allowFailingTestEdits: true },
    });
    expect(verdict.blocking).toEqual([]);
    expect(verdict.allowedFailingTestEdits.map((finding) => finding.message)).toEqual([
      'changed the expected value of `assertEquals` in com.acme.calc.CalculatorTest#multipliesTwoNumbers from `6` to `5`',
    ]);
  });

  it('still refuses disabling, skipping or deleting tests, and edits of tests that passed', () => {
    for (const changeSet of [
      testEdit('    @Test\n    void multipliesTwoNumbers', '    @Test\n    @Disabled\n    void multipliesTwoNumbers'),
      testEdit(
        '        int product = calc.multiply(2, 3);',
        '        assumeTrue(false);\n        int product = calc.multiply(2, 3);',
      ),
      testEdit('assertEquals(5, sum);', 'assertEquals(4, sum);'),
      configEdit('.mvn/maven.config', '', '-DskipTests'),
    ]) {
      const verdict = checkTestIntegrity({
        changeSet,
        failingTests: failing(MULTIPLY),
        policy: { allowFailingTestEdits: true },
      });
      expect(verdict.blocking, JSON.stringify(changeSet.files[0]!.after)).not.toEqual([]);
    }
  });
});

describe('findings carry where they are', () => {
  it('names the file, the test and the line of the change', () => {
    const verdict = checkTestIntegrity({
      changeSet: testEdit('assertEquals(6, product, "2 * 3");', 'assertEquals(5, product, "2 * 3");'),
      failingTests: failing(MULTIPLY),
      policy: { allowFailingTestEdits: false },
    });
    expect(verdict.blocking[0]).toMatchObject({ file: TEST_FILE, test: MULTIPLY, line: 30, failingTestEdit: true });
  });
});
