/**
 * Where the pre-push hook goes and how it gets there without losing anyone's hook:
 * plain hooks folder (`.git/hooks` or `core.hooksPath`), or husky's `.husky/pre-push`.
 */
import { existsSync } from 'node:fs';
import { execa } from 'execa';
import { chmod, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { findProjectRoot } from '../../maven/project.js';
import {
  CHAINED_HOOK_NAME,
  hasHuskyBlock,
  isMvnxHook,
  isOnlyHuskyBoilerplate,
  removeHuskyBlock,
  renderPrePushHook,
  withHuskyBlock,
  type HookScriptOptions,
} from '../../report/hook-script.js';
import { MvnxError } from '../../shared/errors.js';

export const BACKUP_HOOK_NAME = 'pre-push.mvnx-backup';

export interface HookLocation {
  /** `hooks-dir`: we own the whole file. `husky`: we own a block inside `.husky/pre-push`. */
  kind: 'hooks-dir' | 'husky';
  file: string;
  worktreeTop: string;
  /** husky is set up in the tree but git does not use it yet (no `core.hooksPath`). */
  huskyNotActive?: boolean;
}

export interface InstallOptions {
  cwd: string;
  goals: string[];
  force: boolean;
  /** The mvnx script the hook falls back to when MVNX_BIN is unset (the running one). */
  mvnxScript?: string;
  node?: string;
}

export interface InstallResult {
  location: HookLocation;
  action: 'created' | 'updated' | 'chained' | 'replaced' | 'appended';
  /** Where a foreign hook went: chained (run first) or, with --force, backed up (not run). */
  movedTo?: string;
}

export interface UninstallResult {
  location: HookLocation;
  action: 'removed' | 'restored' | 'block-removed';
  restoredFrom?: string;
}

async function git(cwd: string, args: string[]): Promise<string | undefined> {
  const result = await execa('git', args, { cwd, reject: false });
  return result.exitCode === 0 ? result.stdout.trim() : undefined;
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

export async function locatePrePushHook(cwd: string): Promise<HookLocation> {
  const worktreeTop = await git(cwd, ['rev-parse', '--show-toplevel']);
  if (!worktreeTop) throw new MvnxError(`mvnx hook: ${cwd} is not inside a git working tree`);
  const hooksPath = await git(worktreeTop, ['config', '--get', 'core.hooksPath']);
  if (hooksPath) {
    // git runs hooks from the top of the working tree, so a relative hooksPath is relative to it.
    const hooksDir = path.resolve(worktreeTop, hooksPath);
    const husky = path.join(worktreeTop, '.husky');
    if (hooksDir === husky || hooksDir === path.join(husky, '_')) {
      return { kind: 'husky', file: path.join(husky, 'pre-push'), worktreeTop };
    }
    return { kind: 'hooks-dir', file: path.join(hooksDir, 'pre-push'), worktreeTop };
  }
  if (existsSync(path.join(worktreeTop, '.husky'))) {
    return { kind: 'husky', file: path.join(worktreeTop, '.husky', 'pre-push'), worktreeTop, huskyNotActive: true };
  }
  const commonDir = await git(worktreeTop, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  return {
    kind: 'hooks-dir',
    file: path.join(commonDir ?? path.join(worktreeTop, '.git'), 'hooks', 'pre-push'),
    worktreeTop,
  };
}

async function scriptOptions(options: InstallOptions, location: HookLocation): Promise<HookScriptOptions> {
  const projectRoot = await findProjectRoot(options.cwd, []);
  const relative = path.relative(location.worktreeTop, projectRoot).split(path.sep).join('/');
  if (relative.startsWith('..'))
    throw new MvnxError(
      `mvnx hook: the project ${projectRoot} is outside the git working tree ${location.worktreeTop}`,
    );
  return {
    goals: options.goals,
    projectDir: relative === '' ? '.' : relative,
    node: options.node ?? process.execPath,
    ...(options.mvnxScript ? { script: options.mvnxScript } : {}),
  };
}

async function writeExecutable(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  await chmod(file, 0o755);
}

export async function installPrePushHook(options: InstallOptions): Promise<InstallResult> {
  const location = await locatePrePushHook(options.cwd);
  const script = await scriptOptions(options, location);
  const existing = await readIfPresent(location.file);

  if (location.kind === 'husky') {
    // husky v4-8 hooks source this helper; v9 hooks are plain commands.
    const helper = existsSync(path.join(path.dirname(location.file), '_', 'husky.sh'))
      ? '. "$(dirname -- "$0")/_/husky.sh"\n'
      : '';
    await writeExecutable(location.file, withHuskyBlock(existing, script, `#!/usr/bin/env sh\n${helper}\n`));
    return { location, action: existing === undefined ? 'created' : hasHuskyBlock(existing) ? 'updated' : 'appended' };
  }

  const hook = renderPrePushHook(script);
  if (existing === undefined) {
    await writeExecutable(location.file, hook);
    return { location, action: 'created' };
  }
  if (isMvnxHook(existing)) {
    await writeExecutable(location.file, hook);
    return { location, action: 'updated' };
  }
  const hooksDir = path.dirname(location.file);
  const movedTo = path.join(hooksDir, options.force ? BACKUP_HOOK_NAME : CHAINED_HOOK_NAME);
  if (existsSync(movedTo)) {
    throw new MvnxError(
      `mvnx hook install: ${location.file} is not mvnx's and ${movedTo} already exists; move one of them away first`,
    );
  }
  await rename(location.file, movedTo);
  await writeExecutable(location.file, hook);
  return { location, action: options.force ? 'replaced' : 'chained', movedTo };
}

export async function uninstallPrePushHook(cwd: string): Promise<UninstallResult> {
  const location = await locatePrePushHook(cwd);
  const existing = await readIfPresent(location.file);

  if (location.kind === 'husky') {
    if (existing === undefined || !hasHuskyBlock(existing)) {
      throw new MvnxError(`mvnx hook uninstall: ${location.file} has no mvnx block; nothing to remove`);
    }
    const rest = removeHuskyBlock(existing);
    if (isOnlyHuskyBoilerplate(rest)) await unlink(location.file);
    else await writeFile(location.file, rest);
    return { location, action: 'block-removed' };
  }

  if (existing === undefined) throw new MvnxError(`mvnx hook uninstall: no pre-push hook at ${location.file}`);
  if (!isMvnxHook(existing)) {
    throw new MvnxError(`mvnx hook uninstall: ${location.file} was not written by mvnx; left as it is`);
  }
  const chained = path.join(path.dirname(location.file), CHAINED_HOOK_NAME);
  if (existsSync(chained)) {
    await rename(chained, location.file);
    return { location, action: 'restored', restoredFrom: chained };
  }
  await unlink(location.file);
  return { location, action: 'removed' };
}
