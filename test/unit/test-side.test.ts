/**
 * Issue 25: while tests fail, the test side is read-only. The test side as the poms
 * declare it (test-side.ts), and the rule (test-side-rule.ts) on the replies the
 * integration test sends, read into change sets by the real patch reader against the
 * trust-shapes fixture; each shape with its false-positive twin.
 */
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { changeSetFromModelText, DEFAULT_PATCH_POLICY } from '../../src/patch/index.js';
import type { ChangeSet } from '../../src/patch/types.js';
import { checkTestIntegrity, testWeakeningReason, type FailingTestRef } from '../../src/repair/integrity/index.js';
import { describeDifference, differingPart } from '../../src/repair/integrity/differing-part.js';
import { touchesTests } from '../../src/repair/integrity/scope.js';
import { readTestSide } from '../../src/repair/integrity/test-side-read.js';
import { testSideOf, testSideRootOf, type ModulePom } from '../../src/repair/integrity/test-side.js';
import { repairFixtures } from '../helpers/repair-project.js';

const SHAPES = path.join(repairFixtures, 'trust-shapes');
const POLICY = { ...DEFAULT_PATCH_POLICY, allowedChanges: [...DEFAULT_PATCH_POLICY.allowedChanges] };
const FAILING: FailingTestRef[] = ['tenPercentOff', 'quarterOff', 'bulkOrder', 'receiptShowsTheDiscountedTotal'].map(
  (method) => ({ className: 'com.acme.pricing.PricingTest', method }),
);

async function fromReply(name: string, root = SHAPES): Promise<ChangeSet> {
  const text = await readFile(path.join(repairFixtures, 'replies', `${name}.md`), 'utf8');
  const result = await changeSetFromModelText(text, root, POLICY);
  expect(result.problems, name).toEqual([]);
  return result.changeSet!;
}

const pom = (body: string, artifactId = 'app') =>
  `<project><modelVersion>4.0.0</modelVersion><groupId>com.acme</groupId><artifactId>${artifactId}</artifactId><version>1</version>${body}</project>`;
const dependency = (artifactId: string, extra = '') =>
  `<dependency><groupId>com.acme</groupId><artifactId>${artifactId}</artifactId><version>1</version>${extra}</dependency>`;

