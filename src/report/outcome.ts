/**
 * What became of a verified fix, decided from evidence: `applied` (mvnx wrote it: `mvnx
 * apply`, the prompt, or auto), `adopted` (the same change turned up in the tree or in a
 * later commit without mvnx), `superseded` (the lines were changed another way and the
 * failure did not come back), `reverted` (a kept fix was undone in git history).
 *
 * Pure: the caller reads the fix's hunks, the file contents at each later commit and in
 * the working tree (report/reconcile.ts), and this module says what they add up to.
 */
import { parsePatch } from 'diff';
import type { OutcomeEvent, RunOutcome, RunRecord } from './run-record.js';

/**
 * One change inside a hunk, as trimmed non-blank lines: whitespace and blank lines do not
 * make a change different (a person applying a suggestion by hand re-indents it).
 */
export interface ChangeGroup {
  removed: string[];
  added: string[];
  /** The nearest non-blank context line before and after the change, when there is one. */
  contextBefore?: string;
  contextAfter?: string;
}

export interface FixFile {
  path: string;
  groups: ChangeGroup[];
}

/** `fixed`: every change is there; `unfixed`: every change's old text is still there; `changed`: neither. */
export type FixPresence = 'fixed' | 'unfixed' | 'changed';

/** The fix's files at one point in time: a commit (oldest first), or the working tree (last). */
export interface Observation {
  at: string;
  /** Absent for the working tree. */
  commit?: string;
  subject?: string;
  /** Path -> content; null when the file does not exist there. */
  files: Map<string, string | null>;
}

const FINAL: readonly RunOutcome[] = ['reverted', 'superseded'];
/** A change whose own lines carry fewer letters and digits than this is recognised with its neighbours. */
const WEAK_CHARS = 8;

