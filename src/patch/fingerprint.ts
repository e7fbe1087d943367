import { createHash } from 'node:crypto';
import type { ChangeSet } from './types.js';

/**
 * sha-256 of what the change set makes of the tree: paths, renames, modes and the exact
 * content after. Fences, counts, hunk order and the model's own line endings are gone by
 * now, so two replies making the same change share a fingerprint.
 */
export function fingerprintChangeSet(cs: ChangeSet): string {
  const entries = cs.files
    .map((f) => ({
      path: f.path,
      from: f.oldPath ?? null,
      after: f.after,
      mode: f.newMode ?? null,
      binary: f.binary === true,
    }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const hash = createHash('sha256');
  for (const entry of entries) {
    hash.update(JSON.stringify([entry.path, entry.from, entry.mode, entry.binary, entry.after === null ? null : entry.after.length]));
    hash.update('\0');
    if (entry.after !== null) hash.update(entry.after, 'utf8');
    hash.update('\0');
  }
  return hash.digest('hex');
}
