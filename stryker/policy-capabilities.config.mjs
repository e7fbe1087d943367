// @ts-check
import { slice } from './slice.mjs';

export default slice('policy-capabilities', 'policy', ['capabilities.ts', 'edit-tools.ts', 'command-line.ts', 'patch-policy.ts', 'publish.ts'], 'policy-tools');
