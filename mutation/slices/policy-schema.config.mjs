// @ts-check
import { slice } from './slice.mjs';

export default slice('policy-schema', 'policy', [
  'schema.ts',
  'schema-parts.ts',
  'config-issues.ts',
  'fleet-schema.ts',
  'json-schema.ts',
]);
