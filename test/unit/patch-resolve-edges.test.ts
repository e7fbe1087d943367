import { describe, expect, it } from 'vitest';
import { resolveEdits, type ProposedEdit } from '../../src/patch/index.js';
import { parseHunk } from '../../src/patch/resolve/hunks.js';
import { strictComparer } from '../../src/patch/resolve/line-match.js';
import { describeMismatch, placeOldLines } from '../../src/patch/resolve/place-hunk.js';

// The edges of resolve/ that the first mutation run of the patch-resolve slice left untested
// (bench/results-mutation.md, "patch-resolve: survivors reviewed"): hunk parsing, re-indentation
// of a loosely placed hunk, the placement messages, modes and copies, the lines of a file made by
// an earlier edit of the same reply, and the line-operation checks with their messages.

const STRICT = { ignoreWhitespace: false, allowTabSpaceContext: false };
const TABS = { ignoreWhitespace: false, allowTabSpaceContext: true };
const LOOSE = { ignoreWhitespace: true, allowTabSpaceContext: false };
const ctx = (text: string) => ({ kind: 'ctx' as const, text });
const del = (text: string) => ({ kind: 'del' as const, text });

function resolve(edits: ProposedEdit[], files: Record<string, string>, options = STRICT) {
  return resolveEdits(edits, new Map(Object.entries(files)), options);
}
type UnifiedEdit = Extract<ProposedEdit, { type: 'unified' }>;
const diff = (path: string, ...hunks: { lines: string[]; oldStartHint?: number }[]): UnifiedEdit => ({
  type: 'unified',
  oldPath: path,
  newPath: path,
  hunks,
});
/** The one file's text after the edits, with no problem raised. */
function after(edits: ProposedEdit[], files: Record<string, string>, options = STRICT): string | null | undefined {
  const { changeSet, problems } = resolve(edits, files, options);
  expect(problems).toEqual([]);
  expect(changeSet.files).toHaveLength(1);
  return changeSet.files[0]?.after;
}
function problemOf(edits: ProposedEdit[], files: Record<string, string>, options = STRICT) {
  const { problems } = resolve(edits, files, options);
  expect(problems).toHaveLength(1);
  return problems[0];
}

describe('parseHunk', () => {
  it('takes a no-newline marker as the first body line as ending both sides', () => {
    expect(parseHunk({ lines: ['\\ No newline at end of file', '+a'] })).toEqual({
      ops: [{ kind: 'add', text: 'a' }],
      oldNoNewline: true,
      newNoNewline: true,
    });
  });

  it('reads a line without a diff prefix as context, whole, and a blank line as empty context', () => {
    expect(parseHunk({ lines: ['foo', ' bar', '', '\tx;'] }).ops).toStrictEqual([
      { kind: 'ctx', text: 'foo' },
      { kind: 'ctx', text: 'bar', asWritten: ' bar' },
      { kind: 'ctx', text: '' },
      { kind: 'ctx', text: '\tx;' },
    ]);
  });

  it('reads the line number of a pure insertion as the line it goes after, else as the first old line', () => {
    expect(parseHunk({ oldStartHint: 5, lines: ['+a', '+b'] }).hintIndex).toBe(5);
    expect(parseHunk({ oldStartHint: 5, lines: [' a', '+b'] }).hintIndex).toBe(4);
    expect(parseHunk({ oldStartHint: 0, lines: ['-a'] }).hintIndex).toBe(0);
  });
});

