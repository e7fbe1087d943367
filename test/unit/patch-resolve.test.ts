import { describe, expect, it } from 'vitest';
import { extractEdits, pathsNeeded, resolveEdits, type ProposedEdit } from '../../src/patch/index.js';

const STRICT = { ignoreWhitespace: false, allowTabSpaceContext: false };

function resolveText(reply: string, files: Record<string, string>, options = STRICT) {
  const extracted = extractEdits(reply);
  return { extracted, ...resolveEdits(extracted.edits, new Map(Object.entries(files)), options) };
}

const REPEATED = ['a', 'x', 'b', 'c', 'd', 'x', 'e', 'f', 'g', 'x', 'h', ''].join('\n');

describe('placement', () => {
  it('places a hunk with no context only at its own line', () => {
    const exact = resolveText('--- a/f\n+++ b/f\n@@ -10,1 +10,1 @@\n-x\n+X\n', { f: REPEATED });
    expect(exact.problems).toEqual([]);
    expect(exact.changeSet.files[0]?.after).toBe(REPEATED.replace('g\nx', 'g\nX'));
    const nearby = resolveText('--- a/f\n+++ b/f\n@@ -9,1 +9,1 @@\n-x\n+X\n', { f: REPEATED });
    expect(nearby.changeSet.files).toEqual([]);
    expect(nearby.problems[0]).toMatchObject({ code: 'hunk-not-found', file: 'f', hunk: 1 });
    expect(nearby.problems[0]?.message).toContain(
      'no context lines, so its removed lines must be exactly at its line 9, and file line 9 is "g"',
    );
  });

  it('takes a unique match anywhere, whatever the line number says', () => {
    const { changeSet, problems } = resolveText('--- a/f\n+++ b/f\n@@ -2,2 +2,2 @@\n g\n-x\n+X\n', { f: REPEATED });
    expect(problems).toEqual([]);
    expect(changeSet.files[0]?.after).toBe(REPEATED.replace('g\nx', 'g\nX'));
  });

  it('refuses content found twice unless the line number is exactly on one of them', () => {
    const twice = 'p\nx\nq\np\nx\nq\n';
    const near = resolveText('--- a/f\n+++ b/f\n@@ -3,2 +3,2 @@\n p\n-x\n+X\n', { f: twice });
    expect(near.problems).toHaveLength(1);
    expect(near.problems[0]).toMatchObject({ code: 'hunk-ambiguous', file: 'f', hunk: 1 });
    expect(near.problems[0]?.message).toContain('matches at lines 1 and 4, and its line number (3) is on neither');
    const onSecond = resolveText('--- a/f\n+++ b/f\n@@ -4,2 +4,2 @@\n p\n-x\n+X\n', { f: twice });
    expect(onSecond.problems).toEqual([]);
    expect(onSecond.changeSet.files[0]?.after).toBe('p\nx\nq\np\nX\nq\n');
  });

  it('refuses a repeated SEARCH block, which has no hint', () => {
    const { problems } = resolveText('f.txt\n<<<<<<< SEARCH\nx\n=======\nX\n>>>>>>> REPLACE\n', { 'f.txt': REPEATED });
    expect(problems.map((p) => p.code)).toEqual(['hunk-ambiguous']);
  });

  it('never changes meaning: a removed line that is not in the file fails, naming the hunk and line', () => {
    const { problems, changeSet } = resolveText(
      '--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-y\n+Y\n b\n@@ -6,2 +6,2 @@\n-e\n+E\n',
      { f: REPEATED },
    );
    expect(changeSet.files).toEqual([]);
    expect(problems[0]).toMatchObject({ code: 'hunk-not-found', hunk: 1 });
    expect(problems[0]?.message).toMatch(
      /f hunk 1 does not apply: removed line 2 of the hunk "-y" is not in the file \(best match: file line 2 is "x"\)/,
    );
  });

  it('does not match removed lines modulo whitespace unless the policy allows it, then re-indents', () => {
    const file = 'class A {\n    void m() {\n        call(1);\n    }\n}\n';
    const reply =
      'F.java\n<<<<<<< SEARCH\nvoid m() {\n    call(1);\n}\n=======\nvoid m() {\n    call(2);\n    log();\n}\n>>>>>>> REPLACE\n';
    expect(resolveText(reply, { 'F.java': file }).problems.map((p) => p.code)).toEqual(['hunk-not-found']);
    const loose = resolveText(reply, { 'F.java': file }, { ignoreWhitespace: true, allowTabSpaceContext: false });
    expect(loose.problems).toEqual([]);
    expect(loose.changeSet.files[0]?.after).toBe(
      'class A {\n    void m() {\n        call(2);\n        log();\n    }\n}\n',
    );
  });

  it('matches tab-indented context against spaces only when allowed, and never removed lines', () => {
    const file = 'a\n\tb\nc\n';
    const reply = '--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n     b\n-c\n+C\n';
    expect(resolveText(reply, { f: file }).problems.map((p) => p.code)).toEqual(['hunk-not-found']);
    expect(
      resolveText(reply, { f: file }, { ignoreWhitespace: false, allowTabSpaceContext: true }).changeSet.files[0]
        ?.after,
    ).toBe('a\n\tb\nC\n');
    const removesTabLine = '--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-    b\n+B\n c\n';
    expect(
      resolveText(removesTabLine, { f: file }, { ignoreWhitespace: false, allowTabSpaceContext: true }).problems.map(
        (p) => p.code,
      ),
    ).toEqual(['hunk-not-found']);
  });

  it('keeps the endings of untouched lines in a mixed-ending file', () => {
    const file = 'a\r\nb\nc\r\nd\r\n';
    const { changeSet } = resolveText('--- a/f\n+++ b/f\n@@ -2,2 +2,2 @@\n b\n-c\n+C\n', { f: file });
    expect(changeSet.files[0]?.after).toBe('a\r\nb\nC\r\nd\r\n');
  });

  it('reports overlapping hunks', () => {
    const file = 'a\nb\nc\nd\n';
    const { problems } = resolveText('--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n@@ -2,2 +2,2 @@\n b\n-c\n+C\n', {
      f: file,
    });
    expect(problems.map((p) => p.code)).toEqual(['hunk-overlap']);
  });

  it('refuses an insertion with no context, with or without a line number, unless the file is empty', () => {
    expect(resolveText('--- a/f\n+++ b/f\n@@ @@\n+new\n', { f: 'a\n' }).problems.map((p) => p.code)).toEqual([
      'hunk-ambiguous',
    ]);
    const numbered = resolveText('--- a/f\n+++ b/f\n@@ -1,0 +2,1 @@\n+new\n', { f: 'a\n' }).problems;
    expect(numbered.map((p) => p.code)).toEqual(['hunk-ambiguous']);
    expect(numbered[0]?.message).toContain('only adds lines and has no context line');
    expect(resolveText('--- a/f\n+++ b/f\n@@ -0,0 +1,1 @@\n+new\n', { f: '' }).changeSet.files[0]?.after).toBe('new\n');
  });

  it('applies later edits to the result of earlier ones, and skips only the failing one', () => {
    const edits: ProposedEdit[] = [
      { type: 'search-replace', path: 'f', search: 'a\n', replace: 'A\n' },
      { type: 'search-replace', path: 'f', search: 'A\nb\n', replace: 'AB\n' },
      { type: 'search-replace', path: 'f', search: 'zzz\n', replace: 'q\n' },
    ];
    const { changeSet, problems } = resolveEdits(edits, (path) => (path === 'f' ? 'a\nb\nc\n' : undefined), STRICT);
    expect(changeSet.files[0]?.after).toBe('AB\nc\n');
    expect(problems.map((p) => p.code)).toEqual(['hunk-not-found']);
  });

  it('reports missing and already-existing files', () => {
    expect(resolveText('--- a/nope\n+++ b/nope\n@@ -1 +1 @@\n-a\n+b\n', {}).problems.map((p) => p.code)).toEqual([
      'file-not-found',
    ]);
    expect(
      resolveText('--- /dev/null\n+++ b/f\n@@ -0,0 +1 @@\n+a\n', { f: 'x\n' }).problems.map((p) => p.code),
    ).toEqual(['file-exists']);
  });
});

