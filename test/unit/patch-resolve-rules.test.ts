import { describe, expect, it } from 'vitest';
import { resolveEdits, type ProposedEdit } from '../../src/patch/index.js';
import { joinFile, splitFile, splitModelText } from '../../src/patch/resolve/file-lines.js';
import {
  collapseWhitespace,
  strictComparer,
  whitespaceInsensitiveComparer,
} from '../../src/patch/resolve/line-match.js';
import { describeMismatch, placeOldLines } from '../../src/patch/resolve/place-hunk.js';

// resolve/ piece by piece: how lines compare, how files split and join byte for byte,
// where a hunk's old side is placed, and every placement refusal with its message.

const STRICT = { ignoreWhitespace: false, allowTabSpaceContext: false };
const TABS = { ignoreWhitespace: false, allowTabSpaceContext: true };
const LOOSE = { ignoreWhitespace: true, allowTabSpaceContext: false };
const ctx = (text: string, asWritten?: string) =>
  asWritten === undefined ? { kind: 'ctx' as const, text } : { kind: 'ctx' as const, text, asWritten };
const del = (text: string) => ({ kind: 'del' as const, text });

function resolveOne(edit: ProposedEdit, files: Record<string, string>, options = STRICT) {
  return resolveEdits([edit], new Map(Object.entries(files)), options);
}
const diff = (path: string, lines: string[], oldStartHint?: number): ProposedEdit => ({
  type: 'unified',
  oldPath: path,
  newPath: path,
  hunks: [oldStartHint === undefined ? { lines } : { oldStartHint, lines }],
});

describe('collapseWhitespace', () => {
  it('collapses runs of spaces, tabs, form feeds and vertical tabs outside literals, and trims', () => {
    expect(collapseWhitespace('  int \t x\f=\v 1 ;  ')).toBe('int x = 1 ;');
    expect(collapseWhitespace('a')).toBe('a');
    expect(collapseWhitespace('')).toBe('');
  });

  it('keeps every character inside string and char literals, escapes included', () => {
    expect(collapseWhitespace('split("  ")')).toBe('split("  ")');
    expect(collapseWhitespace('split("  ")')).not.toBe(collapseWhitespace('split(" ")'));
    expect(collapseWhitespace("c ==  '  '")).toBe("c == '  '");
    expect(collapseWhitespace('s =   "a\\"  b"   +  x')).toBe('s = "a\\"  b" + x');
    expect(collapseWhitespace('x  "open  y')).toBe('x "open  y');
  });
});

describe('line comparers', () => {
  it('matches removed lines exactly, context lines also without trailing blanks or as written', () => {
    const strict = strictComparer(STRICT);
    expect(strict(del('a '), 'a')).toBe(false);
    expect(strict(del('a'), 'a')).toBe(true);
    expect(strict(ctx('a  '), 'a')).toBe(true);
    expect(strict(ctx('a'), 'a \t')).toBe(true);
    expect(strict(ctx('  a', '   a'), '   a')).toBe(true); // an indented line that lost its diff prefix
    expect(strict(ctx('  a', '   a  '), '   a')).toBe(true);
    expect(strict(ctx('  a'), '   a')).toBe(false);
    expect(strict(ctx(' a'), 'a')).toBe(false);
  });

  it('matches tab against space indentation in context only when allowed, for tab widths 2, 4 and 8', () => {
    expect(strictComparer(STRICT)(ctx('\tx;'), '    x;')).toBe(false);
    const tabs = strictComparer(TABS);
    expect(tabs(ctx('\tx;'), '    x;')).toBe(true);
    expect(tabs(ctx('\tx;'), '  x;')).toBe(true);
    expect(tabs(ctx('\tx;'), '        x;')).toBe(true);
    expect(tabs(ctx('\t\tx;'), '        x;')).toBe(true);
    expect(tabs(ctx('\tx;'), '   x;')).toBe(false);
    expect(tabs(ctx('  \tx;'), '    x;')).toBe(true);
    expect(tabs(ctx('\tx;'), '    y;')).toBe(false);
    expect(tabs(ctx('\tx; '), '    x;')).toBe(true);
    expect(tabs(del('\tx;'), '    x;')).toBe(false);
  });

  it('compares modulo whitespace only in the loose comparer, removed lines included', () => {
    const loose = whitespaceInsensitiveComparer(STRICT);
    expect(loose(del('int  x=1;'), '  int x=1;')).toBe(true);
    expect(loose(del('int x = 1;'), 'int x=1;')).toBe(false);
    expect(loose(ctx('a'), 'a')).toBe(true);
    expect(whitespaceInsensitiveComparer(TABS)(ctx('\tx;'), '    x;')).toBe(true);
  });
});

