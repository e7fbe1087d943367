import { minimatch } from 'minimatch';
import { classifyFile, countChangedLines } from '../classify.js';
import type { PatchPolicy } from '../patch-policy.js';
import { problem } from '../problems.js';
import type { ChangeSet, PatchProblem } from '../types.js';
import { pathProblem } from './path-rules.js';

function isProtected(path: string, globs: readonly string[]): string | undefined {
  return globs.find((glob) => minimatch(path, glob, { dot: true }));
}

/**
 * The pure rules for a change set: paths, change types, protected paths, limits and
 * emptiness. Every broken rule is reported, not only the first, so a human sees them all.
 */
export function validateChangeSet(cs: ChangeSet, policy: PatchPolicy): PatchProblem[] {
  const problems: PatchProblem[] = [];
  const changed = cs.files.filter(
    (f) => f.before !== f.after || f.oldPath !== undefined || f.binary || (f.newMode !== undefined && f.newMode !== f.oldMode),
  );
  if (changed.length === 0) {
    problems.push(problem('empty-change', 'The patch changes nothing.'));
    return problems;
  }
  const allowed = new Set(policy.allowedChanges);
  for (const change of cs.files) {
    const paths = change.oldPath === undefined ? [change.path] : [change.oldPath, change.path];
    const pathFailures = paths.map(pathProblem).filter((p) => p !== undefined);
    problems.push(...pathFailures);
    if (pathFailures.length > 0) continue;
    for (const path of paths) {
      const glob = isProtected(path, policy.protectedPaths);
      if (glob !== undefined) {
        const role = change.oldPath === undefined ? '' : path === change.path ? ' (rename target)' : ' (rename source)';
        problems.push(problem('protected-path', `${path}${role} is protected by policy (matches "${glob}").`, { file: path }));
      }
    }
    for (const type of classifyFile(change)) {
      if (!allowed.has(type)) {
        problems.push(problem('change-type-not-allowed', `${change.path}: change type ${type} is not allowed by policy.`, { file: change.path }));
      }
    }
  }
  if (cs.files.length > policy.maxFilesTouched) {
    problems.push(problem('too-many-files', `The patch touches ${cs.files.length} files; policy allows at most ${policy.maxFilesTouched}.`));
  }
  const counts = countChangedLines(cs);
  const lines = counts.added + counts.removed;
  if (lines > policy.maxLinesChanged) {
    problems.push(problem('too-many-lines', `The patch changes ${lines} lines (${counts.added} added, ${counts.removed} removed); policy allows at most ${policy.maxLinesChanged}.`));
  }
  return problems;
}
