import type { Stats } from 'node:fs';
import { lstat, readdir, readlink, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { foldName } from '../canonical-path.js';
import { problem } from '../problems.js';
import type { ChangeSet, PatchProblem } from '../types.js';

function isInside(rootReal: string, candidate: string): boolean {
  const rel = relative(rootReal, candidate);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'folder';
  if (stats.isFIFO()) return 'FIFO (named pipe)';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'device file';
  return 'special file';
}

/** Where a link leads, as a root-relative path when it stays inside (even dangling). */
async function linkTarget(rootReal: string, link: string): Promise<{ inside: boolean; shown: string }> {
  let target: string;
  try {
    target = await realpath(link);
  } catch {
    // Dangling: judge the text, as the target could be created later.
    target = resolve(dirname(link), await readlink(link).catch(() => '/'));
  }
  const inside = isInside(rootReal, target);
  return { inside, shown: inside ? relative(rootReal, target) || '.' : target };
}

/** A name that differs from an existing sibling only in case or Unicode form: one file on macOS and Windows. */
async function siblingAlias(
  parent: string,
  name: string,
  path: string,
  rootReal: string,
): Promise<PatchProblem | undefined> {
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return undefined;
  }
  const key = foldName(name);
  const twin = names.find((other) => other !== name && foldName(other) === key);
  if (twin === undefined) return undefined;
  const existing = relative(rootReal, join(parent, twin));
  return problem(
    'path-alias',
    `${path}: ${JSON.stringify(name)} differs from the existing ${JSON.stringify(existing)} only in case or Unicode form; on macOS and Windows it is that file.`,
    { file: path },
  );
}

/**
 * The path as the file system has it, segment by segment, as git checks it before it
 * writes: a symlink anywhere on the way is refused ("beyond a symbolic link"), however
 * harmless its target, and a symlink as the file itself is never edited, replaced or
 * removed; links out of the project are `symlink-escape`. The file must be a regular
 * file (not a folder, FIFO or device), every folder on the way a real folder, and a name
 * that does not exist yet must not alias an existing one. IO errors become problems.
 */
export async function checkPathOnDisk(rootReal: string, path: string): Promise<PatchProblem | undefined> {
  const segments = path.split('/');
  let current = rootReal;
  for (let i = 0; i < segments.length; i++) {
    const parent = current;
    const segment = segments[i] as string;
    current = join(current, segment);
    const last = i === segments.length - 1;
    const rel = relative(rootReal, current);
    let stats: Stats;
    try {
      stats = await lstat(current);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT') return siblingAlias(parent, segment, path, rootReal);
      if (code === 'ENAMETOOLONG')
        return problem('path-too-long', `${path} is too long for the file system.`, { file: path });
      return problem('io-error', `${path}: cannot check ${rel} (${code ?? (error as Error).message}).`, { file: path });
    }
    if (stats.isSymbolicLink()) {
      const target = await linkTarget(rootReal, current);
      if (!target.inside)
        return problem(
          'symlink-escape',
          `${path}: ${rel} is a symbolic link to ${target.shown}, outside the project.`,
          { file: path },
        );
      if (last)
        return problem(
          'symlink-file',
          `${path} is a symbolic link (to ${target.shown}); patches never edit, replace or remove a link.`,
          { file: path },
        );
      return problem(
        'beyond-symlink',
        `${path} is beyond a symbolic link: ${rel} links to ${target.shown}; write the real path, or nothing.`,
        { file: path },
      );
    }
    if (!last && !stats.isDirectory())
      return problem('not-a-folder', `${path}: ${rel} is a file, not a folder, so nothing can be written beneath it.`, {
        file: path,
      });
    if (last && !stats.isFile())
      return problem(
        'not-a-file',
        `${path} is a ${kindOf(stats)}, not a regular file; patches only write regular files.`,
        { file: path },
      );
  }
  return undefined;
}

/** git's mode for a regular file on disk: executable when the owner may execute it. */
export function gitModeOf(stats: Stats): string {
  return stats.mode & 0o100 ? '100755' : '100644';
}

/** The git mode of a project file, or undefined when it is not a regular file there. */
export async function diskModeOf(root: string, path: string): Promise<string | undefined> {
  try {
    const stats = await lstat(join(root, path));
    return stats.isFile() ? gitModeOf(stats) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every path a change set writes, reads or removes, checked on disk, and every declared
 * old mode against the file it describes (git refuses a type it did not expect; mvnx
 * also refuses a permission it did not expect).
 */
export async function checkPathsOnDisk(root: string, cs: ChangeSet): Promise<PatchProblem[]> {
  let rootReal: string;
  try {
    rootReal = await realpath(root);
  } catch (error) {
    return [
      problem(
        'io-error',
        `The project folder ${root} cannot be read (${errorCode(error) ?? (error as Error).message}).`,
      ),
    ];
  }
  const problems: PatchProblem[] = [];
  for (const change of cs.files) {
    const paths = change.oldPath === undefined ? [change.path] : [change.oldPath, change.path];
    let refused = false;
    for (const path of paths) {
      const found = await checkPathOnDisk(rootReal, path);
      if (found) {
        problems.push(found);
        refused = true;
      }
    }
    if (refused || change.oldMode === undefined || change.before === null) continue;
    const source = change.oldPath ?? change.path;
    const mode = await diskModeOf(rootReal, source);
    if (mode !== undefined && mode !== change.oldMode) {
      problems.push(
        problem(
          'mode-mismatch',
          `${source} has mode ${mode} on disk, but the patch says its old mode is ${change.oldMode}; the patch was not made against this file.`,
          { file: source },
        ),
      );
    }
  }
  return problems;
}
