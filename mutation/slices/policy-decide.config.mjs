// @ts-check
import { slice } from './slice.mjs';

export default slice('policy-decide', 'policy', ['decide-attempt.ts', 'decide-verified.ts', 'risk.ts']);
