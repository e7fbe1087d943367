import type { Diagnostic } from '../../diagnose/types.js';
import type { ChangeSet } from '../../patch/types.js';

/** Read-only view of the project sources a fixer may inspect. */
export interface SourceView {
  /** Absolute project root. */
  root: string;
  /** File text, or undefined when it does not exist. Path is root-relative. */
  read(path: string): Promise<string | undefined>;
  /** Root-relative paths of files matching a glob (minimatch), excluding target/ and .mvnx/. */
  list(glob: string): Promise<string[]>;
}

export interface FixCandidate {
  fixer: string;
  changeSet: ChangeSet;
  /** 0..1: how sure the fixer is. Candidates are verified highest first. */
  confidence: number;
  reason: string;
}

export interface FixerContext {
  /** Absolute path of the Java home that compiled the project, when known. */
  javaHome?: string;
  /** Absolute jar paths on the failing module's compile classpath, when known. */
  classpath?: string[];
  /** ~/.m2/repository or the configured local repository. */
  localRepository?: string;
}

export interface Fixer {
  name: string;
  /** Quick filter: does this fixer care about this diagnostic at all? */
  handles(diagnostic: Diagnostic): boolean;
  propose(diagnostics: Diagnostic[], view: SourceView, context: FixerContext): Promise<FixCandidate[]>;
}
