// @ts-check
import { slice } from './slice.mjs';

// The policy-*.test.ts files only: policy-tool-config-text.test.ts tests edit-tools.ts and
// command-line.ts as pure functions (tool-command.test.ts, which reaches them through the CLI,
// made a mutant run take 15 s: 4 mutants a minute).
export default slice('policy-capabilities', 'policy', [
  'capabilities.ts',
  'edit-tools.ts',
  'command-line.ts',
  'patch-policy.ts',
  'publish.ts',
]);