describe('splitFile and joinFile', () => {
  it('gives every untouched byte back, mixed endings and a missing final newline included', () => {
    for (const text of ['a\r\nb\nc', 'a\nb\n', '', '\n', '\r\n', 'x', 'a\r\n\r\nb\r\n', '\ra\n'])
      expect(joinFile(splitFile(text))).toBe(text);
  });

  it('takes the dominant ending, LF on a tie and for a file without endings', () => {
    expect(splitFile('a\r\nb\r\nc\n').eol).toBe('\r\n');
    expect(splitFile('a\r\nb\n').eol).toBe('\n');
    expect(splitFile('a').eol).toBe('\n');
    expect(splitFile('a\r\nb\r\n')).toEqual({
      lines: ['a', 'b'],
      eols: ['\r\n', '\r\n'],
      eol: '\r\n',
      finalNewline: true,
    });
    expect(splitFile('a\nb')).toEqual({ lines: ['a', 'b'], eols: ['\n', ''], eol: '\n', finalNewline: false });
    expect(splitFile('')).toEqual({ lines: [], eols: [], eol: '\n', finalNewline: true });
    expect(splitFile('\n')).toEqual({ lines: [''], eols: ['\n'], eol: '\n', finalNewline: true });
  });

  it("gives a line without its own ending the file's ending, except the last line of a file without a final newline", () => {
    expect(joinFile({ lines: ['a', 'b', 'c'], eols: ['\r\n', '', ''], eol: '\r\n', finalNewline: false })).toBe(
      'a\r\nb\r\nc',
    );
    expect(joinFile({ lines: ['a', 'b'], eols: ['\n', ''], eol: '\r\n', finalNewline: true })).toBe('a\nb\r\n');
  });

  it('splits model text into lines, a final newline ending the last one', () => {
    expect(splitModelText('')).toEqual([]);
    expect(splitModelText('a')).toEqual(['a']);
    expect(splitModelText('a\n')).toEqual(['a']);
    expect(splitModelText('a\r\nb\r\n')).toEqual(['a', 'b']);
    expect(splitModelText('a\n\n')).toEqual(['a', '']);
    expect(splitModelText('\n')).toEqual(['']);
  });
});

