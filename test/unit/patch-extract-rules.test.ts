import { describe, expect, it } from 'vitest';
import { extractEdits, pathsNeeded, type ProposedEdit } from '../../src/patch/index.js';

// extract/: what each shape of reply becomes, as exact ProposedEdit lists and problems.

const edits = (reply: string) => extractEdits(reply).edits;
const problems = (reply: string) => extractEdits(reply).problems;
const hunksOf = (reply: string, index = 0) => {
  const edit = edits(reply)[index];
  return edit?.type === 'unified' ? edit.hunks : undefined;
};

describe('unified diffs: headers', () => {
  it('reads hunk header line numbers and counts in every form models write', () => {
    expect(hunksOf('--- a/f\n+++ b/f\n@@ -12,3 +12,4 @@ class A {\n a\n-b\n+B\n+C\n c\n')).toEqual([
      { oldStartHint: 12, lines: [' a', '-b', '+B', '+C', ' c'] },
    ]);
    expect(hunksOf('--- a/f\n+++ b/f\n@@ -7 +7 @@\n-b\n+B\n')).toEqual([{ oldStartHint: 7, lines: ['-b', '+B'] }]);
    expect(hunksOf('--- a/f\n+++ b/f\n@@ ... @@\n-b\n+B\n')).toEqual([{ lines: ['-b', '+B'] }]);
    expect(hunksOf('--- a/f\n+++ b/f\n@@@ -1,2 +1,2 @@@\n a\n-b\n+B\n')).toEqual([
      { oldStartHint: 1, lines: [' a', '-b', '+B'] },
    ]);
  });

  it('uses counts with one number as a count of one, and reads several hunks', () => {
    // -3 +3 claims one line each: the bullet after the met counts is prose, not an added line.
    expect(hunksOf('--- a/f\n+++ b/f\n@@ -3 +3 @@\n-b\n+B\n\n+ the bullet\n')).toEqual([
      { oldStartHint: 3, lines: ['-b', '+B'] },
    ]);
    expect(hunksOf('--- a/f\n+++ b/f\n@@ -1,1 +1,1 @@\n-a\n+A\n@@ -9,1 +9,1 @@\n-z\n+Z\n')).toEqual([
      { oldStartHint: 1, lines: ['-a', '+A'] },
      { oldStartHint: 9, lines: ['-z', '+Z'] },
    ]);
  });

  it("reads creation and deletion by /dev/null and by mode lines, and drops an index line's hashes", () => {
    expect(
      edits(
        'diff --git a/n.txt b/n.txt\nnew file mode 100644\nindex 0000000..e69de29\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+x\n',
      ),
    ).toEqual([
      {
        type: 'unified',
        oldPath: null,
        newPath: 'n.txt',
        newMode: '100644',
        hunks: [{ oldStartHint: 0, lines: ['+x'] }],
      },
    ]);
    expect(edits('diff --git a/g.txt b/g.txt\ndeleted file mode 100755\n')).toEqual([
      { type: 'unified', oldPath: 'g.txt', newPath: null, oldMode: '100755', hunks: [] },
    ]);
    expect(edits('diff --git a/e.txt b/e.txt\nnew file mode 100644\n')).toEqual([
      { type: 'unified', oldPath: null, newPath: 'e.txt', newMode: '100644', hunks: [] },
    ]);
  });

  it('takes both modes from an index line unless a mode line says otherwise', () => {
    expect(
      edits(
        'diff --git a/r.sh b/r.sh\nindex 1a2b3c4..5d6e7f8 100755\n--- a/r.sh\n+++ b/r.sh\n@@ -1 +1 @@\n-a\n+b\n',
      )[0],
    ).toMatchObject({ oldMode: '100755', newMode: '100755' });
    expect(
      edits('diff --git a/r.sh b/r.sh\nold mode 100644\nnew mode 100755\nindex 1a2b3c4..5d6e7f8\n')[0],
    ).toMatchObject({ oldMode: '100644', newMode: '100755' });
    expect(
      edits(
        'diff --git a/r.sh b/r.sh\nnew mode 100755\nindex 1a2b3c4..5d6e7f8 100644\n--- a/r.sh\n+++ b/r.sh\n@@ -1 +1 @@\n-a\n+b\n',
      )[0],
    ).toMatchObject({ oldMode: '100644', newMode: '100755' });
    const noMode = edits(
      'diff --git a/r.sh b/r.sh\nindex 1a2b3c4..5d6e7f8\n--- a/r.sh\n+++ b/r.sh\n@@ -1 +1 @@\n-a\n+b\n',
    )[0];
    expect(noMode).not.toHaveProperty('oldMode');
    expect(noMode).not.toHaveProperty('newMode');
  });

  it('reads renames and copies from git extended headers, without ---/+++ lines', () => {
    expect(edits('diff --git a/x b/x\nsimilarity index 100%\nrename from old/A.java\nrename to new/A.java\n')).toEqual([
      { type: 'unified', oldPath: 'old/A.java', newPath: 'new/A.java', hunks: [] },
    ]);
    expect(edits('diff --git a/a.txt b/b.txt\ncopy from a.txt\ncopy to b.txt\n')).toEqual([
      { type: 'unified', oldPath: 'a.txt', newPath: 'b.txt', hunks: [], copy: true },
    ]);
    expect(
      edits(
        'diff --git a/a.txt b/a.txt\ncopy from a.txt\ncopy to a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\n',
      )[0],
    ).not.toHaveProperty('copy');
  });

  it('marks a binary change', () => {
    expect(edits('diff --git a/i.png b/i.png\nBinary files a/i.png and b/i.png differ\n')).toEqual([
      { type: 'unified', oldPath: 'i.png', newPath: 'i.png', hunks: [], binary: true },
    ]);
    expect(edits('diff --git a/i.png b/i.png\nGIT binary patch\nliteral 0\n')[0]).toMatchObject({ binary: true });
  });

  it('drops a diff that says nothing, and refuses /dev/null on both sides', () => {
    expect(extractEdits('diff --git a/f b/f\n')).toEqual({
      edits: [],
      problems: [
        { code: 'no-edits', message: 'The reply holds no unified diff, SEARCH/REPLACE block or JSON edit list.' },
      ],
    });
    expect(problems('--- /dev/null\n+++ /dev/null\n@@ -0,0 +1 @@\n+x\n')).toEqual([
      { code: 'parse-error', message: 'A diff names /dev/null on both sides, so it says which file to change.' },
    ]);
  });

  it('reuses the diff --git file for the ---/+++ pair that follows it, and opens a new file for a second pair', () => {
    const two = '--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n--- a/g\n+++ b/g\n@@ -1 +1 @@\n-c\n+d\n';
    expect(edits(two).map((e) => e.type === 'unified' && [e.oldPath, e.newPath])).toEqual([
      ['f', 'f'],
      ['g', 'g'],
    ]);
    expect(edits('diff --git a/x b/y\n--- a/x\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n')).toHaveLength(1);
  });

  it('ends a hunk at a fence, an Index: line or a ==== separator', () => {
    expect(hunksOf('```diff\n--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n```\n a line of prose\n')).toEqual([
      { oldStartHint: 1, lines: [' a', '-b', '+B'] },
    ]);
    expect(
      edits(
        '--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\nIndex: g\n===================================================================\n--- a/g\n+++ b/g\n@@ -1 +1 @@\n-c\n+d\n',
      ).map((e) => e.type === 'unified' && e.hunks),
    ).toEqual([[{ oldStartHint: 1, lines: ['-a', '+b'] }], [{ oldStartHint: 1, lines: ['-c', '+d'] }]]);
    expect(hunksOf('--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n=====================\n+stray\n')).toEqual([
      { oldStartHint: 1, lines: ['-a', '+b'] },
    ]);
  });

  it('refuses a hunk with no file header and no file named before it, quoting the header', () => {
    expect(problems('Here:\n@@ -1 +1 @@  \n-a\n+b\n')).toEqual([
      { code: 'parse-error', message: 'Hunk "@@ -1 +1 @@" has no file header (---/+++) and no file named before it.' },
    ]);
  });

  it('gives a bare hunk the file named on the line before it, and prose after a hunk may name the next file', () => {
    expect(
      edits('src/A.java\n@@ -1 +1 @@\n-a\n+b\n').map((e) => e.type === 'unified' && [e.oldPath, e.newPath]),
    ).toEqual([['src/A.java', 'src/A.java']]);
    const reply = 'In `src/A.java`:\n@@ -1 +1 @@\n-a\n+b\n\nThen in `src/B.java`:\n@@ -1 +1 @@\n-c\n+d\n';
    expect(edits(reply).map((e) => e.type === 'unified' && [e.newPath, e.hunks.length])).toEqual([
      ['src/A.java', 1],
      ['src/B.java', 1],
    ]);
  });
});

