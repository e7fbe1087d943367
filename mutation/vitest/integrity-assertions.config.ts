import base from './base.config';

// assertions.ts is read by every detector (java-tests, test-body, test-oracle, test-side-rule):
// the tests of both the test-class checks and the special-casing check
// (stryker/integrity-assertions.config.mjs). isolate: false keeps java-parser loaded.
export default {
  ...base,
  test: {
    ...base.test,
    include: [
      'test/unit/integrity-check*.test.ts',
      'test/unit/test-side*.test.ts',
      'test/unit/integrity-special-casing*.test.ts',
      'test/unit/integrity-assertions*.test.ts',
      'test/unit/integrity-oracle*.test.ts',
    ],
    isolate: false,
  },
};
