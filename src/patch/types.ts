/**
 * Edits as models and fixers express them, and the exact change set they become.
 * ProposedEdit is unplaced (hints, search text); ChangeSet is exact file contents.
 */

export interface ProposedHunk {
  /** The start line the writer claimed: a hint only. */
  oldStartHint?: number;
  /** Body lines with their ' ', '-', '+' prefix, already split on newlines. */
  lines: string[];
}

export type ProposedEdit =
  | {
      type: 'unified';
      /** null for /dev/null (creation). Prefix-stripped, forward slashes. */
      oldPath: string | null;
      /** null for /dev/null (deletion). */
      newPath: string | null;
      hunks: ProposedHunk[];
      binary?: boolean;
      oldMode?: string;
      newMode?: string;
      /** `\ No newline at end of file` seen after new side. */
      noNewlineAtEnd?: boolean;
      /** `copy from`/`copy to`: newPath is created from oldPath, which stays. */
      copy?: boolean;
    }
  | { type: 'search-replace'; path: string; search: string; replace: string }
  /** `old`: the lines it replaces or deletes (for insert, the line it goes before); without it the edit is refused. */
  | {
      type: 'line-op';
      path: string;
      op: 'insert' | 'delete' | 'replace';
      line: number;
      endLine?: number;
      text?: string;
      old?: string;
    }
  | { type: 'whole-file'; path: string; content: string };

export interface FileChange {
  /** Target path, project-root relative, forward slashes. For a deletion: the deleted path. */
  path: string;
  /** Set for a rename: the source path. */
  oldPath?: string;
  /** null when the file is created. */
  before: string | null;
  /** null when the file is deleted. */
  after: string | null;
  oldMode?: string;
  newMode?: string;
  binary?: boolean;
  /**
   * How `before`/`after` map to bytes on disk. Absent means utf8. `latin1` is a lossless
   * byte-per-char view used only when the policy allows non-UTF-8 files.
   */
  encoding?: 'utf8' | 'latin1';
}

export interface ChangeSet {
  files: FileChange[];
}

export type ChangeType =
  | 'edit-main-source'
  | 'edit-test-source'
  | 'edit-build-file'
  | 'edit-resource'
  | 'edit-other'
  | 'add-file'
  | 'delete-file'
  | 'rename'
  | 'mode-change'
  | 'binary'
  | 'add-dependency';

// Declared beside its codes (problems.ts), which need the shape; named here with the other shapes.
export type { PatchProblem } from './problems.js';