describe('unified diffs: where a hunk body ends', () => {
  it('drops trailing prose and blank lines, keeps a context line that lost its space', () => {
    expect(hunksOf('--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n\nc\nThat is all.\n', 0)).toEqual([
      { oldStartHint: 1, lines: [' a', '-b', '+B'] },
    ]);
    expect(hunksOf('--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n a\n-b\n+B\nc\n d\n\nThat is all.\n', 0)).toEqual([
      { oldStartHint: 1, lines: [' a', '-b', '+B', 'c', ' d'] },
    ]);
    expect(hunksOf('--- a/f\n+++ b/f\n@@ @@\n a\n-b\n+B\n\n')).toEqual([{ lines: [' a', '-b', '+B'] }]);
  });

  it('refuses a hunk whose met counts are followed only by added lines, naming at most two', () => {
    expect(
      extractEdits('--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n+ uses addExact\n+ also this\n+ and this\n'),
    ).toEqual({
      edits: [],
      problems: [
        {
          code: 'parse-error',
          file: 'f',
          hunk: 1,
          message:
            'f hunk 1: its header counts end before 3 more added line(s) ("+ uses addExact", "+ also this"); fix the counts, or put prose after the diff apart from it.',
        },
      ],
    });
  });

  it('keeps going when context or removed lines follow met counts (the counts were wrong)', () => {
    expect(hunksOf('--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n c\n-d\n+D\n')).toEqual([
      { oldStartHint: 1, lines: [' a', '-b', '+B', ' c', '-d', '+D'] },
    ]);
  });

  it('keeps a no-newline marker right after met counts, and stops before prose that follows it', () => {
    expect(hunksOf('--- a/f\n+++ b/f\n@@ -1,1 +1,1 @@\n-a\n+b\n\\ No newline at end of file\n\n+ bullet\n')).toEqual([
      { oldStartHint: 1, lines: ['-a', '+b', '\\ No newline at end of file'] },
    ]);
    expect(edits('--- a/f\n+++ b/f\n@@ -1,1 +1,1 @@\n-a\n+b\n\\ No newline at end of file\n')[0]).toMatchObject({
      noNewlineAtEnd: true,
    });
    expect(edits('--- a/f\n+++ b/f\n@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+b\n')[0]).not.toHaveProperty(
      'noNewlineAtEnd',
    );
  });

  it('lets counts that are too large run to the end of the body', () => {
    expect(hunksOf('--- a/f\n+++ b/f\n@@ -1,9 +1,9 @@\n a\n-b\n+B\n')).toEqual([
      { oldStartHint: 1, lines: [' a', '-b', '+B'] },
    ]);
  });
});

