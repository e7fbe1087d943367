// @ts-check
import { slice } from './slice.mjs';

// Test methods removed, disabled or weakened in a changed test class.
export default slice('integrity-java-tests', 'repair/integrity', ['java-tests.ts'], 'integrity-java-tests');
