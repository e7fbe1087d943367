import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  applyChangeSet,
  fingerprintChangeSet,
  fingerprintProposedEdits,
  fingerprintText,
  PatchApplyError,
  type ChangeSet,
  type ProposedEdit,
} from '../../src/patch/index.js';
import { readProjectFile } from '../../src/patch/read-files.js';
import { fileMode, removeDir, snapshotTree, tempDir } from './patch-support.js';

// apply.ts, read-files.ts and fingerprint.ts: each refusal of the apply with its message,
// the rollback, strict reading, and what a fingerprint does and does not depend on.

const dirs: string[] = [];
function scratch(): string {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});
function write(root: string, path: string, content: string | Buffer = 'x\n'): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
}
async function refusal(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; file: string | undefined; name: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PatchApplyError)
      return { code: error.code, message: error.message, file: error.file, name: error.name };
    throw error;
  }
  throw new Error('expected a PatchApplyError');
}

describe('applyChangeSet: refusals before anything is written', () => {
  it('refuses a file that changed, one that is gone, and one that appeared, each with its message', async () => {
    const root = scratch();
    write(root, 'a.txt', 'now\n');
    expect(await refusal(applyChangeSet(root, { files: [{ path: 'a.txt', before: 'then\n', after: 'x\n' }] }))).toEqual(
      {
        code: 'stale-file',
        file: 'a.txt',
        name: 'PatchApplyError',
        message: 'a.txt changed since the patch was made; refusing to apply it.',
      },
    );
    expect(
      await refusal(applyChangeSet(root, { files: [{ path: 'gone.txt', before: 'then\n', after: 'x\n' }] })),
    ).toEqual({ code: 'stale-file', file: 'gone.txt', name: 'PatchApplyError', message: 'gone.txt no longer exists.' });
    expect(
      await refusal(applyChangeSet(root, { files: [{ path: 'a.txt', before: null, after: 'x\n' }] })),
    ).toMatchObject({ code: 'stale-file', file: 'a.txt', message: 'a.txt exists, but the patch creates it.' });
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('now\n');
  });

  it('refuses a rename onto an existing file, unless another change of the set empties it first', async () => {
    const root = scratch();
    write(root, 'A', 'a\n');
    write(root, 'B', 'b\n');
    expect(
      await refusal(applyChangeSet(root, { files: [{ path: 'B', oldPath: 'A', before: 'a\n', after: 'a\n' }] })),
    ).toMatchObject({
      code: 'stale-file',
      file: 'B',
      message: 'B already exists; the rename from A would overwrite it.',
    });
    await applyChangeSet(root, {
      files: [
        { path: 'B', before: 'b\n', after: null },
        { path: 'B', oldPath: 'A', before: 'a\n', after: 'a\n' },
      ],
    });
    expect(Object.fromEntries([...snapshotTree(root)].map(([k, v]) => [k, v.toString()]))).toEqual({ B: 'a\n' });
  });

  it('recreates a file another change of the set deletes first', async () => {
    const root = scratch();
    write(root, 'A', 'a\n');
    await applyChangeSet(root, {
      files: [
        { path: 'A', before: 'a\n', after: null },
        { path: 'A', before: null, after: 'new\n' },
      ],
    });
    expect(readFileSync(join(root, 'A'), 'utf8')).toBe('new\n');
  });

  it('names a folder where a file is expected, and a file on the way where a folder is', async () => {
    const root = scratch();
    mkdirSync(join(root, 'dir.txt'));
    write(root, 'file');
    expect(
      await refusal(applyChangeSet(root, { files: [{ path: 'dir.txt', before: 'x\n', after: 'y\n' }] })),
    ).toMatchObject({
      code: 'unsafe-path',
      file: 'dir.txt',
      message: 'dir.txt is a folder; a patch only writes regular files.',
    });
    expect(
      await refusal(applyChangeSet(root, { files: [{ path: 'file/a.txt', before: null, after: 'y\n' }] })),
    ).toMatchObject({ code: 'unsafe-path', file: 'file/a.txt', message: 'file/a.txt: file is not a folder.' });
    expect(
      await refusal(
        applyChangeSet(root, { files: [{ path: 'new/b.txt', oldPath: 'file/a.txt', before: 'x\n', after: 'x\n' }] }),
      ),
    ).toMatchObject({ code: 'unsafe-path', file: 'file/a.txt' });
  });

  it('checks the target side of a rename for a folder where the file goes', async () => {
    const root = scratch();
    write(root, 'a.txt');
    mkdirSync(join(root, 'b.txt'));
    expect(
      await refusal(
        applyChangeSet(root, { files: [{ path: 'b.txt', oldPath: 'a.txt', before: 'x\n', after: 'x\n' }] }),
      ),
    ).toMatchObject({
      code: 'unsafe-path',
      file: 'b.txt',
      message: 'b.txt is a folder; a patch only writes regular files.',
    });
  });

  it('refuses a binary change by name', async () => {
    expect(
      await refusal(applyChangeSet(scratch(), { files: [{ path: 'i.png', before: 'a', after: 'b', binary: true }] })),
    ).toMatchObject({
      code: 'binary-unsupported',
      file: 'i.png',
      message: 'i.png: binary patches carry no content to apply.',
    });
  });

  it('wraps an IO error of the checks as write-failed, naming the file', async () => {
    const root = join(scratch(), 'missing-root');
    writeFileSync(root, 'a file, not a folder');
    const error = await refusal(applyChangeSet(root, { files: [{ path: 'a/b.txt', before: 'x\n', after: 'y\n' }] }));
    expect(error.code).toBe('stale-file');
    const broken = await refusal(applyChangeSet('\0bad', { files: [{ path: 'a.txt', before: 'x\n', after: 'y\n' }] }));
    expect(broken.code).toBe('write-failed');
    expect(broken.file).toBe('a.txt');
    expect(broken.message).toMatch(/^Checking a\.txt before the apply failed: /);
  });
});