describe('the test side, as the poms declare it', () => {
  it('reads the fixture: the test-support module testkit, by the test scope pricing uses it in', async () => {
    const side = await readTestSide(SHAPES);
    expect(side.roots).toEqual([
      { dir: 'testkit', what: 'test-support module testkit (pricing uses it only in test scope)' },
    ]);
    expect(testSideRootOf(side, 'testkit/src/main/java/com/acme/testkit/MoneyAssert.java')?.what).toContain(
      'test-support module testkit',
    );
    expect(testSideRootOf(side, 'pricing/src/test/resources/receipts/tea.txt')).toEqual({
      dir: 'pricing/src/test',
      what: 'test sources and resources',
    });
    expect(testSideRootOf(side, 'pricing/src/main/java/com/acme/pricing/Pricing.java')).toBeUndefined();
    expect(testSideRootOf(side, 'pricing/pom.xml')).toBeUndefined();
  });

  it('every declared test source and resource root, not only src/test/java', () => {
    const poms: ModulePom[] = [
      {
        dir: '',
        text: pom('<packaging>pom</packaging><modules><module>core</module><module>app</module></modules>', 'parent'),
      },
      {
        dir: 'core',
        text: pom(
          `<build><testSourceDirectory>\${project.basedir}/spec/java</testSourceDirectory>
            <testResources><testResource><directory>spec/data</directory></testResource></testResources>
            <plugins>
              <plugin><groupId>org.codehaus.mojo</groupId><artifactId>build-helper-maven-plugin</artifactId><executions><execution><id>it</id><goals><goal>add-test-source</goal></goals>
                <configuration><sources><source>src/it-java</source><source>\${basedir}/src/contract</source></sources></configuration></execution>
                <execution><id>itres</id><goals><goal>add-test-resource</goal></goals><configuration><resources><resource><directory>golden</directory></resource></resources></configuration></execution></executions></plugin>
              <plugin><artifactId>maven-compiler-plugin</artifactId><executions><execution><id>extra-tests</id><goals><goal>testCompile</goal></goals>
                <configuration><compileSourceRoots><compileSourceRoot>src/slow-tests</compileSourceRoot></compileSourceRoots></configuration></execution></executions></plugin>
            </plugins></build>
            <profiles><profile><id>ci</id><build><testSourceDirectory>ci-tests</testSourceDirectory></build></profile></profiles>`,
          'core',
        ),
      },
      { dir: 'app', text: pom(`<dependencies>${dependency('core')}</dependencies>`) },
    ];
    const side = testSideOf(poms);
    expect(side.roots.map((root) => `${root.dir}: ${root.what}`)).toEqual([
      'core/spec/java: test sources of module core',
      'core/spec/data: test resources of module core',
      'core/src/it-java: test sources of module core',
      'core/src/contract: test sources of module core',
      'core/golden: test resources of module core',
      'core/src/slow-tests: test sources of module core',
      'core/ci-tests: test sources of module core',
    ]);
    // core is used in compile scope by app: its main code is not test side.
    expect(testSideRootOf(side, 'core/src/main/java/com/acme/Core.java')).toBeUndefined();
    expect(testSideRootOf(side, 'core/golden/expected.json')?.what).toBe('test resources of module core');
  });

  it('a module others use only in test scope is test-support; one used in compile scope anywhere, or only as a test-jar, is not', () => {
    const poms: ModulePom[] = [
      { dir: 'fixtures', text: pom('', 'fixtures') },
      { dir: 'core', text: pom('', 'core') },
      { dir: 'lib', text: pom('', 'lib') },
      {
        dir: 'a',
        text: pom(
          `<dependencies>${dependency('fixtures', '<scope>test</scope>')}${dependency('core', '<scope>test</scope>')}${dependency('lib', '<type>test-jar</type><scope>test</scope>')}</dependencies>`,
          'a',
        ),
      },
      {
        dir: 'b',
        text: pom(
          `<dependencies>${dependency('fixtures', '<scope>test</scope>')}${dependency('core')}</dependencies>`,
          'b',
        ),
      },
    ];
    const side = testSideOf(poms);
    expect(side.roots).toEqual([
      { dir: 'fixtures', what: 'test-support module fixtures (a, b use it only in test scope)' },
    ]);
  });

  it('by convention, whatever the poms say: src/test, src/it, testFixtures folders of any module', () => {
    const none = { roots: [] };
    expect(testSideRootOf(none, 'a/b/src/it/java/X.java')?.dir).toBe('a/b/src/it');
    expect(testSideRootOf(none, 'lib/src/testFixtures/java/com/acme/Fake.java')).toEqual({
      dir: 'lib/src/testFixtures',
      what: 'test fixtures',
    });
    expect(testSideRootOf(none, 'src/main/java/com/acme/test/Helper.java')).toBeUndefined();
    expect(testSideRootOf(none, 'docs/src/testing.md')).toBeUndefined();
  });

  it('a pom that does not parse adds nothing and breaks nothing', () => {
    expect(testSideOf([{ dir: '', text: '<project><artifactId>x</artifactId>' }]).roots).toEqual([]);
  });
});

