import { describe, expect, it } from 'vitest';
import { extractEdits } from '../../src/patch/index.js';
import { pathFromMentionLine } from '../../src/patch/extract/path-text.js';

// extract/unified.ts at its edges: where a hunk body ends, which lines a file header reads,
// and when a file is opened or closed. Written from the survivors of the patch-extract
// mutation run (mutation/slices/patch-extract.config.mjs); each case pairs with the reading it rules out.

const edits = (reply: string) => extractEdits(reply).edits;
const hunksOf = (reply: string, index = 0) => {
  const edit = edits(reply)[index];
  return edit?.type === 'unified' ? edit.hunks : undefined;
};

describe('where a hunk body ends', () => {
  it('does not count a no-newline marker as a line when matching the header counts', () => {
    expect(hunksOf('--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\n+ a bullet\n')).toEqual([
      { oldStartHint: 1, lines: ['-a', '\\ No newline at end of file', '+b'] },
    ]);
  });

  it('ends at a prose line right after the met counts, even without a blank line before it', () => {
    expect(hunksOf('--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\nnote:\n+ c\n')).toEqual([
      { oldStartHint: 1, lines: ['-a', '+b'] },
    ]);
  });

  it('names a deleted file by its old path when its counts end before added lines', () => {
    expect(extractEdits('--- a/f\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n+x\n').problems).toEqual([
      {
        code: 'parse-error',
        file: 'f',
        hunk: 1,
        message:
          'f hunk 1: its header counts end before 1 more added line(s) ("+x"); fix the counts, or put prose after the diff apart from it.',
      },
    ]);
  });

  it('counts the hunks already kept in the number of an ambiguous one', () => {
    const reply = '--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n@@ -5 +5 @@\n-c\n+d\n+e\n';
    expect(extractEdits(reply).problems.map((p) => p.hunk)).toEqual([2]);
    expect(extractEdits(reply).edits).toEqual([]);
  });

  it('keeps no hunk made of prose only, so a header with nothing after it is no edit', () => {
    expect(extractEdits('--- a/f\n+++ b/f\n@@ -1 +1 @@\nJust prose.\n').problems.map((p) => p.code)).toEqual([
      'no-edits',
    ]);
  });

  it('ends a hunk at an indented fence, an "Index: " line with its space and twenty = signs, not at look-alikes', () => {
    expect(hunksOf('--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n   ```\n+stray\n')).toEqual([
      { oldStartHint: 1, lines: ['-a', '+b'] },
    ]);
    expect(hunksOf('--- a/f\n+++ b/f\n@@ @@\n-a\nIndex:x\n+b\n')).toEqual([{ lines: ['-a', 'Index:x', '+b'] }]);
    expect(hunksOf('--- a/f\n+++ b/f\n@@ @@\n-a\n===================\n+b\n')).toEqual([
      { lines: ['-a', '===================', '+b'] },
    ]);
    expect(hunksOf('--- a/f\n+++ b/f\n@@ @@\n-a\nx====================\n+b\n')).toEqual([
      { lines: ['-a', 'x====================', '+b'] },
    ]);
    expect(hunksOf('--- a/f\n+++ b/f\n@@ @@\n-a\n==================== x\n+b\n')).toEqual([
      { lines: ['-a', '==================== x', '+b'] },
    ]);
    expect(hunksOf('--- a/f\n+++ b/f\n@@ @@\n-a\nxIndex: g\n+b\n')).toEqual([{ lines: ['-a', 'xIndex: g', '+b'] }]);
  });

  it('reads counts only when both ranges are given; a missing count is one', () => {
    // No new range: the counts are not known, so the added bullet stays in the hunk.
    expect(hunksOf('--- a/f\n+++ b/f\n@@ -1 @@\n-a\n+b\n+ bullet\n')).toEqual([
      { oldStartHint: 1, lines: ['-a', '+b', '+ bullet'] },
    ]);
    expect(hunksOf('--- a/f\n+++ b/f\n@@ +1 @@\n-a\n+b\n+ bullet\n')).toEqual([{ lines: ['-a', '+b', '+ bullet'] }]);
    expect(extractEdits('--- a/f\n+++ b/f\n@@ -1,1 +1 @@\n-a\n+b\n+ bullet\n').problems.map((p) => p.code)).toEqual([
      'parse-error',
    ]);
    expect(extractEdits('--- a/f\n+++ b/f\n@@ -1 +1,1 @@\n-a\n+b\n+ bullet\n').problems.map((p) => p.code)).toEqual([
      'parse-error',
    ]);
    expect(hunksOf('--- a/f\n+++ b/f\n@@ -1,2 +1 @@\n-a\n+b\n+ bullet\n')).toEqual([
      { oldStartHint: 1, lines: ['-a', '+b', '+ bullet'] },
    ]);
  });
});

