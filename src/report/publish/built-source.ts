/**
 * What the user's build ran on, read once when mvnx takes over after the failed build (before any fix touches the
 * tree): the checked-out commit and the tree that was built. A clean checkout (every CI job) built HEAD's own tree;
 * with uncommitted changes the built tree is the working tree's, hashed through a copy of the index (so only changed
 * files are read, and the user's index is never written), Maven's `target/` folders and `.mvnx/` left out.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { findGitRoot } from '../../maven/project.js';
import type { RunBuilt } from '../run-record.js';

const LEFT_OUT = [':(exclude,glob)**/target/**', ':(exclude,glob)**/.mvnx/**'];

async function git(root: string, args: string[], env: Record<string, string> = {}) {
  const result = await execa('git', args, { cwd: root, reject: false, stdin: 'ignore', env });
  return result.exitCode === 0 ? result.stdout.trim() : undefined;
}

/** The built commit and tree; undefined outside a git repository or before its first commit. */
export async function builtSource(projectRoot: string): Promise<RunBuilt | undefined> {
  const root = await findGitRoot(projectRoot);
  if (!root) return undefined;
  const commit = await git(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']);
  const headTree = commit && (await git(root, ['rev-parse', `${commit}^{tree}`]));
  if (!commit || !headTree) return undefined;
  const folder = await mkdtemp(path.join(os.tmpdir(), 'mvnx-built-'));
  try {
    const env = { GIT_INDEX_FILE: path.join(folder, 'index') };
    const index = await git(root, ['rev-parse', '--path-format=absolute', '--git-path', 'index']);
    const copied = index
      ? await copyFile(index, env.GIT_INDEX_FILE).then(
          () => true,
          () => false,
        )
      : false;
    // When the built tree cannot be read, nothing is claimed: publication then refuses rather than guess.
    if (!copied && (await git(root, ['read-tree', commit], env)) === undefined) return undefined;
    const added = await git(root, ['add', '-A', '--', '.', ...LEFT_OUT], env);
    const tree = added === undefined ? undefined : await git(root, ['write-tree'], env);
    if (!tree) return undefined;
    return tree === headTree ? { commit, tree } : { commit, tree, uncommitted: true };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
