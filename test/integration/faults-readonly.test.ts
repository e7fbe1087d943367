/**
 * A run record that cannot be written (the project, or only its `.mvnx/`, on a read-only
 * bind mount) is mvnx's problem, not the build's: Maven's exit code, the diagnosis and the
 * verified fix on the console, and one line saying the record could not be written and why
 * (EROFS, not the ENOENT a recursive mkdir reports). Bind mounts need root: skipped otherwise.
 */
import { execa } from 'execa';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliPath, FAST_MAVEN_OPTS, repoRoot } from '../helpers/repair-project.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function readOnlyMount(folder: string): Promise<void> {
  await execa('mount', ['--bind', folder, folder]);
  cleanups.push(() => execa('umount', [folder], { reject: false }));
  await execa('mount', ['-o', 'remount,bind,ro', folder]);
}

async function compileErrorProject(): Promise<string> {
  const parent = await mkdtemp(path.join(tmpdir(), 'mvnx-readonly-'));
  cleanups.push(() => rm(parent, { recursive: true, force: true }));
  const root = path.join(parent, 'compile-error');
  await cp(path.join(repoRoot, 'examples/compile-error'), root, { recursive: true });
  return root;
}

const asRoot = process.getuid?.() === 0;

describe.skipIf(!asRoot)('a read-only record location', () => {
  it.each([
    ['only .mvnx/', '.mvnx', 'monitor'],
    ['the whole project', '.', 'assist'],
  ])(
    '%s: Maven exit code, the diagnosis and the fix on the console, one line about the record',
    async (_, what, tier) => {
      const root = await compileErrorProject();
      const folder = path.join(root, what);
      await mkdir(folder, { recursive: true });
      await readOnlyMount(folder);

      const run = await execa('node', [cliPath, '-o', '-B', '-q', 'verify', `--mvnx-tier=${tier}`], {
        cwd: root,
        reject: false,
        stdin: 'ignore',
        env: { CI: 'true', MAVEN_OPTS: FAST_MAVEN_OPTS, MVNX_HOST: 'http://127.0.0.1:9' },
      });
      expect(run.stderr).not.toContain('internal error');
      expect(run.stderr).toContain('+import java.util.List;');
      expect(run.stderr).toContain('mvnx: verified fix for src/main/java/com/example/Inventory.java');
      expect(run.stderr).toMatch(
        new RegExp(
          `mvnx: the run record could not be written to \\.mvnx/runs/[\\w-]+: EROFS \\(read-only file system\\)`,
        ),
      );
      expect(run.stderr).not.toContain('details in');
      expect(run.exitCode).toBe(1);
    },
  );
});
