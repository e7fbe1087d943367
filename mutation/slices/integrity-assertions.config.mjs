// @ts-check
import { slice } from './slice.mjs';

// The assertion reader every test-weakening detector relies on (which call checks what, which cannot fail).
export default slice('integrity-assertions', 'repair/integrity', ['assertions.ts'], 'integrity-assertions');
