// @ts-check
import { slice } from './slice.mjs';

export default slice('patch-classify', 'patch', ['classify.ts', 'classify-pom.ts', 'problems.ts', 'patch-policy.ts']);
