import base from './base.config';

// Only the unit tests written for src/patch/: every mutant of src/patch runs the tests of these
// files that cover it and nothing else (mutation/slices/patch-*.config.mjs). MVNX_MUTATION=1 leaves out
// the git-apply agreement suites (a git process per case per mutant); isolate: false keeps
// the modules loaded between mutant runs (Stryker switches mutants at run time, not by reloading).
// The 309-case patch-safety corpus (patch-safety.test.ts) is left out too: each case builds a
// real tree on disk, so a surviving mutant reran ~300 cases (20-30 s each on the shared machine)
// and patch-validate alone estimated 2 h; the mutation runs use the small unit tests and the
// 58-case fixture corpus (patch-corpus.test.ts), and `npm test` still runs the safety corpus.
export default {
  ...base,
  test: {
    ...base.test,
    include: ['test/unit/patch-*.test.ts'],
    exclude: ['test/unit/patch-safety.test.ts'],
    isolate: false,
    env: { MVNX_MUTATION: '1' },
  },
};
