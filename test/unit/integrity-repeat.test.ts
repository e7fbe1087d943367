/**
 * The failing tests' second run in the same JVM (issue 45), its pure parts: the harness's
 * output read back, the launcher jar of the engine's version found next to it in a local
 * repository, Surefire's method names, and the verdict (a failing test that passed the
 * first time and failed when run again is refused; anything else is left alone). The real
 * harness through real Maven: test/integration/behaviour-probe.test.ts (cheat-static-first-answer).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repeatFindings, type RepeatedTest } from '../../src/repair/integrity/repeat-verdict.js';
import { launcherJarFor, methodName, parseRepeatOutput } from '../../src/workspace/test-repeat.js';

const cleanups: string[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await rm(cleanups.pop()!, { recursive: true, force: true });
});

const T = 'com.acme.cart.CartTest#totalAddsEveryPrice';
const result = (run: 1 | 2, status: RepeatedTest['status'], why = '', test = T): RepeatedTest => ({
  run,
  test,
  status,
  why,
});

describe('repeatFindings', () => {
  it.each([
    ['passes both times', [result(1, 'SUCCESSFUL'), result(2, 'SUCCESSFUL')], 0],
    ['fails both times (this run differs from Surefire: not judged)', [result(1, 'FAILED'), result(2, 'FAILED')], 0],
    ['fails first, passes again (not a fix that works once)', [result(1, 'FAILED'), result(2, 'SUCCESSFUL')], 0],
    ['passes first, aborted again (an assumption, not a failure)', [result(1, 'SUCCESSFUL'), result(2, 'ABORTED')], 0],
    ['passes first, no second run (the budget ended it)', [result(1, 'SUCCESSFUL')], 0],
    ['passes first, fails again', [result(1, 'SUCCESSFUL'), result(2, 'FAILED', 'expected: <600> but was: <500>')], 1],
    [
      'a test that did not fail before the fix is not judged',
      [
        result(1, 'SUCCESSFUL', '', 'com.acme.cart.CartTest#other'),
        result(2, 'FAILED', '', 'com.acme.cart.CartTest#other'),
      ],
      0,
    ],
  ] as [string, RepeatedTest[], number][])('%s', (_name, results, count) => {
    expect(repeatFindings([T], results)).toHaveLength(count);
  });

  it('names the test, what it threw the second time, and why that is refused', () => {
    const [finding] = repeatFindings(
      ['com.acme.cart.CartTest#totalAddsEveryPrice()'],
      [
        result(1, 'SUCCESSFUL'),
        result(2, 'FAILED', 'org.opentest4j.AssertionFailedError: expected: <600> but was: <500>'),
      ],
    );
    expect(finding!.message).toBe(
      'com.acme.cart.CartTest#totalAddsEveryPrice passes when it runs first and fails when it runs again in the same JVM (org.opentest4j.AssertionFailedError: expected: <600> but was: <500>): the fix works only the first time (a first-call flag, a counter, a cached answer or other state kept between calls); fix the computation so that it gives the same answer every time',
    );
  });

  it('a failing class without a method covers each of its tests; parameterized names match their method', () => {
    const test = 'com.acme.cart.CartTest#sums';
    const results = [result(1, 'SUCCESSFUL', '', test), result(2, 'FAILED', '', test)];
    expect(repeatFindings(['com.acme.cart.CartTest'], results)).toHaveLength(1);
    expect(repeatFindings(['com.acme.cart.CartTest#sums(int)[2]'], results)).toHaveLength(1);
    expect(repeatFindings(['com.acme.cart.OtherTest'], results)).toHaveLength(0);
  });
});

describe('parseRepeatOutput', () => {
  it('reads each result line, the end and an error; other lines and unknown statuses are ignored', () => {
    const out = [
      'noise the JVM printed',
      `t\t1\t${T}\tSUCCESSFUL\t`,
      `t\t2\t${T}\tFAILED\torg.opentest4j.AssertionFailedError: expected: <600> but was: <500>`,
      `t\t2\t${T}\tSKIPPED\t`,
      't\t1',
      'end\tcomplete',
    ].join('\n');
    expect(parseRepeatOutput(out)).toEqual({
      results: [
        { run: 1, test: T, status: 'SUCCESSFUL', why: '' },
        {
          run: 2,
          test: T,
          status: 'FAILED',
          why: 'org.opentest4j.AssertionFailedError: expected: <600> but was: <500>',
        },
      ],
      captured: [],
      end: 'complete',
    });
    expect(parseRepeatOutput('end\tbudget\n').end).toBe('budget');
    expect(
      parseRepeatOutput(
        'error\tjava.lang.ClassNotFoundException: org.junit.platform.launcher.core.LauncherFactory\nend\tcomplete',
      ),
    ).toEqual({
      results: [],
      captured: [],
      end: 'complete',
      error: 'java.lang.ClassNotFoundException: org.junit.platform.launcher.core.LauncherFactory',
    });
    // A JVM that died before the end line: no end.
    expect(parseRepeatOutput(`t\t1\t${T}\tSUCCESSFUL\t`).end).toBeUndefined();
  });
});

describe('methodName', () => {
  it.each([
    ['total', 'total'],
    ['total()', 'total'],
    ['sums(int)[2]', 'sums'],
    ['sums[1]', 'sums'],
    ['', ''],
  ])('%s is %s', (name, method) => {
    expect(methodName(name)).toBe(method);
  });
});

describe('launcherJarFor', () => {
  async function repository(versions: string[]): Promise<string> {
    const repo = await mkdtemp(path.join(tmpdir(), 'mvnx-repeat-'));
    cleanups.push(repo);
    for (const version of versions) {
      const dir = path.join(repo, 'org/junit/platform/junit-platform-launcher', version);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, `junit-platform-launcher-${version}.jar`), '');
    }
    return repo;
  }
  const engine = (repo: string, version: string) =>
    path.join(repo, 'org/junit/platform/junit-platform-engine', version, `junit-platform-engine-${version}.jar`);

  it('is the launcher of the engine version, next to it in the local repository', async () => {
    const repo = await repository(['1.10.2', '1.11.4']);
    expect(launcherJarFor(['/w/target/test-classes', engine(repo, '1.11.4')])).toBe(
      path.join(repo, 'org/junit/platform/junit-platform-launcher/1.11.4/junit-platform-launcher-1.11.4.jar'),
    );
  });

  it("is the class path's own launcher when it has one", () => {
    expect(launcherJarFor(['/r/junit-platform-launcher-1.9.3.jar', '/r/junit-platform-engine-1.9.3.jar'])).toBe(
      '/r/junit-platform-launcher-1.9.3.jar',
    );
  });

  it('is absent when the version has no launcher in the repository, or there is no engine (JUnit 4 alone)', async () => {
    const repo = await repository(['1.10.2']);
    expect(launcherJarFor([engine(repo, '1.11.4')])).toBeUndefined();
    expect(launcherJarFor(['/r/junit/junit/4.13.2/junit-4.13.2.jar'])).toBeUndefined();
  });
});
