// @ts-check
import { slice } from './slice.mjs';

export default slice('patch-extract', 'patch', ['extract/*.ts']);
