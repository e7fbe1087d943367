// @ts-check
import { slice } from './slice.mjs';

export default slice('policy-extends', 'policy', ['extends.ts', 'config-discovery.ts']);
