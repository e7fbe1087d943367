// @ts-check
import { slice } from './slice.mjs';

export default slice('policy-config', 'policy', ['schema.ts', 'merge.ts', 'overrides.ts', 'validate.ts', 'load.ts', 'extends.ts', 'discover.ts', 'locate.ts', 'command-line.ts', 'capabilities.ts', 'edit-tools.ts', 'publish.ts', 'fleet-schema.ts', 'json-schema.ts', 'search-places.ts', 'patch-policy.ts']);
