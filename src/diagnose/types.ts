/**
 * What mvnx knows about a failed build. The shape of `Diagnostic` is the contract's
 * `diagnostics` field plus extra fields that the repair engine uses; extra fields are
 * allowed in run.json, removing or renaming the contract's fields is not.
 */

/** `quality`: a failed check that names a file (checkstyle, PMD, spotbugs, a formatter or license check). */
export type DiagnosticKind = 'compile' | 'test' | 'quality' | 'other';

/** Whether and why a failure can be helped by a code patch. */
export type FailureCategory =
  | 'compile'
  | 'test'
  | 'quality'
  | 'dependency-resolution'
  | 'plugin-resolution'
  | 'enforcer'
  | 'jvm-crash'
  | 'timeout'
  | 'interrupted'
  | 'pom-invalid'
  | 'unknown-lifecycle'
  /** The build compiles for a Java release the JDK running Maven does not support (maven.compiler.release). */
  | 'java-version'
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
  /** True only when a code patch can plausibly help (compile, test and quality failures). */
  fixable: boolean;
  /** First line of the message, normalised (no ANSI, no `[ERROR]` prefix). */
  message: string;
  /** Project-root relative, forward slashes. For tests: the first project frame's file. */
  file?: string;
  line?: number;
  column?: number;
  /** artifactId of the Maven module the failure came from. */
  module?: string;
  /** `com.acme.FooTest#method` for test failures; the class alone when only the class is known (a crashed fork). */
  test?: string;
  /**
   * The check that failed, for `quality` (checkstyle, pmd, spotbugs, forbiddenapis, spotless, fmt, license, ...) and
   * javadoc.
   */
  tool?: string;
  /** The rule or bug pattern the tool names (`FileTabCharacter`, `UnusedLocalVariable`, `NP_NULL_ON_SOME_PATH`). */
  rule?: string;
  /** javac's lint category of a warning that failed the build under -Werror (`rawtypes`, `unchecked`, ...). */
  lint?: string;
  /** The failed goal as `groupId:artifactId:version:goal`, when the log names it (quality checks). */
  goal?: string;
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

/** A quality-gate finding as the console or a report names it, before it has a project file. */
export interface QualityFinding {
  tool: string;
  message: string;
  rule?: string;
  /** As the tool printed it: absolute, or relative to the module folder (`fileBase`). */
  file?: string;
  fileBase?: 'absolute' | 'module';
  /** A class the tool named instead of a file (PMD, spotbugs, forbiddenapis). */
  className?: string;
  /** The source file name the class came from (`A.java`), when the tool says it. */
  sourceFile?: string;
  line?: number;
  column?: number;
  module?: string;
}

/** A quality gate's goal that failed the build. */
export interface QualityFailure {
  tool: string;
  module?: string;
  /** `groupId:artifactId:version:goal`. */
  goal: string;
  /** The plugin's own words (`You have 3 Checkstyle violations.`). */
  message: string;
  /** A report the message names (PMD: `For more details see: /abs/target/pmd.xml`), as the log names it. */
  reportPath?: string;
}

export type ForkFailureKind = 'exit' | 'timeout' | 'out-of-memory' | 'crash' | 'error';

/** A test JVM that died or hung instead of reporting (see surefire-fork.ts). */
export interface ForkFailure {
  kind: ForkFailureKind;
  module?: string;
  exitCode?: number;
  /** Test classes Surefire names as crashed, in order. */
  classes: string[];
  /** The last test class that started and printed no result. */
  lastRunning?: string;
  /** The JVM's own words for `error` and `out-of-memory` (`Java heap space`). */
  detail?: string;
  /** An hs_err_pid file was mentioned: the JVM itself crashed. */
  fatalErrorFile?: boolean;
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
  /** Findings of quality gates that failed the build. */
  qualityFindings: QualityFinding[];
  qualityFailures: QualityFailure[];
  forkFailures: ForkFailure[];
  /** Module folders the log shows (artifactId -> absolute folder, as the log names it). */
  moduleBasedirs: Record<string, string>;
  /** The project root as the log names it: the one given, or the one inferred ('' when unknown). */
  logRoot: string;
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
