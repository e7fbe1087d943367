// @ts-check
import { slice } from './slice.mjs';

// The read-only test side rule and the differing part its reasons quote.
export default slice(
  'integrity-test-side-rule',
  'repair/integrity',
  ['rules/test-side-changed.ts', 'member-name.ts', 'differing-part.ts'],
  'integrity-java',
);
