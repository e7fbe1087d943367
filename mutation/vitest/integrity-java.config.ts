import base from './base.config';

// The tests that reach the Java test-class checks of src/repair/integrity/ (test-side*, differing-part:
// stryker/integrity-{test-side,test-side-rule}.config.mjs; java-tests and test-body use integrity-java-tests)
// through checkTestIntegrity and the test-side readers. The special-casing tests never reach these
// files and parse much more Java, so they are left out. isolate: false keeps java-parser loaded
// between mutant runs (Stryker switches mutants at run time).
export default {
  ...base,
  test: {
    ...base.test,
    include: [
      'test/unit/integrity-check*.test.ts',
      'test/unit/test-side*.test.ts',
      'test/unit/repair/integrity/rules/*.test.ts',
      'test/unit/integrity-test-side*.test.ts',
      'test/unit/integrity-java*.test.ts',
    ],
    isolate: false,
  },
};
