import base from './base.config';

// The tests of the integrity gate and the build-configuration check (scope.ts, build-config.ts:
// stryker/integrity-gate.config.mjs): setting by setting through touchesTests and checkTestIntegrity
// (integrity-gate*.test.ts), and integrity-check / test-side, which reach the same gate with Java
// test classes. Static mutants are ignored (each reran all 194 tests, 35 s), so these files cost
// only the tests that cover a mutant. isolate: false keeps java-parser loaded.
export default {
  ...base,
  test: {
    ...base.test,
    include: [
      'test/unit/integrity-gate*.test.ts',
      'test/unit/integrity-check*.test.ts',
      'test/unit/test-side*.test.ts',
      'test/unit/repair/integrity/rules/*.test.ts',
    ],
    isolate: false,
  },
};
