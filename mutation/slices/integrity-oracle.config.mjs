// @ts-check
import { slice } from './slice.mjs';

// What the failing test expects (its oracles) and which test sources the special-casing check reads.
export default slice(
  'integrity-oracle',
  'repair/integrity',
  ['test-oracle.ts', 'oracle-inputs.ts'],
  'integrity-oracle',
);
