// @ts-check
import { slice } from './slice.mjs';

// The body of one test method compared before/after: assertions dropped, loosened, swallowed.
export default slice('integrity-test-body', 'repair/integrity', ['test-body.ts'], 'integrity-java-tests');
