import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import {
  applyChangeSet,
  changeSetFromModelText,
  checkPathsOnDisk,
  DEFAULT_PATCH_POLICY,
  PatchApplyError,
  type ChangeSet,
} from '../../src/patch/index.js';
import { fileMode, removeDir, snapshotTree, tempDir } from './patch-support.js';

const dirs: string[] = [];
function scratch(): string {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function write(root: string, path: string, content: string | Buffer): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
}

async function applyError(promise: Promise<unknown>): Promise<PatchApplyError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PatchApplyError) return error;
    throw error;
  }
  throw new Error('expected a PatchApplyError');
}

describe('applyChangeSet', () => {
  it('writes edits, creations, deletions and renames, and rollback restores the tree', async () => {
    const root = scratch();
    write(root, 'a.txt', 'one\n');
    write(root, 'gone.txt', 'bye\n');
    write(root, 'old/name.txt', 'moved\n');
    const original = snapshotTree(root);
    const cs: ChangeSet = {
      files: [
        { path: 'a.txt', before: 'one\n', after: 'two\n' },
        { path: 'gone.txt', before: 'bye\n', after: null },
        { path: 'deep/new/file.txt', before: null, after: 'fresh\n' },
        { path: 'new/name.txt', oldPath: 'old/name.txt', before: 'moved\n', after: 'moved!\n' },
      ],
    };
    const { rollback } = await applyChangeSet(root, cs);
    expect(Object.fromEntries([...snapshotTree(root)].map(([k, v]) => [k, v.toString()]))).toEqual({
      'a.txt': 'two\n',
      'deep/new/file.txt': 'fresh\n',
      'new/name.txt': 'moved!\n',
    });
    await rollback();
    expect(snapshotTree(root)).toEqual(original);
    expect(existsSync(join(root, 'deep'))).toBe(false);
  });

  it('refuses a stale tree with code stale-file and writes nothing', async () => {
    const root = scratch();
    write(root, 'a.txt', 'one\n');
    write(root, 'b.txt', 'changed by someone\n');
    const before = snapshotTree(root);
    const error = await applyError(
      applyChangeSet(root, {
        files: [
          { path: 'a.txt', before: 'one\n', after: 'two\n' },
          { path: 'b.txt', before: 'original\n', after: 'patched\n' },
        ],
      }),
    );
    expect(error.code).toBe('stale-file');
    expect(error.file).toBe('b.txt');
    expect(snapshotTree(root)).toEqual(before);
  });

  it('refuses to create a file that appeared meanwhile, unless nothing is expected', async () => {
    const root = scratch();
    write(root, 'x.txt', 'there\n');
    expect(
      (await applyError(applyChangeSet(root, { files: [{ path: 'x.txt', before: null, after: 'new\n' }] }))).code,
    ).toBe('stale-file');
    write(root, 'y.txt', 'drifted\n');
    await applyChangeSet(
      root,
      { files: [{ path: 'y.txt', before: 'old\n', after: 'new\n' }] },
      { expectBefore: false },
    );
    expect(readFileSync(join(root, 'y.txt'), 'utf8')).toBe('new\n');
  });

  it('rolls back the files already written when a later write fails', async () => {
    const root = scratch();
    write(root, 'a.txt', 'one\n');
    const before = snapshotTree(root);
    // Each change is fine on its own; the third cannot be written once the second made `blocker` a file.
    const error = await applyError(
      applyChangeSet(root, {
        files: [
          { path: 'a.txt', before: 'one\n', after: 'two\n' },
          { path: 'blocker', before: null, after: 'a file where a folder is needed\n' },
          { path: 'blocker/child.txt', before: null, after: 'x\n' },
        ],
      }),
    );
    expect(error.code).toBe('write-failed');
    expect(snapshotTree(root)).toEqual(before);
  });

  it('refuses to write through a symlinked folder, to replace a symlink, or to read a FIFO', async () => {
    const root = scratch();
    const elsewhere = scratch();
    write(elsewhere, 'Real.java', 'class Real {}\n');
    write(root, 'src/A.java', 'class A {}\n');
    symlinkSync(elsewhere, join(root, 'linked'));
    symlinkSync('A.java', join(root, 'src/Alias.java'));
    execFileSync('mkfifo', [join(root, 'src/pipe')]);
    const through = await applyError(
      applyChangeSet(root, { files: [{ path: 'linked/Real.java', before: 'class Real {}\n', after: 'pwned\n' }] }),
    );
    expect([through.code, through.message]).toEqual([
      'unsafe-path',
      'linked/Real.java is beyond a symbolic link (linked); refusing to write through it.',
    ]);
    const link = await applyError(
      applyChangeSet(root, { files: [{ path: 'src/Alias.java', before: 'class A {}\n', after: 'class B {}\n' }] }),
    );
    expect([link.code, link.message]).toEqual([
      'unsafe-path',
      'src/Alias.java is a symbolic link; a patch only writes regular files.',
    ]);
    const fifo = await applyError(applyChangeSet(root, { files: [{ path: 'src/pipe', before: '', after: 'x\n' }] }));
    expect(fifo.code).toBe('unsafe-path');
    expect(readFileSync(join(elsewhere, 'Real.java'), 'utf8')).toBe('class Real {}\n');
    expect(lstatSync(join(root, 'src/Alias.java')).isSymbolicLink()).toBe(true);
  });

  it('applies a rename chain (A->B, C->A) without losing either file', async () => {
    const root = scratch();
    write(root, 'A', 'a\n');
    write(root, 'C', 'c\n');
    await applyChangeSet(root, {
      files: [
        { path: 'B', oldPath: 'A', before: 'a\n', after: 'a!\n' },
        { path: 'A', oldPath: 'C', before: 'c\n', after: 'c!\n' },
      ],
    });
    expect(Object.fromEntries([...snapshotTree(root)].map(([k, v]) => [k, v.toString()]))).toEqual({
      A: 'c!\n',
      B: 'a!\n',
    });
  });

  it('never writes through a hard link into the original tree', async () => {
    const original = scratch();
    const workspace = scratch();
    write(original, 'src/A.java', 'class A {}\n');
    mkdirSync(join(workspace, 'src'));
    linkSync(join(original, 'src/A.java'), join(workspace, 'src/A.java'));
    await applyChangeSet(workspace, {
      files: [{ path: 'src/A.java', before: 'class A {}\n', after: 'class A { int x; }\n' }],
    });
    expect(readFileSync(join(workspace, 'src/A.java'), 'utf8')).toBe('class A { int x; }\n');
    expect(readFileSync(join(original, 'src/A.java'), 'utf8')).toBe('class A {}\n');
  });

  it('keeps the file mode, and applies an explicit new mode', async () => {
    const root = scratch();
    write(root, 'run.sh', 'echo hi\n');
    chmodSync(join(root, 'run.sh'), 0o750);
    write(root, 'plain.txt', 'x\n');
    chmodSync(join(root, 'plain.txt'), 0o644);
    const { rollback } = await applyChangeSet(root, {
      files: [
        { path: 'run.sh', before: 'echo hi\n', after: 'echo bye\n' },
        { path: 'plain.txt', before: 'x\n', after: 'y\n', oldMode: '100644', newMode: '100755' },
      ],
    });
    expect(fileMode(join(root, 'run.sh'))).toBe(0o750);
    expect(fileMode(join(root, 'plain.txt'))).toBe(0o755);
    await rollback();
    expect(fileMode(join(root, 'plain.txt'))).toBe(0o644);
  });

  it('keeps latin1 bytes when the file was read as latin1', async () => {
    const root = scratch();
    write(root, 'm.properties', Buffer.from('a=Gr\u00fc\u00df\n', 'latin1'));
    await applyChangeSet(root, {
      files: [{ path: 'm.properties', before: 'a=Gr\u00fc\u00df\n', after: 'a=Gr\u00fc\u00df!\n', encoding: 'latin1' }],
    });
    expect(readFileSync(join(root, 'm.properties'))).toEqual(Buffer.from('a=Gr\u00fc\u00df!\n', 'latin1'));
  });

  it('refuses binary changes, which carry no content', async () => {
    const root = scratch();
    write(root, 'logo.png', 'x');
    expect(
      (await applyError(applyChangeSet(root, { files: [{ path: 'logo.png', before: 'x', after: 'x', binary: true }] })))
        .code,
    ).toBe('binary-unsupported');
  });
});