describe('line operations and whole files', () => {
  const file = 'one\ntwo\nthree\n';
  const run = (edit: ProposedEdit) => resolveEdits([edit], new Map([['f', file]]), STRICT);

  it('inserts before, deletes and replaces inclusive ranges', () => {
    expect(
      run({ type: 'line-op', path: 'f', op: 'insert', line: 2, old: 'two', text: 'new' }).changeSet.files[0]?.after,
    ).toBe('one\nnew\ntwo\nthree\n');
    expect(run({ type: 'line-op', path: 'f', op: 'insert', line: 4, text: 'end\n' }).changeSet.files[0]?.after).toBe(
      'one\ntwo\nthree\nend\n',
    );
    expect(
      run({ type: 'line-op', path: 'f', op: 'delete', line: 2, endLine: 3, old: 'two\nthree\n' }).changeSet.files[0]
        ?.after,
    ).toBe('one\n');
    expect(
      run({ type: 'line-op', path: 'f', op: 'replace', line: 1, old: 'one', text: 'ONE' }).changeSet.files[0]?.after,
    ).toBe('ONE\ntwo\nthree\n');
  });

  it('refuses a line operation that does not state the lines it works on, or states others', () => {
    const refused = (edit: Parameters<typeof run>[0]) => run(edit).problems.map((p) => [p.code, p.message]);
    expect(refused({ type: 'line-op', path: 'f', op: 'replace', line: 2, text: 'TWO' })).toEqual([
      [
        'unchecked-line-edit',
        'f: replace at lines 2-2 does not state the lines it replaces ("old"), so it cannot be checked against the file; repeat them exactly in "old", or use "search" and "replace".',
      ],
    ]);
    expect(refused({ type: 'line-op', path: 'f', op: 'delete', line: 1, endLine: 2 })[0]?.[0]).toBe(
      'unchecked-line-edit',
    );
    expect(refused({ type: 'line-op', path: 'f', op: 'insert', line: 1, text: 'zero' })[0]?.[1]).toContain(
      'does not state the line it goes before',
    );
    // A model that miscounted by one: the line it names is not the one it means.
    expect(refused({ type: 'line-op', path: 'f', op: 'replace', line: 3, old: 'two', text: 'TWO' })).toEqual([
      [
        'hunk-not-found',
        'f: replace at lines 3-3: "old" does not match the file; line 3 is `three`, "old" says `two`.',
      ],
    ]);
    expect(refused({ type: 'line-op', path: 'f', op: 'delete', line: 2, endLine: 3, old: 'two' })[0]?.[1]).toContain(
      '(1 line stated, 2 in the range)',
    );
  });

  it('refuses lines outside the file', () => {
    expect(run({ type: 'line-op', path: 'f', op: 'delete', line: 4 }).problems.map((p) => p.code)).toEqual([
      'line-out-of-range',
    ]);
    expect(
      run({ type: 'line-op', path: 'f', op: 'replace', line: 3, endLine: 2, text: 'x' }).problems.map((p) => p.code),
    ).toEqual(['line-out-of-range']);
  });

  it("gives a whole-file reply the file's own line endings", () => {
    const { changeSet } = resolveEdits(
      [{ type: 'whole-file', path: 'f', content: 'x\ny\n' }],
      new Map([['f', 'a\r\nb\r\n']]),
      STRICT,
    );
    expect(changeSet.files[0]?.after).toBe('x\r\ny\r\n');
  });

  it('drops an edit that changes nothing', () => {
    expect(run({ type: 'whole-file', path: 'f', content: file }).changeSet.files).toEqual([]);
  });
});