describe('applyChangeSet: writing and rolling back', () => {
  it("gives a new file mode 644, an explicit mode its bits, and keeps an existing file's mode", async () => {
    const root = scratch();
    write(root, 'keep.sh');
    chmodSync(join(root, 'keep.sh'), 0o710);
    await applyChangeSet(root, {
      files: [
        { path: 'new.txt', before: null, after: 'n\n' },
        { path: 'exec.sh', before: null, after: 'e\n', newMode: '100755' },
        { path: 'keep.sh', before: 'x\n', after: 'y\n' },
        { path: 'odd.txt', before: null, after: 'o\n', newMode: 'garbage' },
        { path: 'odd2.txt', before: null, after: 'o\n', newMode: 'x100755' },
        { path: 'odd3.txt', before: null, after: 'o\n', newMode: '1007550' },
      ],
    });
    const modes = ['new.txt', 'exec.sh', 'keep.sh', 'odd.txt', 'odd2.txt', 'odd3.txt'].map((path) =>
      fileMode(join(root, path)),
    );
    expect(modes).toEqual([0o644, 0o755, 0o710, 0o644, 0o644, 0o644]);
  });

  it("renames: the source goes, the target holds the new content with the source's mode", async () => {
    const root = scratch();
    write(root, 'a.sh', 'a\n');
    chmodSync(join(root, 'a.sh'), 0o755);
    await applyChangeSet(root, { files: [{ path: 'b.sh', oldPath: 'a.sh', before: 'a\n', after: 'b\n' }] });
    expect(existsSync(join(root, 'a.sh'))).toBe(false);
    expect(readFileSync(join(root, 'b.sh'), 'utf8')).toBe('b\n');
    expect(fileMode(join(root, 'b.sh'))).toBe(0o755);
  });

  it('writes with no temp file left beside the target', async () => {
    const root = scratch();
    write(root, 'src/A.java', 'a\n');
    await applyChangeSet(root, { files: [{ path: 'src/A.java', before: 'a\n', after: 'b\n' }] });
    expect(readdirSync(join(root, 'src'))).toEqual(['A.java']);
  });

  it('rolls back contents, modes, deletions and created folders, once', async () => {
    const root = scratch();
    write(root, 'a.sh', 'a\n');
    chmodSync(join(root, 'a.sh'), 0o700);
    write(root, 'gone.txt', 'g\n');
    const before = snapshotTree(root);
    const { rollback } = await applyChangeSet(root, {
      files: [
        { path: 'a.sh', before: 'a\n', after: 'A\n', newMode: '100644' },
        { path: 'gone.txt', before: 'g\n', after: null },
        { path: 'deep/er/new.txt', before: null, after: 'n\n' },
      ],
    });
    expect(existsSync(join(root, 'gone.txt'))).toBe(false);
    await rollback();
    expect(snapshotTree(root)).toEqual(before);
    expect(fileMode(join(root, 'a.sh'))).toBe(0o700);
    expect(existsSync(join(root, 'deep'))).toBe(false);
    writeFileSync(join(root, 'a.sh'), 'changed after the rollback\n');
    await rollback();
    expect(readFileSync(join(root, 'a.sh'), 'utf8')).toBe('changed after the rollback\n');
  });

  it('puts everything back and says so when a write fails midway', async () => {
    const root = scratch();
    write(root, 'a.txt', 'a\n');
    const before = snapshotTree(root);
    // Both pass the checks (nothing is on the way yet), but once "x" is a file, "x/y.txt" cannot be written.
    const error = await refusal(
      applyChangeSet(root, {
        files: [
          { path: 'a.txt', before: 'a\n', after: 'A\n' },
          { path: 'x', before: null, after: 'file\n' },
          { path: 'x/y.txt', before: null, after: 'y\n' },
        ],
      }),
    );
    expect(error.code).toBe('write-failed');
    expect(error.file).toBeUndefined();
    expect(error.message).toMatch(/^Applying the patch failed and was rolled back: E[A-Z]+: [^,]+, mkdir /);
    expect(snapshotTree(root)).toEqual(before);
  });

  it('keeps a refusal found while writing as it is, and rolls back', async () => {
    const root = scratch();
    write(root, 'a.txt', 'a\n');
    const before = snapshotTree(root);
    // "d" is absent when checked; by the time it is written, the first change made it a folder.
    const error = await refusal(
      applyChangeSet(root, {
        files: [
          { path: 'a.txt', before: 'a\n', after: 'A\n' },
          { path: 'd/e.txt', before: null, after: 'e\n' },
          { path: 'd', before: null, after: 'file\n' },
        ],
      }),
    );
    expect(error).toMatchObject({
      code: 'unsafe-path',
      file: 'd',
      message: 'd is a folder; a patch only writes regular files.',
    });
    expect(snapshotTree(root)).toEqual(before);
  });

  it("applies a rename chain listed target first (C->A before A->B) without losing A's content", async () => {
    const root = scratch();
    write(root, 'A', 'a\n');
    write(root, 'C', 'c\n');
    await applyChangeSet(root, {
      files: [
        { path: 'A', oldPath: 'C', before: 'c\n', after: 'c!\n' },
        { path: 'B', oldPath: 'A', before: 'a\n', after: 'a!\n' },
      ],
    });
    expect(Object.fromEntries([...snapshotTree(root)].map(([k, v]) => [k, v.toString()]))).toEqual({
      A: 'c!\n',
      B: 'a!\n',
    });
  });

  it('keeps a file "renamed" to its own path', async () => {
    const root = scratch();
    write(root, 'A', 'a\n');
    await applyChangeSet(root, { files: [{ path: 'A', oldPath: 'A', before: 'a\n', after: 'b\n' }] });
    expect(readFileSync(join(root, 'A'), 'utf8')).toBe('b\n');
  });

  it('calls a FIFO not a regular file', async () => {
    const root = scratch();
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [join(root, 'pipe')]);
    expect(
      await refusal(applyChangeSet(root, { files: [{ path: 'pipe', before: 'x\n', after: 'y\n' }] })),
    ).toMatchObject({ code: 'unsafe-path', message: 'pipe is not a regular file; a patch only writes regular files.' });
  });
});

