// @ts-check
/**
 * src/report/review/ alone, against the unit tests that exercise them
 * (mutation/vitest/review.config.ts): `npx stryker run mutation/slices/review.config.mjs`.
 * Its own incremental file, so this slice's results do not overwrite another slice's.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
import base from '../stryker.config.mjs';

export default {
  ...base,
  vitest: { configFile: 'mutation/vitest/review.config.ts' },
  mutate: ['src/report/review/**/*.ts', '!src/**/index.ts', '!src/**/types.ts'],
  incrementalFile: 'mutation/reports/review-incremental.json',
  jsonReporter: { fileName: 'mutation/reports/review.json' },
  tempDirName: '.stryker-tmp-review',
  concurrency: 1,
  // Other slices' sandboxes (a run in progress, or one that was stopped) are not copied into this one.
  ignorePatterns: ['/.stryker-tmp*'],
};