describe('placeOldLines and describeMismatch', () => {
  const compare = strictComparer(STRICT);
  const lines = ['a', 'x', 'b', 'x', 'c'];

  it('takes the hint when the old side is exactly there, else a unique match, else none', () => {
    expect(placeOldLines(lines, [del('x')], 3, compare)).toEqual({ kind: 'found', index: 3 });
    expect(placeOldLines(lines, [del('x')], 2, compare)).toEqual({ kind: 'ambiguous', indexes: [1, 3] });
    expect(placeOldLines(lines, [del('x')], undefined, compare)).toEqual({ kind: 'ambiguous', indexes: [1, 3] });
    expect(placeOldLines(lines, [del('c')], 0, compare)).toEqual({ kind: 'found', index: 4 });
    expect(placeOldLines(lines, [del('c')], 4, compare)).toEqual({ kind: 'found', index: 4 });
    expect(placeOldLines(lines, [del('a')], -1, compare)).toEqual({ kind: 'found', index: 0 });
    expect(placeOldLines(lines, [del('q')], 0, compare)).toEqual({ kind: 'none' });
  });

  it('never reads past the file: a hint beyond the last start, an old side longer than the file', () => {
    expect(placeOldLines(lines, [del('x'), del('c')], 4, compare)).toEqual({ kind: 'found', index: 3 });
    expect(placeOldLines(['a'], [del('a'), del('b')], 0, compare)).toEqual({ kind: 'none' });
    expect(placeOldLines(['a', 'b'], [del('a'), del('b')], undefined, compare)).toEqual({ kind: 'found', index: 0 });
  });

  it('places an exact-only hunk at its line or nowhere', () => {
    expect(placeOldLines(lines, [del('x')], 1, compare, true)).toEqual({ kind: 'found', index: 1 });
    expect(placeOldLines(lines, [del('c')], 0, compare, true)).toEqual({ kind: 'none' });
  });

  it('describes the best partial match, nearest the hint on ties', () => {
    const file = ['p', 'q', 'r', 'p', 'q', 's'];
    expect(describeMismatch(file, [ctx('p'), ctx('q'), del('t')], 3, compare)).toBe(
      'removed line 3 of the hunk "-t" is not in the file (best match: file line 6 is "s")',
    );
    expect(describeMismatch(file, [ctx('p'), ctx('q'), del('t')], 0, compare)).toBe(
      'removed line 3 of the hunk "-t" is not in the file (best match: file line 3 is "r")',
    );
    expect(describeMismatch(file, [ctx('p'), ctx('q'), del('t')], undefined, compare)).toBe(
      'removed line 3 of the hunk "-t" is not in the file (best match: file line 3 is "r")',
    );
    expect(describeMismatch(file, [ctx('z')], 5, compare)).toBe(
      'context line 1 of the hunk " z" is not in the file (best match: file line 6 is "s")',
    );
    expect(describeMismatch(['p', 'q'], [ctx('q'), ctx('r')], undefined, compare)).toBe(
      'context line 2 of the hunk " r" is not in the file (best match: the file ends there)',
    );
    expect(describeMismatch([], [del('a')], undefined, compare)).toBe(
      'removed line 1 of the hunk "-a" is not in the file (best match: the file ends there)',
    );
  });

  it('quotes at most 120 characters of a line', () => {
    const long = 'L'.repeat(130);
    expect(describeMismatch([long], [del('x'.repeat(121))], 0, compare)).toBe(
      `removed line 1 of the hunk "-${'x'.repeat(116)}..." is not in the file (best match: file line 1 is "${'L'.repeat(117)}...")`,
    );
    expect(describeMismatch(['L'.repeat(120)], [del('y')], 0, compare)).toContain(
      `file line 1 is "${'L'.repeat(120)}"`,
    );
  });
});

