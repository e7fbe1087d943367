// @ts-check
import { slice } from './slice.mjs';

// Which files the test-integrity check reads (scope.ts) and the build settings that skip tests (build-config.ts).
export default slice('integrity-gate', 'repair/integrity', ['scope.ts', 'build-config.ts'], 'integrity-gate');
