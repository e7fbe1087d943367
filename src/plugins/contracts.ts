/**
 * The plugin contracts: the shapes of a fixer, an agent tool, an integrity rule, a log
 * parser and a run reporter, and of the plugin object that brings them (docs/plugins.md). mvnx's own
 * fixers and tools have the same shapes, so repair/ takes them from here and plugins/
 * never needs repair/ (scripts/eslint-layers.mjs refuses that import, types included).
 *
 * The parser's shape is declared in diagnose/plugin-parsers.ts, where the diagnosis runs
 * parsers: diagnose/ sits below plugins/ and may not import it. It is re-exported here so
 * that all five contracts are read in one place.
 */
import type { TypeIndex } from '../codebase/index.js';
import type { Diagnostic } from '../diagnose/types.js';
import type { DiagnosticParser } from '../diagnose/plugin-parsers.js';
import type { SourceView } from '../java/index.js';
import type { ChangeSet, FileChange } from '../patch/types.js';
import type { COMMAND_TOOL_STATES } from '../policy/schema.js';
import type { RunRecord } from '../report/run-record.js';

export type {
  DiagnosticParser,
  DiagnosticParserRun,
  ParsedDiagnostic,
  ParserReportFile,
} from '../diagnose/plugin-parsers.js';

// ---------------------------------------------------------------------------------------
// Fixers: quick-fixes tried before the model.

/**
 * Read-only view of the project sources a fixer (or an agent tool) may inspect: the Java
 * module's own (java/source-view.ts), where `viewJavaFile(view, path)` gives a file's
 * parse, shared with mvnx's fixers, prompt context and tools.
 */
export type { SourceView };

export interface FixCandidate {
  fixer: string;
  changeSet: ChangeSet;
  /** 0..1: how sure the fixer is. Candidates are verified highest first. */
  confidence: number;
  reason: string;
}

/**
 * Class names and members from the JDK and the jars a file compiles against, and which
 * classpath a file uses: declared in codebase/types.ts, beside the default index that
 * implements them, and part of this API as types only.
 */
export type { LibraryMember, LibraryType, SourceScope, TypeIndex } from '../codebase/index.js';

export interface FixerContext {
  /**
   * Every fixable diagnostic of the build, not only those the fixer handles (`propose` gets those): what else failed
   * in a file can decide whether a fix of one error is sound.
   */
  buildDiagnostics?: readonly Diagnostic[];
  /** Absolute path of the Java home that compiled the project, when known. */
  javaHome?: string;
  /** Absolute jar paths on the failing module's compile classpath, when known. */
  classpath?: string[];
  /** Absolute jar paths on the failing module's test classpath, when known (a superset of `classpath`). */
  testClasspath?: string[];
  /** ~/.m2/repository or the configured local repository. */
  localRepository?: string;
  /** Folder for the JDK and jar indexes; defaults to ~/.cache/mvnx. */
  cacheDir?: string;
  /** Overrides the default JDK/classpath index. */
  types?: TypeIndex;
  /**
   * Runs one plugin goal (`groupId:artifactId:version:goal`) of the project on some of its
   * modules, in a scratch copy of the project as the current attempt sees it (sandboxed
   * like a verification build), and reads files back from that copy. Absent where Maven
   * cannot run (unit tests, `mvnx diagnose`): fixers that need it propose nothing.
   */
  runGoal?(
    goal: string,
    moduleDirs: string[],
  ): Promise<{ exitCode: number; read(file: string): Promise<string | undefined> }>;
  /**
   * Called when one fixer throws or returns a malformed candidate; the other fixers still
   * run. Without it, the registry rethrows so the failure is never silent.
   */
  onFixerError?: (fixer: string, error: Error) => void;
}

export interface Fixer {
  name: string;
  /** Quick filter: does this fixer care about this diagnostic at all? */
  handles(diagnostic: Diagnostic): boolean;
  propose(diagnostics: Diagnostic[], view: SourceView, context: FixerContext): Promise<FixCandidate[]>;
}

// ---------------------------------------------------------------------------------------
// Agent tools: what the model may call in agent mode (repair/agent/).

/**
 * understand the failure -> collect what the fix needs -> write the fix. The list is the
 * one a config's command tools are checked against (policy/schema.ts, below this stage),
 * written out here because this module imports nothing at run time (a plugin would load
 * zod and the config schema for it); `satisfies` keeps the two lists the same.
 */
export const AGENT_STATES = ['understand', 'collect', 'fix'] as const satisfies typeof COMMAND_TOOL_STATES;
export type AgentState = (typeof AGENT_STATES)[number];

/** `string[]`: a list of texts (write_fix's candidate fixes). */
export const TOOL_PARAMETER_TYPES = ['string', 'integer', 'string[]'] as const;

export interface ToolParameter {
  type: (typeof TOOL_PARAMETER_TYPES)[number];
  description: string;
  optional?: boolean;
}

