/** What the test-integrity check reads and what it finds. */

/** A test that failed in the build being repaired (from the diagnosis). */
export interface FailingTestRef {
  /** Binary name: `com.acme.FooTest`, `com.acme.FooTest$Nested`. */
  className: string;
  /** Absent (or not a method of the class) when the class as a whole failed, e.g. in `@BeforeAll`. */
  method?: string;
}

export interface IntegrityPolicy {
  /** `tests.allowFailingTestEdits`: a fix may change the tests that failed (the test itself may be wrong). */
  allowFailingTestEdits: boolean;
}

export type IntegrityRule =
  /** A failing test's assertion now expects something else. */
  | 'assertion-changed'
  /** A failing test's assertion was deleted or commented out. */
  | 'assertion-removed'
  /** A failing test's assertion was replaced by one that cannot fail. */
  | 'assertion-weakened'
  /** A failing test's assertion was wrapped in a try/catch that swallows its failure. */
  | 'assertion-swallowed'
  /** A failing test's `fail(...)` was removed. */
  | 'fail-removed'
  /** Any other change to what a failing test does (its statements, data or setup). */
  | 'failing-test-changed'
  | 'test-deleted'
  | 'test-class-deleted'
  | 'test-annotation-removed'
  | 'test-disabled'
  | 'assumption-added'
  | 'early-return'
  /** A build file, `.mvn/maven.config` or JUnit platform setting that skips, excludes or ignores tests. */
  | 'tests-skipped-by-config'
  /** A changed test source mvnx cannot read as Java, so cannot check. */
  | 'unreadable-test'
  /** While tests fail: any change on the test side (test sources and resources, test-support modules). */
  | 'test-side-changed';

export interface IntegrityFinding {
  rule: IntegrityRule;
  /** Project-relative path of the file the finding is about. */
  file: string;
  /** `com.acme.FooTest#method` when it is about one test. */
  test?: string;
  /** Line in the patched file (or the original, for something deleted). */
  line?: number;
  /** One precise sentence, for the model and the run record. */
  message: string;
  /** An edit of a test that failed: allowed when tests.allowFailingTestEdits is true. */
  failingTestEdit: boolean;
  /**
   * A test-side file that has a compile error of its own, changed while tests fail: the
   * repair may fix it (compared method by method), and the fix is then high risk like an
   * allowed edit of a failing test.
   */
  compileErrorFix?: true;
}

export interface IntegrityVerdict {
  /** Findings that make the patch a `rejected` attempt. */
  blocking: IntegrityFinding[];
  /** Edits of failing tests the policy allows: the fix is then high risk and never applied automatically. */
  allowedFailingTestEdits: IntegrityFinding[];
}
