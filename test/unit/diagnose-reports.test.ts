// Surefire/Failsafe reports: freshness, robustness, name normalisation, frame mapping.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  collectTestResults,
  diagnoseBuild,
  normaliseTestMethod,
  parseSurefireReport,
} from '../../src/diagnose/index.js';
import { layOut, loadCases, setMtime } from './diagnose-cases.js';
import { tempDir } from '../helpers/temp-dir.js';

const cases = await loadCases();
const testFailures = cases.find((c) => c.name === 'test-failures');
if (!testFailures) throw new Error('fixture test-failures is missing');

function report(body: string, suite = 'com.acme.FooTest'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="${suite}" tests="1">\n${body}\n</testsuite>\n`;
}

async function projectWithReport(xml: string, moduleDir = ''): Promise<string> {
  const root = await tempDir('mvnx-diagnose-rep-');
  const dir = path.join(root, moduleDir, 'target', 'surefire-reports');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'TEST-com.acme.FooTest.xml'), xml);
  return root;
}

describe('normaliseTestMethod', () => {
  it.each([
    ['depositsArePositive(long)[3]', 'depositsArePositive'],
    ['adds[1]', 'adds'],
    ['adds()', 'adds'],
    ['adds(int, String)[2]', 'adds'],
    ['plain', 'plain'],
    ['[1]', '[1]'],
  ])('%s -> %s', (name, expected) => expect(normaliseTestMethod(name)).toBe(expected));
});

describe('collectTestResults', () => {
  it('lists every case of the fixture run, passing ones included, once each', async () => {
    const tree = await layOut(testFailures);
    const results = await collectTestResults({ projectRoot: tree.root, since: tree.startedAt });
    const summary = results.map(
      (r) => `${r.className}#${r.method}${r.reportedName ? ` (${r.reportedName})` : ''} ${r.status}`,
    );
    expect(summary.sort()).toEqual(
      [
        'com.acme.bank.AccountTest#depositAddsToBalance passed',
        'com.acme.bank.AccountTest#withdrawSubtracts failed',
        'com.acme.bank.AccountTest#depositsArePositive (depositsArePositive(long)[1]) passed',
        'com.acme.bank.AccountTest#depositsArePositive (depositsArePositive(long)[2]) passed',
        'com.acme.bank.AccountTest#depositsArePositive (depositsArePositive(long)[3]) error',
        'com.acme.bank.AccountTest#ownerHasName error',
        'com.acme.bank.AccountTest$WhenEmpty#balanceIsZero passed',
        'com.acme.bank.AccountTest$WhenEmpty#withdrawGoesNegative failed',
        'com.acme.bank.LedgerTest#emptyLedgerHasNoEntries passed',
      ].sort(),
    );
    expect(new Set(results.map((r) => r.module))).toEqual(new Set(['test-failures']));
    expect(results.every((r) => r.reportFile.startsWith('target/surefire-reports/TEST-'))).toBe(true);
  });

  it('ignores reports older than the run start (beyond the clock slack)', async () => {
    const tree = await layOut(testFailures);
    const stale = path.join(tree.root, 'target/surefire-reports/TEST-com.acme.bank.AccountTest$WhenEmpty.xml');
    await setMtime(stale, new Date(tree.startedAt.getTime() - 60_000));
    const results = await collectTestResults({ projectRoot: tree.root, since: tree.startedAt });
    expect(results.map((r) => r.className)).toEqual(['com.acme.bank.LedgerTest']);

    const d = await diagnoseBuild({
      projectRoot: tree.root,
      logFile: tree.logFile,
      runStartedAt: tree.startedAt,
      exitCode: 1,
    });
    // The stale report does not count: the console summary stands in, with a warning.
    expect(d.warnings).toContain(
      'no test report written by this run was found; test failures come from the console summary',
    );
    expect(d.diagnostics.map((x) => x.test).sort()).toEqual(
      [
        'AccountTest#depositsArePositive',
        'AccountTest#ownerHasName',
        'AccountTest#withdrawSubtracts',
        'AccountTest$WhenEmpty#withdrawGoesNegative',
      ].sort(),
    );
  });

  it('reads a report written within the slack before the run start', async () => {
    const tree = await layOut(testFailures);
    const file = path.join(tree.root, 'target/surefire-reports/TEST-com.acme.bank.LedgerTest.xml');
    await setMtime(file, new Date(tree.startedAt.getTime() - 1_500));
    const results = await collectTestResults({ projectRoot: tree.root, moduleDirs: [''], since: tree.startedAt });
    expect(results.some((r) => r.className === 'com.acme.bank.LedgerTest')).toBe(true);
  });

  it('returns nothing, without throwing, for a module without reports', async () => {
    const root = await tempDir('mvnx-diagnose-rep-');
    expect(await collectTestResults({ projectRoot: root, moduleDirs: ['absent'] })).toEqual([]);
  });

  it('reads failsafe reports too', async () => {
    const root = await tempDir('mvnx-diagnose-rep-');
    const dir = path.join(root, 'target', 'failsafe-reports');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'TEST-com.acme.FooIT.xml'),
      report('<testcase name="works" classname="com.acme.FooIT"><skipped/></testcase>'),
    );
    expect(await collectTestResults({ projectRoot: root })).toEqual([
      {
        className: 'com.acme.FooIT',
        method: 'works',
        status: 'skipped',
        reportFile: 'target/failsafe-reports/TEST-com.acme.FooIT.xml',
      },
    ]);
  });
});

