/**
 * The git side of a published fix, through real git: one commit made from fix.patch on
 * top of the commit that was built (in a private index, so the working tree, which auto may
 * have changed in place, is never read or touched), pushed to `mvnx/fix-<fingerprint>` with
 * the token. The token reaches git as an HTTP header in the environment, never in argv or
 * a URL that git could print or store.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

export interface GitAuth {
  /** `x-access-token` on GitHub, `oauth2` on GitLab. */
  username: string;
  token: string;
}

export interface GitPlace {
  /** The repository's top folder. */
  root: string;
  /** The project root relative to it ('' when the same), forward slashes: fix.patch paths are the project's. */
  prefix: string;
}

export class GitPublishError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'GitPublishError';
  }
}

const IDENTITY = { GIT_AUTHOR_NAME: 'mvnx', GIT_COMMITTER_NAME: 'mvnx' };

/** The environment that gives git the token: a reset of inherited extra headers, then ours. */
export function authEnvironment(auth: GitAuth | undefined): Record<string, string> {
  const base = { GIT_TERMINAL_PROMPT: '0', GCM_INTERACTIVE: 'never' };
  if (!auth) return base;
  const basic = Buffer.from(`${auth.username}:${auth.token}`).toString('base64');
  return {
    ...base,
    GIT_CONFIG_COUNT: '2',
    GIT_CONFIG_KEY_0: 'http.extraHeader',
    GIT_CONFIG_VALUE_0: '',
    GIT_CONFIG_KEY_1: 'http.extraHeader',
    GIT_CONFIG_VALUE_1: `Authorization: Basic ${basic}`,
  };
}

async function git(
  place: GitPlace,
  args: string[],
  options: { env?: Record<string, string>; input?: Buffer | string; token?: string } = {},
): Promise<string> {
  const result = await execa('git', args, {
    cwd: place.root,
    reject: false,
    env: { ...options.env },
    ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' }),
  });
  if (result.exitCode === 0) return result.stdout.trim();
  const said = `${result.stderr}`
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('hint:'));
  let line = said.find((text) => /^(fatal|error|remote):/.test(text)) ?? said[0] ?? `exit ${result.exitCode}`;
  if (options.token) line = line.split(options.token).join('[REDACTED]');
  const status =
    /\b(401|403)\b/.exec(line)?.[1] ??
    (/Authentication failed|could not read Username/i.test(line) ? '401' : undefined);
  throw new GitPublishError(`git ${args[0]}: ${line}`, status ? Number(status) : undefined);
}

