import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two projects so that the fast unit tests never wait on Maven:
//   npm run test:unit          -> pure functions, fixtures, mock servers
//   npm run test:integration   -> real Maven builds of fixture projects
export default defineConfig({
  test: {
    // One private TMPDIR per run, removed at the end (test/setup/private-tmp.ts).
    globalSetup: ['test/setup/private-tmp.ts'],
    // At least two workers, even on two cores (vitest's default there is one): a Maven
    // build keeps under one core busy (JVM start, disk, forks waiting on each other), so
    // two integration files at once finish sooner than one after the other, and unit
    // files run while integration ones wait on Maven. Measured on 2 cores under load:
    // 2409 s of integration tests in 1243 s of wall time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
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