describe('checkPathsOnDisk', () => {
  it('refuses a symlinked folder that leads outside the root', async () => {
    const root = scratch();
    const outside = scratch();
    write(outside, 'Secret.java', 'class Secret {}\n');
    mkdirSync(join(root, 'src/main'), { recursive: true });
    symlinkSync(outside, join(root, 'src/main/java'));
    const problems = await checkPathsOnDisk(root, {
      files: [{ path: 'src/main/java/Secret.java', before: 'class Secret {}\n', after: 'pwned\n' }],
    });
    expect(problems.map((p) => p.code)).toEqual(['symlink-escape']);
    expect(problems[0]?.message).toContain('src/main/java');
  });

  it('refuses a symlinked file pointing outside, and a dangling symlink', async () => {
    const root = scratch();
    const outside = scratch();
    write(outside, 'target.txt', 'x\n');
    symlinkSync(join(outside, 'target.txt'), join(root, 'link.txt'));
    symlinkSync(join(root, 'nowhere'), join(root, 'dangling.txt'));
    const problems = await checkPathsOnDisk(root, {
      files: [
        { path: 'link.txt', before: 'x\n', after: 'y\n' },
        { path: 'dangling.txt', before: null, after: 'y\n' },
      ],
    });
    expect(problems.map((p) => [p.code, p.file])).toEqual([
      ['symlink-escape', 'link.txt'],
      ['symlink-file', 'dangling.txt'],
    ]);
  });

  it('refuses writing beyond a symlink even when it stays inside, as git does, and accepts paths that do not exist yet', async () => {
    const root = scratch();
    write(root, 'real/A.java', 'a\n');
    symlinkSync(join(root, 'real'), join(root, 'alias'));
    const problems = await checkPathsOnDisk(root, {
      files: [
        { path: 'alias/A.java', before: 'a\n', after: 'b\n' },
        { path: 'brand/new/B.java', before: null, after: 'b\n' },
      ],
    });
    expect(problems).toEqual([
      {
        code: 'beyond-symlink',
        file: 'alias/A.java',
        message: 'alias/A.java is beyond a symbolic link: alias links to real; write the real path, or nothing.',
      },
    ]);
  });

  it("refuses a declared old mode that is not the file's, and names that alias an existing file", async () => {
    const root = scratch();
    write(root, 'run.sh', 'echo\n');
    chmodSync(join(root, 'run.sh'), 0o755);
    write(root, 'src/Main.java', 'class Main {}\n');
    const problems = await checkPathsOnDisk(root, {
      files: [
        { path: 'run.sh', before: 'echo\n', after: 'echo hi\n', oldMode: '100644' },
        { path: 'src/main.java', before: null, after: 'class main {}\n' },
      ],
    });
    expect(problems.map((p) => p.code)).toEqual(['mode-mismatch', 'path-alias']);
    expect(problems[0]?.message).toBe(
      'run.sh has mode 100755 on disk, but the patch says its old mode is 100644; the patch was not made against this file.',
    );
    expect(problems[1]?.message).toContain('"main.java" differs from the existing "src/Main.java" only in case');
  });

  it('keeps changeSetFromModelText from reading through an escaping symlink', async () => {
    const root = scratch();
    const outside = scratch();
    write(outside, 'secret.txt', 'token=abc\n');
    symlinkSync(outside, join(root, 'docs'));
    const reply = 'docs/secret.txt\n<<<<<<< SEARCH\ntoken=abc\n=======\ntoken=xyz\n>>>>>>> REPLACE\n';
    const result = await changeSetFromModelText(reply, root, {
      ...DEFAULT_PATCH_POLICY,
      allowedChanges: ['edit-other'],
    });
    expect(result.changeSet).toBeUndefined();
    expect(result.problems.map((p) => p.code)).toEqual(['symlink-escape']);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('token=abc\n');
  });
});
