import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import type { ChangeSet, FileChange } from './types.js';

export type PatchApplyErrorCode = 'stale-file' | 'binary-unsupported' | 'write-failed' | 'unsafe-path';

export class PatchApplyError extends Error {
  override readonly name = 'PatchApplyError';
  constructor(
    readonly code: PatchApplyErrorCode,
    message: string,
    readonly file?: string,
  ) {
    super(message);
  }
}

interface OnDisk {
  bytes: Buffer;
  mode: number;
}

interface Snapshot {
  abs: string;
  state: OnDisk | null;
}

/**
 * A file as it is now: null when absent. Only regular files are read: a symlink, a
 * folder, a FIFO (whose read would block) or a device is refused, never written over.
 */
async function readOnDisk(abs: string, relPath: string): Promise<OnDisk | null> {
  let stats;
  try {
    stats = await lstat(abs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
  if (!stats.isFile()) {
    const what = stats.isSymbolicLink() ? 'a symbolic link' : stats.isDirectory() ? 'a folder' : 'not a regular file';
    throw new PatchApplyError('unsafe-path', `${relPath} is ${what}; a patch only writes regular files.`, relPath);
  }
  return { bytes: await readFile(abs), mode: stats.mode & 0o7777 };
}

/**
 * Every folder between the root and the file must be a real folder, not a symlink: the
 * checks before the apply ran on another tree (the user's, for a workspace), and a link
 * here could lead anywhere, the user's real files included.
 */
async function checkFoldersOnTheWay(root: string, relPath: string): Promise<void> {
  const segments = relPath.split('/').slice(0, -1);
  let current = root;
  for (const segment of segments) {
    current = join(current, segment);
    let stats;
    try {
      stats = await lstat(current);
    } catch {
      return;
    }
    if (stats.isSymbolicLink())
      throw new PatchApplyError(
        'unsafe-path',
        `${relPath} is beyond a symbolic link (${relative(root, current)}); refusing to write through it.`,
        relPath,
      );
    if (!stats.isDirectory())
      throw new PatchApplyError('unsafe-path', `${relPath}: ${relative(root, current)} is not a folder.`, relPath);
  }
}

/**
 * Write through a fresh temp file in the same folder and rename it over the target: the
 * target gets a new inode, so a hard-linked or reflinked workspace never writes into the
 * tree it was cloned from, and a reader never sees half a file.
 */
async function replaceFile(abs: string, bytes: Buffer, mode: number): Promise<void> {
  const temp = join(dirname(abs), `.${basename(abs)}.mvnx-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    // Stryker disable next-line ObjectLiteral,StringLiteral: chmod sets the mode next, and the temp name is random, so
    // 'wx' never meets a file
    await writeFile(temp, bytes, { mode, flag: 'wx' });
    await chmod(temp, mode);
    await rename(temp, abs);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** rm -f that also shrugs at a parent that is not a folder: then there is nothing to remove. */
async function removeIfPresent(abs: string): Promise<void> {
  try {
    await rm(abs, { force: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
  }
}

function modeBits(gitMode: string | undefined): number | undefined {
  if (gitMode === undefined || !/^[0-7]{6}$/.test(gitMode)) return undefined;
  return parseInt(gitMode, 8) & 0o777;
}

function encodingOf(change: FileChange): BufferEncoding {
  // Stryker disable next-line StringLiteral: Buffer.from reads an empty encoding name as UTF-8, its default
  return change.encoding ?? 'utf8';
}

async function checkNotStale(
  root: string,
  change: FileChange,
  expectBefore: boolean,
  vacated: ReadonlySet<string>,
): Promise<void> {
  const source = change.oldPath ?? change.path;
  for (const path of change.oldPath === undefined ? [change.path] : [change.oldPath, change.path])
    await checkFoldersOnTheWay(root, path);
  const current = await readOnDisk(join(root, source), source);
  const target = change.oldPath === undefined ? current : await readOnDisk(join(root, change.path), change.path);
  // A rename onto a path that another change of this set renames or deletes first is a chain (A->B, C->A).
  if (change.oldPath !== undefined && target !== null && !vacated.has(change.path)) {
    throw new PatchApplyError(
      'stale-file',
      `${change.path} already exists; the rename from ${change.oldPath} would overwrite it.`,
      change.path,
    );
  }
  if (change.before === null) {
    if (current !== null && !vacated.has(source))
      throw new PatchApplyError('stale-file', `${source} exists, but the patch creates it.`, source);
    return;
  }
  if (current === null) throw new PatchApplyError('stale-file', `${source} no longer exists.`, source);
  if (expectBefore && !current.bytes.equals(Buffer.from(change.before, encodingOf(change)))) {
    throw new PatchApplyError(
      'stale-file',
      `${source} changed since the patch was made; refusing to apply it.`,
      source,
    );
  }
}

/**
 * Apply a change set to the tree at `root`, all or nothing. Every file must still hold its
 * `before` content (unless `expectBefore` is false); on any failure the files already
 * written are put back before the error is thrown. The returned rollback restores the
 * tree as it was, modes included, and removes folders the apply created.
 */
export async function applyChangeSet(
  root: string,
  cs: ChangeSet,
  options: { expectBefore?: boolean } = {},
): Promise<{ rollback(): Promise<void> }> {
  const expectBefore = options.expectBefore ?? true;
  // Paths this set empties (rename sources, deletions) and paths it writes.
  const vacated = new Set(
    cs.files.flatMap((change) =>
      change.after === null ? [change.path] : change.oldPath !== undefined ? [change.oldPath] : [],
    ),
  );
  const written = new Set(cs.files.filter((change) => change.after !== null).map((change) => change.path));
  for (const change of cs.files) {
    if (change.binary)
      throw new PatchApplyError(
        'binary-unsupported',
        `${change.path}: binary patches carry no content to apply.`,
        change.path,
      );
    try {
      await checkNotStale(root, change, expectBefore, vacated);
    } catch (error) {
      if (error instanceof PatchApplyError) throw error;
      throw new PatchApplyError(
        'write-failed',
        `Checking ${change.path} before the apply failed: ${(error as Error).message}`,
        change.path,
      );
    }
  }

  const snapshots: Snapshot[] = [];
  const snapshotted = new Set<string>();
  // Stryker disable next-line ArrayDeclaration: a made-up name in the list is removed with force: true, which ignores a
  // missing path
  const createdDirs: string[] = [];
  const remember = async (abs: string): Promise<void> => {
    if (snapshotted.has(abs)) return;
    snapshotted.add(abs);
    snapshots.push({ abs, state: await readOnDisk(abs, relative(root, abs)) });
  };

  let rolledBack = false;
  const rollback = async (): Promise<void> => {
    if (rolledBack) return;
    rolledBack = true;
    // Stryker disable next-line MethodExpression: each path is snapshotted once and its folder exists, so the restore
    // order does not matter
    for (const { abs, state } of [...snapshots].reverse()) {
      if (state === null) await removeIfPresent(abs);
      else await replaceFile(abs, state.bytes, state.mode);
    }
    for (const dir of createdDirs.reverse()) await rm(dir, { recursive: true, force: true });
  };

  try {
    for (const change of cs.files) {
      const target = join(root, change.path);
      const sourceAbs = join(root, change.oldPath ?? change.path);
      await remember(sourceAbs);
      await remember(target);
      if (change.after === null) {
        await rm(target, { force: true });
        continue;
      }
      const existingMode = snapshots.find((s) => s.abs === sourceAbs)?.state?.mode;
      const mode = modeBits(change.newMode) ?? existingMode ?? 0o644;
      const made = await mkdir(dirname(target), { recursive: true });
      if (made !== undefined) createdDirs.push(made);
      await replaceFile(target, Buffer.from(change.after, encodingOf(change)), mode);
      // A chain's source may already hold another change's new content (C->A after A->B).
      if (change.oldPath !== undefined && sourceAbs !== target && !written.has(change.oldPath))
        await rm(sourceAbs, { force: true });
    }
  } catch (error) {
    await rollback();
    if (error instanceof PatchApplyError) throw error;
    throw new PatchApplyError(
      'write-failed',
      `Applying the patch failed and was rolled back: ${(error as Error).message}`,
    );
  }
  return { rollback };
}
