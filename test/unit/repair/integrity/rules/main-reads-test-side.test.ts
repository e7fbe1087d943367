/**
 * main-reads-test-side: main code that reads a file under the test side at run time
 * depends on the tests' fixtures (often to read the values a test expects), so the fix is
 * refused; reads of main resources, reads in test code and reads the original already had pass.
 */
import { describe, expect, it } from 'vitest';
import { checkTestIntegrity } from '../../../../../src/repair/integrity/index.js';
import { touchesTests } from '../../../../../src/repair/integrity/scope.js';
import { mainReadsTestSide } from '../../../../../src/repair/integrity/rules/main-reads-test-side.js';
import { testIntegrityRule } from '../../../../helpers/integrity-rule-tester.js';

const MAIN = 'src/main/java/com/acme/Prices.java';
const TEST = 'src/test/java/com/acme/PricesTest.java';
const BEFORE = `package com.acme;

import java.nio.file.*;

public class Prices {
    public String total(int items) {
        return String.valueOf(items * 3);
    }
}
`;
/** `BEFORE` with `body` as the method's body and `fields` above it. */
const prices = (body: string, fields = '') =>
  BEFORE.replace('    public String total', `${fields}    public String total`).replace(
    'return String.valueOf(items * 3);',
    body,
  );
const fix = (after: string, before = BEFORE, path = MAIN) => [{ path, before, after }];
const POM = (resources: string) =>
  `<project><modelVersion>4.0.0</modelVersion><artifactId>shop</artifactId><build><testResources><testResource><directory>${resources}</directory></testResource></testResources></build></project>`;

describe('main-reads-test-side', () => {
  testIntegrityRule(mainReadsTestSide, [
    {
      name: 'new File("src/test/resources/...")',
      files: fix(prices('return new java.util.Scanner(new File("src/test/resources/expected.txt")).next();')),
      findings: [
        {
          file: MAIN,
          line: 7,
          failingTestEdit: false,
          message:
            'added `new File("src/test/resources/expected.txt")` to Prices#total(int) in src/main/java/com/acme/Prices.java, which reads src/test/resources/expected.txt (test sources and resources) at run time: main code may not depend on the test side',
        },
      ],
    },
    {
      name: 'Paths.get with a path in parts',
      files: fix(prices('return Files.readString(Paths.get("src", "test", "resources", "total.txt"));')),
      findings: [{ file: MAIN, says: 'reads src/test/resources/total.txt (test sources and resources)' }],
    },
    {
      name: 'Files.readString(Path.of(...)) with the path a constant of the changed file',
      files: fix(
        prices(
          'return Files.readString(Path.of(EXPECTED));',
          '    private static final String EXPECTED = "src/test/resources/expected.txt";\n',
        ),
      ),
      findings: [{ file: MAIN, says: 'added `Path.of(EXPECTED)` to Prices#total(int)' }],
    },
    {
      name: 'new FileInputStream with a constant folder and a literal name concatenated',
      files: fix(
        prices(
          'return new String(new FileInputStream(DIR + "/total.txt").readAllBytes());',
          '    static final String DIR = "./src/test/resources";\n',
        ),
      ),
      findings: [{ file: MAIN, says: 'which reads src/test/resources/total.txt' }],
    },
    {
      name: 'new FileReader in a module: resolved against the module folder',
      files: fix(
        prices('return new java.io.BufferedReader(new FileReader("src/test/resources/a.txt")).readLine();'),
        BEFORE,
        `shop/${MAIN}`,
      ),
      findings: [
        { file: `shop/${MAIN}`, says: 'which reads shop/src/test/resources/a.txt (test sources and resources)' },
      ],
    },
    {
      name: 'a custom test resource root the pom declares',
      files: fix(prices('return Files.readString(Path.of("fixtures/prices/total.txt"));')),
      poms: [{ dir: '', text: POM('fixtures') }],
      findings: [{ file: MAIN, says: 'which reads fixtures/prices/total.txt (test resources of module shop)' }],
    },
    {
      name: 'the same folder is no test side when the pom does not declare it',
      files: fix(prices('return Files.readString(Path.of("fixtures/prices/total.txt"));')),
      findings: [],
    },
    {
      name: 'main code reading main resources',
      files: fix(prices('return Files.readString(Path.of("src/main/resources/total.txt"));')),
      findings: [],
    },
    {
      name: 'a test class reading test resources',
      files: fix(
        'package com.acme;\nclass PricesTest {\n  @org.junit.jupiter.api.Test void total() throws Exception { java.nio.file.Files.readString(java.nio.file.Path.of("src/test/resources/expected.txt")); }\n}\n',
        'package com.acme;\nclass PricesTest {}\n',
        TEST,
      ),
      findings: [],
    },
    {
      name: 'a string that names a test folder but is not read (a default, a message)',
      files: fix(
        prices('return "see src/test/resources/expected.txt";', '    static final String TESTS = "src/test/java";\n'),
      ),
      findings: [],
    },
    {
      name: 'a path resolved against something not known (a base folder) is not relative to the working directory',
      files: fix(
        prices('return Files.readString(Path.of(System.getProperty("basedir"), "src/test/resources/x.txt"));'),
      ),
      findings: [],
    },
    {
      name: 'a read the original file already had',
      files: fix(
        prices('return Files.readString(Path.of("src/test/resources/expected.txt")) + items;'),
        prices('return Files.readString(Path.of("src/test/resources/expected.txt"));'),
      ),
      findings: [],
    },
    {
      name: 'a read in a comment',
      files: fix(prices('// new File("src/test/resources/expected.txt")\n        return "";')),
      findings: [],
    },
    {
      name: 'a new main file that reads a test fixture in a field',
      files: [
        {
          path: 'src/main/java/com/acme/Oracle.java',
          before: null,
          after:
            'package com.acme;\npublic class Oracle {\n  static final java.io.File ANSWERS = new java.io.File("src/test/resources/answers.csv");\n}\n',
        },
      ],
      findings: [
        {
          file: 'src/main/java/com/acme/Oracle.java',
          line: 3,
          says: 'added `new java.io.File("src/test/resources/answers.csv")` to class Oracle in src/main/java/com/acme/Oracle.java',
        },
      ],
    },
  ]);

  it('reaches the check through the gate: a main-only fix that names the test side is read and refused; one that does not is not read', () => {
    const reads = { files: fix(prices('return Files.readString(Path.of("src/test/resources/expected.txt"));')) };
    const plain = { files: fix(prices('return String.valueOf(items * 4);')) };
    const custom = { files: fix(prices('return Files.readString(Path.of("fixtures/total.txt"));')) };
    expect([
      touchesTests(reads),
      touchesTests(plain),
      touchesTests(custom),
      touchesTests(custom, { roots: [{ dir: 'fixtures', what: 'test resources of module shop' }] }),
    ]).toEqual([true, false, false, true]);
    const verdict = checkTestIntegrity({
      changeSet: reads,
      failingTests: [{ className: 'com.acme.PricesTest' }],
      policy: { allowFailingTestEdits: true },
    });
    expect(verdict.blocking.map((finding) => finding.rule)).toEqual(['main-reads-test-side']);
  });
});
