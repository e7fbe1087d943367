import { createHash } from 'node:crypto';
import type { ChangeSet, ProposedEdit } from './types.js';

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
    hash.update(
      JSON.stringify([
        entry.path,
        entry.from,
        entry.mode,
        entry.binary,
        entry.after === null ? null : entry.after.length,
      ]),
    );
    hash.update('\0');
    // Stryker disable next-line StringLiteral: Hash.update reads an empty encoding name as UTF-8, its default
    if (entry.after !== null) hash.update(entry.after, 'utf8');
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * sha-256 of what a reply proposed, for a proposal that never became a change set (it
 * did not apply, or was refused): per file, the text to remove and the replacement, with
 * line endings and trailing blanks normalised. Context lines and start-line hints are
 * placement, not content, so two replies proposing the same change share a fingerprint.
 */
export function fingerprintProposedEdits(edits: readonly ProposedEdit[]): string {
  const clean = (lines: readonly string[]) =>
    lines.map((line) => line.replace(/\r$/, '').replace(/[ \t]+$/, '')).join('\n');
  const entries = edits.map((edit) => {
    switch (edit.type) {
      case 'unified':
        return [
          edit.oldPath ?? '/dev/null',
          edit.newPath ?? '/dev/null',
          edit.newMode ?? '',
          ...edit.hunks.map((hunk) =>
            [
              clean(hunk.lines.filter((l) => l.startsWith('-')).map((l) => l.slice(1))),
              clean(hunk.lines.filter((l) => l.startsWith('+')).map((l) => l.slice(1))),
            ].join('\u0001'),
          ),
        ];
      case 'search-replace':
        return [edit.path, clean(edit.search.split('\n')), clean(edit.replace.split('\n'))];
      case 'line-op':
        return [
          edit.path,
          edit.op,
          String(edit.line),
          String(edit.endLine ?? ''),
          clean((edit.text ?? '').split('\n')),
          clean((edit.old ?? '').split('\n')),
        ];
      case 'whole-file':
        return [edit.path, clean(edit.content.split('\n'))];
    }
  });
  return createHash('sha256').update(JSON.stringify(entries)).digest('hex');
}

/** sha-256 of a text with its whitespace runs collapsed: for a reply that proposed no edit at all. */
export function fingerprintText(text: string): string {
  return createHash('sha256').update(text.replace(/\s+/g, ' ').trim()).digest('hex');
}
