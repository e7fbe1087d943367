/** The patch-safety corpus runner's helpers: trees with links, FIFOs and devices, snapshots, git. */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { Places, Tree } from '../fixtures/patch/safety/builders.js';
import { git } from './patch-support.js';

export interface CaseDirs extends Places {
  container: string;
}

/** `<container>/project` holds the tree, `<container>/outside` what an escape would reach. */
export function materialise(tree: Tree, outside: Record<string, string> = {}): CaseDirs {
  const container = mkdtempSync(join(tmpdir(), 'mvnx-safety-'));
  const root = join(container, 'project');
  const outsideDir = join(container, 'outside');
  mkdirSync(root);
  mkdirSync(outsideDir);
  for (const [path, content] of Object.entries(outside)) {
    mkdirSync(dirname(join(outsideDir, path)), { recursive: true });
    writeFileSync(join(outsideDir, path), content);
  }
  for (const [path, entry] of Object.entries(tree)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    if (typeof entry === 'string') {
      writeFileSync(full, entry);
      chmodSync(full, 0o644);
      continue;
    }
    switch (entry.kind) {
      case 'file':
        writeFileSync(full, entry.content);
        chmodSync(full, entry.mode ?? 0o644);
        break;
      case 'dir':
        mkdirSync(full, { recursive: true });
        break;
      case 'symlink':
        symlinkSync(entry.text, full);
        break;
      case 'symlink-root':
        symlinkSync(join(root, entry.target), full);
        break;
      case 'symlink-outside':
        symlinkSync(join(outsideDir, entry.target), full);
        break;
      case 'fifo':
        execFileSync('mkfifo', [full]);
        break;
      case 'device':
        execFileSync('mknod', [full, 'c', '1', '3']);
        break;
    }
  }
  return { container, root, outside: outsideDir };
}

/** Everything under `dir` (but .git): files with content and mode, links with their text, folders, specials. */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const full = join(current, entry.name);
      const rel = relative(dir, full);
      const stats = lstatSync(full);
      if (stats.isSymbolicLink()) out.set(rel, `link -> ${readlinkSync(full)}`);
      else if (stats.isDirectory()) {
        out.set(rel, 'dir');
        walk(full);
      } else if (stats.isFile())
        out.set(rel, `file ${(stats.mode & 0o777).toString(8)} ${readFileSync(full).toString('latin1')}`);
      else out.set(rel, stats.isFIFO() ? 'fifo' : 'special');
    }
  };
  walk(dir);
  return out;
}

/** A FIFO read blocks until a writer shows up: be that writer, so a hung read ends. */
export function unblockFifos(root: string): void {
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFIFO()) {
        try {
          closeSync(openSync(full, constants.O_WRONLY | constants.O_NONBLOCK));
        } catch {
          // No reader waiting: nothing to unblock.
        }
      }
    }
  };
  walk(root);
}

export async function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      onTimeout();
      resolve('timeout');
    }, ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The same tree as a committed git repository, for `git apply` to judge the same patch. */
export function gitRepoOf(tree: Tree, outside: Record<string, string> = {}): CaseDirs {
  const dirs = materialise(tree, outside);
  git(dirs.root, ['init', '-q']);
  git(dirs.root, ['config', 'core.autocrlf', 'false']);
  git(dirs.root, ['config', 'core.fileMode', 'true']);
  git(dirs.root, ['config', 'core.symlinks', 'true']);
  git(dirs.root, ['add', '-A']);
  git(dirs.root, ['commit', '-q', '--allow-empty', '-m', 'base']);
  return dirs;
}

/** `git apply` of `patch` in `root`: true when it applied. */
export function gitApply(root: string, patch: string): { applied: boolean; stderr: string } {
  try {
    execFileSync('git', ['apply', '-'], {
      cwd: root,
      input: patch,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: root },
    });
    return { applied: true, stderr: '' };
  } catch (error) {
    return { applied: false, stderr: String((error as { stderr?: Buffer }).stderr ?? '') };
  }
}
