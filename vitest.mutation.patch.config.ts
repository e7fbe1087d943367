import base from './vitest.mutation.config';

// Only the unit tests written for src/patch/: every mutant of src/patch runs the tests of these
// files that cover it and nothing else (stryker/patch-*.config.mjs). MVNX_MUTATION=1 leaves out
// the two git-apply agreement suites (a git process per case per mutant); isolate: false keeps
// the modules loaded between mutant runs (Stryker switches mutants at run time, not by reloading).
export default {
  ...base,
  test: { ...base.test, include: ['test/unit/patch-*.test.ts'], isolate: false, env: { MVNX_MUTATION: '1' } },
};