describe('hunks: placement refusals with their messages', () => {
  const file = 'a\nb\nc\nd\ne\n';

  it('names a hunk without context whose removed lines are not at its line, beyond the end of the file too', () => {
    expect(resolveOne(diff('f', ['-c', '+C'], 2), { f: file }).problems).toEqual([
      {
        code: 'hunk-not-found',
        file: 'f',
        hunk: 1,
        message:
          'f hunk 1 does not apply: it has no context lines, so its removed lines must be exactly at its line 2, and file line 2 is "b"; include context lines so it can be found.',
      },
    ]);
    expect(resolveOne(diff('f', ['-c', '+C'], 9), { f: file }).problems[0]?.message).toBe(
      'f hunk 1 does not apply: it has no context lines, so its removed lines must be exactly at its line 9, and the file has 5 lines; include context lines so it can be found.',
    );
    expect(resolveOne(diff('f', ['-b', '+B'], 2), { f: file }).changeSet.files[0]?.after).toBe('a\nB\nc\nd\ne\n');
  });

  it('says when an ambiguous hunk has no line number at all', () => {
    expect(resolveOne(diff('f', [' x', '-y', '+Y']), { f: 'x\ny\nx\ny\n' }).problems[0]?.message).toBe(
      'f hunk 1 matches at lines 1 and 3, and the hunk gives no line number; refusing to guess.',
    );
  });

  it('refuses a hunk that only adds lines to a file that has some, and fills an empty one', () => {
    expect(resolveOne(diff('f', ['+new'], 1), { f: file }).problems).toEqual([
      {
        code: 'hunk-ambiguous',
        file: 'f',
        hunk: 1,
        message:
          'f hunk 1 only adds lines and has no context line, so nothing confirms where they go; include the lines around the insertion as context.',
      },
    ]);
    expect(resolveOne(diff('f', ['+new'], 0), { f: '' }).changeSet.files).toEqual([
      { path: 'f', before: '', after: 'new\n' },
    ]);
  });

  it('reports overlapping hunks by number, in file order', () => {
    const edit: ProposedEdit = {
      type: 'unified',
      oldPath: 'f',
      newPath: 'f',
      hunks: [
        { oldStartHint: 3, lines: [' c', '-d', '+D'] },
        { oldStartHint: 2, lines: [' b', '-c', '+C'] },
      ],
    };
    expect(resolveOne(edit, { f: file }).problems).toEqual([
      { code: 'hunk-overlap', file: 'f', hunk: 1, message: 'f hunks 2 and 1 change overlapping lines.' },
    ]);
  });

  it('applies hunks given in reverse order, and adjacent hunks that do not overlap', () => {
    const reverse: ProposedEdit = {
      type: 'unified',
      oldPath: 'f',
      newPath: 'f',
      hunks: [
        { oldStartHint: 5, lines: ['-e', '+E'] },
        { oldStartHint: 1, lines: ['-a', '+A'] },
      ],
    };
    expect(resolveOne(reverse, { f: file }).changeSet.files[0]?.after).toBe('A\nb\nc\nd\nE\n');
    const adjacent: ProposedEdit = {
      type: 'unified',
      oldPath: 'f',
      newPath: 'f',
      hunks: [
        { oldStartHint: 1, lines: [' a', '-b', '+B'] },
        { oldStartHint: 3, lines: [' c', '-d', '+D'] },
      ],
    };
    expect(resolveOne(adjacent, { f: file }).changeSet.files[0]?.after).toBe('a\nB\nc\nD\ne\n');
  });

  it("shifts a later hunk's line number by the offset the earlier one was found at", () => {
    // The diff is off by two: the second hunk's bare removed line is found only thanks to the shift.
    const text = 'x\nx\na\nb\nc\nd\ne\n';
    const edit: ProposedEdit = {
      type: 'unified',
      oldPath: 'f',
      newPath: 'f',
      hunks: [
        { oldStartHint: 1, lines: [' a', '-b', '+B'] },
        { oldStartHint: 4, lines: ['-d', '+D'] },
      ],
    };
    expect(resolveOne(edit, { f: text }).changeSet.files[0]?.after).toBe('x\nx\na\nB\nc\nD\ne\n');
  });

  it("reads a pure insertion's number as the line it goes after, and any other as its first old line", () => {
    expect(resolveOne(diff('f', [' a', '+new'], 1), { f: 'a\nb\na\n' }).changeSet.files[0]?.after).toBe(
      'a\nnew\nb\na\n',
    );
    expect(resolveOne(diff('f', [' a', '+new'], 3), { f: 'a\nb\na\n' }).changeSet.files[0]?.after).toBe(
      'a\nb\na\nnew\n',
    );
    expect(resolveOne(diff('f', ['-a', '+A'], 0), { f: 'a\nb\n' }).changeSet.files[0]?.after).toBe('A\nb\n');
  });
});

