// @ts-check
import { slice } from './slice.mjs';

// A branch on the failing test input returning its expected value.
export default slice('integrity-special-casing', 'repair/integrity', ['special-casing.ts'], 'integrity-oracle');
