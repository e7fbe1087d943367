import type { ChangeSet, FileChange, PatchProblem, ProposedEdit } from '../types.js';
import { problem } from '../problems.js';
import { joinFile, splitFile, splitModelText, type FileLines } from './file-lines.js';
import { applyHunks } from './hunks.js';
import type { MatchOptions } from './line-match.js';

export type PlacementOptions = MatchOptions;

export type FileLookup = ReadonlyMap<string, string | undefined> | ((path: string) => string | undefined);

interface WorkingFile {
  /** What is on disk now at `source` (the rename source, or the path itself). */
  before: string | null;
  source: string;
  current: FileLines | null;
  oldMode?: string;
  newMode?: string;
  binary?: boolean;
}

type EditResult = { ok: true } | { ok: false; problem: PatchProblem };

const OK: EditResult = { ok: true };

function failed(p: PatchProblem): EditResult {
  return { ok: false, problem: p };
}

/** New content as the writer gave it, LF endings (a new file has no endings of its own). */
function newFileLines(lines: string[], finalNewline = true): FileLines {
  // Stryker disable next-line ArrowFunction: joinFile gives a line without its own ending the file's eol, which is '\n'
  // here
  return { lines, eols: lines.map(() => '\n'), eol: '\n', finalNewline };
}

class Workspace {
  private readonly files = new Map<string, WorkingFile>();
  private readonly renamedAway = new Set<string>();

  constructor(private readonly lookup: (path: string) => string | undefined) {}

  get(path: string): WorkingFile {
    let file = this.files.get(path);
    if (!file) {
      const content = this.renamedAway.has(path) ? undefined : this.lookup(path);
      file = { before: content ?? null, source: path, current: content === undefined ? null : splitFile(content) };
      this.files.set(path, file);
    }
    return file;
  }

  rename(from: string, to: string, target: WorkingFile): void {
    this.files.delete(from);
    this.renamedAway.add(from);
    this.files.set(to, target);
  }

  changes(): FileChange[] {
    const out: FileChange[] = [];
    for (const [path, file] of this.files) {
      const after = file.current === null ? null : joinFile(file.current);
      const renamed = file.source !== path;
      const modeChanged = file.newMode !== undefined && file.newMode !== file.oldMode;
      if (!renamed && !modeChanged && !file.binary && after === file.before) continue;
      const change: FileChange = { path, before: file.before, after };
      if (renamed) change.oldPath = file.source;
      if (file.oldMode !== undefined) change.oldMode = file.oldMode;
      if (file.newMode !== undefined) change.newMode = file.newMode;
      if (file.binary) change.binary = true;
      out.push(change);
    }
    return out;
  }
}

/**
 * A file a diff creates (or copies to) has the mode the diff names, else git's default:
 * never the mode its path had before an earlier edit of the same reply deleted it.
 */
function createdWithMode(target: { newMode?: string }, mode: string | undefined): void {
  if (mode !== undefined) target.newMode = mode;
  else delete target.newMode;
}