describe('hunks: final newline and whitespace', () => {
  it('obeys "\\ No newline at end of file" only when the hunk reaches the end of the file', () => {
    expect(
      resolveOne(diff('f', [' a', '-b', '+B', '\\ No newline at end of file'], 1), { f: 'a\nb\n' }).changeSet.files[0]
        ?.after,
    ).toBe('a\nB');
    expect(
      resolveOne(diff('f', [' a', '-b', '\\ No newline at end of file', '+B'], 1), { f: 'a\nb' }).changeSet.files[0]
        ?.after,
    ).toBe('a\nB\n');
    expect(
      resolveOne(diff('f', [' a', '-b', '\\ No newline at end of file', '+B', '\\ No newline at end of file'], 1), {
        f: 'a\nb',
      }).changeSet.files[0]?.after,
    ).toBe('a\nB');
    expect(
      resolveOne(diff('f', ['-a', '+A', '\\ No newline at end of file', ' b'], 1), { f: 'a\nb\nc\n' }).changeSet
        .files[0]?.after,
    ).toBe('A\nb\nc\n');
    expect(resolveOne(diff('f', [' a', '-b', '+B'], 1), { f: 'a\nb' }).changeSet.files[0]?.after).toBe('a\nB');
  });

  it('re-indents added lines by the shift of the first removed line, else of the first context line', () => {
    const file = 'class A {\n        int x = 1;\n        int y = 2;\n}\n';
    expect(
      resolveOne(
        diff('f', ['    int x = 1;', '-    int y  =  2;', '+    int y = 3;', '+      // kept relative'], 2),
        { f: file },
        LOOSE,
      ).changeSet.files[0]?.after,
    ).toBe('class A {\n        int x = 1;\n        int y = 3;\n          // kept relative\n}\n');
    expect(
      resolveOne(diff('f', ['   int  x = 1;', '+  int z = 0;'], 2), { f: file }, LOOSE).changeSet.files[0]?.after,
    ).toBe('class A {\n        int x = 1;\n        int z = 0;\n        int y = 2;\n}\n');
  });

  it("re-indents an added line indented less than the writer's first line by the same amount less", () => {
    const file = 'if (a) {\n        call(1);\n    }\n';
    expect(
      resolveOne(diff('f', ['-    call(1);', '+    call(2);', '+  }', '+', '+  next();'], 2), { f: file }, LOOSE)
        .changeSet.files[0]?.after,
    ).toBe('if (a) {\n        call(2);\n      }\n\n      next();\n    }\n');
  });
});

