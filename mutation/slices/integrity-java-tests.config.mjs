// @ts-check
import { slice } from './slice.mjs';

// Test methods removed, disabled or weakened in a changed test class.
export default slice('integrity-java-tests', 'repair/integrity', ['rules/test-comparison.ts'], 'integrity-java-tests');
