import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { checkPathOnDisk, checkPathsOnDisk } from '../../src/patch/index.js';
import { removeDir, tempDir } from './patch-support.js';

// validate/disk-paths.ts on real trees: what each kind of thing on the way is called, and
// which declared modes are compared with the disk.

const dirs: string[] = [];
const servers: Server[] = [];
function scratch(): string {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
  for (const dir of dirs.splice(0)) removeDir(dir);
});
function write(root: string, path: string, content = 'x\n'): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
}

describe('checkPathOnDisk', () => {
  it('accepts a regular file and a path that does not exist yet', async () => {
    const root = scratch();
    write(root, 'src/A.java');
    expect(await checkPathOnDisk(root, 'src/A.java')).toBeUndefined();
    expect(await checkPathOnDisk(root, 'src/new/B.java')).toBeUndefined();
  });

  it('calls a folder a folder and a FIFO a FIFO', async () => {
    const root = scratch();
    mkdirSync(join(root, 'src/A.java'), { recursive: true });
    expect(await checkPathOnDisk(root, 'src/A.java')).toEqual({
      code: 'not-a-file',
      file: 'src/A.java',
      message: 'src/A.java is a folder, not a regular file; patches only write regular files.',
    });
    execFileSync('mkfifo', [join(root, 'pipe')]);
    expect((await checkPathOnDisk(root, 'pipe'))?.message).toBe(
      'pipe is a FIFO (named pipe), not a regular file; patches only write regular files.',
    );
  });

  it('calls a socket a socket', async () => {
    const root = scratch();
    const server = createServer();
    servers.push(server);
    await new Promise<void>((done) => server.listen(join(root, 'app.sock'), done));
    expect((await checkPathOnDisk(root, 'app.sock'))?.message).toBe(
      'app.sock is a socket, not a regular file; patches only write regular files.',
    );
  });

  // mknod needs root (CAP_MKNOD); where it is refused, the device case cannot be built.
  const canMakeDevices = (() => {
    const dir = tempDir();
    try {
      execFileSync('mknod', [join(dir, 'null'), 'c', '1', '3'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    } finally {
      removeDir(dir);
    }
  })();

  it.runIf(canMakeDevices)('calls a character device a device file', async () => {
    const root = scratch();
    execFileSync('mknod', [join(root, 'null'), 'c', '1', '3']);
    expect((await checkPathOnDisk(root, 'null'))?.message).toBe(
      'null is a device file, not a regular file; patches only write regular files.',
    );
  });

  it('reports a path the file system refuses to look up as an io-error with its code', async () => {
    const root = scratch();
    expect(await checkPathOnDisk(root, 'a\u0000b')).toEqual({
      code: 'io-error',
      file: 'a\u0000b',
      message: 'a\u0000b: cannot check a\u0000b (ERR_INVALID_ARG_VALUE).',
    });
  });

  it('refuses a file on the way where a folder is needed, naming it', async () => {
    const root = scratch();
    write(root, 'src/main');
    expect(await checkPathOnDisk(root, 'src/main/java/A.java')).toEqual({
      code: 'not-a-folder',
      file: 'src/main/java/A.java',
      message: 'src/main/java/A.java: src/main is a file, not a folder, so nothing can be written beneath it.',
    });
  });

  it('refuses a name too long for the file system as path-too-long, not as an exception', async () => {
    const root = scratch();
    mkdirSync(join(root, 'src'));
    const path = `src/${'n'.repeat(300)}.java`;
    expect(await checkPathOnDisk(root, path)).toEqual({
      code: 'path-too-long',
      file: path,
      message: `${path} is too long for the file system.`,
    });
  });

  it('names the target of a link that stays inside, the project itself as "."', async () => {
    const root = scratch();
    write(root, 'real/A.java');
    symlinkSync(join(root, 'real/A.java'), join(root, 'link.java'));
    symlinkSync(root, join(root, 'self'));
    expect((await checkPathOnDisk(root, 'link.java'))?.message).toBe(
      'link.java is a symbolic link (to real/A.java); patches never edit, replace or remove a link.',
    );
    expect((await checkPathOnDisk(root, 'self/real/A.java'))?.message).toBe(
      'self/real/A.java is beyond a symbolic link: self links to .; write the real path, or nothing.',
    );
  });

  it('judges a dangling link by its text: inside is a link, outside is an escape shown with its absolute target', async () => {
    const root = scratch();
    const outside = scratch();
    symlinkSync('missing/B.java', join(root, 'inside.java'));
    symlinkSync(join(outside, 'gone.java'), join(root, 'outside.java'));
    expect((await checkPathOnDisk(root, 'inside.java'))?.message).toBe(
      'inside.java is a symbolic link (to missing/B.java); patches never edit, replace or remove a link.',
    );
    expect(await checkPathOnDisk(root, 'outside.java')).toEqual({
      code: 'symlink-escape',
      file: 'outside.java',
      message: `outside.java: outside.java is a symbolic link to ${join(outside, 'gone.java')}, outside the project.`,
    });
  });

  it("refuses a link to the project folder's parent as an escape", async () => {
    const parent = scratch();
    const root = join(parent, 'project');
    mkdirSync(root);
    symlinkSync(parent, join(root, 'up'));
    expect((await checkPathOnDisk(root, 'up/x.java'))?.code).toBe('symlink-escape');
    symlinkSync(`${root}-sibling`, join(root, 'sibling'));
    expect((await checkPathOnDisk(root, 'sibling/x.java'))?.code).toBe('symlink-escape');
  });

  it('refuses a new name that differs from an existing sibling only in case, and accepts the same name', async () => {
    const root = scratch();
    write(root, 'src/Main.java');
    expect(await checkPathOnDisk(root, 'src/MAIN.java')).toEqual({
      code: 'path-alias',
      file: 'src/MAIN.java',
      message:
        'src/MAIN.java: "MAIN.java" differs from the existing "src/Main.java" only in case or Unicode form; on macOS and Windows it is that file.',
    });
    expect(await checkPathOnDisk(root, 'src/Main.java')).toBeUndefined();
    expect(await checkPathOnDisk(root, 'src/Other.java')).toBeUndefined();
  });
});

describe('checkPathsOnDisk', () => {
  it('reports a project folder that cannot be read as an io-error with the reason', async () => {
    const missing = join(scratch(), 'nowhere');
    expect(await checkPathsOnDisk(missing, { files: [{ path: 'A.java', before: 'a\n', after: 'b\n' }] })).toEqual([
      { code: 'io-error', message: `The project folder ${missing} cannot be read (ENOENT).` },
    ]);
  });

  it("compares a declared old mode with the disk: git's 100644 for a plain file, 100755 when the owner may execute it", async () => {
    const root = scratch();
    write(root, 'plain.sh');
    write(root, 'exec.sh');
    chmodSync(join(root, 'plain.sh'), 0o654); // group and others may execute: still 100644 for git
    chmodSync(join(root, 'exec.sh'), 0o744);
    const check = (path: string, oldMode: string) =>
      checkPathsOnDisk(root, { files: [{ path, before: 'x\n', after: 'y\n', oldMode }] });
    expect(await check('plain.sh', '100644')).toEqual([]);
    expect(await check('exec.sh', '100755')).toEqual([]);
    expect((await check('plain.sh', '100755')).map((p) => p.message)).toEqual([
      'plain.sh has mode 100644 on disk, but the patch says its old mode is 100755; the patch was not made against this file.',
    ]);
    expect((await check('exec.sh', '100644')).map((p) => p.code)).toEqual(['mode-mismatch']);
  });

  it('reads the mode of a rename from its source, and skips the mode of a created or refused file', async () => {
    const root = scratch();
    write(root, 'old.sh');
    chmodSync(join(root, 'old.sh'), 0o755);
    mkdirSync(join(root, 'dir.sh'));
    expect(
      await checkPathsOnDisk(root, {
        files: [{ path: 'new.sh', oldPath: 'old.sh', before: 'x\n', after: 'x\n', oldMode: '100755' }],
      }),
    ).toEqual([]);
    expect(
      (
        await checkPathsOnDisk(root, {
          files: [{ path: 'new.sh', oldPath: 'old.sh', before: 'x\n', after: 'x\n', oldMode: '100644' }],
        })
      ).map((p) => [p.code, p.file]),
    ).toEqual([['mode-mismatch', 'old.sh']]);
    expect(
      await checkPathsOnDisk(root, { files: [{ path: 'old.sh', before: null, after: 'x\n', oldMode: '100644' }] }),
    ).toEqual([]);
    expect(
      (
        await checkPathsOnDisk(root, { files: [{ path: 'dir.sh', before: 'x\n', after: 'y\n', oldMode: '100644' }] })
      ).map((p) => p.code),
    ).toEqual(['not-a-file']);
  });

  it('does not compare the mode of a file refused on the way, or of one that is not there', async () => {
    const root = scratch();
    write(root, 'run.sh');
    chmodSync(join(root, 'run.sh'), 0o755);
    symlinkSync(join(root, 'run.sh'), join(root, 'link.sh'));
    expect(
      (
        await checkPathsOnDisk(root, {
          files: [{ path: 'link.sh', oldPath: 'run.sh', before: 'x\n', after: 'x\n', oldMode: '100644' }],
        })
      ).map((p) => p.code),
    ).toEqual(['symlink-file']);
    expect(
      await checkPathsOnDisk(root, { files: [{ path: 'gone.sh', before: 'x\n', after: 'y\n', oldMode: '100644' }] }),
    ).toEqual([]);
  });

  it('checks both names of a rename and reports each refusal', async () => {
    const root = scratch();
    write(root, 'a');
    expect(
      (
        await checkPathsOnDisk(root, {
          files: [{ path: 'a/y.java', oldPath: 'a/x.java', before: 'x\n', after: 'x\n' }],
        })
      ).map((p) => p.file),
    ).toEqual(['a/x.java', 'a/y.java']);
  });
});
