import base from './base.config';

// Every unit test that reaches the Java test-class comparison (rules/test-comparison.ts, test-body.ts:
// stryker/integrity-{java-tests,test-body}.config.mjs): all of them call checkTestIntegrity,
// which parses every changed .java file through javaTestFindings. integrity-assertions and the
// gate tests are in too (integrity-java leaves them out): a mutant only they kill would count
// as survived. perTest coverage runs only the tests that reach a mutant, so the wider set costs
// the dry run, not each mutant run. isolate: false keeps java-parser loaded between runs.
export default {
  ...base,
  test: {
    ...base.test,
    include: [
      'test/unit/integrity-check*.test.ts',
      'test/unit/integrity-assertions*.test.ts',
      'test/unit/integrity-test-side*.test.ts',
      'test/unit/test-side*.test.ts',
      'test/unit/repair/integrity/rules/*.test.ts',
      'test/unit/integrity-gate*.test.ts',
      'test/unit/integrity-java*.test.ts',
    ],
    isolate: false,
  },
};