describe('readProjectFile', () => {
  it('reads strict UTF-8 with its BOM, latin1 only when allowed, and a missing path as missing', async () => {
    const root = scratch();
    write(root, 'bom.txt', Buffer.from([0xef, 0xbb, 0xbf, 0x61]));
    write(root, 'latin.txt', Buffer.from([0x61, 0xe9]));
    write(root, 'file.txt');
    mkdirSync(join(root, 'dir'));
    expect(await readProjectFile(root, 'bom.txt', false)).toEqual({
      kind: 'text',
      content: '\ufeffa',
      encoding: 'utf8',
    });
    expect(await readProjectFile(root, 'latin.txt', false)).toEqual({ kind: 'non-utf8' });
    expect(await readProjectFile(root, 'latin.txt', true)).toEqual({
      kind: 'text',
      content: 'a\u00e9',
      encoding: 'latin1',
    });
    expect(await readProjectFile(root, 'nope.txt', false)).toEqual({ kind: 'missing' });
    expect(await readProjectFile(root, 'file.txt/x', false)).toEqual({ kind: 'missing' });
    expect(await readProjectFile(root, 'dir', false)).toEqual({ kind: 'missing' });
  });

  it('lets any other IO error through', async () => {
    await expect(readProjectFile('\0', 'x', false)).rejects.toThrow();
  });
});

