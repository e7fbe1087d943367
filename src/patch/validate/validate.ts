import { aliasCollisions } from '../canonical-path.js';
import { classifyFile, countChangedLines } from '../classify.js';
import { addedBuildTimeCode } from '../classify-pom.js';
import type { PatchPolicy } from '../patch-policy.js';
import { problem } from '../problems.js';
import type { ChangeSet, FileChange, PatchProblem } from '../types.js';
import { pathProblem, protectedProblem } from './path-rules.js';

/** The only modes a patch may give a file: a plain file, or an executable one (git's two). */
export const FILE_MODES: readonly string[] = ['100644', '100755'];

/** A declared mode that is not a plain or executable file (a symlink 120000, a gitlink 160000, 100777...). */
export function modeProblem(path: string, mode: string | undefined, role: string): PatchProblem | undefined {
  if (mode === undefined || FILE_MODES.includes(mode)) return undefined;
  const what =
    mode === '120000'
      ? ' (a symbolic link)'
      : mode === '160000'
        ? ' (a submodule)'
        : mode === '040000'
          ? ' (a folder)'
          : '';
  return problem(
    'invalid-mode',
    `${path}: ${role} ${mode}${what} is refused; patches only write plain (100644) or executable (100755) files.`,
    { file: path },
  );
}

function byteLength(text: string | null, change: FileChange): number {
  // Stryker disable next-line StringLiteral: Buffer.byteLength reads an empty encoding name as UTF-8, its default
  return text === null ? 0 : Buffer.byteLength(text, change.encoding ?? 'utf8');
}

/** The longest line the change adds (only new or changed lines count; a file the change leaves alone may be long). */
function longestAddedLine(change: FileChange): { length: number; line: number } {
  // Stryker disable next-line ObjectLiteral: {} has no length, which compares like 0 with the limit
  if (change.after === null) return { length: 0, line: 0 };
  // Stryker disable next-line ArrayDeclaration: only a line reading exactly Stryker's marker would tell the made-up
  // entry apart
  const existing = new Set(change.before === null ? [] : change.before.split('\n'));
  let longest = { length: 0, line: 0 };
  let start = 0;
  for (let n = 1; start <= change.after.length; n++) {
    const end = change.after.indexOf('\n', start);
    const stop = end < 0 ? change.after.length : end;
    if (stop - start > longest.length) {
      const text = change.after.slice(start, stop);
      if (!existing.has(text)) longest = { length: text.replace(/\r$/, '').length, line: n };
    }
    if (end < 0) break;
    start = end + 1;
  }
  return longest;
}

/**
 * The pure rules for a change set: paths (canonical, not forbidden, not aliases),
 * protected paths, modes, sizes, change types and limits. Every broken rule is reported,
 * not only the first, so a human sees them all. Sizes are checked before anything is
 * diffed, so a 50 MB reply is refused without being compared line by line.
 */
export function validateChangeSet(cs: ChangeSet, policy: PatchPolicy): PatchProblem[] {
  const problems: PatchProblem[] = [];
  const changed = cs.files.filter(
    (f) =>
      f.before !== f.after ||
      f.oldPath !== undefined ||
      f.binary ||
      (f.newMode !== undefined && f.newMode !== f.oldMode),
  );
  if (changed.length === 0) {
    problems.push(problem('empty-change', 'The patch changes nothing.'));
    return problems;
  }
  problems.push(
    ...aliasCollisions(cs.files.flatMap((f) => (f.oldPath === undefined ? [f.path] : [f.oldPath, f.path]))),
  );
  let totalBytes = 0;
  let oversized = false;
  for (const change of cs.files) {
    const paths = change.oldPath === undefined ? [change.path] : [change.oldPath, change.path];
    const pathFailures = paths.map(pathProblem).filter((p) => p !== undefined);
    problems.push(...pathFailures);
    if (pathFailures.length > 0) continue;
    for (const path of paths) {
      const role = change.oldPath === undefined ? '' : path === change.path ? ' (rename target)' : ' (rename source)';
      const refused = protectedProblem(path, policy.protectedPaths, role);
      if (refused) problems.push(refused);
    }
    for (const [mode, role] of [
      [change.oldMode, 'old mode'],
      [change.newMode, 'new mode'],
    ] as const) {
      const refused = modeProblem(change.path, mode, role);
      if (refused) problems.push(refused);
    }
    const bytes = byteLength(change.after, change);
    totalBytes += bytes;
    if (bytes > policy.maxFileBytes) {
      oversized = true;
      problems.push(
        problem(
          'file-too-large',
          `${change.path} would be ${bytes} bytes; policy allows at most ${policy.maxFileBytes} per file (patch.maxFileBytes).`,
          { file: change.path },
        ),
      );
      continue;
    }
    const longest = longestAddedLine(change);
    if (longest.length > policy.maxLineLength) {
      oversized = true;
      problems.push(
        problem(
          'line-too-long',
          `${change.path} line ${longest.line} would be ${longest.length} characters long; policy allows at most ${policy.maxLineLength} (patch.maxLineLength).`,
          { file: change.path },
        ),
      );
      continue;
    }
    const types = classifyFile(change);
    for (const type of types) {
      if (!policy.allowedChanges.includes(type)) {
        problems.push(
          problem('change-type-not-allowed', `${change.path}: change type ${type} is not allowed by policy.`, {
            file: change.path,
          }),
        );
      }
    }
    // Whatever the policy allows: a plugin that runs code while the project builds could do anything, anywhere the
    // build runs.
    const codeRunning =
      types.includes('edit-build-file') || /(^|\/)pom\.xml$|\.pom$/.test(change.path)
        ? addedBuildTimeCode(change.before, change.after)
        : [];
    if (codeRunning.length > 0) {
      problems.push(
        problem(
          'build-time-code',
          `${change.path}: adds or changes ${codeRunning.map((name) => `<plugin> ${name}`).join(', ')}, which runs code at build time (process execution); a repair may not do that.`,
          { file: change.path },
        ),
      );
    }
  }
  if (totalBytes > policy.maxChangeSetBytes) {
    oversized = true;
    problems.push(
      problem(
        'change-too-large',
        `The patch would write ${totalBytes} bytes; policy allows at most ${policy.maxChangeSetBytes} (patch.maxChangeSetBytes).`,
      ),
    );
  }
  if (cs.files.length > policy.maxFilesTouched) {
    problems.push(
      problem(
        'too-many-files',
        `The patch touches ${cs.files.length} files; policy allows at most ${policy.maxFilesTouched}.`,
      ),
    );
  }
  if (oversized) return problems;
  const counts = countChangedLines(cs);
  const lines = counts.added + counts.removed;
  if (lines > policy.maxLinesChanged) {
    problems.push(
      problem(
        'too-many-lines',
        `The patch changes ${lines} lines (${counts.added} added, ${counts.removed} removed); policy allows at most ${policy.maxLinesChanged}.`,
      ),
    );
  }
  return problems;
}
