// @ts-check
import { slice } from './slice.mjs';

// verify-tests.ts (verify.tests, issue 26) rides here: a small module with no slice of its own.
export default slice('policy-merge', 'policy', ['merge.ts', 'overrides.ts', 'verify-tests.ts']);