describe('parseSurefireReport', () => {
  it('salvages the finished cases of a truncated report and warns', () => {
    const xml = report(
      '<testcase name="a" classname="com.acme.FooTest"/>\n<testcase name="b" classname="com.acme.FooTest"><failure message="boom" type="java.lang.AssertionError">java.lang.AssertionError: boom\n\tat com.acme.FooTest.b(FooTest.java:7)</failure></testcase>\n<testcase name="c" classname="com.acme.FooTest">',
    ).replace(/<\/testsuite>\n$/, '');
    const parsed = parseSurefireReport(xml, 'r.xml');
    expect(parsed.cases.map((c) => [c.method, c.status])).toEqual([
      ['a', 'passed'],
      ['b', 'failed'],
    ]);
    expect(parsed.cases[1]?.failure).toEqual({
      outcome: 'failure',
      type: 'java.lang.AssertionError',
      message: 'boom',
      stackTrace: 'java.lang.AssertionError: boom\n\tat com.acme.FooTest.b(FooTest.java:7)',
    });
    expect(parsed.warnings).toHaveLength(1);
    expect(parsed.warnings[0]).toMatch(/^report r\.xml is malformed \(line \d+: .*\); results from it may be partial$/);
  });

  it('returns no cases and a warning for binary junk', () => {
    const parsed = parseSurefireReport('\u0000\u0001PK\u0003\u0004 not xml at all', 'junk.xml');
    expect(parsed.cases).toEqual([]);
    expect(parsed.warnings[0]).toMatch(/^report junk\.xml is malformed/);
  });

  it('reads <testsuites> wrappers, rerun children and entities', () => {
    const xml = `<testsuites><testsuite name="S"><testcase name="t" classname="a.B"><flakyFailure message="x" type="E"/></testcase><testcase name="u" classname="a.B"><error message="&lt;null&gt; &amp; more" type="java.lang.NullPointerException"/></testcase></testsuite></testsuites>`;
    const parsed = parseSurefireReport(xml, 'r.xml');
    expect(parsed.warnings).toEqual([]);
    expect(parsed.cases.map((c) => [c.method, c.status, c.failure?.message])).toEqual([
      ['t', 'passed', undefined],
      ['u', 'error', '<null> & more'],
    ]);
  });

  it('reads a 10,000-case report completely', () => {
    const body = Array.from({ length: 10_000 }, (_, i) =>
      i % 1000 === 0
        ? `<testcase name="t${i}(int)[${i}]" classname="com.acme.BigTest" time="0,001"><failure message="m${i}" type="java.lang.AssertionError">trace</failure><system-out><![CDATA[${'out '.repeat(50)}]]></system-out></testcase>`
        : `<testcase name="t${i}" classname="com.acme.BigTest" time="0.001"/>`,
    ).join('\n');
    const parsed = parseSurefireReport(report(body, 'com.acme.BigTest'), 'big.xml');
    expect(parsed.cases).toHaveLength(10_000);
    expect(
      parsed.cases
        .filter((c) => c.status === 'failed')
        .map((c) => c.method)
        .slice(0, 2),
    ).toEqual(['t0', 't1000']);
  });
});