function applyUnified(
  work: Workspace,
  edit: Extract<ProposedEdit, { type: 'unified' }>,
  options: PlacementOptions,
): EditResult {
  const { oldPath, newPath } = edit;
  const label = newPath ?? oldPath ?? '(unnamed)';
  if (edit.binary) {
    const file = work.get(label);
    file.binary = true;
    return OK;
  }
  if (oldPath === null) {
    const target = work.get(label);
    if (target.current !== null)
      return failed(problem('file-exists', `${label} is created by the patch but already exists.`, { file: label }));
    const lines: string[] = [];
    let finalNewline = true;
    for (const hunk of edit.hunks) {
      for (const line of hunk.lines) {
        if (line.startsWith('\\')) finalNewline = false;
        else if (line.startsWith('+')) lines.push(line.slice(1));
        else
          return failed(
            problem(
              'parse-error',
              `${label} is a new file, but its diff has a line that is not an addition: ${JSON.stringify(line)}.`,
              { file: label },
            ),
          );
      }
    }
    target.current = newFileLines(lines, finalNewline);
    createdWithMode(target, edit.newMode);
    return OK;
  }
  const source = work.get(oldPath);
  if (source.current === null)
    return failed(
      problem('file-not-found', `${oldPath} does not exist, so its hunks cannot apply.`, { file: oldPath }),
    );
  const patched = applyHunks(source.current, edit.hunks, options, oldPath);
  if ('problem' in patched) return failed(patched.problem);
  if (edit.copy && newPath !== null && newPath !== oldPath) {
    // A copy creates newPath from oldPath's content; the source stays as it is.
    const target = work.get(newPath);
    if (target.current !== null)
      return failed(
        problem('file-exists', `${oldPath} is copied to ${newPath}, which already exists.`, { file: newPath }),
      );
    target.current = patched.file;
    createdWithMode(target, edit.newMode);
    return OK;
  }
  if (edit.oldMode !== undefined) source.oldMode = edit.oldMode;
  if (edit.newMode !== undefined) source.newMode = edit.newMode;
  if (newPath === null) {
    const left = patched.file.lines.length;
    if (edit.hunks.length > 0 && left > 0) {
      return failed(
        problem(
          'hunk-not-found',
          `${oldPath} is deleted by the patch, but ${left} of its lines are not in the deleted content.`,
          { file: oldPath },
        ),
      );
    }
    source.current = null;
    return OK;
  }
  if (newPath !== oldPath) {
    const target = work.get(newPath);
    if (target.current !== null)
      return failed(
        problem('file-exists', `${oldPath} is renamed to ${newPath}, which already exists.`, { file: newPath }),
      );
    const moved: WorkingFile = { ...source, current: patched.file };
    work.rename(oldPath, newPath, moved);
    return OK;
  }
  source.current = patched.file;
  return OK;
}

function applySearchReplace(
  work: Workspace,
  edit: Extract<ProposedEdit, { type: 'search-replace' }>,
  options: PlacementOptions,
): EditResult {
  const file = work.get(edit.path);
  const search = splitModelText(edit.search);
  const replace = splitModelText(edit.replace);
  if (search.length === 0) {
    if (file.current === null || file.current.lines.length === 0) {
      // Stryker disable next-line ArrowFunction,OptionalChaining,StringLiteral: the map runs while file.current is the
      // empty file (not null), and joinFile gives an undefined ending its eol
      file.current =
        file.current === null
          ? newFileLines(replace)
          : { ...file.current, lines: replace, eols: replace.map(() => file.current?.eol ?? '\n'), finalNewline: true };
      return OK;
    }
    return failed(
      problem(
        'hunk-not-found',
        `${edit.path}: the SEARCH section is empty, but the file already exists; say which lines to replace.`,
        { file: edit.path, hunk: 1 },
      ),
    );
  }
  if (file.current === null)
    return failed(
      problem('file-not-found', `${edit.path} does not exist, so its SEARCH/REPLACE block cannot apply.`, {
        file: edit.path,
      }),
    );
  const hunk = { lines: [...search.map((l) => '-' + l), ...replace.map((l) => '+' + l)] };
  const patched = applyHunks(file.current, [hunk], options, edit.path);
  if ('problem' in patched) return failed(patched.problem);
  file.current = patched.file;
  return OK;
}

function applyLineOperation(work: Workspace, edit: Extract<ProposedEdit, { type: 'line-op' }>): EditResult {
  const file = work.get(edit.path);
  if (file.current === null)
    return failed(
      problem('file-not-found', `${edit.path} does not exist, so line ${edit.line} cannot be edited.`, {
        file: edit.path,
      }),
    );
  const current = file.current;
  const count = current.lines.length;
  const first = edit.line - 1;
  const end = edit.op === 'insert' ? first : (edit.endLine ?? edit.line);
  const limit = edit.op === 'insert' ? count + 1 : count;
  if (edit.line < 1 || edit.line > limit || (edit.op !== 'insert' && end < edit.line) || end > count) {
    return failed(
      problem(
        'line-out-of-range',
        `${edit.path}: ${edit.op} at lines ${edit.line}${edit.endLine ? `-${edit.endLine}` : ''} is outside the file's ${count} lines.`,
        { file: edit.path },
      ),
    );
  }
  const unchecked = checkStatedLines(edit, current.lines, first, end);
  if (unchecked) return failed(unchecked);
  const text = edit.op === 'delete' ? [] : splitModelText(edit.text ?? '');
  const lines = [...current.lines.slice(0, first), ...text, ...current.lines.slice(end)];
  // Stryker disable next-line ArrowFunction: joinFile gives a new line without its own ending the file's eol,
  // current.eol
  const eols = [...current.eols.slice(0, first), ...text.map(() => current.eol), ...current.eols.slice(end)];
  file.current = { ...current, lines, eols };
  return OK;
}