/**
 * What a tool hands back to the model. A bad call is `ok: false` with a message the model can act on, never a throw.
 */
export interface ToolResult {
  ok: boolean;
  output: string;
}

export interface AgentToolContext {
  /** The project as the current attempt sees it (original tree plus adopted progress). */
  view: SourceView;
  /**
   * Builds the code as it is now in the workspace (failing tests, then the whole command) and says what still fails.
   */
  runTests(): Promise<ToolResult>;
  /** The failure being repaired (extract_test_code finds the failing test and its line here). */
  diagnostics?: readonly Diagnostic[];
}

export interface AgentTool {
  name: string;
  /** One line for the prompt. */
  description: string;
  parameters: Record<string, ToolParameter>;
  /** The states in which the model may call it. */
  states: readonly AgentState[];
  run(args: Record<string, unknown>, context: AgentToolContext): Promise<ToolResult>;
}

/** Upper bound of one tool result, so that a big file cannot crowd the context window. */
export const MAX_TOOL_OUTPUT_CHARS = 6_000;

// ---------------------------------------------------------------------------------------
// Integrity rules: what a fix may not do to the tests (repair/integrity/), read from the
// patch before any build. A finding makes the attempt `rejected` as test-weakening.

/** A test that failed in the build being repaired (from the diagnosis). */
export interface FailingTestRef {
  /** Binary name: `com.acme.FooTest`, `com.acme.FooTest$Nested`. */
  className: string;
  /** Absent (or not a method of the class) when the class as a whole failed, e.g. in `@BeforeAll`. */
  method?: string;
}

export interface TestSideRoot {
  /** Project-relative folder, forward slashes, no trailing slash. */
  dir: string;
  /** What it is, in words: `test sources of module pricing`. */
  what: string;
}

/** The folders the poms declare as test side; the conventional ones (`src/test/`, ...) count besides. */
export interface TestSide {
  roots: TestSideRoot[];
}

export interface IntegrityFinding {
  /** The rule's id, or one of the related names it reports (`IntegrityRule.reports`). */
  rule: string;
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

/** What every rule reads: the patch, the tests that failed, the test side, and what the rules before it found. */
export interface IntegrityRuleInput {
  /** The whole candidate fix against the original tree: `before` is the original file. */
  changes: readonly FileChange[];
  /** Empty when no test failed (a compile-error repair, say). */
  failingTests: readonly FailingTestRef[];
  /** The project's test side as the poms declare it. */
  testSide: TestSide;
  /** Project-relative files with a compile error of their own in the diagnosis: a repair may fix those. */
  compileErrorFiles: ReadonlySet<string>;
  /** The findings of the rules that ran before this one (built-ins first, then plugins' in load order). */
  earlier: readonly IntegrityFinding[];
}

/**
 * One rule: pure, no disk, no network; it returns findings (an empty list passes). mvnx's
 * own rules are listed in repair/integrity/rules/index.ts; a plugin's run after them and
 * can only add findings.
 */
export interface IntegrityRule {
  /** Kebab-case, unique among built-in and plugin rules: the run record and the reason name it. */
  id: string;
  /** One line: what the rule refuses. */
  description: string;
  /**
   * The names its findings carry when they are more than its id (several related findings
   * from one shared parse); absent: every finding is named `id`.
   */
  reports?: readonly string[];
  check(input: IntegrityRuleInput): IntegrityFinding[];
}

// ---------------------------------------------------------------------------------------
// Reporters: told about every failed build mvnx handled.

export interface ReporterContext {
  projectRoot: string;
  /** The run's folder, `.mvnx/runs/<id>/`. */
  recordDir: string;
}

/** Told about every failed build mvnx handled, after run.json is written. */
export interface RunReporter {
  name: string;
  report(record: RunRecord, context: ReporterContext): void | Promise<void>;
}

// ---------------------------------------------------------------------------------------
// The plugin: an npm package or a local module whose default export (or export `plugin`)
// is an MvnxPlugin. Plugins run inside mvnx with its rights, so only the config files a
// team already trusts can name them. plugins/load-plugins.ts checks this shape with zod.

export interface MvnxPlugin {
  name: string;
  version?: string;
  description?: string;
  /** Quick-fixes, tried with the built-in ones (most confident first) before the model. */
  fixers?: Fixer[];
  reporters?: RunReporter[];
  /** Tools for agent mode, offered to the model next to read_range and the others. */
  tools?: AgentTool[];
  /** Log parsers: they read every log line (and the reports they name) and return diagnostics (docs/plugins.md). */
  parsers?: DiagnosticParser[];
  /**
   * Test-integrity rules, run after mvnx's own on every candidate fix that touches the tests: they can only refuse
   * more.
   */
  integrityRules?: IntegrityRule[];
}
