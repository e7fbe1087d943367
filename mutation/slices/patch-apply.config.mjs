// @ts-check
import { slice } from './slice.mjs';

export default slice('patch-apply', 'patch', ['apply.ts', 'read-files.ts', 'unified-diff.ts', 'fingerprint.ts']);
