import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two projects so that the fast unit tests never wait on Maven:
//   npm run test:unit          -> pure functions, fixtures, mock servers
//   npm run test:integration   -> real Maven builds of fixture projects
export default defineConfig({
  test: {
    // One private TMPDIR per run, removed at the end (test/setup/private-tmp.ts).
    globalSetup: ['test/setup/private-tmp.ts'],
    // One worker more than there are cores (vitest's default is one fewer: a single worker
    // on 2 cores): a Maven build keeps under one core busy (JVM start, disk, forks waiting
    // on each other), so integration files overlap well and unit files run beside them.
    // Whole suite on 2 cores, quiet machine: 1 worker 888 s, 2 workers 727 s, 3 workers
    // 619 s, 4 workers 787 s (contention).
    maxWorkers: availableParallelism() + 1,
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
