// @ts-check
import { slice } from './slice.mjs';

export default slice('policy-paths', 'policy', ['paths.ts', 'changed-lines.ts', 'budget.ts', 'coverage.ts']);
