import { defineConfig } from 'vitest/config';

// The unit tests only, as one project: StrykerJS runs them against each mutant of the
// safety-critical modules (npm run mutation, mutation/stryker.config.mjs). Maven-running tests are
// left out: a mutant in a pure module is killed, or not, by the tests written for it.
export default defineConfig({
  test: {
    globalSetup: ['test/setup/private-tmp.ts'],
    include: ['test/unit/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
