import { canonicalPath, matchPathGlob } from '../canonical-path.js';
import { problem } from '../problems.js';
import type { PatchProblem } from '../types.js';

/**
 * The lexical rules for one root-relative path of a change set: the first broken rule,
 * or undefined. Paths reach a change set already canonical (extraction normalises them
 * once); one that is not was built by hand and is refused rather than guessed at.
 */
export function pathProblem(path: string): PatchProblem | undefined {
  const canonical = canonicalPath(path);
  if ('problem' in canonical) return canonical.problem;
  if (canonical.path !== path) {
    return problem(
      'invalid-path',
      `Path ${JSON.stringify(path)} is not in canonical form; write it as ${JSON.stringify(canonical.path)}.`,
      { file: path },
    );
  }
  return undefined;
}

/** The protected glob a path matches, directly or as a case/Unicode alias of a protected name. */
export function protectedProblem(path: string, globs: readonly string[], role = ''): PatchProblem | undefined {
  for (const glob of globs) {
    const match = matchPathGlob(path, glob);
    if (match === 'exact')
      return problem('protected-path', `${path}${role} is protected by policy (matches "${glob}").`, { file: path });
    if (match === 'alias') {
      return problem(
        'protected-path',
        `${path}${role} is protected by policy: on macOS and Windows it is the same file as one matching "${glob}" (it differs only in case or Unicode form).`,
        { file: path },
      );
    }
  }
  return undefined;
}
