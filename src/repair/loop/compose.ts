import type { ChangeSet, FileChange } from '../../patch/types.js';

/**
 * A fix that made progress (javac reports errors in phases, so fixing a parse error
 * reveals the next ones) becomes the base of the next attempt. Change sets are exact
 * contents, so stacking one on another is a per-file replacement that keeps the
 * original `before`.
 */
export function composeChangeSets(base: ChangeSet, next: ChangeSet): ChangeSet {
  const byPath = new Map<string, FileChange>();
  for (const change of base.files) byPath.set(change.path, { ...change });
  for (const change of next.files) {
    const earlier = byPath.get(change.oldPath ?? change.path);
    if (!earlier) {
      byPath.set(change.path, { ...change });
      continue;
    }
    byPath.delete(earlier.path);
    const composed: FileChange = { ...change, before: earlier.before };
    if (earlier.oldPath) composed.oldPath = earlier.oldPath;
    if (earlier.oldMode && !change.oldMode) composed.oldMode = earlier.oldMode;
    byPath.set(change.path, composed);
  }
  // A file edited back to its original content is no change at all.
  const files = [...byPath.values()].filter(
    (file) => !(file.before === file.after && !file.oldPath && file.oldMode === file.newMode),
  );
  return { files };
}

/** Read a file as it is after `changes`, falling back to the original tree. */
export function overlayRead(
  changes: ChangeSet,
  readOriginal: (path: string) => Promise<string | undefined>,
): (path: string) => Promise<string | undefined> {
  const current = new Map<string, string | null>();
  for (const change of changes.files) {
    if (change.oldPath) current.set(change.oldPath, null);
    current.set(change.path, change.after);
  }
  return async (file) => {
    if (current.has(file)) return current.get(file) ?? undefined;
    return readOriginal(file);
  };
}

/**
 * One reader per base change set: the fixers, the prompt context and the agent's tools of
 * an attempt read the same tree through the same function, so src/java's viewJavaFile
 * parses each file of it once for all of them (and again only once a new base is adopted).
 */
export function overlayReaders(
  readOriginal: (path: string) => Promise<string | undefined>,
): (changes: ChangeSet) => (path: string) => Promise<string | undefined> {
  const readers = new WeakMap<ChangeSet, (path: string) => Promise<string | undefined>>();
  return (changes) => {
    let reader = readers.get(changes);
    if (!reader) {
      reader = overlayRead(changes, readOriginal);
      readers.set(changes, reader);
    }
    return reader;
  };
}
