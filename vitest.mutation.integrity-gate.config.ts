import base from './vitest.mutation.config';

// The tests of the integrity gate and the build-configuration check (scope.ts, build-config.ts):
// stryker.integrity-gate.config.mjs. The other integrity tests parse Java and would only slow each run.
export default { ...base, test: { ...base.test, include: ['test/unit/integrity-check.test.ts', 'test/unit/test-side.test.ts', 'test/unit/integrity-gate*.test.ts'] } };
