import { describe, expect, it } from 'vitest';
import { toUnifiedDiff, toUnifiedDiffBytes, type ChangeSet } from '../../src/patch/index.js';

// The canonical diff as text, exactly: what fix.patch holds and what `git apply` reads
// (patch-validate.test.ts and patch-corpus.test.ts run git apply on it).

describe('toUnifiedDiff: the exact canonical text', () => {
  it('writes an edit with a/ and b/ prefixes, three lines of context and no mode lines', () => {
    const cs: ChangeSet = {
      files: [{ path: 'src/A.java', before: '1\n2\n3\n4\n5\n6\n7\n8\n', after: '1\n2\n3\n4\nV\n6\n7\n8\n' }],
    };
    expect(toUnifiedDiff(cs)).toBe(
      [
        'diff --git a/src/A.java b/src/A.java',
        '--- a/src/A.java',
        '+++ b/src/A.java',
        '@@ -2,7 +2,7 @@',
        ' 2',
        ' 3',
        ' 4',
        '-5',
        '+V',
        ' 6',
        ' 7',
        ' 8',
        '',
      ].join('\n'),
    );
  });

  it('writes a creation from /dev/null with its declared mode, and 100644 when none is declared', () => {
    expect(toUnifiedDiff({ files: [{ path: 'bin/run.sh', before: null, after: 'echo\n', newMode: '100755' }] })).toBe(
      [
        'diff --git a/bin/run.sh b/bin/run.sh',
        'new file mode 100755',
        '--- /dev/null',
        '+++ b/bin/run.sh',
        '@@ -0,0 +1,1 @@',
        '+echo',
        '',
      ].join('\n'),
    );
    expect(toUnifiedDiff({ files: [{ path: 'N.java', before: null, after: 'n\n' }] })).toContain(
      'new file mode 100644\n',
    );
  });

  it('writes a deletion to /dev/null with the old mode, 100644 when none is declared', () => {
    expect(toUnifiedDiff({ files: [{ path: 'bin/run.sh', before: 'echo\n', after: null, oldMode: '100755' }] })).toBe(
      [
        'diff --git a/bin/run.sh b/bin/run.sh',
        'deleted file mode 100755',
        '--- a/bin/run.sh',
        '+++ /dev/null',
        '@@ -1,1 +0,0 @@',
        '-echo',
        '',
      ].join('\n'),
    );
    expect(toUnifiedDiff({ files: [{ path: 'G.java', before: 'g\n', after: null }] })).toContain(
      'deleted file mode 100644\n',
    );
  });

  it('writes mode lines only when the mode changes; an undeclared old mode is 100644', () => {
    const same = toUnifiedDiff({
      files: [{ path: 'run.sh', before: 'a\n', after: 'b\n', oldMode: '100755', newMode: '100755' }],
    });
    expect(same).not.toContain('mode');
    const defaulted = toUnifiedDiff({ files: [{ path: 'run.sh', before: 'a\n', after: 'b\n', newMode: '100644' }] });
    expect(defaulted).not.toContain('mode');
    const oldOnly = toUnifiedDiff({ files: [{ path: 'run.sh', before: 'a\n', after: 'b\n', oldMode: '100755' }] });
    expect(oldOnly).not.toContain('mode');
    expect(toUnifiedDiff({ files: [{ path: 'run.sh', before: 'a\n', after: 'a\n', newMode: '100755' }] })).toBe(
      ['diff --git a/run.sh b/run.sh', 'old mode 100644', 'new mode 100755', ''].join('\n'),
    );
    expect(
      toUnifiedDiff({ files: [{ path: 'run.sh', before: 'a\n', after: 'a\n', oldMode: '100755', newMode: '100644' }] }),
    ).toBe(['diff --git a/run.sh b/run.sh', 'old mode 100755', 'new mode 100644', ''].join('\n'));
  });

  it('writes a rename with the old name on the a/ side, and no rename for a path renamed to itself', () => {
    expect(
      toUnifiedDiff({ files: [{ path: 'src/New.java', oldPath: 'src/Old.java', before: 'x\n', after: 'x\n' }] }),
    ).toBe(
      ['diff --git a/src/Old.java b/src/New.java', 'rename from src/Old.java', 'rename to src/New.java', ''].join('\n'),
    );
    expect(
      toUnifiedDiff({ files: [{ path: 'src/A.java', oldPath: 'src/A.java', before: 'x\n', after: 'y\n' }] }),
    ).not.toContain('rename');
  });

  it('writes a binary change as git does, without hunks', () => {
    expect(
      toUnifiedDiff({
        files: [{ path: 'img/new.png', oldPath: 'img/old.png', before: 'x', after: 'y', binary: true }],
      }),
    ).toBe('diff --git a/img/old.png b/img/new.png\nBinary files a/img/old.png and b/img/new.png differ\n');
    expect(toUnifiedDiff({ files: [{ path: 'img/a.png', before: 'x', after: 'y', binary: true }] })).toBe(
      'diff --git a/img/a.png b/img/a.png\nBinary files a/img/a.png and b/img/a.png differ\n',
    );
  });

  it('orders files by path, whatever the order of the change set, and keeps equal paths in order', () => {
    const file = (path: string, after = 'b\n') => ({ path, before: 'a\n', after });
    const headers = (cs: ChangeSet) =>
      toUnifiedDiff(cs)
        .split('\n')
        .filter((line) => line.startsWith('diff --git') || (line.startsWith('+') && !line.startsWith('+++')));
    expect(headers({ files: [file('b/Z.java'), file('a/Y.java'), file('B.java'), file('a/X.java')] })).toEqual([
      'diff --git a/B.java b/B.java',
      '+b',
      'diff --git a/a/X.java b/a/X.java',
      '+b',
      'diff --git a/a/Y.java b/a/Y.java',
      '+b',
      'diff --git a/b/Z.java b/b/Z.java',
      '+b',
    ]);
    expect(headers({ files: [file('S.java', 'first\n'), file('S.java', 'second\n')] })).toEqual([
      'diff --git a/S.java b/S.java',
      '+first',
      'diff --git a/S.java b/S.java',
      '+second',
    ]);
  });
});

describe('toUnifiedDiffBytes: each file in its own encoding', () => {
  it('writes a latin1 file as latin1 bytes and a UTF-8 file as UTF-8, in path order', () => {
    const cs: ChangeSet = {
      files: [
        { path: 'b.txt', before: 'caf\u00e9\n', after: 'th\u00e9\n' },
        { path: 'a.properties', before: 'x=\u00e9\n', after: 'x=\u00e8\n', encoding: 'latin1' },
      ],
    };
    const bytes = toUnifiedDiffBytes(cs);
    const text = toUnifiedDiff(cs);
    const [latin, utf] = text.split(/(?=diff --git a\/b\.txt)/);
    expect(bytes.equals(Buffer.concat([Buffer.from(latin!, 'latin1'), Buffer.from(utf!, 'utf8')]))).toBe(true);
    expect(bytes.includes(Buffer.from([0x2d, 0x78, 0x3d, 0xe9]))).toBe(true); // "-x=é" as one latin1 byte
    expect(bytes.includes(Buffer.from('th\u00e9', 'utf8'))).toBe(true);
  });
});
