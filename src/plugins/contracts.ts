/**
 * The plugin contracts: the shapes of a fixer, an agent tool, a log parser and a run
 * reporter, and of the plugin object that brings them (docs/plugins.md). mvnx's own
 * fixers and tools have the same shapes, so repair/ takes them from here and plugins/
 * never needs repair/ (scripts/eslint-layers.mjs refuses that import, types included).
 *
 * The parser's shape is declared in diagnose/plugin-parsers.ts, where the diagnosis runs
 * parsers: diagnose/ sits below plugins/ and may not import it. It is re-exported here so
 * that all four contracts are read in one place.
 */
import type { Diagnostic } from '../diagnose/types.js';
import type { DiagnosticParser } from '../diagnose/plugin-parsers.js';
import type { SourceView } from '../java/index.js';
import type { ChangeSet } from '../patch/types.js';
import type { COMMAND_TOOL_STATES } from '../policy/schema.js';
import type { RunRecord } from '../report/run-record.js';

export type { DiagnosticParser, DiagnosticParserRun, ParsedDiagnostic, ParserReportFile } from '../diagnose/plugin-parsers.js';

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

/** Which classpath a source file compiles against. */
export type SourceScope = 'main' | 'test';

export interface LibraryMember {
  kind: 'method' | 'field' | 'constructor';
  name: string;
  /** Parameter types as javap prints them (qualified, generic), empty for a field. */
  parameters: string[];
  /** The field's type or the method's return type; absent for a constructor. */
  type?: string;
  modifiers: string[];
  /** The line as javap prints it, without the trailing `;`: `public boolean add(E)`. */
  signature: string;
}

/** A JDK or library class as `javap -protected` shows it (repair/fixers/class-members.ts reads it). */
export interface LibraryType {
  /** `java.util.Map$Entry`. */
  name: string;
  kind: 'class' | 'interface' | 'enum' | 'record' | 'annotation';
  superclass?: string;
  interfaces: string[];
  members: LibraryMember[];
}

/**
 * Where class names come from besides the project's own sources. The default one
 * (`createTypeIndex` in repair/fixers/type-index.ts) reads the JDK image and the module's
 * jars; tests and plugins may pass their own.
 */
export interface TypeIndex {
  /** Fully qualified names of exported, top-level JDK classes with this simple name. */
  jdkClasses(simpleName: string): Promise<string[]>;
  /**
   * Fully qualified names of top-level classes with this simple name in the jars that
   * `file` (root-relative) compiles against.
   */
  classpathClasses(simpleName: string, file: string, scope: SourceScope): Promise<string[]>;
  /**
   * Members of a JDK or library class (binary name, `java.util.Map$Entry`) that `file`
   * can see, or undefined when the class is not found. Optional: an index without it
   * simply offers no library members.
   */
  typeMembers?(binaryName: string, file: string, scope: SourceScope): Promise<LibraryType | undefined>;
}

export interface FixerContext {
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
  runGoal?(goal: string, moduleDirs: string[]): Promise<{ exitCode: number; read(file: string): Promise<string | undefined> }>;
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

/** What a tool hands back to the model. A bad call is `ok: false` with a message the model can act on, never a throw. */
export interface ToolResult {
  ok: boolean;
  output: string;
}

export interface AgentToolContext {
  /** The project as the current attempt sees it (original tree plus adopted progress). */
  view: SourceView;
  /** Builds the code as it is now in the workspace (failing tests, then the whole command) and says what still fails. */
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
// team already trusts can name them. plugins/load.ts checks this shape with zod.

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
}