describe('SEARCH/REPLACE blocks', () => {
  it('reads 5 to 9 marker characters, any case, with trailing text', () => {
    expect(edits('f.txt\n<<<<< search\na\n=====\nb\n>>>>> replace\n')).toEqual([
      { type: 'search-replace', path: 'f.txt', search: 'a\n', replace: 'b\n' },
    ]);
    expect(edits('f.txt\n<<<<<<<<< SEARCH (exact)\na\n=========  \nb\n>>>>>>>>> REPLACE done\n')).toEqual([
      { type: 'search-replace', path: 'f.txt', search: 'a\n', replace: 'b\n' },
    ]);
    expect(edits('f.txt\n<<<< SEARCH\na\n====\nb\n>>>> REPLACE\n').filter((e) => e.type === 'search-replace')).toEqual(
      [],
    );
  });

  it("takes the path above the fence, or from the fence's info string, and reuses the last path", () => {
    const reply = [
      'src/A.java',
      '```java',
      '<<<<<<< SEARCH',
      'a',
      '=======',
      'b',
      '>>>>>>> REPLACE',
      '```',
      '```',
      '<<<<<<< SEARCH',
      'c',
      '=======',
      'd',
      '>>>>>>> REPLACE',
      '```',
      '```src/B.java',
      '<<<<<<< SEARCH',
      'e',
      '=======',
      'f',
      '>>>>>>> REPLACE',
      '```',
    ].join('\n');
    expect(edits(reply).map((e) => e.type === 'search-replace' && e.path)).toEqual([
      'src/A.java',
      'src/A.java',
      'src/B.java',
    ]);
  });

  it('gives an empty section as empty text, and ends an unfinished block at the next SEARCH', () => {
    expect(edits('n.txt\n<<<<<<< SEARCH\n=======\nnew\n>>>>>>> REPLACE\n')).toEqual([
      { type: 'search-replace', path: 'n.txt', search: '', replace: 'new\n' },
    ]);
    expect(edits('f.txt\n<<<<<<< SEARCH\nold\n=======\n>>>>>>> REPLACE\n')).toEqual([
      { type: 'search-replace', path: 'f.txt', search: 'old\n', replace: '' },
    ]);
    // The second block's path is looked up above it, where the first block's text is.
    expect(extractEdits('f.txt\n<<<<<<< SEARCH\na\n<<<<<<< SEARCH\nb\n=======\nc\n>>>>>>> REPLACE\n')).toEqual({
      edits: [],
      problems: [
        { code: 'parse-error', message: 'SEARCH block at reply line 2 has no ======= marker.' },
        { code: 'parse-error', message: 'SEARCH/REPLACE block at reply line 4 does not say which file it edits.' },
      ],
    });
    expect(problems('f.txt\n<<<<<<< SEARCH\na\n=======\nb\n')).toEqual([
      { code: 'parse-error', message: 'SEARCH block at reply line 2 has no >>>>>>> REPLACE marker.' },
    ]);
  });

  it('names the reply line of a block without a file', () => {
    expect(problems('Fix:\n\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n')).toEqual([
      { code: 'parse-error', message: 'SEARCH/REPLACE block at reply line 3 does not say which file it edits.' },
    ]);
  });

  it('takes the path from the first non-blank line above, skipping at most two fences', () => {
    expect(
      edits('f.txt\nx\ny\nz\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n').filter(
        (e) => e.type === 'search-replace',
      ),
    ).toEqual([]);
    expect(edits('f.txt\n\n\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n')).toEqual([
      { type: 'search-replace', path: 'f.txt', search: 'a\n', replace: 'b\n' },
    ]);
    expect(edits('f.txt\n```\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n')).toEqual([
      { type: 'search-replace', path: 'f.txt', search: 'a\n', replace: 'b\n' },
    ]);
    expect(
      edits('f.txt\n```\n```\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n').filter(
        (e) => e.type === 'search-replace',
      ),
    ).toEqual([]);
  });
});

