import type { Diagnostic } from '../../diagnose/types.js';
import type { ChangeSet } from '../../patch/types.js';
import type { SourceView } from '../../java/index.js';
import type { LibraryType } from './class-members.js';

/** Read-only view of the project sources a fixer may inspect: src/java's, shared with the prompt context and the agent's tools. */
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

/**
 * Where class names come from besides the project's own sources. The default one
 * (`createTypeIndex` in type-index.ts) reads the JDK image and the module's jars; tests
 * and plugins may pass their own.
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
