// @ts-check
import { slice } from './slice.mjs';

export default slice('policy-load', 'policy', ['load.ts', 'merge.ts', 'overrides.ts', 'extends.ts', 'discover.ts', 'locate.ts', 'search-places.ts']);
