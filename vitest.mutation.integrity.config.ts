import base from './vitest.mutation.config';

// Only the unit tests that exercise src/repair/integrity/ (stryker.integrity.config.mjs).
export default { ...base, test: { ...base.test, include: ['test/unit/integrity-*.test.ts', 'test/unit/test-side.test.ts'] } };
