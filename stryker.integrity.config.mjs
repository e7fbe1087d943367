// @ts-check
/**
 * src/repair/integrity/ alone, against the unit tests that exercise them
 * (vitest.mutation.integrity.config.ts): `npx stryker run stryker.integrity.config.mjs`.
 * Its own incremental file, so this slice's results do not overwrite another slice's.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
import base from './stryker.config.mjs';

export default {
  ...base,
  vitest: { configFile: 'vitest.mutation.integrity.config.ts' },
  mutate: ['src/repair/integrity/**/*.ts', '!src/**/index.ts', '!src/**/types.ts'],
  incrementalFile: 'reports/mutation/integrity-incremental.json',
  jsonReporter: { fileName: 'reports/mutation/integrity.json' },
  tempDirName: '.stryker-tmp-integrity',
  concurrency: 1,
  // Other slices' sandboxes (a run in progress, or one that was stopped) are not copied into this one.
  ignorePatterns: ['/.stryker-tmp*'],
};
