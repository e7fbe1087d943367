import { structuredPatch } from 'diff';
import { addsDependency, isPom } from './classify-pom.js';
import type { ChangeSet, ChangeType, FileChange } from './types.js';

/** What kind of file a root-relative path is, for the edit-* change types. */
export function pathKind(path: string): ChangeType {
  const segments = path.split('/');
  if (segments.at(-1) === 'pom.xml') return 'edit-build-file';
  for (let i = 0; i + 2 < segments.length; i++) {
    if (segments[i] !== 'src') continue;
    if (segments[i + 2] === 'resources' && i + 3 < segments.length) return 'edit-resource';
    if (segments[i + 1] === 'test') return 'edit-test-source';
    if (segments[i + 1] === 'main' && segments[i + 2] === 'java') return 'edit-main-source';
  }
  return 'edit-other';
}

/** A build file by name (`pom.xml`), or an XML file whose content is a POM (`ci/release.xml`, `*.pom`). */
function isBuildFile(change: FileChange): boolean {
  const name = change.path.split('/').at(-1) ?? '';
  if (name === 'pom.xml') return true;
  if (!/\.(xml|pom)$/i.test(name) || change.binary) return false;
  return isPom(change.after) || isPom(change.before);
}

const isBinaryContent = (text: string | null): boolean => text !== null && text.includes('\0');

/** The change types one file change needs the policy to allow. */
export function classifyFile(change: FileChange): ChangeType[] {
  const types = new Set<ChangeType>([pathKind(change.path)]);
  if (change.oldPath !== undefined) {
    types.add('rename');
    types.add(pathKind(change.oldPath));
  }
  if (change.before === null) types.add('add-file');
  if (change.after === null) types.add('delete-file');
  if (change.binary || isBinaryContent(change.before) || isBinaryContent(change.after)) types.add('binary');
  if (
    change.newMode !== undefined &&
    change.newMode !== change.oldMode &&
    change.before !== null &&
    change.after !== null
  ) {
    types.add('mode-change');
  }
  if (change.before === null && change.newMode !== undefined && change.newMode !== '100644') types.add('mode-change');
  if (isBuildFile(change)) {
    types.add('edit-build-file');
    if (!change.binary && addsDependency(change.before, change.after)) types.add('add-dependency');
  }
  return [...types];
}

/** Every change type in the set, each once, sorted. */
export function classify(cs: ChangeSet): ChangeType[] {
  const types = new Set<ChangeType>();
  for (const change of cs.files) for (const type of classifyFile(change)) types.add(type);
  return [...types].sort();
}

function lineDiff(change: FileChange): { added: string[]; removed: string[] } {
  const added: string[] = [];
  const removed: string[] = [];
  if (change.binary) return { added, removed };
  // Stryker disable next-line StringLiteral,ObjectLiteral: only the +/- lines of this diff are read, never its file
  // names or context lines
  const patch = structuredPatch('a', 'b', change.before ?? '', change.after ?? '', undefined, undefined, {
    context: 0,
  });
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added.push(line.slice(1).replace(/\r$/, ''));
      else if (line.startsWith('-')) removed.push(line.slice(1).replace(/\r$/, ''));
    }
  }
  return { added, removed };
}

/** Texts of the added and removed lines (no endings), for the policy's risk rules. */
export function changedLineTexts(cs: ChangeSet): { added: string[]; removed: string[] } {
  const added: string[] = [];
  const removed: string[] = [];
  for (const change of cs.files) {
    const diff = lineDiff(change);
    added.push(...diff.added);
    removed.push(...diff.removed);
  }
  return { added, removed };
}

export function countChangedLines(cs: ChangeSet): { added: number; removed: number; files: number } {
  const { added, removed } = changedLineTexts(cs);
  return { added: added.length, removed: removed.length, files: cs.files.length };
}
