/**
 * Which dependencies changed version: every POM of the project read for its effective
 * versions (maven/effective-versions.ts) now and at an earlier point — the last commit
 * when a POM differs from it, else the merge base with the main branch — and compared.
 * Parents in the tree are read at the same revision; parents and BOMs from the local
 * repository as they are. A Dependabot or Renovate branch name is kept as a hint only.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import {
  effectiveDependencies,
  versionChanges,
  type PomSource,
  type VersionChange,
} from '../../maven/effective-versions.js';
import { parsePomProject, pomModules } from '../../maven/pom.js';

export interface DetectedChange extends VersionChange {
  /** What the versions were compared with: `HEAD`, `merge-base <sha> (<branch>)`. */
  comparedWith: string;
}

export interface DetectOptions {
  projectRoot: string;
  localRepository: string;
  env?: NodeJS.ProcessEnv;
}

const BASE_BRANCHES = ['origin/main', 'origin/master', 'main', 'master'];

async function git(root: string, args: string[]): Promise<string | undefined> {
  const result = await execa('git', args, { cwd: root, reject: false, timeout: 20_000 });
  return result.exitCode === 0 ? result.stdout : undefined;
}

/** Project-relative paths of the root POM and every module's, recursively. */
async function projectPoms(
  root: string,
  read: (file: string) => Promise<string | undefined>,
  dir = '',
  seen = new Set<string>(),
): Promise<string[]> {
  const pom = path.posix.join(dir, 'pom.xml');
  if (seen.has(pom)) return [];
  seen.add(pom);
  const text = await read(pom);
  const project = text ? parsePomProject(text) : undefined;
  if (!project) return [];
  const out = [pom];
  for (const module of pomModules(project))
    out.push(...(await projectPoms(root, read, path.posix.normalize(path.posix.join(dir, module)), seen)));
  return out;
}

function sourceAt(read: (file: string) => Promise<string | undefined>, localRepository: string): PomSource {
  return {
    async relative(fromPom, relativePath) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(fromPom), relativePath));
      const file = target.endsWith('.xml') ? target : path.posix.join(target, 'pom.xml');
      if (file.startsWith('../')) return undefined;
      const text = await read(file);
      return text ? { path: file, text } : undefined;
    },
    async repository(groupId, artifactId, version) {
      const file = path.join(
        localRepository,
        ...groupId.split('.'),
        artifactId,
        version,
        `${artifactId}-${version}.pom`,
      );
      return existsSync(file) ? readFile(file, 'utf8') : undefined;
    },
  };
}

/** The revision to compare with: HEAD when a POM changed since, else the merge base with the main branch. */
async function earlierRevision(root: string, poms: string[]): Promise<{ rev: string; label: string } | undefined> {
  if ((await git(root, ['rev-parse', '--verify', '-q', 'HEAD'])) === undefined) return undefined;
  const dirty = await git(root, ['status', '--porcelain', '--', ...poms]);
  if (dirty && dirty.trim() !== '') return { rev: 'HEAD', label: 'HEAD' };
  for (const branch of BASE_BRANCHES) {
    const base = await git(root, ['merge-base', 'HEAD', branch]);
    const head = await git(root, ['rev-parse', 'HEAD']);
    if (base && head && base.trim() !== head.trim())
      return { rev: base.trim(), label: `merge-base ${base.trim().slice(0, 12)} (${branch})` };
  }
  // On the main branch itself with a clean tree: the commit before.
  const parent = await git(root, ['rev-parse', '--verify', '-q', 'HEAD~1']);
  return parent ? { rev: parent.trim(), label: 'HEAD~1' } : undefined;
}

/** Dependencies whose effective version differs from the earlier revision's; empty outside git or when none did. */
export async function detectVersionChanges(options: DetectOptions): Promise<DetectedChange[]> {
  const root = options.projectRoot;
  const readNow = async (file: string) => readFile(path.join(root, file), 'utf8').catch(() => undefined);
  const poms = await projectPoms(root, readNow);
  if (poms.length === 0) return [];
  const earlier = await earlierRevision(root, poms);
  if (!earlier) return [];
  const prefix = ((await git(root, ['rev-parse', '--show-prefix'])) ?? '').trim();
  const readThen = async (file: string) => git(root, ['show', `${earlier.rev}:${prefix}${file}`]);
  const changes: DetectedChange[] = [];
  for (const pom of poms) {
    const [now, then] = await Promise.all([readNow(pom), readThen(pom)]);
    if (!now || !then) continue;
    const after = await effectiveDependencies(now, pom, sourceAt(readNow, options.localRepository));
    const before = await effectiveDependencies(then, pom, sourceAt(readThen, options.localRepository));
    for (const change of versionChanges(before, after)) {
      if (changes.some((known) => known.groupId === change.groupId && known.artifactId === change.artifactId)) continue;
      changes.push({ ...change, comparedWith: earlier.label });
    }
  }
  return changes;
}

/** `dependabot/maven/com.google.guava-guava-33.0.0-jre`, `renovate/guava-33.x`: the bot's branch, as a hint. */
export async function updateBranchHint(root: string, env: NodeJS.ProcessEnv = {}): Promise<string | undefined> {
  const branch =
    env.GITHUB_HEAD_REF ||
    env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME ||
    (await git(root, ['rev-parse', '--abbrev-ref', 'HEAD']))?.trim();
  return branch && /^(dependabot|renovate)\//.test(branch) ? branch : undefined;
}