describe('fingerprints', () => {
  const cs = (over: Partial<ChangeSet['files'][number]> = {}): ChangeSet => ({
    files: [{ path: 'A', before: 'a\n', after: 'b\n', ...over }],
  });

  it('depend on the rename source, the binary flag, a deletion and the content, not on before or oldMode', () => {
    const base = fingerprintChangeSet(cs());
    expect(fingerprintChangeSet(cs({ oldPath: 'Z' }))).not.toBe(base);
    expect(fingerprintChangeSet(cs({ binary: true }))).not.toBe(base);
    expect(fingerprintChangeSet(cs({ binary: false }))).toBe(base);
    expect(fingerprintChangeSet(cs({ after: null }))).not.toBe(base);
    expect(fingerprintChangeSet(cs({ after: '' }))).not.toBe(fingerprintChangeSet(cs({ after: null })));
    expect(fingerprintChangeSet(cs({ before: 'other\n', oldMode: '100755' }))).toBe(base);
    expect(fingerprintChangeSet(cs({ after: 'b\n\0' }))).not.toBe(base);
  });

  it('keep file boundaries: moving text from one file to the next changes the fingerprint', () => {
    const one = fingerprintChangeSet({
      files: [
        { path: 'A', before: '', after: 'ab' },
        { path: 'B', before: '', after: 'c' },
      ],
    });
    const two = fingerprintChangeSet({
      files: [
        { path: 'A', before: '', after: 'a' },
        { path: 'B', before: '', after: 'bc' },
      ],
    });
    expect(one).not.toBe(two);
    expect(fingerprintChangeSet({ files: [] })).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('of proposals: by content, modes and paths, not by context or line hints; every edit shape counts', () => {
    const unified = (
      lines: string[],
      over: Partial<Extract<ProposedEdit, { type: 'unified' }>> = {},
    ): ProposedEdit => ({ type: 'unified', oldPath: 'A', newPath: 'A', hunks: [{ oldStartHint: 1, lines }], ...over });
    const base = fingerprintProposedEdits([unified([' c', '-a', '+b'])]);
    expect(fingerprintProposedEdits([unified([' other', '-a  ', '+b\r'], {})])).toBe(base);
    expect(
      fingerprintProposedEdits([
        { type: 'unified', oldPath: 'A', newPath: 'A', hunks: [{ lines: [' c', '-a', '+b'] }] },
      ]),
    ).toBe(base);
    expect(fingerprintProposedEdits([unified([' c', '-a', '+b'], { newMode: '100755' })])).not.toBe(base);
    expect(fingerprintProposedEdits([unified([' c', '-a', '+b'], { oldPath: null })])).not.toBe(base);
    expect(fingerprintProposedEdits([unified([' c', '-a', '+b'], { newPath: null })])).not.toBe(base);
    expect(fingerprintProposedEdits([unified([' c', '+a', '-b'])])).not.toBe(base);
    expect(fingerprintProposedEdits([unified([' c', '-a', '-x', '+b'])])).not.toBe(base);
    const op = (over: Partial<Extract<ProposedEdit, { type: 'line-op' }>> = {}): ProposedEdit => ({
      type: 'line-op',
      path: 'A',
      op: 'replace',
      line: 2,
      endLine: 3,
      text: 't',
      old: 'o',
      ...over,
    });
    const opBase = fingerprintProposedEdits([op()]);
    for (const changed of [
      op({ op: 'delete' }),
      op({ line: 3 }),
      op({ endLine: 4 }),
      op({ text: 'u' }),
      op({ old: 'p' }),
      op({ path: 'B' }),
    ])
      expect(fingerprintProposedEdits([changed])).not.toBe(opBase);
    expect(fingerprintProposedEdits([op({ text: 't  \r' })])).toBe(opBase);
    expect(fingerprintProposedEdits([{ type: 'whole-file', path: 'A', content: 'x \n' }])).toBe(
      fingerprintProposedEdits([{ type: 'whole-file', path: 'A', content: 'x\n' }]),
    );
    expect(fingerprintProposedEdits([{ type: 'whole-file', path: 'A', content: 'x\n' }])).not.toBe(
      fingerprintProposedEdits([{ type: 'whole-file', path: 'B', content: 'x\n' }]),
    );
    expect(fingerprintProposedEdits([{ type: 'search-replace', path: 'A', search: 'a', replace: 'b' }])).not.toBe(
      fingerprintProposedEdits([{ type: 'search-replace', path: 'A', search: 'b', replace: 'a' }]),
    );
    expect(fingerprintProposedEdits([{ type: 'search-replace', path: 'A', search: 'a\rb', replace: '' }])).not.toBe(
      fingerprintProposedEdits([{ type: 'search-replace', path: 'A', search: 'ab', replace: '' }]),
    );
    expect(fingerprintProposedEdits([{ type: 'whole-file', path: 'A', content: 'a\nb' }])).not.toBe(
      fingerprintProposedEdits([{ type: 'whole-file', path: 'A', content: 'ab' }]),
    );
    expect(fingerprintProposedEdits([unified(['-ab'])])).not.toBe(fingerprintProposedEdits([unified(['-a', '+b'])]));
    expect(fingerprintProposedEdits([unified(['-a'], { oldPath: 'B' })])).not.toBe(
      fingerprintProposedEdits([unified(['-a'], { oldPath: 'C' })]),
    );
    expect(fingerprintProposedEdits([unified(['-a'], { newPath: 'B' })])).not.toBe(
      fingerprintProposedEdits([unified(['-a'], { newPath: 'C' })]),
    );
    expect(fingerprintProposedEdits([unified(['-a'], { newMode: '100644' })])).not.toBe(
      fingerprintProposedEdits([unified(['-a'], { newMode: '100755' })]),
    );
  });

  it('stay the same from one version to the next: they name fix branches and match records of earlier runs', () => {
    // Values computed once (mvnx 0.1.0); a change here renames every published mvnx/fix-<fingerprint> branch.
    const cs: ChangeSet = {
      files: [
        {
          path: 'src/main/java/B.java',
          oldPath: 'src/main/java/A.java',
          before: 'a\n',
          after: 'class B {}\n',
          newMode: '100755',
        },
        { path: 'README.md', before: 'x\n', after: null },
        { path: 'img/logo.png', before: 'p', after: 'q', binary: true },
      ],
    };
    expect(fingerprintChangeSet(cs)).toBe('74d5c46f90f071bff8184c49931f1050aa0a0a07212d8ecbea1f8783e07fb453');
    const proposed: ProposedEdit[] = [
      {
        type: 'unified',
        oldPath: 'src/A.java',
        newPath: 'src/A.java',
        newMode: '100755',
        hunks: [{ oldStartHint: 3, lines: [' ctx', '-old  ', '+new\r'] }],
      },
      { type: 'unified', oldPath: null, newPath: 'N.java', hunks: [{ lines: ['+n'] }] },
      { type: 'search-replace', path: 'B.java', search: 'a\nb\n', replace: 'c\n' },
      { type: 'line-op', path: 'C.java', op: 'replace', line: 2, endLine: 3, text: 't\n', old: 'o\np\n' },
      { type: 'line-op', path: 'C.java', op: 'insert', line: 9 },
      { type: 'whole-file', path: 'D.java', content: 'd\n' },
    ];
    expect(fingerprintProposedEdits(proposed)).toBe('09638fbdb9fbaa00642dfa98a9d2257edf2ecba6675566be0068aedcfacc4f6e');
    expect(fingerprintText('  The build\tfails. ')).toBe(
      'd31aa9ad09852f949951679c6822d66a8617510ba548c063a39d3b2e3878cf37',
    ); // sha-256 of "The build fails."
  });

  it('of plain text: whitespace runs and ends do not count, words do', () => {
    expect(fingerprintText('  a\t\tb\n')).toBe(fingerprintText('a b'));
    expect(fingerprintText('ab')).not.toBe(fingerprintText('a b'));
  });
});
