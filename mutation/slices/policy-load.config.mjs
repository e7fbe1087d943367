// @ts-check
import { slice } from './slice.mjs';

export default slice('policy-load', 'policy', ['load.ts', 'locate.ts', 'search-places.ts']);