describe('no newline at the end', () => {
  it('is read from the last hunk only, and not from a marker after a removed line', () => {
    expect(
      edits('--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n\\ No newline at end of file\n@@ -9 +9 @@\n-y\n+z\n')[0],
    ).not.toHaveProperty('noNewlineAtEnd');
    expect(
      edits('--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n x\n-a\n\\ No newline at end of file\n+b\n')[0],
    ).not.toHaveProperty('noNewlineAtEnd');
    expect(edits('--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-a\n+b\n x\n\\ No newline at end of file\n')[0]).toMatchObject({
      noNewlineAtEnd: true,
    });
  });

  it('does not read a marker that opens a hunk', () => {
    expect(edits('--- a/f\n+++ b/f\n@@ @@\n\\ No newline at end of file\n+b\n')[0]).not.toHaveProperty(
      'noNewlineAtEnd',
    );
  });
});

describe('file headers', () => {
  it('keeps a mode-only or rename-only change, and drops a file that changes nothing', () => {
    expect(edits('diff --git a/r.sh b/r.sh\nold mode 100644\n')).toEqual([
      { type: 'unified', oldPath: 'r.sh', newPath: 'r.sh', oldMode: '100644', hunks: [] },
    ]);
    expect(edits('diff --git a/r.sh b/r.sh\nnew mode 100755\n')).toEqual([
      { type: 'unified', oldPath: 'r.sh', newPath: 'r.sh', newMode: '100755', hunks: [] },
    ]);
    expect(edits('diff --git a/r.sh b/r.sh\nsimilarity index 90%\n')).toEqual([]);
  });

  it('reads extended headers only before the first hunk', () => {
    const reply =
      '```diff\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n```\nold mode 100644\nnew mode 100755\nBinary files a/f and b/f differ\n';
    expect(edits(reply)).toEqual([
      { type: 'unified', oldPath: 'f', newPath: 'f', hunks: [{ oldStartHint: 1, lines: ['-a', '+b'] }] },
    ]);
  });

  it('keeps the diff --git name when a rename line names /dev/null', () => {
    expect(edits('diff --git a/x b/y\nrename from /dev/null\nrename to /dev/null\n')).toEqual([
      { type: 'unified', oldPath: 'x', newPath: 'y', hunks: [] },
    ]);
    expect(edits('diff --git a/x b/y\ncopy from /dev/null\ncopy to /dev/null\n')).toEqual([
      { type: 'unified', oldPath: 'x', newPath: 'y', hunks: [], copy: true },
    ]);
  });

  it('ignores rename and copy lines without a diff --git line to amend', () => {
    expect(edits('--- a/f\n+++ b/f\nrename from g\nrename to h\n@@ -1 +1 @@\n-a\n+b\n')[0]).toMatchObject({
      oldPath: 'f',
      newPath: 'f',
    });
  });

  it('is no copy when the copy creates or deletes a side', () => {
    expect(
      edits('diff --git a/a.txt b/b.txt\ncopy from a.txt\ncopy to b.txt\nnew file mode 100644\n')[0],
    ).not.toHaveProperty('copy');
    expect(
      edits('diff --git a/a.txt b/b.txt\ncopy from a.txt\ncopy to b.txt\ndeleted file mode 100644\n')[0],
    ).not.toHaveProperty('copy');
  });

  it('takes the mode of an index line only in the form "index <old>..<new> <mode>"', () => {
    for (const index of [
      'index 1a2b..3c4d  100755 x',
      'index 1a2b 100755',
      'index x1a2b..3c4d100755',
      'index ..3c4d 100755',
    ]) {
      const edit = edits(`diff --git a/r.sh b/r.sh\n${index}\n--- a/r.sh\n+++ b/r.sh\n@@ -1 +1 @@\n-a\n+b\n`)[0];
      expect(edit, index).not.toHaveProperty('oldMode');
    }
    expect(
      edits('diff --git a/r.sh b/r.sh\nindex 1a2b..3c4d\t100755\n--- a/r.sh\n+++ b/r.sh\n@@ -1 +1 @@\n-a\n+b\n')[0],
    ).toMatchObject({ oldMode: '100755', newMode: '100755' });
  });

  it('reads a second ---/+++ pair after a hunk of the diff --git file as a new file', () => {
    const reply = 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-c\n+d\n';
    expect(edits(reply).map((e) => e.type === 'unified' && e.newPath)).toEqual(['x', 'y']);
    // A diff --git line whose names cannot be told apart has no paths to reuse: the pair opens its own file.
    expect(
      edits('diff --git one two three\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n').map(
        (e) => e.type === 'unified' && e.newPath,
      ),
    ).toEqual(['f']);
  });

  it('opens the diff --git file with its paths, and with none when they cannot be told apart', () => {
    expect(edits('diff --git a/x b/x\nGIT binary patch\n')).toEqual([
      { type: 'unified', oldPath: 'x', newPath: 'x', hunks: [], binary: true },
    ]);
    expect(extractEdits('diff --git one two three\nGIT binary patch\n').problems).toEqual([
      { code: 'parse-error', message: 'A diff names /dev/null on both sides, so it says which file to change.' },
    ]);
  });
});