/**
 * A line number alone cannot be checked against the file: a model that miscounts (or
 * read another version) would replace the wrong lines silently. So a line operation must
 * state the lines it works on, exactly (`old`): the lines it replaces or deletes, or for
 * an insert the line it goes before (nothing when it appends at the end).
 */
function checkStatedLines(
  edit: Extract<ProposedEdit, { type: 'line-op' }>,
  fileLines: readonly string[],
  first: number,
  end: number,
): PatchProblem | undefined {
  const span = edit.op === 'insert' ? fileLines.slice(first, first + 1) : fileLines.slice(first, end);
  const where = edit.op === 'insert' ? `line ${edit.line}` : `lines ${edit.line}-${end}`;
  if (edit.old === undefined) {
    if (edit.op === 'insert' && span.length === 0) return undefined;
    const what =
      edit.op === 'insert'
        ? 'the line it goes before'
        : `the lines it ${edit.op === 'delete' ? 'deletes' : 'replaces'}`;
    return problem(
      'unchecked-line-edit',
      `${edit.path}: ${edit.op} at ${where} does not state ${what} ("old"), so it cannot be checked against the file; repeat them exactly in "old", or use "search" and "replace".`,
      { file: edit.path },
    );
  }
  const stated = splitModelText(edit.old);
  const differs = stated.length !== span.length ? 0 : stated.findIndex((line, index) => line !== span[index]);
  if (stated.length === span.length && differs === -1) return undefined;
  const at = Math.max(0, differs);
  return problem(
    'hunk-not-found',
    `${edit.path}: ${edit.op} at ${where}: "old" does not match the file${stated.length !== span.length ? ` (${stated.length} line${stated.length === 1 ? '' : 's'} stated, ${span.length} in the range)` : ''}; line ${edit.line + at} is \`${(span[at] ?? '').trim().slice(0, 120)}\`, "old" says \`${(stated[at] ?? '').trim().slice(0, 120)}\`.`,
    { file: edit.path },
  );
}

function applyWholeFile(work: Workspace, edit: Extract<ProposedEdit, { type: 'whole-file' }>): EditResult {
  const file = work.get(edit.path);
  const lines = splitModelText(edit.content);
  const finalNewline = edit.content === '' || edit.content.endsWith('\n');
  const eol = file.current?.eol ?? '\n';
  // Stryker disable next-line ArrowFunction: joinFile gives a line without its own ending the file's eol, which is eol
  file.current = { lines, eols: lines.map(() => eol), eol, finalNewline };
  return OK;
}

/**
 * Proposed edits to exact file contents. Pure: `files` gives the current text of a path
 * (undefined when it does not exist). Edits apply in order, each to the result of the ones
 * before; a failing edit is reported and skipped, the others still apply.
 */
export function resolveEdits(
  edits: readonly ProposedEdit[],
  files: FileLookup,
  options: PlacementOptions,
): { changeSet: ChangeSet; problems: PatchProblem[] } {
  const lookup = typeof files === 'function' ? files : (path: string) => files.get(path);
  const work = new Workspace(lookup);
  const problems: PatchProblem[] = [];
  for (const edit of edits) {
    let result: EditResult;
    if (edit.type === 'unified') result = applyUnified(work, edit, options);
    else if (edit.type === 'search-replace') result = applySearchReplace(work, edit, options);
    else if (edit.type === 'line-op') result = applyLineOperation(work, edit);
    else result = applyWholeFile(work, edit);
    if (!result.ok) problems.push(result.problem);
  }
  return { changeSet: { files: work.changes() }, problems };
}