describe('re-indentation of added lines', () => {
  it("moves a loosely placed hunk to the file's indentation, keeping blank-looking lines and a shorter mixed lead", () => {
    const file = 'class A {\n        a();\n}\n';
    const edit = diff('A.java', { lines: ['-  a();', '+  b();', '+    ', '+\t  d();', '+  c();'] });
    expect(after([edit], { 'A.java': file }, LOOSE)).toBe(
      'class A {\n        b();\n    \n        d();\n        c();\n}\n',
    );
  });

  it('leaves the added lines of a strictly placed hunk as written', () => {
    expect(after([diff('a.txt', { lines: ['-    a', '+\tb'] })], { 'a.txt': '    a\n' })).toBe('\tb\n');
  });

  it("takes the file's indentation from the line a removed line matched, lines added before it not counted", () => {
    const edit = diff('A.java', { lines: ['+  z();', '-  a();'] });
    expect(after([edit], { 'A.java': 'x {\n        a();\n}\n' }, LOOSE)).toBe('x {\n        z();\n}\n');
  });

  it('skips removed lines that are blank or white space only when taking the indentation', () => {
    const hunk = (blank: string) => diff('a.txt', { lines: ['-' + blank, '-    foo();', '+    bar();'] });
    expect(after([hunk('')], { 'a.txt': '  \n        foo();\n' }, LOOSE)).toBe('        bar();\n');
    expect(after([hunk('  ')], { 'a.txt': '\n        foo();\n' }, LOOSE)).toBe('        bar();\n');
  });
});

describe('placement', () => {
  it('keeps a strict match without trying the loose comparer, which would find it twice', () => {
    for (const options of [STRICT, LOOSE])
      expect(after([diff('a.txt', { lines: ['-a b', '+c'] })], { 'a.txt': 'a  b\na b\n' }, options)).toBe('a  b\nc\n');
  });

  it('says how long the file is when a hunk without context points just past its end', () => {
    const p = problemOf([diff('a.txt', { oldStartHint: 3, lines: ['-x'] })], { 'a.txt': 'a\nb\n' });
    expect(p?.code).toBe('hunk-not-found');
    expect(p?.message).toContain('and the file has 2 lines;');
  });

  it('quotes at most 120 characters of the file line a hunk without context points at', () => {
    const p = problemOf([diff('a.txt', { oldStartHint: 1, lines: ['-x'] })], { 'a.txt': 'y'.repeat(200) + '\n' });
    expect(p?.message).toContain(`file line 1 is ${JSON.stringify('y'.repeat(120))};`);
  });

  it("shifts a later hunk's line number only by the offset of hunks that gave one", () => {
    const edit = diff('a.txt', { lines: [' a', '-b', '+B'] }, { oldStartHint: 4, lines: ['-d', '+D'] });
    expect(after([edit], { 'a.txt': 'a\nb\nc\nd\n' })).toBe('a\nB\nc\nD\n');
  });

  it('never places a hunk before the first line, whatever its shifted line number', () => {
    expect(placeOldLines(['a'], [ctx('q')], -1, strictComparer(STRICT))).toEqual({ kind: 'none' });
  });
});

describe('describeMismatch', () => {
  const compare = strictComparer(STRICT);

  it('picks the longest partial match, the earlier one of two as near the line number', () => {
    expect(describeMismatch(['a', 'x', 'y'], [del('a'), del('b')], undefined, compare)).toBe(
      'removed line 2 of the hunk "-b" is not in the file (best match: file line 2 is "x")',
    );
    expect(describeMismatch(['z', 'a', 'z', 'a', 'z'], [del('a'), del('b')], 2, compare)).toBe(
      'removed line 2 of the hunk "-b" is not in the file (best match: file line 3 is "z")',
    );
  });

  it('does not look past the last line for the spot nearest a line number beyond the file', () => {
    expect(describeMismatch(['a', 'b'], [del('x')], 2, compare)).toBe(
      'removed line 1 of the hunk "-x" is not in the file (best match: file line 2 is "b")',
    );
  });

  it('says the lines run past the end when the whole old side matches', () => {
    expect(describeMismatch(['a', 'b'], [del('a')], undefined, compare)).toBe('its lines run past the end of the file');
  });
});

describe('tab and space indentation of context', () => {
  const tabs = strictComparer(TABS);

  it('lets a tab after spaces reach the next tab stop', () => {
    expect(tabs(ctx(' \tx;'), '        x;')).toBe(true);
  });

  it('ignores trailing blanks on the file side', () => {
    expect(tabs(ctx('\tx;'), '    x; ')).toBe(true);
  });
});