describe('files named in prose', () => {
  it('takes the last file named after a hunk for the next bare hunk', () => {
    const reply = '`src/A.java`:\n@@ -1 +1 @@\n-a\n+b\n\nNot `src/B.java`,\nbut `src/C.java`:\n@@ -1 +1 @@\n-c\n+d\n';
    expect(edits(reply).map((e) => e.type === 'unified' && e.newPath)).toEqual(['src/A.java', 'src/C.java']);
  });

  it('closes a file with headers at a line naming another, but not a diff --git file without them', () => {
    const reply = '--- a/f\n+++ b/f\nsrc/G.java\n@@ -1 +1 @@\n-a\n+b\n';
    expect(edits(reply).map((e) => e.type === 'unified' && e.newPath)).toEqual(['src/G.java']);
    const git = 'diff --git a/f b/f\nsrc/G.java\n@@ -1 +1 @@\n-a\n+b\n';
    expect(edits(git).map((e) => e.type === 'unified' && e.newPath)).toEqual(['f']);
  });

  it('does not take a path from a line inside a hunk, only from the lines after it', () => {
    const reply = 'src/A.java\n@@ -1,3 +1,3 @@\n a\nsrc/B.java\n-c\n+d\n';
    expect(edits(reply).map((e) => e.type === 'unified' && [e.newPath, e.hunks[0]?.lines])).toEqual([
      ['src/A.java', [' a', 'src/B.java', '-c', '+d']],
    ]);
  });
});

describe('SEARCH/REPLACE blocks at their edges', () => {
  it('takes the lines of a block away from the diff reader, markers and text alike', () => {
    expect(extractEdits('f.txt\n<<<<<<< SEARCH\n@@ -1 +1 @@\n-a\n=======\n+b\n>>>>>>> REPLACE\n')).toEqual({
      edits: [{ type: 'search-replace', path: 'f.txt', search: '@@ -1 +1 @@\n-a\n', replace: '+b\n' }],
      problems: [],
    });
    // An unfinished block's SEARCH line is taken too, so it ends the hunk before it.
    expect(hunksOf('--- a/f\n+++ b/f\n@@ @@\n-a\n+b\n<<<<<<< SEARCH\n+c\n')).toEqual([{ lines: ['-a', '+b'] }]);
  });

  it('reads a second divider as replacement text, and a REPLACE mark before the divider as search text', () => {
    expect(edits('f.txt\n<<<<<<< SEARCH\na\n=======\n=======\nb\n>>>>>>> REPLACE\n')).toEqual([
      { type: 'search-replace', path: 'f.txt', search: 'a\n', replace: '=======\nb\n' },
    ]);
    expect(edits('f.txt\n<<<<<<< SEARCH\n>>>>>>> REPLACE\n=======\nb\n>>>>>>> REPLACE\n')).toEqual([
      { type: 'search-replace', path: 'f.txt', search: '>>>>>>> REPLACE\n', replace: 'b\n' },
    ]);
  });

  it('skips blank lines of white space above a block, and reads a path from an indented fence', () => {
    expect(edits('f.txt\n   \n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n')).toEqual([
      { type: 'search-replace', path: 'f.txt', search: 'a\n', replace: 'b\n' },
    ]);
    expect(edits('  ```src/B.java\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n')).toEqual([
      { type: 'search-replace', path: 'src/B.java', search: 'a\n', replace: 'b\n' },
    ]);
  });

  it("reads a fence's info string as a path only when it has a slash, else looks above the fence", () => {
    expect(edits('f.txt\n```a.txt\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n')).toEqual([
      { type: 'search-replace', path: 'f.txt', search: 'a\n', replace: 'b\n' },
    ]);
  });
});

describe('JSON edit lists at their edges', () => {
  it('leaves out the optional fields and the summary that were not given', () => {
    expect(Object.keys(edits('{"edits":[{"file":"f","op":"insert","line":2}]}')[0] ?? {})).toEqual([
      'type',
      'path',
      'op',
      'line',
    ]);
    expect(Object.keys(extractEdits('{"edits":[{"file":"f","content":"x"}]}'))).toEqual(['edits', 'problems']);
  });

  it('reads a bare array with white space around it', () => {
    expect(edits('  [{"file":"src/A.java","content":"x\\n"}]  \n')).toEqual([
      { type: 'whole-file', path: 'src/A.java', content: 'x\n' },
    ]);
  });

  it('reads a fenced list with an info string, indented, between prose that has braces of its own', () => {
    const reply =
      'Use {braces} like ```this``` here.\n```json\n  {"edits":[{"file":"f","content":"x"}]}\n  ```  \nBye {}.\n';
    expect(edits(reply)).toEqual([{ type: 'whole-file', path: 'f', content: 'x' }]);
  });

  it('reads the outermost braces when the list opens the reply and prose follows', () => {
    expect(edits('{"edits":[{"file":"f","content":"x"}]} Hope it helps.')).toEqual([
      { type: 'whole-file', path: 'f', content: 'x' },
    ]);
  });
});

