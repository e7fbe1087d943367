// @ts-check
import { slice } from './slice.mjs';

export default slice('patch-entry', 'patch', ['index.ts', 'canonical-path.ts']);