describe('modes, copies and unnamed files', () => {
  it('lists no change for a mode line that changes nothing', () => {
    expect(resolve([{ ...diff('a.txt'), oldMode: '100644' }], { 'a.txt': 'a\n' }).changeSet.files).toEqual([]);
    expect(
      resolve([{ ...diff('a.txt'), oldMode: '100644', newMode: '100644' }], { 'a.txt': 'a\n' }).changeSet.files,
    ).toEqual([]);
    expect(
      resolve([{ type: 'search-replace', path: 'a.txt', search: 'a\n', replace: 'a\n' }], { 'a.txt': 'a\n' }).changeSet
        .files,
    ).toEqual([]);
  });

  it('gives a change no mode fields when the edits name no mode', () => {
    const { changeSet } = resolve([diff('a.txt', { lines: ['-a', '+b'] })], { 'a.txt': 'a\n' });
    expect(changeSet.files[0]).toStrictEqual({ path: 'a.txt', before: 'a\n', after: 'b\n' });
  });

  it("keeps a mode change when a later edit changes the same file's content", () => {
    const edits: ProposedEdit[] = [
      { ...diff('a.txt'), oldMode: '100644', newMode: '100755' },
      diff('a.txt', { lines: [' a', '-b', '+c'] }),
    ];
    expect(resolve(edits, { 'a.txt': 'a\nb\n' }).changeSet.files).toStrictEqual([
      { path: 'a.txt', before: 'a\nb\n', after: 'a\nc\n', oldMode: '100644', newMode: '100755' },
    ]);
  });

  it("a file made executable, deleted and created again without a mode in one reply has git's default mode, not the earlier one", () => {
    const edits: ProposedEdit[] = [
      { ...diff('run.sh'), oldMode: '100644', newMode: '100755' },
      { ...diff('run.sh', { lines: ['-echo hi'] }), newPath: null },
      { type: 'unified', oldPath: null, newPath: 'run.sh', hunks: [{ lines: ['+echo bye'] }] },
    ];
    const [file] = resolve(edits, { 'run.sh': 'echo hi\n' }).changeSet.files;
    expect(file).toMatchObject({ path: 'run.sh', before: 'echo hi\n', after: 'echo bye\n' });
    expect(file).not.toHaveProperty('newMode');
  });

  it("a copy onto a path deleted earlier in the reply does not inherit the deleted file's mode", () => {
    const edits: ProposedEdit[] = [
      { ...diff('b.sh'), oldMode: '100644', newMode: '100755' },
      { ...diff('b.sh', { lines: ['-b'] }), newPath: null },
      { ...diff('a.txt'), newPath: 'b.sh', copy: true },
    ];
    const copied = resolve(edits, { 'a.txt': 'a\n', 'b.sh': 'b\n' }).changeSet.files.find((f) => f.path === 'b.sh');
    expect(copied).toMatchObject({ after: 'a\n' });
    expect(copied).not.toHaveProperty('newMode');
  });

  it('deletes the file of a copy to /dev/null, and edits in place a copy onto itself', () => {
    const deleted = resolve([{ ...diff('a.txt'), newPath: null, copy: true }], { 'a.txt': 'a\n' });
    expect(deleted).toEqual({ changeSet: { files: [{ path: 'a.txt', before: 'a\n', after: null }] }, problems: [] });
    expect(after([{ ...diff('a.txt', { lines: ['-a', '+b'] }), copy: true }], { 'a.txt': 'a\n' })).toBe('b\n');
  });

  it('names a binary change with neither path "(unnamed)"', () => {
    const { changeSet } = resolve([{ type: 'unified', oldPath: null, newPath: null, hunks: [], binary: true }], {});
    expect(changeSet.files.map((f) => f.path)).toEqual(['(unnamed)']);
  });
});

