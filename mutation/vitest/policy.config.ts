import base from './base.config';

// Only the unit tests written for src/policy/: every mutant of src/policy runs the tests of
// these files that cover it and nothing else (mutation/slices/policy-*.config.mjs). isolate: false
// keeps modules loaded between mutant runs (Stryker switches mutants at run time).
export default { ...base, test: { ...base.test, include: ['test/unit/policy-*.test.ts'], isolate: false } };
