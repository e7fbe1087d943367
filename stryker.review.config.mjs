// @ts-check
/**
 * src/report/review/ alone, against the unit tests that exercise them
 * (vitest.mutation.review.config.ts): `npx stryker run stryker.review.config.mjs`.
 * Its own incremental file, so this slice's results do not overwrite another slice's.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
import base from './stryker.config.mjs';

export default {
  ...base,
  vitest: { configFile: 'vitest.mutation.review.config.ts' },
  mutate: ['src/report/review/**/*.ts', '!src/**/index.ts', '!src/**/types.ts'],
  incrementalFile: 'reports/mutation/review-incremental.json',
  jsonReporter: { fileName: 'reports/mutation/review.json' },
  tempDirName: '.stryker-tmp-review',
  concurrency: 1,
  // Other slices' sandboxes (a run in progress, or one that was stopped) are not copied into this one.
  ignorePatterns: ['/.stryker-tmp*'],
};
