import { execa } from 'execa';
import { existsSync } from 'node:fs';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveCleanupPaths } from '../../src/workspace/cleanup.js';
import { applyChangeSet } from '../../src/patch/index.js';
import { createWorkspace, WorkspaceError } from '../../src/workspace/workspace.js';
import { build } from 'esbuild';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The child runs the workspace module built from src/ here (esbuild, dependencies left to
// node_modules), so this test needs no prior `npm run build` and tests the code in src/.
const distWorkspace = path.join(repoRoot, 'node_modules', '.cache', 'mvnx-test', `workspace-${process.pid}.mjs`);

let scratch: string;
let project: string;

async function put(rel: string, content = rel, mode?: number) {
  const file = path.join(project, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  if (mode !== undefined) await chmod(file, mode);
}

beforeAll(async () => {
  await build({
    entryPoints: [path.join(repoRoot, 'src/workspace/workspace.ts')],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    outfile: distWorkspace,
    logLevel: 'silent',
  });
  scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-ws-test-'));
  project = path.join(scratch, 'shop');
  await put('pom.xml', '<project/>');
  await put('mvnw', '#!/bin/sh\necho wrapper\n', 0o755);
  await put('src/main/java/com/acme/target/Aim.java', 'package com.acme.target;');
  await put('docs/target/notes.md');
  await put('target/classes/Old.class');
  await put('core/pom.xml', '<project/>');
  await put('core/src/main/java/Core.java', 'class Core {}');
  await put('core/target/stale.jar');
  await put('.mvnx/runs/latest', 'r1');
  await put('.git/HEAD', 'ref: refs/heads/main');
  await put('node_modules/left-pad/index.js');
  await put('.mvn/maven.config', '-B');
  await symlink('pom.xml', path.join(project, 'pom-link.xml'));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
  await rm(distWorkspace, { force: true });
});

describe('createWorkspace', () => {
  it('copies the project without build output, run records, .git and node_modules', async () => {
    const ws = await createWorkspace(project);
    try {
      const has = (rel: string) => existsSync(path.join(ws.root, rel));
      expect(path.basename(path.dirname(ws.root))).toMatch(/^mvnx-ws-/);
      expect(path.dirname(path.dirname(ws.root))).toBe(path.resolve(os.tmpdir()));
      for (const kept of [
        'pom.xml',
        'mvnw',
        'core/src/main/java/Core.java',
        '.mvn/maven.config',
        'src/main/java/com/acme/target/Aim.java',
        'docs/target/notes.md',
      ]) {
        expect(has(kept), kept).toBe(true);
      }
      for (const dropped of ['target', 'core/target', '.mvnx', '.git', 'node_modules'])
        expect(has(dropped), dropped).toBe(false);
      expect(await readFile(path.join(ws.root, 'core/src/main/java/Core.java'), 'utf8')).toBe('class Core {}');
    } finally {
      await ws.dispose();
    }
  });

  it('keeps file modes and keeps relative symlinks pointing inside the copy', async () => {
    const ws = await createWorkspace(project);
    try {
      expect((await stat(path.join(ws.root, 'mvnw'))).mode & 0o777).toBe(0o755);
      expect((await stat(path.join(ws.root, 'pom.xml'))).mode & 0o111).toBe(0);
      expect(await readlink(path.join(ws.root, 'pom-link.xml'))).toBe('pom.xml');
      await execa(path.join(ws.root, 'mvnw'));
    } finally {
      await ws.dispose();
    }
  });

  it('rewrites links that would reach back into the project so they lead into the copy, and a candidate never writes the real file', async () => {
    const tree = path.join(scratch, 'linked');
    const real = path.join(tree, 'src/main/java/com/acme/Real.java');
    await mkdir(path.dirname(real), { recursive: true });
    await writeFile(real, 'class Real {}');
    await writeFile(path.join(scratch, 'outside.txt'), 'outside');
    await symlink(path.join(tree, 'src/main/java'), path.join(tree, 'lib')); // absolute, inside
    await symlink('../../linked/src/main/java/com', path.join(tree, 'src/climb')); // out and back in
    await symlink('main/java/com/acme/Real.java', path.join(tree, 'src/alias.java')); // relative, inside
    await symlink(path.join(scratch, 'outside.txt'), path.join(tree, 'outside.txt')); // leads outside
    const ws = await createWorkspace(tree);
    try {
      expect(await readlink(path.join(ws.root, 'lib'))).toBe('src/main/java');
      expect(await readlink(path.join(ws.root, 'src/climb'))).toBe('main/java/com');
      expect(await readlink(path.join(ws.root, 'src/alias.java'))).toBe('main/java/com/acme/Real.java');
      expect(await readlink(path.join(ws.root, 'outside.txt'))).toBe(path.join(scratch, 'outside.txt'));

      // A candidate patch written through the old absolute link is refused in the copy...
      const through = applyChangeSet(ws.root, {
        files: [{ path: 'lib/com/acme/Real.java', before: 'class Real {}', after: 'class Real { int pwned; }' }],
      });
      await expect(through).rejects.toMatchObject({ code: 'unsafe-path' });
      // ...and whatever writes through the links in the copy (Maven, a plugin) writes the copy.
      await writeFile(path.join(ws.root, 'lib/com/acme/Real.java'), 'class Real { int a; }');
      await writeFile(path.join(ws.root, 'src/climb/acme/Real.java'), 'class Real { int b; }');
      await applyChangeSet(ws.root, {
        files: [
          { path: 'src/main/java/com/acme/Real.java', before: 'class Real { int b; }', after: 'class Real { int c; }' },
        ],
      });
      expect(await readFile(path.join(ws.root, 'src/main/java/com/acme/Real.java'), 'utf8')).toBe(
        'class Real { int c; }',
      );
      expect(await readFile(real, 'utf8')).toBe('class Real {}');

      // Reset restores the rewritten links too.
      await rm(path.join(ws.root, 'lib'));
      await ws.reset();
      expect(await readlink(path.join(ws.root, 'lib'))).toBe('src/main/java');
      expect(await readFile(path.join(ws.root, 'src/main/java/com/acme/Real.java'), 'utf8')).toBe('class Real {}');
    } finally {
      await ws.dispose();
    }
  });

  it('copies .git when asked', async () => {
    const ws = await createWorkspace(project, { includeGit: true });
    try {
      expect(await readFile(path.join(ws.root, '.git/HEAD'), 'utf8')).toBe('ref: refs/heads/main');
    } finally {
      await ws.dispose();
    }
  });

  it('is a copy: writing in the workspace leaves the project alone (no hard links)', async () => {
    const ws = await createWorkspace(project);
    try {
      await writeFile(path.join(ws.root, 'core/src/main/java/Core.java'), 'class Core { int x; }');
      expect(await readFile(path.join(project, 'core/src/main/java/Core.java'), 'utf8')).toBe('class Core {}');
      expect((await lstat(path.join(project, 'core/src/main/java/Core.java'))).nlink).toBe(1);
    } finally {
      await ws.dispose();
    }
  });

  it('honours baseDir and keeps logs beside, not inside, the copy', async () => {
    const baseDir = path.join(scratch, 'spaces');
    const ws = await createWorkspace(project, { baseDir });
    try {
      expect(ws.root.startsWith(`${baseDir}${path.sep}mvnx-ws-`)).toBe(true);
      expect(path.relative(ws.root, ws.scratchDir).startsWith('..')).toBe(true);
      expect(existsSync(ws.scratchDir)).toBe(true);
      expect(ws.source).toBe(project);
    } finally {
      await ws.dispose();
    }
  });

  it('dispose removes everything, twice is fine, and the exit sweep forgets it', async () => {
    const ws = await createWorkspace(project);
    const container = path.dirname(ws.root);
    expect(liveCleanupPaths()).toContain(container);
    await ws.dispose();
    await ws.dispose();
    expect(existsSync(container)).toBe(false);
    expect(liveCleanupPaths()).not.toContain(container);
    await expect(ws.reset()).rejects.toThrow(/was disposed/);
  });

  it('reset restores edited, replaced and deleted files and removes added ones', async () => {
    const ws = await createWorkspace(project);
    try {
      const untouched = path.join(ws.root, '.mvn/maven.config');
      const inodeBefore = (await stat(untouched)).ino;
      await writeFile(path.join(ws.root, 'pom.xml'), '<project>edited</project>');
      await writeFile(path.join(ws.root, 'core/src/main/java/Core.java.tmp'), 'class Core { patched }');
      await rename(
        path.join(ws.root, 'core/src/main/java/Core.java.tmp'),
        path.join(ws.root, 'core/src/main/java/Core.java'),
      );
      await rm(path.join(ws.root, 'src'), { recursive: true });
      await chmod(path.join(ws.root, 'mvnw'), 0o644);
      await mkdir(path.join(ws.root, 'core/target/classes'), { recursive: true });
      await writeFile(path.join(ws.root, 'core/target/classes/Core.class'), 'x');
      await writeFile(path.join(ws.root, 'New.java'), 'class New {}');

      await ws.reset();

      expect(await readFile(path.join(ws.root, 'pom.xml'), 'utf8')).toBe('<project/>');
      expect(await readFile(path.join(ws.root, 'core/src/main/java/Core.java'), 'utf8')).toBe('class Core {}');
      expect(await readFile(path.join(ws.root, 'src/main/java/com/acme/target/Aim.java'), 'utf8')).toBe(
        'package com.acme.target;',
      );
      expect((await stat(path.join(ws.root, 'mvnw'))).mode & 0o777).toBe(0o755);
      expect(existsSync(path.join(ws.root, 'core/target'))).toBe(false);
      expect(existsSync(path.join(ws.root, 'New.java'))).toBe(false);
      // An untouched file is not copied again: reset costs what was changed, not the project.
      expect((await stat(untouched)).ino).toBe(inodeBefore);

      await writeFile(path.join(ws.root, 'pom.xml'), 'second edit');
      await ws.reset();
      expect(await readFile(path.join(ws.root, 'pom.xml'), 'utf8')).toBe('<project/>');
    } finally {
      await ws.dispose();
    }
  });

  it.each([
    ['', /needs the project folder/],
    ['/no/such/project', /\/no\/such\/project does not exist/],
  ])('bad project %j is a clear error', async (root, message) => {
    await expect(createWorkspace(root)).rejects.toThrow(message);
    await expect(createWorkspace(root)).rejects.toThrow(WorkspaceError);
  });

  it('a file instead of a folder, or a baseDir inside the project, is a clear error', async () => {
    await expect(createWorkspace(path.join(project, 'pom.xml'))).rejects.toThrow(/is not a folder/);
    await expect(createWorkspace(project, { baseDir: path.join(project, 'tmp') })).rejects.toThrow(
      /must not be inside the project/,
    );
  });
});

/** A separate node process that makes a workspace with the built package and then misbehaves. */
async function childWithWorkspace(behaviour: 'wait' | 'throw' | 'wait-with-own-handler') {
  expect(existsSync(distWorkspace), `${distWorkspace} was not built`).toBe(true);
  const script = `
    const { createWorkspace } = await import(${JSON.stringify(distWorkspace)});
    const ws = await createWorkspace(${JSON.stringify(project)});
    if (${JSON.stringify(behaviour)} === 'wait-with-own-handler') {
      process.on('SIGINT', () => setTimeout(() => process.exit(130), 50));
    }
    process.stdout.write(ws.root + '\\n');
    if (${JSON.stringify(behaviour)} === 'throw') setTimeout(() => { throw new Error('boom'); }, 10);
    else setInterval(() => {}, 1000);
  `;
  const child = execa(process.execPath, ['--input-type=module', '-e', script], {
    reject: false,
    buffer: { stdout: false },
  });
  const root = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', () => reject(new Error(`child exited before creating a workspace: ${out}`)));
  });
  return { child, root };
}

describe('the exit sweep (a real child process)', () => {
  it('Ctrl-C (SIGINT) removes the workspace and the process still dies by SIGINT', async () => {
    const { child, root } = await childWithWorkspace('wait');
    expect(existsSync(root)).toBe(true);
    child.kill('SIGINT');
    const result = await child;
    expect(result.signal).toBe('SIGINT');
    expect(existsSync(path.dirname(root))).toBe(false);
  });

  it('SIGTERM removes the workspace', async () => {
    const { child, root } = await childWithWorkspace('wait');
    child.kill('SIGTERM');
    const result = await child;
    expect(result.signal).toBe('SIGTERM');
    expect(existsSync(path.dirname(root))).toBe(false);
  });

  it('an uncaught exception removes the workspace', async () => {
    const { child, root } = await childWithWorkspace('throw');
    const result = await child;
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('boom');
    expect(existsSync(path.dirname(root))).toBe(false);
  });

  it('when the program handles SIGINT itself, the workspace goes when it exits', async () => {
    const { child, root } = await childWithWorkspace('wait-with-own-handler');
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(existsSync(path.dirname(root))).toBe(false);
  });
});