describe('JSON edit lists', () => {
  it('reads the whole reply, a fenced block, the outermost braces, or a bare array, and the summary', () => {
    const list = '{"edits":[{"file":"./src\\\\A.java","search":"a\\n","replace":"b\\n"}],"summary":"fix"}';
    const expected: ProposedEdit[] = [{ type: 'search-replace', path: 'src/A.java', search: 'a\n', replace: 'b\n' }];
    expect(extractEdits(list)).toEqual({ edits: expected, problems: [], summary: 'fix' });
    expect(extractEdits(`Here you go:\n~~~json\n${list}\n~~~\nDone.`).edits).toEqual(expected);
    expect(extractEdits(`Sure. ${list} Hope it helps.`).edits).toEqual(expected);
    expect(extractEdits('[{"file":"src/A.java","content":"x\\n"}]')).toEqual({
      edits: [{ type: 'whole-file', path: 'src/A.java', content: 'x\n' }],
      problems: [],
    });
  });

  it("keeps a line operation's optional fields only when given", () => {
    expect(edits('{"edits":[{"file":"f","op":"insert","line":2}]}')).toEqual([
      { type: 'line-op', path: 'f', op: 'insert', line: 2 },
    ]);
    expect(edits('{"edits":[{"file":"f","op":"replace","line":2,"endLine":3,"text":"x","old":"a\\nb"}]}')).toEqual([
      { type: 'line-op', path: 'f', op: 'replace', line: 2, endLine: 3, text: 'x', old: 'a\nb' },
    ]);
  });

  it('explains a list that does not match the schema, at most three issues, with their paths', () => {
    const [found] = problems('{"edits":[{"file":"f","op":"move","line":0},{"file":""},{"x":1},{"y":2}]}');
    expect(found?.code).toBe('parse-error');
    expect(found?.message).toMatch(
      /^JSON edit list does not match the schema: edits\.0: [^;]+; edits\.1: [^;]+; edits\.2: [^;]+\.$/,
    );
    expect(problems('{"edits": 5}')[0]?.message).toMatch(/^JSON edit list does not match the schema: edits: /);
  });

  it('leaves JSON that is not an edit list to the other formats', () => {
    expect(extractEdits('{"name":"x"}').problems.map((p) => p.code)).toEqual(['no-edits']);
    expect(extractEdits('{"edits":[]}\nf.txt\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n').edits).toEqual([
      { type: 'search-replace', path: 'f.txt', search: 'a\n', replace: 'b\n' },
    ]);
    expect(extractEdits('null').problems.map((p) => p.code)).toEqual(['no-edits']);
    expect(extractEdits('{not json').problems).toEqual([
      { code: 'no-edits', message: 'The reply holds no unified diff, SEARCH/REPLACE block or JSON edit list.' },
    ]);
  });
});