describe('resolveEdits: files created, copied, renamed and deleted', () => {
  it('creates a file from a /dev/null diff, honouring a missing final newline and the declared mode', () => {
    const created = resolveEdits(
      [
        {
          type: 'unified',
          oldPath: null,
          newPath: 'run.sh',
          newMode: '100755',
          hunks: [{ lines: ['+echo', '\\ No newline at end of file'] }],
        },
      ],
      new Map(),
      STRICT,
    );
    expect(created.changeSet.files).toEqual([{ path: 'run.sh', before: null, after: 'echo', newMode: '100755' }]);
  });

  it('refuses a created file that exists, and a creation with a line that is not an addition', () => {
    expect(
      resolveEdits(
        [{ type: 'unified', oldPath: null, newPath: 'f', hunks: [{ lines: ['+a'] }] }],
        new Map([['f', 'x\n']]),
        STRICT,
      ).problems,
    ).toEqual([{ code: 'file-exists', file: 'f', message: 'f is created by the patch but already exists.' }]);
    expect(
      resolveEdits(
        [{ type: 'unified', oldPath: null, newPath: 'f', hunks: [{ lines: ['+a', ' b'] }] }],
        new Map(),
        STRICT,
      ).problems,
    ).toEqual([
      {
        code: 'parse-error',
        file: 'f',
        message: 'f is a new file, but its diff has a line that is not an addition: " b".',
      },
    ]);
  });

  it('copies a file, leaving the source, and refuses a copy onto an existing file', () => {
    const copy: ProposedEdit = {
      type: 'unified',
      oldPath: 'a.txt',
      newPath: 'b.txt',
      copy: true,
      newMode: '100755',
      hunks: [{ oldStartHint: 1, lines: ['-x', '+y'] }],
    };
    expect(resolveEdits([copy], new Map([['a.txt', 'x\n']]), STRICT).changeSet.files).toEqual([
      { path: 'b.txt', before: null, after: 'y\n', newMode: '100755' },
    ]);
    expect(
      resolveEdits(
        [copy],
        new Map([
          ['a.txt', 'x\n'],
          ['b.txt', 'z\n'],
        ]),
        STRICT,
      ).problems,
    ).toEqual([{ code: 'file-exists', file: 'b.txt', message: 'a.txt is copied to b.txt, which already exists.' }]);
  });

  it('renames with modes, and refuses a rename onto an existing file', () => {
    const rename: ProposedEdit = {
      type: 'unified',
      oldPath: 'a.sh',
      newPath: 'b.sh',
      oldMode: '100644',
      newMode: '100755',
      hunks: [],
    };
    expect(resolveEdits([rename], new Map([['a.sh', 'x\n']]), STRICT).changeSet.files).toEqual([
      { path: 'b.sh', oldPath: 'a.sh', before: 'x\n', after: 'x\n', oldMode: '100644', newMode: '100755' },
    ]);
    expect(
      resolveEdits(
        [rename],
        new Map([
          ['a.sh', 'x\n'],
          ['b.sh', 'y\n'],
        ]),
        STRICT,
      ).problems,
    ).toEqual([{ code: 'file-exists', file: 'b.sh', message: 'a.sh is renamed to b.sh, which already exists.' }]);
  });

  it('deletes a file whose hunks remove every line, and refuses one whose hunks leave lines', () => {
    const remove = (lines: string[]): ProposedEdit => ({
      type: 'unified',
      oldPath: 'f',
      newPath: null,
      hunks: [{ oldStartHint: 1, lines }],
    });
    expect(resolveEdits([remove(['-a', '-b'])], new Map([['f', 'a\nb\n']]), STRICT).changeSet.files).toEqual([
      { path: 'f', before: 'a\nb\n', after: null },
    ]);
    expect(
      resolveEdits([{ type: 'unified', oldPath: 'f', newPath: null, hunks: [] }], new Map([['f', 'a\nb\n']]), STRICT)
        .changeSet.files,
    ).toEqual([{ path: 'f', before: 'a\nb\n', after: null }]);
    expect(resolveEdits([remove(['-a'])], new Map([['f', 'a\nb\n']]), STRICT).problems).toEqual([
      {
        code: 'hunk-not-found',
        file: 'f',
        message: 'f is deleted by the patch, but 1 of its lines are not in the deleted content.',
      },
    ]);
  });

  it('refuses to edit a file renamed away earlier in the reply, and marks a binary change', () => {
    const edits: ProposedEdit[] = [
      { type: 'unified', oldPath: 'a', newPath: 'b', hunks: [] },
      { type: 'unified', oldPath: 'a', newPath: 'a', hunks: [{ oldStartHint: 1, lines: ['-x', '+y'] }] },
    ];
    expect(resolveEdits(edits, new Map([['a', 'x\n']]), STRICT).problems).toEqual([
      { code: 'file-not-found', file: 'a', message: 'a does not exist, so its hunks cannot apply.' },
    ]);
    expect(
      resolveEdits(
        [{ type: 'unified', oldPath: 'i.png', newPath: 'i.png', hunks: [], binary: true }],
        new Map([['i.png', 'x']]),
        STRICT,
      ).changeSet.files,
    ).toEqual([{ path: 'i.png', before: 'x', after: 'x', binary: true }]);
  });

  it('takes its files from a lookup function too', () => {
    expect(
      resolveEdits(
        [{ type: 'whole-file', path: 'f', content: 'b\n' }],
        (path) => (path === 'f' ? 'a\n' : undefined),
        STRICT,
      ).changeSet.files,
    ).toEqual([{ path: 'f', before: 'a\n', after: 'b\n' }]);
  });
});

