// @ts-check
import { slice } from './slice.mjs';

// Constant values and equality conditions the special-casing check compares.
export default slice('integrity-constant-value', 'repair/integrity', ['constant-value.ts'], 'integrity-oracle');
