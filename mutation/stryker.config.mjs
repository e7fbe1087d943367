// @ts-check
/**
 * Mutation testing of the pure, safety-critical modules through their unit tests
 * (npm run mutation; not part of npm test: on two cores a run over every listed folder takes hours — measured: 76 mutants of secret-values.ts in 12 min on a loaded machine).
 * Incremental: mutation/reports/stryker-incremental.json is committed, so a run on a fresh
 * clone tests only the mutants whose code or covering tests changed since it was written.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'mutation/vitest/base.config.ts' },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/patch/**/*.ts',
    'src/policy/**/*.ts',
    'src/repair/integrity/**/*.ts',
    'src/model/redact.ts',
    'src/model/secret-values.ts',
    'src/report/review/**/*.ts',
    '!src/**/index.ts',
    '!src/**/types.ts',
  ],
  incremental: true,
  incrementalFile: 'mutation/reports/stryker-incremental.json',
  concurrency: 2,
  timeoutMS: 10000,
  reporters: ['clear-text', 'progress-append-only', 'json'],
  jsonReporter: { fileName: 'mutation/reports/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
