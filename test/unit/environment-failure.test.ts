import { describe, expect, it } from 'vitest';
import { environmentFailure } from '../../src/repair/loop/environment-failure.js';

describe('environmentFailure', () => {
  it.each([
    ['No space left on device', 'no space left on device'],
    ['Error occurred: Could not reserve enough space for object heap', 'not enough memory to start a JVM'],
    ['[ERROR] Process Exit Code: 137', 'a test JVM killed from outside'],
    // The diagnosis's own words for surefire's dead fork (issue 49 item 5: the killed fork was not recognised).
    ['the test JVM died while running com.acme.calc.QuarterlyReportTest (exit code 137)', 'a test JVM killed'],
    ["it was killed by SIGKILL, usually the machine's out-of-memory killer", 'a test JVM killed'],
  ])('%s: the machine, not the fix', (line, what) => {
    expect(environmentFailure(undefined, line)).toMatch(new RegExp(`^${what}`));
  });

  it.each([
    'the test JVM died while running com.acme.CrashTest (exit code 134)',
    "src/main/java/Calculator.java:11 ';' expected",
    'expected: <2> but was: <3>',
  ])('%s: the candidate', (line) => {
    expect(environmentFailure(undefined, line)).toBeUndefined();
  });
});
