import { describe, expect, it } from 'vitest';
import { failureSignWatch, onFirstFailureSign } from '../../src/diagnose/failure-sign.js';

// Real lines: Surefire 3.2.5 with -Dstyle.color=always (what mvnx adds on a terminal), the compiler plugin, Maven's end.
const ESC = '\u001b';
const COLOURED_TEST_FAILURE = `[${ESC}[1;31mERROR${ESC}[m] ${ESC}[1;31mTests ${ESC}[0;1mrun: ${ESC}[0;1m34${ESC}[m, ${ESC}[1;31mFailures: ${ESC}[0;1;31m1${ESC}[m, Errors: 0, Skipped: 0, Time elapsed: 0.427 s${ESC}[1;31m <<< FAILURE!${ESC}[m -- in org.jsoup.helper.${ESC}[1mDataUtilTest${ESC}[m\n`;
const PASSING_BUILD = [
  '[INFO] --- surefire:3.2.5:test (default-test) @ calc ---',
  '[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.05 s -- in demo.CalcTest',
  '[WARNING] Tests run: 2, Failures: 0, Errors: 0, Skipped: 1 -- in demo.SkipTest',
  '[INFO] BUILD SUCCESS',
  '',
].join('\n');

describe('failureSignWatch', () => {
  it('sees each sign of a failing build, coloured or not', () => {
    for (const output of [
      COLOURED_TEST_FAILURE,
      '[ERROR] Tests run: 1, Failures: 0, Errors: 1, Skipped: 0 <<< ERROR! -- in demo.CalcTest\n',
      '[ERROR] COMPILATION ERROR : \n',
      `[${ESC}[1;31mERROR${ESC}[m] Failed to execute goal ${ESC}[32morg.apache.maven.plugins:maven-enforcer-plugin:3.4.1:enforce${ESC}[m\n`,
      `[INFO] ${ESC}[1;31mBUILD FAILURE${ESC}[m\n`,
    ]) {
      expect(failureSignWatch()(output), output).toBe(true);
    }
  });

  it('sees a sign that a chunk boundary cut in two, however it is cut', () => {
    const line = '[ERROR] Tests run: 34, Failures: 1, Errors: 0, Skipped: 0 <<< FAILURE! -- in demo.CalcTest\n';
    for (let cut = 1; cut < line.length; cut++) {
      const watch = failureSignWatch();
      expect(watch(line.slice(0, cut)) || watch(line.slice(cut)), `cut at ${cut}`).toBe(true);
    }
    // One character per chunk.
    const watch = failureSignWatch();
    expect([...'[INFO] BUILD FAILURE\n'].map((char) => watch(char)).at(-1)).toBe(true);
  });

  it('sees nothing in a passing build, and stays true once it saw a sign', () => {
    const watch = failureSignWatch();
    for (const line of PASSING_BUILD.split(/(?<=\n)/)) expect(watch(line)).toBe(false);
    expect(watch('[ERROR] COMPILATION ERROR : \n')).toBe(true);
    expect(watch('[INFO] anything\n')).toBe(true);
  });
});

describe('onFirstFailureSign', () => {
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it('starts once, after the chunk that shows the first sign was handed on, and never for a passing build', async () => {
    let starts = 0;
    const handle = onFirstFailureSign(async () => {
      starts++;
    });
    for (const line of PASSING_BUILD.split(/(?<=\n)/)) handle(Buffer.from(line));
    await nextTurn();
    expect(starts).toBe(0);

    handle(Buffer.from(COLOURED_TEST_FAILURE));
    expect(starts).toBe(0);
    await nextTurn();
    expect(starts).toBe(1);
    handle(Buffer.from('[INFO] BUILD FAILURE\n'));
    await nextTurn();
    expect(starts).toBe(1);
  });

  it('ignores a start that fails: whoever needs it meets the failure again', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const handle = onFirstFailureSign(() => Promise.reject(new Error('cannot load')));
      handle(Buffer.from('[INFO] BUILD FAILURE\n'));
      await nextTurn();
      await nextTurn();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