describe('a file made or emptied by an earlier edit of the same reply', () => {
  it('ends the lines a later hunk adds to a new file with LF', () => {
    const edits: ProposedEdit[] = [
      { type: 'unified', oldPath: null, newPath: 'n.txt', hunks: [{ lines: ['+a'] }] },
      diff('n.txt', { lines: [' a', '+b'] }),
    ];
    expect(after(edits, {})).toBe('a\nb\n');
  });

  it('ends the lines a later hunk adds to a file a SEARCH/REPLACE block created with LF', () => {
    const edits: ProposedEdit[] = [
      { type: 'search-replace', path: 'n.txt', search: '', replace: 'a\n' },
      diff('n.txt', { lines: [' a', '+b'] }),
    ];
    expect(after(edits, {})).toBe('a\nb\n');
  });

  it('fills a CRLF file emptied by an earlier edit with CRLF lines', () => {
    const edits: ProposedEdit[] = [
      { type: 'whole-file', path: 'w.txt', content: '' },
      { type: 'search-replace', path: 'w.txt', search: '', replace: 'a\nb\n' },
    ];
    expect(after(edits, { 'w.txt': 'x\r\ny\r\n' })).toBe('a\r\nb\r\n');
  });

  it('keeps the final newline of a file emptied by a whole-file edit for the lines added after', () => {
    const edits: ProposedEdit[] = [
      { type: 'whole-file', path: 'w.txt', content: '' },
      diff('w.txt', { lines: ['+x'] }),
    ];
    expect(after(edits, { 'w.txt': 'old\n' })).toBe('x\n');
  });
});

describe('line operations', () => {
  const file = { 'a.txt': 'a\nb\nc\n' };
  const lineOp = (edit: Omit<Extract<ProposedEdit, { type: 'line-op' }>, 'type' | 'path'>): ProposedEdit => ({
    type: 'line-op',
    path: 'a.txt',
    ...edit,
  });

  it('replaces with nothing when the replacement text is left out', () => {
    expect(after([lineOp({ op: 'replace', line: 1, old: 'a' })], file)).toBe('b\nc\n');
  });

  it("keeps the endings of the lines around the edited ones, the new lines taking the file's", () => {
    expect(after([lineOp({ op: 'replace', line: 3, old: 'c', text: 'C' })], { 'a.txt': 'a\r\nb\nc\r\nd\n' })).toBe(
      'a\r\nb\nC\nd\n',
    );
  });

  it('refuses a replace or delete that does not state its lines, naming the file', () => {
    for (const op of ['replace', 'delete'] as const) {
      const p = problemOf([lineOp({ op, line: 2, text: 'B' })], file);
      expect(p).toMatchObject({ code: 'unchecked-line-edit', file: 'a.txt' });
    }
  });

  it('refuses stated lines that differ from the file, quoting the first differing line of each', () => {
    const p = problemOf([lineOp({ op: 'replace', line: 2, old: 'X', text: 'B' })], file);
    expect(p).toStrictEqual({
      code: 'hunk-not-found',
      message: 'a.txt: replace at lines 2-2: "old" does not match the file; line 2 is `b`, "old" says `X`.',
      file: 'a.txt',
    });
  });

  it('quotes the first line of the range when the stated line count differs', () => {
    const p = problemOf([lineOp({ op: 'replace', line: 1, endLine: 3, old: 'a\nX\n', text: 'B' })], file);
    expect(p?.message).toBe(
      'a.txt: replace at lines 1-3: "old" does not match the file (2 lines stated, 3 in the range); line 1 is `a`, "old" says `a`.',
    );
  });

  it('quotes both lines trimmed and cut at 120 characters', () => {
    const p = problemOf([lineOp({ op: 'replace', line: 1, old: '  ' + 'r'.repeat(130), text: 'B' })], {
      'a.txt': '    ' + 'q'.repeat(130) + '\n',
    });
    expect(p?.message).toBe(
      `a.txt: replace at lines 1-1: "old" does not match the file; line 1 is \`${'q'.repeat(120)}\`, "old" says \`${'r'.repeat(120)}\`.`,
    );
  });

  it('quotes an empty line where the range or the stated lines have none', () => {
    expect(problemOf([lineOp({ op: 'insert', line: 4, old: 'x', text: 'd' })], file)?.message).toBe(
      'a.txt: insert at line 4: "old" does not match the file (1 line stated, 0 in the range); line 4 is ``, "old" says `x`.',
    );
    expect(problemOf([lineOp({ op: 'replace', line: 1, old: '', text: 'A' })], file)?.message).toBe(
      'a.txt: replace at lines 1-1: "old" does not match the file (0 lines stated, 1 in the range); line 1 is `a`, "old" says ``.',
    );
  });
});
