import base from './base.config';

// The tests of the special-casing check (special-casing, constant-value, test-oracle, oracle-inputs:
// stryker/integrity-{special-casing,constant-value,oracle}.config.mjs). checkTestIntegrity does not
// reach these files, so the integrity-check and test-side tests are left out. isolate: false keeps
// java-parser loaded between mutant runs.
export default {
  ...base,
  test: {
    ...base.test,
    include: ['test/unit/integrity-special-casing*.test.ts', 'test/unit/integrity-oracle*.test.ts'],
    isolate: false,
  },
};
