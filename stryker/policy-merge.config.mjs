// @ts-check
import { slice } from './slice.mjs';

export default slice('policy-merge', 'policy', ['merge.ts', 'overrides.ts']);
