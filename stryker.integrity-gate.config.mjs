// @ts-check
/**
 * src/repair/integrity/scope.ts and build-config.ts (which files the test-integrity check reads, and the build settings that skip tests), against the unit tests that exercise them
 * (vitest.mutation.integrity-gate.config.ts): `npx stryker run stryker.integrity-gate.config.mjs`.
 * Its own incremental file, so this slice's results do not overwrite another slice's.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
import base from './stryker.config.mjs';

export default {
  ...base,
  vitest: { configFile: 'vitest.mutation.integrity-gate.config.ts' },
  mutate: ['src/repair/integrity/scope.ts', 'src/repair/integrity/build-config.ts'],
  incrementalFile: 'reports/mutation/integrity-gate-incremental.json',
  jsonReporter: { fileName: 'reports/mutation/integrity-gate.json' },
  tempDirName: '.stryker-tmp-integrity-gate',
  concurrency: 1,
  // Other slices' sandboxes (a run in progress, or one that was stopped) are not copied into this one.
  ignorePatterns: ['/.stryker-tmp*'],
};