/** Runs `work` with a private index that starts as `treeish`'s tree. */
async function withIndex<T>(
  place: GitPlace,
  treeish: string,
  work: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'mvnx-index-'));
  const env = { GIT_INDEX_FILE: path.join(folder, 'index') };
  try {
    await git(place, ['read-tree', treeish], { env });
    return await work(env);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const applyArgs = (place: GitPlace, ...more: string[]) => [
  'apply',
  '--cached',
  ...(place.prefix ? [`--directory=${place.prefix}`] : []),
  ...more,
  '-',
];

export async function resolveCommit(place: GitPlace, ref: string): Promise<string> {
  return git(place, ['rev-parse', '--verify', '-q', `${ref}^{commit}`]);
}

/** The commit of fix.patch on `parent`, with this message; the same inputs give the same tree. */
export async function commitFix(
  place: GitPlace,
  input: { parent: string; patch: Buffer; message: string; email: string },
): Promise<{ commit: string; tree: string }> {
  return withIndex(place, input.parent, async (env) => {
    try {
      await git(place, applyArgs(place), { env, input: input.patch });
    } catch (error) {
      throw new GitPublishError(`the fix does not apply to ${input.parent.slice(0, 12)}: ${(error as Error).message}`);
    }
    const tree = await git(place, ['write-tree'], { env });
    const identity = { ...IDENTITY, GIT_AUTHOR_EMAIL: input.email, GIT_COMMITTER_EMAIL: input.email };
    const commit = await git(place, ['commit-tree', tree, '-p', input.parent, '-F', '-'], {
      env: identity,
      input: input.message,
    });
    return { commit, tree };
  });
}

/**
 * Whether `tip` (the fix branch as the remote has it) already is this fix on this base: the same tree on the same
 * single parent. Then a re-publish pushes nothing (a new commit would differ only in its date and run id).
 */
export async function holdsSameFix(place: GitPlace, tip: string, fix: { tree: string; parent: string }) {
  const [tree, parents] = await Promise.all([
    git(place, ['rev-parse', `${tip}^{tree}`]),
    git(place, ['rev-list', '--parents', '-n', '1', tip]),
  ]);
  return tree === fix.tree && parents.split(' ').slice(1).join(' ') === fix.parent;
}

/** Whether `ancestor` is `commit` or one of its ancestors (both present locally). */
export async function isAncestor(place: GitPlace, ancestor: string, commit: string): Promise<boolean> {
  const result = await execa('git', ['merge-base', '--is-ancestor', ancestor, commit], {
    cwd: place.root,
    reject: false,
    stdin: 'ignore',
  });
  return result.exitCode === 0;
}

/** Whether the object exists in the repository (a commit id from the record may not, in another clone). */
export async function hasCommit(place: GitPlace, commit: string): Promise<boolean> {
  const result = await execa('git', ['cat-file', '-e', `${commit}^{commit}`], {
    cwd: place.root,
    reject: false,
    stdin: 'ignore',
  });
  return result.exitCode === 0;
}

/** The parents of `commit`, first parent first. */
export async function parentsOf(place: GitPlace, commit: string): Promise<string[]> {
  return (await git(place, ['rev-list', '--parents', '-n', '1', commit])).split(' ').slice(1);
}

/** Whether `commit` already holds the fix (its change, reversed, applies cleanly there). */
export async function containsFix(place: GitPlace, commit: string, patch: Buffer): Promise<boolean> {
  return withIndex(place, commit, async (env) => {
    try {
      await git(place, applyArgs(place, '--check', '-R'), { env, input: patch });
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The tip of `branch` on the remote, fetched; undefined when the remote has no such branch. The fetch goes through a
 * temporary ref, removed again: the user's repository keeps the objects (until git's own gc) but no mvnx ref.
 */
export async function fetchBranch(
  place: GitPlace,
  url: string,
  branch: string,
  auth?: GitAuth,
): Promise<string | undefined> {
  const env = authEnvironment(auth);
  const listed = await git(place, ['ls-remote', '--heads', url, `refs/heads/${branch}`], {
    env,
    ...(auth ? { token: auth.token } : {}),
  });
  if (!listed) return undefined;
  const ref = `refs/mvnx/fetched/${branch}`;
  try {
    await git(place, ['fetch', '--no-tags', '--quiet', url, `+refs/heads/${branch}:${ref}`], {
      env,
      ...(auth ? { token: auth.token } : {}),
    });
    return await resolveCommit(place, ref);
  } finally {
    await execa('git', ['update-ref', '-d', ref], { cwd: place.root, reject: false, stdin: 'ignore' });
  }
}

/** The tip of `branch` on the remote without fetching it; undefined when there is no such branch. */
export async function remoteTip(place: GitPlace, url: string, branch: string, auth?: GitAuth) {
  const listed = await git(place, ['ls-remote', '--heads', url, `refs/heads/${branch}`], {
    env: authEnvironment(auth),
    ...(auth ? { token: auth.token } : {}),
  });
  return listed ? listed.split(/\s/)[0] : undefined;
}

/** Deletes `branch` on the remote. */
export async function deleteBranch(place: GitPlace, url: string, branch: string, auth?: GitAuth): Promise<void> {
  await git(place, ['push', '--quiet', url, `:refs/heads/${branch}`], {
    env: authEnvironment(auth),
    ...(auth ? { token: auth.token } : {}),
  });
}

/** Pushes `commit` as `branch`, replacing what is there (the same fix re-made by a later run). */
export async function pushBranch(
  place: GitPlace,
  url: string,
  commit: string,
  branch: string,
  auth?: GitAuth,
): Promise<void> {
  await git(place, ['push', '--force', '--quiet', url, `${commit}:refs/heads/${branch}`], {
    env: authEnvironment(auth),
    ...(auth ? { token: auth.token } : {}),
  });
}

/**
 * Pushes `commit` as `branch` only as a fast-forward (no force: a bot's commits are never replaced); git refuses when
 * the remote branch moved past the commit's parent, which is the guard against a push racing the bot.
 */
export async function pushFastForward(
  place: GitPlace,
  url: string,
  commit: string,
  branch: string,
  auth?: GitAuth,
): Promise<void> {
  await git(place, ['push', '--quiet', url, `${commit}:refs/heads/${branch}`], {
    env: authEnvironment(auth),
    ...(auth ? { token: auth.token } : {}),
  });
}

/** The parent of `commit` (its first), or undefined for a root commit. */
export async function parentOf(place: GitPlace, commit: string): Promise<string | undefined> {
  try {
    return await resolveCommit(place, `${commit}^1`);
  } catch {
    return undefined;
  }
}

/**
 * What fix.patch makes of `base`'s files, per changed path (project-relative): the text before (null: added) and
 * after (null: deleted), read from git objects in a private index, never from the working tree. Throws
 * GitPublishError when the patch does not apply there.
 */
export async function patchedFiles(
  place: GitPlace,
  base: string,
  patch: Buffer,
): Promise<{ path: string; before: string | null; after: string | null }[]> {
  return withIndex(place, base, async (env) => {
    try {
      await git(place, applyArgs(place), { env, input: patch });
    } catch (error) {
      throw new GitPublishError(`the fix does not apply to ${base.slice(0, 12)}: ${(error as Error).message}`);
    }
    const tree = await git(place, ['write-tree'], { env });
    const scope = place.prefix ? ['--', place.prefix] : [];
    const names = await git(place, ['diff-tree', '-r', '--no-renames', '--name-only', base, tree, ...scope]);
    // Exact bytes (git() trims): the fingerprint is of the text after, to the last newline.
    const read = async (treeish: string, file: string) => {
      const result = await execa('git', ['cat-file', 'blob', `${treeish}:${file}`], {
        cwd: place.root,
        reject: false,
        stripFinalNewline: false,
        stdin: 'ignore',
      });
      return result.exitCode === 0 ? result.stdout : null;
    };
    const files = [];
    for (const file of names.split('\n').filter(Boolean)) {
      const relative = place.prefix ? file.slice(place.prefix.length + 1) : file;
      files.push({ path: relative, before: await read(base, file), after: await read(tree, file) });
    }
    return files;
  });
}
