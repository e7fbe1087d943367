import { formatPatch, structuredPatch, type StructuredPatch } from 'diff';
import type { ChangeSet, FileChange } from './types.js';

const DEFAULT_MODE = '100644';

function filePatch(change: FileChange): string {
  const oldPath = change.oldPath ?? change.path;
  if (change.binary) {
    return `diff --git a/${oldPath} b/${change.path}\nBinary files a/${oldPath} and b/${change.path} differ\n`;
  }
  const oldName = change.before === null ? '/dev/null' : `a/${oldPath}`;
  const newName = change.after === null ? '/dev/null' : `b/${change.path}`;
  const hunks = structuredPatch(oldName, newName, change.before ?? '', change.after ?? '', undefined, undefined, {
    context: 3,
  }).hunks;
  const patch: StructuredPatch = {
    oldFileName: oldName,
    newFileName: newName,
    oldHeader: undefined,
    newHeader: undefined,
    hunks,
    isGit: true,
  };
  if (change.before === null) {
    patch.isCreate = true;
    patch.oldFileName = '/dev/null';
    patch.newMode = change.newMode ?? DEFAULT_MODE;
  } else if (change.after === null) {
    patch.isDelete = true;
    patch.newFileName = '/dev/null';
    patch.oldMode = change.oldMode ?? DEFAULT_MODE;
  } else if (change.newMode !== undefined && change.newMode !== (change.oldMode ?? DEFAULT_MODE)) {
    patch.oldMode = change.oldMode ?? DEFAULT_MODE;
    patch.newMode = change.newMode;
  }
  if (change.oldPath !== undefined && change.oldPath !== change.path) patch.isRename = true;
  return formatPatch(patch);
}

/**
 * The canonical form of a change set: git-style, `a/`/`b/` prefixes, /dev/null for
 * creation and deletion, files in path order, three lines of context. `git apply --check`
 * accepts it on the tree the change set was resolved against.
 */
export function toUnifiedDiff(cs: ChangeSet): string {
  return sortedByPath(cs).map(filePatch).join('');
}

/**
 * The canonical diff as the bytes to write to `fix.patch`: each file's section in that
 * file's own encoding, so a latin1 file's patch still applies with `git apply`.
 */
export function toUnifiedDiffBytes(cs: ChangeSet): Buffer {
  // Stryker disable next-line StringLiteral: Buffer.from reads an empty encoding name as UTF-8, its default
  return Buffer.concat(sortedByPath(cs).map((change) => Buffer.from(filePatch(change), change.encoding ?? 'utf8')));
}

function sortedByPath(cs: ChangeSet): FileChange[] {
  return [...cs.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
