/**
 * What mvnx knows about a failed build. The shape of `Diagnostic` is the contract's
 * `diagnostics` field plus extra fields that the repair engine uses; extra fields are
 * allowed in run.json, removing or renaming the contract's fields is not.
 */

export type DiagnosticKind = 'compile' | 'test' | 'other';

/** Whether and why a failure can be helped by a code patch. */
export type FailureCategory =
  | 'compile'
  | 'test'
  | 'dependency-resolution'
  | 'plugin-resolution'
  | 'enforcer'
  | 'jvm-crash'
  | 'timeout'
  | 'interrupted'
  | 'pom-invalid'
  | 'unknown-lifecycle'
  | 'unknown';

export interface TestFailureDetail {
  className: string;
  method: string;
  /** `failure` is an assertion failure, `error` an unexpected exception. */
  outcome: 'failure' | 'error';
  /** e.g. `org.opentest4j.AssertionFailedError` */
  failureType: string;
  /**
   * The whole chain (every `Caused by:` and `Suppressed:` with its project frames), runs
   * of framework frames folded into one line each.
   */
  stackTrace: string;
  /** First line of the root cause (the last `Caused by:`), when it differs from the failure itself. */
  rootCause?: string;
  /**
   * Project frames, most relevant first: the root cause's from where it was thrown down to
   * the test, then wrappers' and suppressed failures'. The first is the diagnostic's file and line.
   */
  frames?: FailureFrame[];
  /** Report file relative to the project root. */
  reportFile: string;
}

export interface FailureFrame {
  /** Project-root relative source file. */
  file: string;
  line?: number;
  /** Binary class name. */
  className: string;
  method: string;
}

export interface Diagnostic {
  kind: DiagnosticKind;
  category: FailureCategory;
  /** True only when a code patch can plausibly help (compile and test failures). */
  fixable: boolean;
  /** First line of the message, normalised (no ANSI, no `[ERROR]` prefix). */
  message: string;
  /** Project-root relative, forward slashes. For tests: the first project frame's file. */
  file?: string;
  line?: number;
  column?: number;
  /** artifactId of the Maven module the failure came from. */
  module?: string;
  /** `com.acme.FooTest#method` for test failures. */
  test?: string;
  /** javac continuation lines (`symbol:`, `location:`), in order. */
  details?: string[];
  /** For compile errors: main or test sources. */
  scope?: 'main' | 'test';
  testFailure?: TestFailureDetail;
  /** One-line reason, always present when `fixable` is false. */
  reason?: string;
  /** Stable identity of "the same failure": see src/diagnose/fingerprint.ts. */
  fingerprint: string;
}

export interface ReactorModule {
  /** Display name from `[INFO] Building X`. */
  name: string;
  artifactId?: string;
  /** Module folder relative to the project root ('' for the root module). */
  dir?: string;
  status?: 'SUCCESS' | 'FAILURE' | 'SKIPPED';
}

export interface Diagnosis {
  diagnostics: Diagnostic[];
  /** Every diagnostic's fingerprint, sorted and joined, hashed: "the same diagnosis". */
  fingerprint: string;
  /** True when at least one diagnostic is fixable and none is a blocking non-code failure. */
  fixable: boolean;
  /** Why the diagnosis is not fixable, when it is not. */
  reason?: string;
  modules: ReactorModule[];
  /** Problems met while parsing (truncated log, malformed XML, ...): the result is partial. */
  warnings: string[];
}

/** A failing test as Surefire summarises it on the console (used when no report exists). */
export interface ConsoleTestFailure {
  /** As Surefire prints it: simple class name, maybe `Outer$Inner`. */
  className: string;
  method: string;
  line?: number;
  message: string;
  outcome: 'failure' | 'error';
  module?: string;
}

/** What the console log alone says about a build (see `parseMavenLog`). */
export interface LogParseResult {
  /** javac errors, de-duplicated, in the order first printed. */
  compileErrors: Diagnostic[];
  /** Non-code failures (dependency, plugin, enforcer, ...), one per category and module. */
  otherFailures: Diagnostic[];
  /** Surefire's console summary of failing tests; the XML reports are preferred. */
  consoleTestFailures: ConsoleTestFailure[];
  /** The log says tests failed (the diagnosis then reads the reports). */
  testFailuresReported: boolean;
  /** artifactIds of modules whose test goal failed. */
  testFailureModules: string[];
  /** Reactor modules in build order, with their summary status where printed. */
  modules: ReactorModule[];
  /** The log shows a failed build (BUILD FAILURE or any error line). */
  buildFailed: boolean;
  /** Maven's own `[WARNING]` lines (bounded); never diagnostics. */
  mavenWarnings: string[];
  /** Problems met while parsing; the result is then partial. */
  warnings: string[];
  lineCount: number;
}

/** One test case from a Surefire/Failsafe report, passing ones included. */
export interface TestCaseResult {
  /** Binary name from the report: `com.acme.FooTest` or `com.acme.FooTest$Inner`. */
  className: string;
  /** Method name with parameterised suffixes (`[1]`, `(int)[2]`) removed. */
  method: string;
  /** artifactId of the module whose report holds it. */
  module?: string;
  status: 'passed' | 'failed' | 'error' | 'skipped';
  /** Report file relative to the project root, forward slashes. */
  reportFile: string;
  /** The name exactly as the report gives it, when it differs from `method`. */
  reportedName?: string;
}