describe('while tests fail, the test side is read-only: each shape is refused, with the file and the part that changed', () => {
  const check = async (reply: string, extra: Partial<Parameters<typeof checkTestIntegrity>[0]> = {}) => {
    const changeSet = await fromReply(reply);
    const testSide = await readTestSide(SHAPES);
    expect(touchesTests(changeSet, testSide)).toBe(true);
    return checkTestIntegrity({
      changeSet,
      failingTests: FAILING,
      policy: { allowFailingTestEdits: false },
      testSide,
      ...extra,
    });
  };

  it.each([
    [
      'shape-helper-loosened',
      'test-weakening: changed pricing/src/test/java/com/acme/pricing/PricingTest.java (test sources and resources): in PricingTest#assertPrice(long, long), line 39: `assertEquals(expected, actual, "price in cents");` became `assertEquals(expected, actual, expected / 10.0, "price in cents");`; the test side is read-only while tests fail: fix the code under test instead',
    ],
    [
      'shape-utility-widened',
      'test-weakening: changed pricing/src/test/java/com/acme/pricing/Tolerance.java (test sources and resources): in class Tolerance, line 8: `/** Prices are exact to the cent. */` became `/** Prices may differ by the rounding of the discount. */`, `static final long CENTS = 0;` became `static final long CENTS = 100;`; the test side is read-only while tests fail: fix the code under test instead',
    ],
    [
      'shape-expected-file-rewritten',
      'test-weakening: changed pricing/src/test/resources/receipts/tea.txt (test sources and resources): line 3: `total 9.00` became `total 9.90`; the test side is read-only while tests fail: fix the code under test instead',
    ],
    [
      'shape-testkit-loosened',
      'test-weakening: changed testkit/src/main/java/com/acme/testkit/MoneyAssert.java (test-support module testkit (pricing uses it only in test scope)): in MoneyAssert#assertCents(long, long), line 12: added `long tolerance = Math.max(1, expected / 10);`, added `tolerance` in `assertEquals(...)`; the test side is read-only while tests fail: fix the code under test instead',
    ],
  ])('%s', async (reply, reason) => {
    const verdict = await check(reply);
    expect(verdict.blocking.map((finding) => finding.rule)).toEqual(['test-side-changed']);
    expect(testWeakeningReason(verdict.blocking)).toBe(reason);
    expect(verdict.blocking[0]!.failingTestEdit).toBe(true);
  });

  it('a @BeforeEach that flips a static setter: refused as a change to the set-up of the failing tests', async () => {
    const verdict = await check('shape-before-each-legacy');
    const reason = testWeakeningReason(verdict.blocking);
    expect(verdict.blocking.map((finding) => finding.rule)).toEqual(['failing-test-changed']);
    expect(reason).toBe(
      'test-weakening: added `@BeforeEach` useLegacyRounding() to com.acme.pricing.PricingTest, which runs before the tests that failed: `Pricing.setLegacyRounding(true);`',
    );
  });

  it('a @BeforeAll that sets a system property: refused the same way', async () => {
    const changeSet = await fromReply('shape-before-each-legacy');
    const file = changeSet.files[0]!;
    file.after = file
      .after!.replace('@BeforeEach', '@BeforeAll')
      .replace(
        '    void useLegacyRounding() {\n        Pricing.setLegacyRounding(true);',
        '    static void useLegacyRounding() {\n        System.setProperty("pricing.legacyRounding", "true");',
      );
    const verdict = checkTestIntegrity({
      changeSet,
      failingTests: FAILING,
      policy: { allowFailingTestEdits: false },
      testSide: await readTestSide(SHAPES),
    });
    expect(testWeakeningReason(verdict.blocking)).toContain(
      'added `@BeforeAll` useLegacyRounding() to com.acme.pricing.PricingTest, which runs before the tests that failed: `System.setProperty("pricing.legacyRounding", "true");`',
    );
  });

  it('tests.allowFailingTestEdits lets each through as an edit of the failing tests, in words', async () => {
    for (const reply of [
      'shape-helper-loosened',
      'shape-utility-widened',
      'shape-expected-file-rewritten',
      'shape-testkit-loosened',
      'shape-before-each-legacy',
    ]) {
      const verdict = await check(reply, { policy: { allowFailingTestEdits: true } });
      expect(verdict.blocking, reply).toEqual([]);
      expect(verdict.allowedFailingTestEdits.length, reply).toBeGreaterThan(0);
    }
  });

  it('the twin: the real fix in main code is not on the test side', async () => {
    const changeSet = await fromReply('shapes-real-fix');
    const testSide = await readTestSide(SHAPES);
    expect(touchesTests(changeSet, testSide)).toBe(false);
    const verdict = checkTestIntegrity({
      changeSet,
      failingTests: FAILING,
      policy: { allowFailingTestEdits: false },
      testSide,
    });
    expect(verdict).toEqual({ blocking: [], allowedFailingTestEdits: [] });
  });

  it('the twin: with no failing test (a compile-error repair) a test file may be fixed, compared method by method', async () => {
    const changeSet = await fromReply('shape-helper-loosened');
    const verdict = checkTestIntegrity({
      changeSet,
      failingTests: [],
      policy: { allowFailingTestEdits: false },
      testSide: await readTestSide(SHAPES),
    });
    expect(verdict.blocking).toEqual([]);
  });

  it('the twin: tests fail in one module and a test file has a compile error of its own: that file may be fixed', async () => {
    const changeSet = await fromReply('shape-helper-loosened');
    const compileErrorFiles = new Set(['pricing/src/test/java/com/acme/pricing/PricingTest.java']);
    const verdict = checkTestIntegrity({
      changeSet,
      failingTests: FAILING,
      policy: { allowFailingTestEdits: false },
      testSide: await readTestSide(SHAPES),
      compileErrorFiles,
    });
    expect(verdict.blocking).toEqual([]);
    // Still a test-side edit while tests fail: recorded, so the fix is high risk and never applied without a person.
    expect(verdict.allowedFailingTestEdits.map((finding) => finding.message)).toEqual([
      'changed pricing/src/test/java/com/acme/pricing/PricingTest.java (test sources and resources): in PricingTest#assertPrice(long, long), line 39: `assertEquals(expected, actual, "price in cents");` became `assertEquals(expected, actual, expected / 10.0, "price in cents");`, which had a compile error of its own',
    ]);
  });
});

