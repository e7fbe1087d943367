/** Shared by the patch-*.test.ts files: temp trees, fixture cases and a real git. */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DEFAULT_PATCH_POLICY, type PatchPolicy } from '../../src/patch/index.js';

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'patch');

export interface CorpusCase {
  name: string;
  dir: string;
  reply: string;
  policy: PatchPolicy;
  sameAs?: string;
  expect?: string;
}

export function loadCases(kind: 'good' | 'attack'): CorpusCase[] {
  const base = join(FIXTURES, kind);
  return readdirSync(base)
    .sort()
    .map((name) => {
      const dir = join(base, name);
      const metaFile = join(dir, 'case.json');
      const meta = existsSync(metaFile)
        ? (JSON.parse(readFileSync(metaFile, 'utf8')) as {
            policy?: Partial<PatchPolicy>;
            sameAs?: string;
            expect?: string;
          })
        : {};
      const result: CorpusCase = {
        name,
        dir,
        reply: readFileSync(join(dir, 'reply.txt'), 'utf8'),
        policy: { ...DEFAULT_PATCH_POLICY, ...meta.policy },
      };
      if (meta.sameAs !== undefined) result.sameAs = meta.sameAs;
      if (meta.expect !== undefined) result.expect = meta.expect;
      return result;
    });
}

export function tempDir(prefix = 'mvnx-patch-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Every regular file under dir, root-relative, with its bytes. */
export function snapshotTree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.name === '.git') continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.set(relative(dir, full).split('\\').join('/'), readFileSync(full));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** A temp copy of a case's `before` tree. */
export function checkoutBefore(testCase: CorpusCase): string {
  const root = tempDir();
  cpSync(join(testCase.dir, 'before'), root, { recursive: true });
  return root;
}

export function git(cwd: string, args: string[], input?: string | Buffer): string {
  return execFileSync('git', args, {
    cwd,
    input,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: cwd,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });
}

/** A throwaway repository holding the given files, committed. */
export function gitRepoWith(files: Map<string, Buffer | string>): string {
  const root = tempDir('mvnx-patch-git-');
  git(root, ['init', '-q']);
  git(root, ['config', 'core.autocrlf', 'false']);
  git(root, ['config', 'core.fileMode', 'true']);
  return writeAndCommit(root, files);
}

function writeAndCommit(root: string, files: Map<string, Buffer | string>): string {
  for (const [path, content] of files) {
    const full = join(root, path);
    execFileSync('mkdir', ['-p', join(full, '..')]);
    execFileSync('sh', ['-c', 'cat > "$1"', 'sh', full], { input: content });
  }
  if (files.size > 0) {
    git(root, ['add', '-A']);
    git(root, ['commit', '-q', '-m', 'base']);
  }
  return root;
}

export function fileMode(path: string): number {
  return statSync(path).mode & 0o777;
}
