// @ts-check
import { slice } from './slice.mjs';

export default slice('patch-resolve', 'patch', ['resolve/*.ts']);
