// @ts-check
/**
 * src/model/redact.ts and secret-values.ts alone, against the unit tests that exercise them
 * (mutation/vitest/redaction.config.ts): `npx stryker run mutation/slices/redaction.config.mjs`.
 * Its own incremental file, so this slice's results do not overwrite another slice's.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
import base from '../stryker.config.mjs';

export default {
  ...base,
  vitest: { configFile: 'mutation/vitest/redaction.config.ts' },
  mutate: ['src/model/redact.ts', 'src/model/secret-values.ts'],
  incrementalFile: 'mutation/reports/redaction-incremental.json',
  jsonReporter: { fileName: 'mutation/reports/redaction.json' },
  tempDirName: '.stryker-tmp-redaction',
  concurrency: 1,
  // Other slices' sandboxes (a run in progress, or one that was stopped) are not copied into this one.
  ignorePatterns: ['/.stryker-tmp*'],
};
