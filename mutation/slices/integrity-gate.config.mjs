// @ts-check
import { slice } from './slice.mjs';

// Which files the test-integrity check reads (scope.ts) and the build settings that skip tests (rules/tests-skipped-by-config.ts).
export default slice(
  'integrity-gate',
  'repair/integrity',
  ['scope.ts', 'rules/tests-skipped-by-config.ts'],
  'integrity-gate',
);
