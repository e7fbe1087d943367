import { defineConfig } from 'vitest/config';

// Two projects so that the fast unit tests never wait on Maven:
//   npm run test:unit          -> pure functions, fixtures, mock servers
//   npm run test:integration   -> real Maven builds of fixture projects
export default defineConfig({
  test: {
    // One private TMPDIR per run, removed at the end (test/setup/private-tmp.ts).
    globalSetup: ['test/setup/private-tmp.ts'],
    // Two workers even on two cores: a Maven build keeps about 0.8 of a core busy (JVM
    // start, disk), so two files at once finish sooner than one after the other, and the
    // unit files run while the integration ones wait on Maven.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 240_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