describe('extractEdits: line endings, canonical paths, order', () => {
  it('reads CRLF and lone CR line ends as LF', () => {
    expect(extractEdits('f.txt\r\n<<<<<<< SEARCH\r\na\r\n=======\r\nb\r\n>>>>>>> REPLACE\r').edits).toEqual([
      { type: 'search-replace', path: 'f.txt', search: 'a\n', replace: 'b\n' },
    ]);
  });

  it('puts SEARCH/REPLACE blocks before diffs, each in reply order', () => {
    const reply = '--- a/d\n+++ b/d\n@@ -1 +1 @@\n-a\n+b\n\ns.txt\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n';
    expect(edits(reply).map((e) => e.type)).toEqual(['search-replace', 'unified']);
  });

  it('drops an edit whose path is refused, reporting each refusal once', () => {
    expect(extractEdits('--- a/../x\n+++ b/../x\n@@ -1 +1 @@\n-a\n+b\n')).toEqual({
      edits: [],
      problems: [
        {
          code: 'path-traversal',
          file: '../x',
          message: 'Path "../x" has a ".." segment that could leave the project.',
        },
      ],
    });
    expect(extractEdits('--- a/../x\n+++ b/../y\n@@ -1 +1 @@\n-a\n+b\n').problems.map((p) => p.file)).toEqual([
      '../x',
      '../y',
    ]);
    expect(
      extractEdits('.git/config\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n').problems.map((p) => p.code),
    ).toEqual(['forbidden-dir']);
  });

  it('writes canonical paths into the edits, and refuses two spellings of one file', () => {
    expect(edits('--- a/src//A.java\n+++ b/src/./A.java\n@@ -1 +1 @@\n-a\n+b\n')[0]).toMatchObject({
      oldPath: 'src/A.java',
      newPath: 'src/A.java',
    });
    expect(
      extractEdits(
        '--- a/src/A.java\n+++ b/src/A.java\n@@ -1 +1 @@\n-a\n+b\n--- a/src/a.java\n+++ b/src/a.java\n@@ -1 +1 @@\n-c\n+d\n',
      ).problems.map((p) => p.code),
    ).toEqual(['path-alias']);
  });

  it('lists the paths to read once each, both sides of a rename, none for /dev/null', () => {
    const list: ProposedEdit[] = [
      { type: 'unified', oldPath: null, newPath: 'n', hunks: [] },
      { type: 'unified', oldPath: 'a', newPath: 'b', hunks: [] },
      { type: 'unified', oldPath: 'g', newPath: null, hunks: [] },
      { type: 'whole-file', path: 'a', content: '' },
    ];
    expect(pathsNeeded(list)).toEqual(['n', 'a', 'b', 'g']);
  });
});
