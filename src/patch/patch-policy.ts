import type { ChangeType } from './types.js';

/** What the patch layer enforces. The policy stage maps the team config onto this. */
export interface PatchPolicy {
  allowedChanges: ChangeType[];
  /** minimatch globs (dot: true) matched against root-relative paths. */
  protectedPaths: string[];
  maxFilesTouched: number;
  /** Added plus removed lines over the whole change set. */
  maxLinesChanged: number;
  /** Place hunks whose lines match only modulo whitespace, re-indenting the replacement. */
  ignoreWhitespace: boolean;
  /** Let context lines (never removed lines) match across tabs-versus-spaces indentation. */
  allowTabSpaceContext: boolean;
  /** Edit files that are not valid UTF-8 (bytes are kept as they are). */
  allowNonUtf8: boolean;
  /** Largest file (bytes, after the change) a patch may write. */
  maxFileBytes: number;
  /** Most bytes a whole change set may write (the files' contents after it). A reply over twice this is not read. */
  maxChangeSetBytes: number;
  /** Longest added line, in characters. */
  maxLineLength: number;
}

export const DEFAULT_MAX_FILE_BYTES = 1_048_576;
export const DEFAULT_MAX_CHANGE_SET_BYTES = 4_194_304;
export const DEFAULT_MAX_LINE_LENGTH = 2_000;

/** Conservative: source, test, build and resource edits and new files; nothing structural. */
export const DEFAULT_PATCH_POLICY: Readonly<PatchPolicy> = Object.freeze<PatchPolicy>({
  allowedChanges: [
    'edit-main-source',
    'edit-test-source',
    'edit-build-file',
    'edit-resource',
    'add-file',
    'add-dependency',
  ],
  protectedPaths: ['.github/**', '**/.mvn/**', 'mvnw', 'mvnw.cmd', '**/*.jks', '**/*.keystore', '**/.env'],
  maxFilesTouched: 5,
  maxLinesChanged: 200,
  ignoreWhitespace: false,
  allowTabSpaceContext: false,
  allowNonUtf8: false,
  maxFileBytes: DEFAULT_MAX_FILE_BYTES,
  maxChangeSetBytes: DEFAULT_MAX_CHANGE_SET_BYTES,
  maxLineLength: DEFAULT_MAX_LINE_LENGTH,
});
