/**
 * Which repository a run belongs to, for the view across many repositories: `owner/name`
 * as CI names it, else from the git remote (credentials never kept), else the folder name.
 */
import path from 'node:path';
import { execa } from 'execa';

/** The CI's own name for the repository being built. */
export function repositoryFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  return env.GITHUB_REPOSITORY || env.CI_PROJECT_PATH || env.BITBUCKET_REPO_FULL_NAME || undefined;
}

/**
 * `owner/name` (or `group/sub/name`) of a remote URL, without scheme, host, user,
 * password or `.git`: `https://oauth2:TOKEN@gitlab.example.com/acme/pay.git` -> `acme/pay`.
 */
export function repositoryFromRemote(url: string): string | undefined {
  const trimmed = url.trim();
  // A local remote (a path, or file://) has no owner: its folder name is the best name.
  if (/^(?:file:\/\/|\/|\.|[A-Za-z]:[\\/])/.test(trimmed)) {
    return path.basename(trimmed.replace(/^file:\/\//, '').replace(/[\\/]+$/, '')).replace(/\.git$/, '') || undefined;
  }
  let pathPart: string | undefined;
  const scp = /^(?:[^@/\s]+@)?[^:/\s]+:(?!\/\/)(.+)$/.exec(trimmed);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    try {
      pathPart = new URL(trimmed).pathname;
    } catch {
      return undefined;
    }
  } else if (scp) {
    pathPart = scp[1];
  } else {
    pathPart = trimmed;
  }
  const cleaned = decodeURIComponent(pathPart ?? '')
    .replace(/\.git\/?$/, '')
    .replace(/^\/+|\/+$/g, '');
  return cleaned === '' ? undefined : cleaned;
}

export async function repositoryName(projectRoot: string, env: NodeJS.ProcessEnv): Promise<string> {
  const fromEnv = repositoryFromEnv(env);
  if (fromEnv) return fromEnv;
  const remote = await execa('git', ['config', '--get', 'remote.origin.url'], {
    cwd: projectRoot,
    reject: false,
    stdin: 'ignore',
  }).catch(() => undefined);
  const fromRemote = remote?.exitCode === 0 ? repositoryFromRemote(remote.stdout) : undefined;
  return fromRemote ?? path.basename(path.resolve(projectRoot));
}
