import type { PatchProblem } from '../types.js';
import { problem } from '../problems.js';

/** Folders a patch never writes into, at any depth: VCS data, mvnx's own records, build output. */
const FORBIDDEN_SEGMENTS = new Set(['.git', '.mvnx', 'target']);

function printable(path: string): string {
  return JSON.stringify(path);
}

/**
 * The lexical rules for one root-relative path: the first broken rule, or undefined.
 * Backslashes count as separators so `..\\x` cannot slip through on any platform.
 */
export function pathProblem(path: string): PatchProblem | undefined {
  if (path === '') return problem('invalid-path', 'A change names an empty path.');
  if (/[\x00-\x1f\x7f]/.test(path)) {
    return problem('control-char', `Path ${printable(path)} contains a NUL or control character.`, { file: path });
  }
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path) || path.startsWith('~')) {
    return problem('absolute-path', `Path ${printable(path)} is absolute; patches may only name paths inside the project.`, { file: path });
  }
  const segments = path.split(/[\\/]/);
  if (segments.includes('..')) {
    return problem('path-traversal', `Path ${printable(path)} has a ".." segment that could leave the project.`, { file: path });
  }
  const forbidden = segments.find((segment) => FORBIDDEN_SEGMENTS.has(segment.toLowerCase()));
  if (forbidden !== undefined) {
    return problem('forbidden-dir', `Path ${printable(path)} is inside ${forbidden}/, which patches never write.`, { file: path });
  }
  if (segments.at(-1) === '' || segments.at(-1) === '.') {
    return problem('invalid-path', `Path ${printable(path)} names a folder, not a file.`, { file: path });
  }
  return undefined;
}