describe('file mentions at their edges', () => {
  it.each([
    ['In `src/A.java`x', undefined],
    ['In `src/A.java`:x', undefined],
    ['`x`.`a.java` ', 'x`.`a.java'],
    ['  ## src/Foo.java', 'src/Foo.java'],
    ['##src/Foo.java', 'src/Foo.java'],
    ['> - src/Foo.java', 'src/Foo.java'],
    ['mypath:src/a.txt', 'mypath:src/a.txt'],
  ])('%j names %j', (line, path) => {
    expect(pathFromMentionLine(line)).toBe(path);
  });
});

describe('extractEdits', () => {
  it('leaves out the summary when the reply has none', () => {
    expect(Object.keys(extractEdits('--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n'))).toEqual(['edits', 'problems']);
  });
});

describe('file headers, more', () => {
  it('reads creation and deletion from mode lines even when the ---/+++ pair names both sides', () => {
    expect(edits('diff --git a/n b/n\nnew file mode 100644\n--- a/n\n+++ b/n\n@@ -0,0 +1 @@\n+x\n')[0]).toMatchObject({
      oldPath: null,
      newPath: 'n',
    });
    expect(
      edits('diff --git a/g b/g\ndeleted file mode 100644\n--- a/g\n+++ b/g\n@@ -1 +0,0 @@\n-x\n')[0],
    ).toMatchObject({ oldPath: 'g', newPath: null });
  });

  it('takes the ---/+++ names over the diff --git ones', () => {
    expect(edits('diff --git a/x b/x\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n')[0]).toMatchObject({
      oldPath: 'y',
      newPath: 'y',
    });
  });

  it('opens a new file for a ---/+++ pair after a bare hunk of a diff --git file', () => {
    const reply = 'diff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b\n```\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-c\n+d\n';
    expect(edits(reply).map((e) => e.type === 'unified' && [e.newPath, e.hunks.length])).toEqual([
      ['x', 1],
      ['y', 1],
    ]);
  });

  it('reads copy names from their own lines, and marks a copy by either line', () => {
    expect(edits('diff --git a/x b/y\ncopy from a.txt\ncopy to b.txt\n')).toEqual([
      { type: 'unified', oldPath: 'a.txt', newPath: 'b.txt', hunks: [], copy: true },
    ]);
    expect(edits('diff --git a/a.txt b/b.txt\ncopy to b.txt\n')[0]).toMatchObject({ copy: true });
    expect(edits('diff --git a/a.txt b/b.txt\ncopy from a.txt\n')[0]).toMatchObject({ copy: true });
    expect(edits('diff --git a/a.txt b/b.txt\nrename from a.txt\n')[0]).not.toHaveProperty('copy');
  });

  it('reads a mode from the index line only, with any white space before it', () => {
    expect(edits('diff --git a/x b/y\nrename from a..b 100755\n')[0]).not.toHaveProperty('oldMode');
    expect(
      edits('diff --git a/r.sh b/r.sh\nindex 1a2b..3c4d  100755\n--- a/r.sh\n+++ b/r.sh\n@@ -1 +1 @@\n-a\n+b\n')[0],
    ).toMatchObject({ oldMode: '100755' });
  });

  it('reads no extended header before any file, and no ---/+++ pair from a lone --- line', () => {
    expect(extractEdits('old mode 100644\n').problems.map((p) => p.code)).toEqual(['no-edits']);
    expect(
      edits('--- just a rule\nsrc/A.java\n@@ -1 +1 @@\n-a\n+b\n').map((e) => e.type === 'unified' && e.newPath),
    ).toEqual(['src/A.java']);
  });

  it('ends a hunk where the new count is met only when the old count is met too', () => {
    expect(hunksOf('--- a/f\n+++ b/f\n@@ -1,2 +1,1 @@\n a\n\n-c\n')).toEqual([
      { oldStartHint: 1, lines: [' a', '', '-c'] },
    ]);
  });

  it("closes a bare hunk's file that kept nothing at the next file named", () => {
    const reply = 'src/A.java\n@@ -1 +1 @@\nprose only\n```\nsrc/B.java\n@@ -1 +1 @@\n-a\n+b\n';
    expect(edits(reply).map((e) => e.type === 'unified' && e.newPath)).toEqual(['src/B.java']);
  });
});
