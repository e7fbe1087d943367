import { execa } from 'execa';
import { access, chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/commands/hook.js';
import { MvnxError } from '../../src/shared/errors.js';
import {
  BACKUP_HOOK_NAME,
  installPrePushHook,
  locatePrePushHook,
  uninstallPrePushHook,
} from '../../src/cli/hook/install.js';
import { HUSKY_BLOCK_BEGIN, isMvnxHook } from '../../src/report/hook-script.js';

let repo: string;
const goals = ['-o', '-q', 'verify'];
const foreignHook = '#!/bin/sh\necho team hook\n';

beforeEach(async () => {
  repo = await mkdtemp(path.join(tmpdir(), 'mvnx-hook-install-'));
  await execa('git', ['init', '-q', repo]);
  await writeFile(path.join(repo, 'pom.xml'), '<project/>\n');
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(repo, { recursive: true, force: true });
});

const hooksFile = () => path.join(repo, '.git', 'hooks', 'pre-push');
const present = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );
const install = (extra: Partial<Parameters<typeof installPrePushHook>[0]> = {}) =>
  installPrePushHook({ cwd: repo, goals, force: false, mvnxScript: '/opt/mvnx/main.js', ...extra });

describe('plain hooks folder', () => {
  it('creates an executable hook, and updates it in place on a second install', async () => {
    expect((await install()).action).toBe('created');
    expect(isMvnxHook(await readFile(hooksFile(), 'utf8'))).toBe(true);
    expect((await stat(hooksFile())).mode & 0o111).not.toBe(0);
    expect((await install({ goals: ['-q', 'test'] })).action).toBe('updated');
    expect(await readFile(hooksFile(), 'utf8')).toContain('mvnx_run -q test');
    expect(await present(path.join(repo, '.git/hooks/pre-push.local'))).toBe(false);
  });

  it('chains a foreign hook instead of overwriting it, and puts it back on uninstall', async () => {
    await writeFile(hooksFile(), foreignHook, { mode: 0o755 });
    const result = await install();
    expect(result.action).toBe('chained');
    expect(result.movedTo).toBe(path.join(repo, '.git/hooks/pre-push.local'));
    expect(await readFile(result.movedTo!, 'utf8')).toBe(foreignHook);
    expect((await uninstallPrePushHook(repo)).action).toBe('restored');
    expect(await readFile(hooksFile(), 'utf8')).toBe(foreignHook);
    expect(await present(result.movedTo!)).toBe(false);
  });

  it('with --force replaces a foreign hook and keeps it, unrun, as a backup', async () => {
    await writeFile(hooksFile(), foreignHook, { mode: 0o755 });
    const result = await install({ force: true });
    expect(result.action).toBe('replaced');
    expect(await readFile(path.join(repo, '.git/hooks', BACKUP_HOOK_NAME), 'utf8')).toBe(foreignHook);
    expect(await present(path.join(repo, '.git/hooks/pre-push.local'))).toBe(false);
    expect((await uninstallPrePushHook(repo)).action).toBe('removed');
    expect(await present(hooksFile())).toBe(false);
  });

  it('refuses to chain when pre-push.local is taken', async () => {
    await writeFile(hooksFile(), foreignHook);
    await writeFile(path.join(repo, '.git/hooks/pre-push.local'), foreignHook);
    await expect(install()).rejects.toThrow(/is not mvnx's and .*pre-push\.local already exists/);
    expect(await readFile(hooksFile(), 'utf8')).toBe(foreignHook);
  });

  it('bakes the project folder relative to the top of the working tree', async () => {
    await mkdir(path.join(repo, 'service'));
    await writeFile(path.join(repo, 'service', 'pom.xml'), '<project/>\n');
    await rm(path.join(repo, 'pom.xml'));
    await install({ cwd: path.join(repo, 'service') });
    expect(await readFile(hooksFile(), 'utf8')).toContain('mvnx_dir=service\n');
  });
});

describe('core.hooksPath', () => {
  it('writes into a custom hooks folder', async () => {
    await execa('git', ['config', 'core.hooksPath', 'tools/githooks'], { cwd: repo });
    const location = await locatePrePushHook(repo);
    expect(location).toMatchObject({ kind: 'hooks-dir', file: path.join(repo, 'tools/githooks/pre-push') });
    await install();
    expect(isMvnxHook(await readFile(location.file, 'utf8'))).toBe(true);
    expect(await present(hooksFile())).toBe(false);
  });

  it('uses .husky/pre-push for husky 9 (.husky/_) and appends after the team commands', async () => {
    await execa('git', ['config', 'core.hooksPath', '.husky/_'], { cwd: repo });
    await mkdir(path.join(repo, '.husky/_'), { recursive: true });
    await writeFile(path.join(repo, '.husky/pre-push'), 'npm test\n');
    const result = await install();
    expect(result).toMatchObject({
      action: 'appended',
      location: { kind: 'husky', file: path.join(repo, '.husky/pre-push') },
    });
    const text = await readFile(path.join(repo, '.husky/pre-push'), 'utf8');
    expect(text.startsWith('npm test\n\n' + HUSKY_BLOCK_BEGIN)).toBe(true);
    expect((await install()).action).toBe('updated');
    expect((await uninstallPrePushHook(repo)).action).toBe('block-removed');
    expect(await readFile(path.join(repo, '.husky/pre-push'), 'utf8')).toBe('npm test\n');
  });

  it('creates a husky 4-8 hook that sources husky.sh, and deletes it on uninstall', async () => {
    await execa('git', ['config', 'core.hooksPath', '.husky'], { cwd: repo });
    await mkdir(path.join(repo, '.husky/_'), { recursive: true });
    await writeFile(path.join(repo, '.husky/_/husky.sh'), '# husky\n');
    expect((await install()).action).toBe('created');
    const text = await readFile(path.join(repo, '.husky/pre-push'), 'utf8');
    expect(text.startsWith('#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n')).toBe(true);
    await uninstallPrePushHook(repo);
    expect(await present(path.join(repo, '.husky/pre-push'))).toBe(false);
  });

  it('notes a .husky folder that git does not use yet', async () => {
    await mkdir(path.join(repo, '.husky'));
    expect((await locatePrePushHook(repo)).huskyNotActive).toBe(true);
  });
});

describe('mvnx hook (command)', () => {
  const io = () => ({ cwd: repo, env: {} });
  it('installs with --goals and uninstalls', async () => {
    expect(await run(['install', '--goals', '-o -q verify --mvnx-tier=off'], io())).toBe(0);
    expect(await readFile(hooksFile(), 'utf8')).toContain('mvnx_run -o -q verify --mvnx-tier=off </dev/null');
    expect(await run(['uninstall'], io())).toBe(0);
    expect(await present(hooksFile())).toBe(false);
  });

  it('reads --goals in every spelling, a value that starts with a dash included', async () => {
    for (const args of [
      ['--goals', '-o -q verify'],
      ['--goals=-o -q verify'],
      ['--force', '--goals', '-o -q verify'],
    ]) {
      expect(await run(['install', ...args], io())).toBe(0);
      expect(await readFile(hooksFile(), 'utf8')).toContain('mvnx_run -o -q verify </dev/null');
    }
    expect(await run(['install', '--goals', '-q'], io())).toBe(0);
    expect(await readFile(hooksFile(), 'utf8')).toContain('mvnx_run -q </dev/null');
  });

  const usage = 'usage: mvnx hook install [--goals "-o -q verify"] [--force] | mvnx hook uninstall';
  it.each([
    [[], `mvnx hook: say install or uninstall; ${usage}`],
    [['bogus'], `mvnx hook: unknown action "bogus"; ${usage}`],
    [
      ['install', '--goals'],
      `mvnx hook install: --goals needs the Maven arguments, e.g. --goals "-o -q verify"; ${usage}`,
    ],
    [
      ['install', '--goals', '  '],
      `mvnx hook install: --goals needs the Maven arguments, e.g. --goals "-o -q verify"; ${usage}`,
    ],
    [
      ['install', '--goals', '--force'],
      `mvnx hook install: --goals needs the Maven arguments, e.g. --goals "-o -q verify"; ${usage}`,
    ],
    [['install', '--goals', '-Dx="a'], /^mvnx hook install: --goals: unbalanced ".*; usage: mvnx hook install/],
    [['install', '--frobnicate'], `mvnx hook install: unknown argument --frobnicate; ${usage}`],
    [['install', '--force=yes'], `mvnx hook install: --force takes no value; ${usage}`],
    [['install', 'verify'], `mvnx hook install: unknown argument verify; ${usage}`],
    [['uninstall', 'now'], `mvnx hook uninstall: unknown argument now; ${usage}`],
    [['uninstall', '--force'], `mvnx hook uninstall: unknown argument --force; ${usage}`],
    [['uninstall'], /no pre-push hook at/],
  ])('refuses %j with one line and exit 2', async (args, message) => {
    const failure = run(args, io());
    await expect(failure).rejects.toBeInstanceOf(MvnxError);
    await expect(failure).rejects.toMatchObject({
      exitCode: 2,
      message: typeof message === 'string' ? message : expect.stringMatching(message),
    });
  });

  it('prints the usage for install --help without installing', async () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(await run(['install', '--help'], io())).toBe(0);
    expect(String(stdout.mock.calls[0]?.[0])).toContain(usage);
    expect(await present(hooksFile())).toBe(false);
  });

  it('refuses to uninstall a hook it did not write, and leaves it', async () => {
    await writeFile(hooksFile(), foreignHook);
    await chmod(hooksFile(), 0o755);
    await expect(run(['uninstall'], io())).rejects.toThrow(/was not written by mvnx; left as it is/);
    expect(await readFile(hooksFile(), 'utf8')).toBe(foreignHook);
  });

  it('refuses outside a git working tree', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'mvnx-no-git-'));
    await expect(run(['install'], { cwd: outside, env: {} })).rejects.toThrow(/is not inside a git working tree/);
    await rm(outside, { recursive: true, force: true });
  });
});