const strip = (name: string) => name.replace(/^[ab]\//, '');
const meaningful = (line: string) => line.trim() !== '';

/** The change groups of `fix.patch`, per file. A file the patch deletes has no groups to look for. */
export function readFixFiles(patchText: string): FixFile[] {
  const files: FixFile[] = [];
  for (const patch of parsePatch(patchText)) {
    const newName = patch.newFileName && patch.newFileName !== '/dev/null' ? strip(patch.newFileName) : undefined;
    if (!newName) continue;
    const groups: ChangeGroup[] = [];
    for (const hunk of patch.hunks) {
      let current: ChangeGroup | undefined;
      let lastContext: string | undefined;
      for (const line of hunk.lines) {
        const marker = line[0];
        const text = line.slice(1).trim();
        if (marker === '\\') continue;
        if (marker === '-' || marker === '+') {
          current ??= { removed: [], added: [], ...(lastContext !== undefined ? { contextBefore: lastContext } : {}) };
          if (meaningful(text)) (marker === '-' ? current.removed : current.added).push(text);
          continue;
        }
        if (!meaningful(text)) continue;
        if (current) {
          current.contextAfter = text;
          groups.push(current);
          current = undefined;
        }
        lastContext = text;
      }
      if (current) groups.push(current);
    }
    files.push({
      path: newName,
      groups: groups.filter(
        (group) => group.removed.length > 0 || group.added.length > 0 || group.contextBefore !== undefined,
      ),
    });
  }
  return files;
}

function containsRun(lines: readonly string[], run: readonly string[]): boolean {
  if (run.length === 0) return false;
  outer: for (let start = 0; start + run.length <= lines.length; start += 1) {
    for (let offset = 0; offset < run.length; offset += 1) if (lines[start + offset] !== run[offset]) continue outer;
    return true;
  }
  return false;
}

/** The lines that show one side of a change; a weak side is anchored by its neighbours. */
function sideRun(group: ChangeGroup, side: 'removed' | 'added'): string[] {
  const own = group[side];
  const strength = own.join('').replace(/[^\p{L}\p{N}]/gu, '').length;
  if (strength >= WEAK_CHARS) return own;
  return [
    ...(group.contextBefore !== undefined ? [group.contextBefore] : []),
    ...own,
    ...(group.contextAfter !== undefined ? [group.contextAfter] : []),
  ];
}

export function fixPresence(files: readonly FixFile[], contents: ReadonlyMap<string, string | null>): FixPresence {
  let fixed = true;
  let unfixed = true;
  for (const file of files) {
    const content = contents.get(file.path);
    if (content === null || content === undefined) return 'changed';
    const lines = content
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(meaningful);
    for (const group of file.groups) {
      const isFixed = containsRun(lines, sideRun(group, 'added'));
      fixed &&= isFixed;
      unfixed &&= !isFixed && containsRun(lines, sideRun(group, 'removed'));
    }
  }
  if (fixed) return 'fixed';
  return unfixed ? 'unfixed' : 'changed';
}

function describe(observation: Observation): string {
  if (!observation.commit) return 'the working tree (not committed yet)';
  return `commit ${observation.commit.slice(0, 7)}${observation.subject ? ` "${observation.subject}"` : ''}`;
}

const sameFailure = (a: RunRecord, b: RunRecord) => {
  const prints = new Set((a.diagnostics ?? []).map((diagnostic) => diagnostic.fingerprint).filter(Boolean));
  return (b.diagnostics ?? []).some((diagnostic) => prints.has(diagnostic.fingerprint));
};

export interface OutcomeInput {
  record: RunRecord;
  files: readonly FixFile[];
  /** Commits since the run started that touch the fix's files (oldest first), then the working tree. */
  observations: readonly Observation[];
  /** The project's other runs, for "the failure came back" and "fixed by a later run". */
  otherRecords: readonly RunRecord[];
}

/** The outcome events the evidence adds to the record, oldest first; empty when nothing changed. */
export function decideOutcome(input: OutcomeInput): OutcomeEvent[] {
  const { record } = input;
  if (record.status !== 'fixed' || (record.outcome && FINAL.includes(record.outcome))) return [];
  const seen = input.observations.map((observation) => ({
    observation,
    presence: fixPresence(input.files, observation.files),
  }));
  const events: OutcomeEvent[] = [];

  let takenIndex = -1;
  if (record.outcome === 'applied' || record.outcome === 'adopted' || record.outcome === 'merged') {
    // Already taken: only a commit that had the fix, followed by one without it, undoes it.
    takenIndex = seen.findIndex((entry) => entry.observation.commit && entry.presence === 'fixed');
  } else {
    takenIndex = seen.findIndex((entry) => entry.presence === 'fixed');
    if (takenIndex >= 0) {
      const { observation } = seen[takenIndex]!;
      events.push({
        outcome: 'adopted',
        at: observation.at,
        evidence: `the same change is in ${describe(observation)}`,
        ...(observation.commit ? { commit: observation.commit } : {}),
      });
    }
  }

  if (takenIndex >= 0 && seen[takenIndex]!.observation.commit) {
    const undone = seen.slice(takenIndex + 1).find((entry) => entry.observation.commit && entry.presence === 'unfixed');
    if (undone) {
      const { observation } = undone;
      events.push({
        outcome: 'reverted',
        at: observation.at,
        evidence: `${describe(observation)} put the old lines back`,
        commit: observation.commit!,
      });
    }
    return events;
  }
  if (takenIndex >= 0 || record.outcome) return events;

  // Never taken: superseded when the lines were changed another way and the failure did not come back.
  const changedIndex = seen.findIndex((entry) => entry.presence === 'changed');
  const last = seen.at(-1);
  if (changedIndex < 0 || last?.presence !== 'changed') return events;
  const changedAt = seen[changedIndex]!.observation;
  const later = input.otherRecords.filter(
    (other) => other.runId !== record.runId && other.startedAt > record.startedAt && sameFailure(record, other),
  );
  const cameBack = later.some((other) => other.startedAt >= changedAt.at);
  if (cameBack) return events;
  const fixedBy = later.find((other) => other.outcome === 'applied' || other.outcome === 'adopted');
  events.push({
    outcome: 'superseded',
    at: changedAt.at,
    evidence: fixedBy
      ? `run ${fixedBy.runId}'s fix was taken instead`
      : `${describe(changedAt)} changed those lines another way`,
    ...(changedAt.commit ? { commit: changedAt.commit } : {}),
  });
  return events;
}

/** The record with these outcome events added (the last one is the outcome). */
export function withOutcome(record: RunRecord, ...events: OutcomeEvent[]): RunRecord {
  if (events.length === 0) return record;
  return { ...record, outcome: events.at(-1)!.outcome, outcomeHistory: [...(record.outcomeHistory ?? []), ...events] };
}
