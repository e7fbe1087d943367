/**
 * The failing tests first inside default-test (class-order.ts, failing-first-watch.ts,
 * class-order-compile.ts): when mvnx may reorder the classes and when the Surefire execution
 * stays, the judgement of the watched reports, and the orderer compiled by the real javac.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReportedTestCase } from '../../src/diagnose/surefire.js';
import {
  classOrderArgs,
  decideClassOrder,
  failingClasses,
  testCaseTimes,
  testClassPathOf,
  type ClassOrderInput,
} from '../../src/workspace/class-order.js';
import { CLASS_ORDER_FILE, compiledClassOrder } from '../../src/workspace/class-order-compile.js';
import { judgeFirstReports, watchFailingFirst, type WatchedModule } from '../../src/workspace/failing-first-watch.js';

const JAR = path.join(
  os.homedir(),
  '.m2/repository/org/junit/jupiter/junit-jupiter-api/5.10.2/junit-jupiter-api-5.10.2.jar',
);
const JUPITER_TEST = 'package com.acme;\n\nimport org.junit.jupiter.api.Test;\n\nclass CalcTest {}\n';
const input = (over: Partial<ClassOrderInput> = {}): ClassOrderInput => ({
  args: ['-o', 'verify'],
  poms: [
    '<project><build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId></plugin></plugins></build></project>',
  ],
  platformProperties: [],
  testSources: [JUPITER_TEST],
  testClassPath: [
    '/p/target/test-classes',
    '/r/org/junit/jupiter/junit-jupiter-api/5.10.2/junit-jupiter-api-5.10.2.jar',
  ].join(path.delimiter),
  ...over,
});

describe('decideClassOrder: the orderer where JUnit Jupiter orders one JVM of classes, else the Surefire execution, with the reason', () => {
  it('a Jupiter failing test, one fork, Jupiter 5.10 on the test class path: ordered, against that jar', () => {
    expect(decideClassOrder(input())).toEqual({
      order: true,
      jupiterApiJar: '/r/org/junit/jupiter/junit-jupiter-api/5.10.2/junit-jupiter-api-5.10.2.jar',
    });
    expect(
      decideClassOrder(input({ testSources: ['import static org.junit.jupiter.api.Assertions.assertEquals;'] })).order,
    ).toBe(true);
    expect(decideClassOrder(input({ poms: ['<forkCount>1</forkCount><reuseForks>true</reuseForks>'] })).order).toBe(
      true,
    );
    expect(decideClassOrder(input({ testClassPath: '/r/junit-jupiter-api-6.0.1.jar' }))).toEqual({
      order: true,
      jupiterApiJar: '/r/junit-jupiter-api-6.0.1.jar',
    });
    expect(decideClassOrder(input({ otherTestsSeconds: 1 })).order).toBe(true);
    expect(decideClassOrder(input({ moduleTests: 500 })).order).toBe(true);
  });

  it.each<[string, Partial<ClassOrderInput>, string]>([
    [
      'a command that cleans',
      { args: ['clean', 'verify'] },
      'the command cleans first, which would delete the orderer',
    ],
    ['clean:clean', { args: ['clean:clean', 'install'] }, 'the command cleans first, which would delete the orderer'],
    [
      'reuseForks false in the pom',
      { poms: ['<reuseForks> false </reuseForks>'] },
      'Surefire starts a JVM per test class (reuseForks false)',
    ],
    [
      '-DreuseForks=false',
      { args: ['-DreuseForks=false', 'verify'] },
      'Surefire starts a JVM per test class (reuseForks false)',
    ],
    ['forkCount 2', { poms: ['<forkCount>2</forkCount>'] }, 'Surefire runs test classes in several JVMs (forkCount 2)'],
    [
      '-DforkCount=1C',
      { args: ['-DforkCount=1C', 'verify'] },
      'Surefire runs test classes in several JVMs (forkCount 1C)',
    ],
    [
      'an order in junit-platform.properties',
      {
        platformProperties: [
          'junit.jupiter.testclass.order.default=org.junit.jupiter.api.ClassOrderer$OrderAnnotation',
        ],
      },
      'the project orders its test classes itself',
    ],
    [
      'an order in the pom',
      { poms: ['<configurationParameters>junit.jupiter.testclass.order.default = x</configurationParameters>'] },
      'the project orders its test classes itself',
    ],
    [
      'a JUnit 4 test',
      { testSources: ['import org.junit.Test;\nimport static org.junit.Assert.assertEquals;'] },
      'a failing test is not a JUnit Jupiter test (or its source was not found)',
    ],
    [
      'a test source not found',
      { testSources: [JUPITER_TEST, undefined] },
      'a failing test is not a JUnit Jupiter test (or its source was not found)',
    ],
    [
      'Jupiter 5.7 (no ClassOrderer)',
      { testClassPath: '/r/junit-jupiter-api-5.7.2.jar' },
      'the test class path has no junit-jupiter-api 5.8 or later',
    ],
    [
      'no class path in the report',
      { testClassPath: undefined },
      'the test class path has no junit-jupiter-api 5.8 or later',
    ],
    [
      'failing modules that ran 1,834 tests',
      { moduleTests: 1834 },
      "the failing modules ran 1834 tests in your build: discovering them all before the failing classes costs a wrong candidate more than a test JVM of the failing tests' own",
    ],
    [
      'failing classes whose other tests took 5 s',
      { otherTestsSeconds: 5.04 },
      "the failing classes' other tests took 5.0 s in your build, more than a test JVM of the failing tests' own",
    ],
  ])('%s: the execution stays', (_, over, why) => {
    const value = { ...input(), ...over };
    if ('testClassPath' in over && over.testClassPath === undefined) delete value.testClassPath;
    expect(decideClassOrder(value)).toEqual({ order: false, why });
  });
});

describe('what the orderer is told, and where it reads the class path', () => {
  it('top-level classes once, nested classes under their enclosing class', () => {
    expect(failingClasses(['a.B#x', 'a.B#y', 'a.B$Inner#z', 'c.D#w'])).toEqual(['a.B', 'c.D']);
    expect(classOrderArgs(['a.B', 'c.D', 'a.B'])).toEqual([
      '-Djunit.jupiter.testclass.order.default=mvnx.FailingFirstOrder',
      '-Dmvnx.failingFirst=a.B,c.D',
    ]);
  });

  it('testcase times from a report, whatever the attribute order', () => {
    const xml =
      '<testsuite><testcase name="a" classname="c.ATest" time="0.25"/><testcase time="1.5" classname="c.ATest" name="b"><failure/></testcase><testcase name="x"/></testsuite>';
    expect(testCaseTimes(xml)).toEqual([
      { test: 'c.ATest#a', seconds: 0.25 },
      { test: 'c.ATest#b', seconds: 1.5 },
    ]);
  });

  it('surefire.test.class.path from a report, XML entities read back', () => {
    const xml =
      '<testsuite><properties><property name="java.class.path" value="/wrong"/><property name="surefire.test.class.path" value="/p/a&amp;b.jar:/q.jar"/></properties></testsuite>';
    expect(testClassPathOf(xml)).toBe('/p/a&b.jar:/q.jar');
    expect(testClassPathOf('<testsuite/>')).toBeUndefined();
  });
});

const ran = (className: string, method: string, status: ReportedTestCase['status']): ReportedTestCase => ({
  className,
  method,
  reportedName: method,
  status,
});

describe("judgeFirstReports: stop once a module's failing classes have all reported and a failing test still fails", () => {
  const modules: WatchedModule[] = [
    { targetDir: '/core', classes: ['c.ATest', 'c.BTest'] },
    { targetDir: '/app', classes: ['a.CTest'] },
  ];
  const tests = ['c.ATest#one', 'c.BTest#two', 'a.CTest#three'];

  it('waits while a class of every module is missing, even when a report already shows the failure', () => {
    expect(judgeFirstReports(modules, new Map(), tests)).toBe('waiting');
    expect(
      judgeFirstReports(
        modules,
        new Map([['/core', new Map([['c.ATest', [ran('c.ATest', 'one', 'failed')]]])]]),
        tests,
      ),
    ).toBe('waiting');
  });

  it('still-failing when one module is complete and one of its failing tests failed or errored', () => {
    const core = new Map([
      ['c.ATest', [ran('c.ATest', 'one', 'passed')]],
      ['c.BTest', [ran('c.BTest', 'two', 'error')]],
    ]);
    expect(judgeFirstReports(modules, new Map([['/core', core]]), tests)).toBe('still-failing');
  });

  it('a failure of another test of a failing class is left to the verdict (a regression), and all passing is passed', () => {
    const core = new Map([
      ['c.ATest', [ran('c.ATest', 'one', 'passed'), ran('c.ATest', 'other', 'failed')]],
      ['c.BTest', [ran('c.BTest', 'two', 'passed')]],
    ]);
    expect(judgeFirstReports(modules, new Map([['/core', core]]), tests)).toBe('waiting');
    expect(
      judgeFirstReports(
        modules,
        new Map([
          ['/core', core],
          ['/app', new Map([['a.CTest', [ran('a.CTest', 'three', 'passed')]]])],
        ]),
        tests,
      ),
    ).toBe('passed');
  });
});

const temps: string[] = [];
afterEach(async () => {
  while (temps.length > 0) await rm(temps.pop()!, { recursive: true, force: true });
});
async function temp(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mvnx-class-order-'));
  temps.push(dir);
  return dir;
}

const REPORT = (status: 'pass' | 'fail') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="c.ATest" tests="1" failures="${status === 'fail' ? 1 : 0}"><testcase name="one" classname="c.ATest" time="0.01">${status === 'fail' ? '<failure message="expected: &lt;6&gt; but was: &lt;5&gt;" type="org.opentest4j.AssertionFailedError"/>' : ''}</testcase></testsuite>\n`;

describe('watchFailingFirst on a real folder', () => {
  it('aborts once the failing class reports the failing test failed again; a report cut in the middle is not read as complete', async () => {
    const dir = await temp();
    await mkdir(path.join(dir, 'surefire-reports'));
    const watch = watchFailingFirst([{ targetDir: dir, classes: ['c.ATest'] }], ['c.ATest#one'], 20);
    await writeFile(path.join(dir, 'surefire-reports/TEST-c.ATest.xml'), REPORT('fail').slice(0, 80));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(watch.signal.aborted).toBe(false);
    await writeFile(path.join(dir, 'surefire-reports/TEST-c.ATest.xml'), REPORT('fail'));
    await new Promise((resolve) => watch.signal.addEventListener('abort', resolve, { once: true }));
    expect(await watch.stop()).toBe('stopped');
  });

  it('a class with @Nested classes: its cases may sit in the nested report, which is read with it', async () => {
    const dir = await temp();
    await mkdir(path.join(dir, 'surefire-reports'));
    const nested = REPORT('fail').replace('name="c.ATest"', 'name="c.ATest$Deep"');
    await writeFile(path.join(dir, 'surefire-reports/TEST-c.ATest$Deep.xml'), nested);
    await writeFile(
      path.join(dir, 'surefire-reports/TEST-c.ATest.xml'),
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="c.ATest" tests="0" failures="0"/>\n',
    );
    const watch = watchFailingFirst([{ targetDir: dir, classes: ['c.ATest'] }], ['c.ATest#one'], 20);
    expect(await watch.stop()).toBe('stopped');
  });

  it('passed when the class reports the test passing (an integration test: in failsafe-reports), not-reached when no report came', async () => {
    const dir = await temp();
    await mkdir(path.join(dir, 'failsafe-reports'));
    const passing = watchFailingFirst([{ targetDir: dir, classes: ['c.ATest'] }], ['c.ATest#one'], 20);
    await writeFile(path.join(dir, 'failsafe-reports/TEST-c.ATest.xml'), REPORT('pass'));
    expect(await passing.stop()).toBe('passed');
    expect(passing.signal.aborted).toBe(false);
    const silent = watchFailingFirst(
      [{ targetDir: path.join(dir, 'none'), classes: ['c.ATest'] }],
      ['c.ATest#one'],
      20,
    );
    expect(await silent.stop()).toBe('not-reached');
  });
});

describe('compiledClassOrder: the real javac, once per jar', () => {
  it('compiles the orderer against junit-jupiter-api and reuses the class file the second time', async () => {
    const cacheDir = await temp();
    const first = await compiledClassOrder({ jupiterApiJar: JAR, cacheDir, env: process.env });
    expect(first).toEqual({ classes: expect.stringContaining(path.join(cacheDir, 'class-order')) });
    const classes = (first as { classes: string }).classes;
    const bytes = await readFile(path.join(classes, CLASS_ORDER_FILE));
    // A class file for Java 8 (major version 52), so any test JVM can load it.
    expect(bytes.readUInt32BE(0)).toBe(0xcafebabe);
    expect(bytes.readUInt16BE(6)).toBe(52);
    expect(await compiledClassOrder({ jupiterApiJar: JAR, cacheDir, env: { PATH: '/nonexistent' } })).toEqual(first);
  });

  it('no javac, or a jar that is not there: why, no throw', async () => {
    const cacheDir = await temp();
    expect(await compiledClassOrder({ jupiterApiJar: JAR, cacheDir, env: { PATH: '/nonexistent' } })).toEqual({
      why: 'no javac was found (JAVA_HOME, PATH)',
    });
    expect(
      await compiledClassOrder({
        jupiterApiJar: '/nonexistent/junit-jupiter-api-5.10.2.jar',
        cacheDir,
        env: process.env,
      }),
    ).toEqual({ why: '/nonexistent/junit-jupiter-api-5.10.2.jar cannot be read' });
  });

  it('javac refuses a jar without ClassOrderer: why, naming the jar', async () => {
    const dir = await temp();
    const notApi = path.join(dir, 'junit-jupiter-api-5.8.0.jar');
    await writeFile(notApi, 'not a zip');
    const result = await compiledClassOrder({ jupiterApiJar: notApi, cacheDir: dir, env: process.env });
    expect(result).toEqual({
      why: expect.stringMatching(/^javac could not compile the orderer against junit-jupiter-api-5\.8\.0\.jar: /),
    });
  });
});
