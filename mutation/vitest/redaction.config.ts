import base from './base.config';

// Only the unit tests that exercise src/model/redact.ts and secret-values.ts: every mutant
// of those two files runs these files and nothing else (mutation/slices/redaction.config.mjs).
export default { ...base, test: { ...base.test, include: ['test/unit/model-redact*.test.ts'] } };
