// @ts-check
import { slice } from './slice.mjs';

// The read-only test side rule and the differing part its reasons quote.
export default slice('integrity-test-side-rule', 'repair/integrity', ['test-side-rule.ts', 'differing-part.ts'], 'integrity-java');
