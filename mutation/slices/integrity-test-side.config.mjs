// @ts-check
import { slice } from './slice.mjs';

// Where the test side is: test roots from the poms, test-support modules, read from disk.
export default slice(
  'integrity-test-side',
  'repair/integrity',
  ['test-side.ts', 'test-side-read.ts'],
  'integrity-java',
);