describe('the part that differs', () => {
  it.each([
    [
      '@CsvSource({"1, 1", "2, 4", "3, 9", "4, 16"})',
      '@CsvSource({"1, 1", "2, 4", "4, 16"})',
      'deleted `"3, 9"` in `@CsvSource(...)`',
    ],
    [
      'assertThat(total, is(900L));',
      'assertThat(total, greaterThan(0L));',
      '`is(900L)` became `greaterThan(0L)` in `assertThat(...)`',
    ],
    [
      'assertEquals(expected, actual, "price in cents");',
      'assertEquals(expected, actual, expected / 10.0, "price in cents");',
      'added `expected / 10.0` in `assertEquals(...)`',
    ],
    ['total 9.00', 'total 9.90', '`9.00` became `9.90`'],
  ])('%s -> %s', (before, after, described) => {
    expect(describeDifference(before, after)).toBe(described);
  });

  it('white space alone is no difference', () => {
    expect(differingPart('a(b,  c)', 'a(b, c)')).toBeUndefined();
  });

  it('a changed row of a long @CsvSource is quoted, not the first characters of both', () => {
    const rows = Array.from({ length: 12 }, (_, index) => `"${index}, ${index * index}"`);
    const before = `@CsvSource({${rows.join(', ')}})`;
    const after = before.replace('"7, 49"', '"7, 50"');
    const verdict = checkTestIntegrity({
      changeSet: {
        files: [
          {
            path: 'src/test/java/com/acme/SquareTest.java',
            before: `package com.acme;\nclass SquareTest {\n    @ParameterizedTest\n    ${before}\n    void squares(int n, int square) {\n        assertEquals(square, Square.of(n));\n    }\n}\n`,
            after: `package com.acme;\nclass SquareTest {\n    @ParameterizedTest\n    ${after}\n    void squares(int n, int square) {\n        assertEquals(square, Square.of(n));\n    }\n}\n`,
          },
        ],
      },
      failingTests: [{ className: 'com.acme.SquareTest', method: 'squares' }],
      policy: { allowFailingTestEdits: false },
    });
    expect(testWeakeningReason(verdict.blocking)).toContain(
      'on com.acme.SquareTest#squares: `"7, 49"` became `"7, 50"` in `@CsvSource(...)`',
    );
  });
});