describe('test failure diagnostics', () => {
  it('maps a display-named case to its method through the stack, and a nested class to Outer.java', async () => {
    const xml = report(
      [
        '<testcase name="owner name has a length" classname="com.acme.FooTest"><error message="npe" type="java.lang.NullPointerException">java.lang.NullPointerException: npe',
        '\tat com.acme.FooTest.ownerHasName(FooTest.java:31)',
        '\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)</error></testcase>',
        '<testcase name="inner()" classname="com.acme.FooTest$Inner$Deeper"><failure message="" type="org.opentest4j.AssertionFailedError">org.opentest4j.AssertionFailedError',
        '\tat org.junit.jupiter.api.Assertions.fail(Assertions.java:1)',
        '\tat com.acme.FooTest$Inner$Deeper.inner(FooTest.java:44)',
        '\tat org.junit.platform.X.run(X.java:1)',
        '\tat org.junit.platform.Y.run(Y.java:1)</failure></testcase>',
      ].join('\n'),
    );
    const root = await projectWithReport(xml, 'mod');
    await writeFile(
      path.join(root, 'pom.xml'),
      '<project><artifactId>parent</artifactId><modules><module>mod</module></modules></project>',
    );
    await writeFile(path.join(root, 'mod', 'pom.xml'), '<project><artifactId>mod-a</artifactId></project>');
    await mkdir(path.join(root, 'mod/src/test/java/com/acme'), { recursive: true });
    await writeFile(path.join(root, 'mod/src/test/java/com/acme/FooTest.java'), 'class FooTest {}');
    const logFile = path.join(root, 'console.txt');
    await writeFile(logFile, '[ERROR] Tests run: 2, Failures: 1, Errors: 1, Skipped: 0\n');
    const d = await diagnoseBuild({
      projectRoot: root,
      logFile,
      runStartedAt: new Date(Date.now() - 1000),
      exitCode: 1,
    });
    expect(d.diagnostics.map((x) => [x.test, x.file, x.line, x.module, x.message])).toEqual([
      ['com.acme.FooTest#ownerHasName', 'mod/src/test/java/com/acme/FooTest.java', 31, 'mod-a', 'npe'],
      [
        'com.acme.FooTest$Inner$Deeper#inner',
        'mod/src/test/java/com/acme/FooTest.java',
        44,
        'mod-a',
        'org.opentest4j.AssertionFailedError',
      ],
    ]);
    expect(d.diagnostics[1]?.testFailure?.stackTrace).toBe(
      'org.opentest4j.AssertionFailedError\n\tat org.junit.jupiter.api.Assertions.fail(Assertions.java:1)\n\tat com.acme.FooTest$Inner$Deeper.inner(FooTest.java:44)\n\t... 2 framework frames (org.junit.platform.X.run ... org.junit.platform.Y.run)',
    );
    expect(d.fixable).toBe(true);
  });

  it('treats an OutOfMemoryError in a test as a JVM problem, not fixable', async () => {
    const root = await projectWithReport(
      report(
        '<testcase name="hog" classname="com.acme.FooTest"><error message="Java heap space" type="java.lang.OutOfMemoryError">java.lang.OutOfMemoryError: Java heap space</error></testcase>',
      ),
    );
    const logFile = path.join(root, 'console.txt');
    await writeFile(logFile, '');
    const d = await diagnoseBuild({
      projectRoot: root,
      logFile,
      runStartedAt: new Date(Date.now() - 1000),
      exitCode: 1,
    });
    expect(d.diagnostics).toEqual([expect.objectContaining({ kind: 'test', category: 'jvm-crash', fixable: false })]);
    expect(d.fixable).toBe(false);
    expect(d.reason).toMatch(/out of memory/);
  });

  it('keeps a fixture failure message byte for byte', async () => {
    const xml = await readFile(
      path.join(testFailures.dir, 'reports/surefire-reports/TEST-com.acme.bank.AccountTest$WhenEmpty.xml'),
      'utf8',
    );
    const npe = parseSurefireReport(xml, 'x').cases.find((c) => c.method === 'ownerHasName');
    expect(npe?.failure?.message).toBe(
      'Cannot invoke "String.length()" because the return value of "com.acme.bank.Account.owner()" is null',
    );
  });
});
