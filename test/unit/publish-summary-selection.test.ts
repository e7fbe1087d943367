/** A published fix's description says which tests ran when verify.tests selected them (issue 26 part 3). */
import { describe, expect, it } from 'vitest';
import { requestDescription } from '../../src/report/publish/publish-text.js';
import type { RunRecord } from '../../src/report/run-record.js';

const record = (verdict: object): RunRecord =>
  ({
    runId: 'r1',
    mavenArgs: ['-o', 'verify'],
    decisions: ['risk low'],
    diagnostics: [{ kind: 'test', test: 'com.acme.PriceTest#tenPercentOff', message: 'expected 90 but was 110' }],
    attempts: [
      {
        outcome: 'verified',
        source: 'model',
        fingerprint: 'f',
        verdict: { scope: 'affected', args: ['-o', 'verify'], testsFromYourBuild: [], jvmFlags: [], ...verdict },
      },
    ],
    sandbox: { kind: 'bwrap', isolated: true },
  }) as unknown as RunRecord;

describe('requestDescription: the tests that ran', () => {
  it('names the selection when test classes were taken from the failed build', () => {
    const text = requestDescription(
      record({
        tests: {
          ran: ['com.acme.PriceTest'],
          fromYourBuild: ['com.acme.CartTest', 'com.acme.NameTest'],
          why: 'selected 1 of 3 test classes that reach Price; 2 taken from your build',
        },
      }),
      '',
    );
    expect(text).toContain(
      '- in the module the fix touches, selected 1 of 3 test classes that reach Price; 2 taken from the failed build',
    );
    expect(text).not.toContain('every test of the build');
  });

  it('says every test ran when none was taken', () => {
    const text = requestDescription(
      record({
        scope: 'full',
        tests: { ran: ['com.acme.PriceTest'], fromYourBuild: [], why: 'all tests ran: verify.tests is all' },
      }),
      '',
    );
    expect(text).toContain('- every test of the build');
  });
});