describe('extraction', () => {
  it('finds several diffs, SEARCH/REPLACE blocks and renames, and lists the paths to read', () => {
    const reply = [
      'diff --git a/old/A.java b/new/A.java',
      'similarity index 90%',
      'rename from old/A.java',
      'rename to new/A.java',
      '--- a/old/A.java',
      '+++ b/new/A.java',
      '@@ -1 +1 @@',
      '-a',
      '+b',
      'src/B.java',
      '<<<<<<< SEARCH',
      'x',
      '=======',
      'y',
      '>>>>>>> REPLACE',
    ].join('\n');
    const { edits, problems } = extractEdits(reply);
    expect(problems).toEqual([]);
    expect(edits.map((e) => e.type).sort()).toEqual(['search-replace', 'unified']);
    expect(pathsNeeded(edits).sort()).toEqual(['new/A.java', 'old/A.java', 'src/B.java']);
    const resolved = resolveEdits(
      edits,
      new Map([
        ['old/A.java', 'a\n'],
        ['src/B.java', 'x\n'],
      ]),
      STRICT,
    );
    expect(resolved.changeSet.files).toEqual(
      expect.arrayContaining([
        { path: 'new/A.java', oldPath: 'old/A.java', before: 'a\n', after: 'b\n' },
        { path: 'src/B.java', before: 'x\n', after: 'y\n' },
      ]),
    );
  });

  it('reads git quoted paths and mode lines', () => {
    const { edits } = extractEdits(
      'diff --git "a/sp ace\\303\\244.sh" "b/sp ace\\303\\244.sh"\nold mode 100644\nnew mode 100755\n',
    );
    expect(edits).toEqual([
      {
        type: 'unified',
        oldPath: 'sp aceä.sh',
        newPath: 'sp aceä.sh',
        hunks: [],
        oldMode: '100644',
        newMode: '100755',
      },
    ]);
  });

  it('stops an unfenced hunk with correct counts before prose that starts like a diff line', () => {
    const { edits } = extractEdits('--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+B\nNotes:\n- this is prose\n');
    expect(edits[0]?.type === 'unified' && edits[0].hunks[0]?.lines).toEqual([' a', '-b', '+B']);
  });

  it('explains what is wrong with an unusable reply', () => {
    expect(extractEdits('@@ -1 +1 @@\n-a\n+b\n').problems.map((p) => p.code)).toEqual(['parse-error']);
    expect(extractEdits('f.txt\n<<<<<<< SEARCH\na\n=======\nb\n').problems[0]?.message).toMatch(
      /no >>>>>>> REPLACE marker/,
    );
    expect(extractEdits('<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n').problems[0]?.message).toMatch(
      /does not say which file/,
    );
    expect(extractEdits('Looks fine to me.').problems.map((p) => p.code)).toEqual(['no-edits']);
    expect(extractEdits('{"edits":[{"file":"","search":"a","replace":"b"}]}').problems.map((p) => p.code)).toEqual([
      'parse-error',
    ]);
  });
});
