/**
 * A full or missing TMPDIR is mvnx's problem, never the build's: Maven runs, its exit code
 * is returned, no process outlives mvnx, and one line says what mvnx could not do (keep
 * its copy of Maven's log). The full TMPDIR is a real 2 MB tmpfs filled with dd; where
 * this user may not mount one, those cases are skipped (the missing TMPDIR still runs).
 */
import { execa } from 'execa';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, FAST_MAVEN_OPTS, repoRoot } from '../helpers/repair-project.js';

let scratch: string;
let fullTmp: string;
let mounted = false;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'mvnx-faults-tmp-'));
  fullTmp = path.join(scratch, 'full');
  await mkdir(fullTmp);
  const mount = await execa('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', fullTmp], { reject: false });
  mounted = mount.exitCode === 0;
  if (mounted)
    await execa('dd', ['if=/dev/zero', `of=${path.join(fullTmp, 'fill')}`, 'bs=64k', 'count=64'], { reject: false });
});

afterAll(async () => {
  if (mounted) await execa('umount', [fullTmp], { reject: false });
  await rm(scratch, { recursive: true, force: true });
});

/** examples/passing with a test that takes 3 s: on a crash, Maven would still be running when mvnx is gone. */
async function slowPassingProject(): Promise<string> {
  const root = path.join(await mkdtemp(path.join(scratch, 'p-')), 'passing');
  await cp(path.join(repoRoot, 'examples/passing'), root, { recursive: true });
  await writeFile(
    path.join(root, 'src/test/java/com/example/SlowTest.java'),
    'package com.example;\n\nclass SlowTest {\n    @org.junit.jupiter.api.Test\n' +
      '    void takesAWhile() throws Exception {\n        Thread.sleep(3000);\n    }\n}\n',
  );
  return root;
}

async function compileErrorProject(): Promise<string> {
  const root = path.join(await mkdtemp(path.join(scratch, 'c-')), 'compile-error');
  await cp(path.join(repoRoot, 'examples/compile-error'), root, { recursive: true });
  return root;
}

/** Processes (not this one) whose environment holds the marker: what a run left behind. */
async function processesMarked(marker: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    const environ = await readFile(`/proc/${pid}/environ`, 'latin1').catch(() => '');
    if (environ.split('\0').includes(`MVNX_FAULT_MARK=${marker}`)) found.push(pid);
  }
  return found;
}

async function mvnx(cwd: string, args: string[], tmp: string) {
  const marker = randomUUID();
  const run = await execa('node', [cliPath, ...args], {
    cwd,
    reject: false,
    stdin: 'ignore',
    env: {
      CI: 'true',
      MAVEN_OPTS: FAST_MAVEN_OPTS,
      TMPDIR: tmp,
      MVNX_FAULT_MARK: marker,
      MVNX_HOST: 'http://127.0.0.1:9',
    },
  });
  return { ...run, leftBehind: await processesMarked(marker) };
}

describe('a TMPDIR mvnx cannot write to', () => {
  it.skipIf(!process.getuid || process.getuid() !== 0)(
    'full (a filled tmpfs): a passing build with slow tests exits 0, Maven output shown, nothing left running',
    async () => {
      expect(mounted, 'mount -t tmpfs failed although running as root').toBe(true);
      const run = await mvnx(await slowPassingProject(), ['-o', '-B', 'verify'], fullTmp);
      expect(run.stderr).not.toMatch(/at .*\(.*:\d+:\d+\)|internal error/);
      expect(run.stdout).toContain('BUILD SUCCESS');
      // Maven ends with colour resets and no newline: strip them to read our lines.
      const lines = run.stderr
        .replace(/\x1b\[[0-9;]*m/g, '')
        .split('\n')
        .filter((line) => line.startsWith('mvnx'));
      expect(lines).toEqual([
        `mvnx: could not write to ${fullTmp} for its copy of Maven's log: ENOSPC (no space left on device); ` +
          'Maven ran as usual and its exit code stands',
      ]);
      expect(run.exitCode).toBe(0);
      expect(run.leftBehind).toEqual([]);
    },
  );

  it.skipIf(!process.getuid || process.getuid() !== 0)(
    "full: a failing build returns Maven's exit code, under --mvnx-no-fix and with the repair on",
    async () => {
      const root = await compileErrorProject();
      const off = await mvnx(root, ['-o', '-B', '-q', 'verify', '--mvnx-no-fix'], fullTmp);
      expect(off.stdout + off.stderr).toContain('COMPILATION ERROR');
      expect(off.stderr).toContain('ENOSPC (no space left on device)');
      expect(off.exitCode).toBe(1);
      expect(off.leftBehind).toEqual([]);

      const on = await mvnx(root, ['-o', '-B', '-q', 'verify'], fullTmp);
      expect(on.stderr).not.toContain('internal error');
      expect(on.stderr).toContain('could not write to');
      expect(on.exitCode).toBe(1);
      expect(on.leftBehind).toEqual([]);
    },
  );

  it('missing (TMPDIR=/nonexistent): Maven still runs, exit 0 for a passing build and 1 for a failing one', async () => {
    const missing = path.join(scratch, 'does-not-exist');
    const passing = await mvnx(await slowPassingProject(), ['-o', '-B', 'verify'], missing);
    expect(passing.stdout).toContain('BUILD SUCCESS');
    expect(passing.stderr).toContain(
      `mvnx: could not create a file in ${missing} for its copy of Maven's log: ENOENT (no such file or directory)`,
    );
    expect(passing.exitCode).toBe(0);
    expect(passing.leftBehind).toEqual([]);

    const failing = await mvnx(await compileErrorProject(), ['-o', '-B', '-q', 'verify'], missing);
    expect(failing.stdout + failing.stderr).toContain('COMPILATION ERROR');
    expect(failing.stderr).not.toContain('internal error');
    expect(failing.exitCode).toBe(1);
  });
});

describe('a TMPDIR that fills up during verification', () => {
  it.skipIf(!process.getuid || process.getuid() !== 0)(
    'stops the run with a reason of its own: the fix is not blamed and no other candidate is tried',
    async () => {
      // 48 KB left: the workspace copy and the run's owner markers (a 4 KB page each on tmpfs) fit, the patched
      // build's class files do not.
      const small = path.join(scratch, 'small');
      await mkdir(small);
      await execa('mount', ['-t', 'tmpfs', '-o', 'size=200k', 'tmpfs', small]);
      try {
        await execa('dd', ['if=/dev/zero', `of=${path.join(small, 'fill')}`, 'bs=1k', 'count=152']);
        const root = await compileErrorProject();
        const run = await mvnx(root, ['-o', '-B', '-q', 'verify', '--mvnx-json'], small);
        const record = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
          stopReason: string;
          message?: string;
          modelCalls?: number;
          attempts: { outcome: string; reason?: string }[];
        };
        expect(record.stopReason, run.stderr).toBe('error');
        expect(record.message).toContain('not of the fix: no space left on device');
        expect(record.attempts).toHaveLength(1);
        expect(record.attempts[0]!.reason).toMatch(
          /^environment: the build could not run here: no space left on device/,
        );
        expect(record.modelCalls ?? 0).toBe(0);
        expect(run.stderr).not.toContain('asking');
        expect(run.exitCode).toBe(1);
      } finally {
        await execa('umount', [small], { reject: false });
      }
    },
  );
});