describe('resolveEdits: SEARCH/REPLACE, line operations and whole files', () => {
  const sr = (path: string, search: string, replace: string): ProposedEdit => ({
    type: 'search-replace',
    path,
    search,
    replace,
  });

  it('creates a file from an empty SEARCH, fills an empty file in its own ending, and refuses an empty SEARCH on content', () => {
    expect(resolveOne(sr('n', '', 'a\nb\n'), {}).changeSet.files).toEqual([
      { path: 'n', before: null, after: 'a\nb\n' },
    ]);
    expect(resolveOne(sr('e', '', 'a\n'), { e: '' }).changeSet.files).toEqual([
      { path: 'e', before: '', after: 'a\n' },
    ]);
    expect(resolveOne(sr('f', '', 'a\n'), { f: 'x\n' }).problems).toEqual([
      {
        code: 'hunk-not-found',
        file: 'f',
        hunk: 1,
        message: 'f: the SEARCH section is empty, but the file already exists; say which lines to replace.',
      },
    ]);
    expect(resolveOne(sr('g', 'a\n', 'b\n'), {}).problems).toEqual([
      { code: 'file-not-found', file: 'g', message: 'g does not exist, so its SEARCH/REPLACE block cannot apply.' },
    ]);
  });

  it('names the lines of a line operation outside the file', () => {
    const op = (edit: Partial<Extract<ProposedEdit, { type: 'line-op' }>>): ProposedEdit => ({
      type: 'line-op',
      path: 'f',
      op: 'replace',
      line: 1,
      ...edit,
    });
    const file = { f: 'one\ntwo\nthree\n' };
    expect(resolveOne(op({ op: 'delete', line: 2, endLine: 4, old: 'two\nthree\n' }), file).problems).toEqual([
      { code: 'line-out-of-range', file: 'f', message: "f: delete at lines 2-4 is outside the file's 3 lines." },
    ]);
    expect(resolveOne(op({ op: 'insert', line: 5, text: 'x' }), file).problems[0]?.message).toBe(
      "f: insert at lines 5 is outside the file's 3 lines.",
    );
    expect(resolveOne(op({ op: 'replace', line: 0, text: 'x' }), file).problems[0]?.code).toBe('line-out-of-range');
    expect(resolveOne(op({ op: 'replace', line: 3, old: 'three', text: 'x' }), file).changeSet.files[0]?.after).toBe(
      'one\ntwo\nx\n',
    );
    expect(resolveOne(op({ op: 'insert', line: 4, text: 'four' }), file).changeSet.files[0]?.after).toBe(
      'one\ntwo\nthree\nfour\n',
    );
    expect(resolveOne(op({ op: 'delete', line: 1 }), {}).problems).toEqual([
      { code: 'file-not-found', file: 'f', message: 'f does not exist, so line 1 cannot be edited.' },
    ]);
  });

  it('says how many lines "old" states against the range, and which line differs', () => {
    const file = { f: 'one\ntwo\nthree\n' };
    expect(
      resolveOne({ type: 'line-op', path: 'f', op: 'replace', line: 1, endLine: 2, old: 'one\n', text: 'x' }, file)
        .problems[0]?.message,
    ).toBe(
      'f: replace at lines 1-2: "old" does not match the file (1 line stated, 2 in the range); line 1 is `one`, "old" says `one`.',
    );
    expect(
      resolveOne({ type: 'line-op', path: 'f', op: 'replace', line: 1, endLine: 2, old: 'one\nTWO\n', text: 'x' }, file)
        .problems[0]?.message,
    ).toBe('f: replace at lines 1-2: "old" does not match the file; line 2 is `two`, "old" says `TWO`.');
    expect(
      resolveOne({ type: 'line-op', path: 'f', op: 'insert', line: 2, old: 'a\nb\n', text: 'x' }, file).problems[0]
        ?.message,
    ).toBe(
      'f: insert at line 2: "old" does not match the file (2 lines stated, 1 in the range); line 2 is `two`, "old" says `a`.',
    );
    expect(
      resolveOne({ type: 'line-op', path: 'f', op: 'delete', line: 3, old: 'three', text: 'ignored' }, file).changeSet
        .files[0]?.after,
    ).toBe('one\ntwo\n');
    expect(resolveOne({ type: 'line-op', path: 'f', op: 'delete', line: 2 }, file).problems[0]?.message).toContain(
      'does not state the lines it deletes',
    );
  });

  it("inserts with the file's own line ending", () => {
    expect(
      resolveOne({ type: 'line-op', path: 'f', op: 'insert', line: 2, old: 'b', text: 'x\ny\n' }, { f: 'a\r\nb\r\n' })
        .changeSet.files[0]?.after,
    ).toBe('a\r\nx\r\ny\r\nb\r\n');
  });

  it('writes a whole file as given: no final newline when the content has none, an empty file as empty', () => {
    expect(resolveOne({ type: 'whole-file', path: 'f', content: 'x\ny' }, { f: 'a\n' }).changeSet.files[0]?.after).toBe(
      'x\ny',
    );
    expect(resolveOne({ type: 'whole-file', path: 'f', content: '' }, { f: 'a\n' }).changeSet.files[0]?.after).toBe('');
    expect(resolveOne({ type: 'whole-file', path: 'n', content: 'x\n' }, {}).changeSet.files).toEqual([
      { path: 'n', before: null, after: 'x\n' },
    ]);
  });
});
