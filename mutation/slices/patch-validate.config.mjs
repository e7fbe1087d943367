// @ts-check
import { slice } from './slice.mjs';

export default slice('patch-validate', 'patch', [
  'validate/path-rules.ts',
  'validate/disk-paths.ts',
  'validate/validate.ts',
]);
