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
import { projectPoms } from '../../maven/project-poms.js';
import { readPassingBuild } from '../../report/passing-build.js';

export interface DetectedChange extends VersionChange {
  /** What the versions were compared with: `HEAD`, `merge-base <sha> (<branch>)`. */
  comparedWith: string;
  /** Set when the versions were compared with the last build that passed under mvnx. */
  previousRun?: { at: string; commit?: string };
  /** The BOM or parent whose bump moved this version: `bom g:a 1.0 -> 2.0`, `parent g:a 1 -> 2`. */
  via?: string;
}

/** `bom g:a:2.0` now and `bom g:a:1.0` before: the bump of that BOM (or parent) moved the version. */
export function bumpedThrough(change: VersionChange): string | undefined {
  const now = /^(bom|parent) ([^:\s]+:[^:\s]+):(\S+)$/.exec(change.source);
  const then = /^(bom|parent) ([^:\s]+:[^:\s]+):(\S+)$/.exec(change.fromSource ?? '');
  if (!now || !then || now[1] !== then[1] || now[2] !== then[2] || now[3] === then[3]) return undefined;
  return `${now[1]} ${now[2]} ${then[3]} -> ${now[3]}`;
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

type Read = (file: string) => Promise<string | undefined>;

/** Changes between the POMs read now and then (`then` reads the same paths at the earlier point). */
async function changesBetween(
  poms: string[],
  readNow: Read,
  readThen: Read,
  localRepository: string,
  label: { comparedWith: string; previousRun?: { at: string; commit?: string } },
): Promise<DetectedChange[]> {
  const changes: DetectedChange[] = [];
  for (const pom of poms) {
    const [now, then] = await Promise.all([readNow(pom), readThen(pom)]);
    if (!now || !then) continue;
    const after = await effectiveDependencies(now, pom, sourceAt(readNow, localRepository));
    const before = await effectiveDependencies(then, pom, sourceAt(readThen, localRepository));
    for (const change of versionChanges(before, after)) {
      if (changes.some((known) => known.groupId === change.groupId && known.artifactId === change.artifactId)) continue;
      const via = bumpedThrough(change);
      changes.push({ ...change, ...label, ...(via ? { via } : {}) });
    }
  }
  return changes;
}

/**
 * Dependencies whose effective version differs from the earlier revision's; when git has no revision to compare with
 * or shows no change, from the last build that passed under mvnx (.mvnx/last-passing-build.json). Empty when none did.
 */
export async function detectVersionChanges(options: DetectOptions): Promise<DetectedChange[]> {
  const root = options.projectRoot;
  const readNow = async (file: string) => readFile(path.join(root, file), 'utf8').catch(() => undefined);
  const poms = await projectPoms(readNow);
  if (poms.length === 0) return [];
  const earlier = await earlierRevision(root, poms);
  if (earlier) {
    const prefix = ((await git(root, ['rev-parse', '--show-prefix'])) ?? '').trim();
    const readThen = async (file: string) => git(root, ['show', `${earlier.rev}:${prefix}${file}`]);
    const changes = await changesBetween(poms, readNow, readThen, options.localRepository, {
      comparedWith: earlier.label,
    });
    if (changes.length > 0) return changes;
  }
  const passed = await readPassingBuild(root);
  if (!passed) return [];
  const readPassed = (file: string) => Promise.resolve(passed.poms[file]);
  return changesBetween(poms, readNow, readPassed, options.localRepository, {
    comparedWith: `the last passing build (${passed.at}${passed.commit ? `, ${passed.commit.slice(0, 12)}` : ''})`,
    previousRun: { at: passed.at, ...(passed.commit ? { commit: passed.commit } : {}) },
  });
}

/** `dependabot/maven/com.google.guava-guava-33.0.0-jre`, `renovate/guava-33.x`: the bot's branch, as a hint. */
export async function updateBranchHint(root: string, env: NodeJS.ProcessEnv = {}): Promise<string | undefined> {
  const branch =
    env.GITHUB_HEAD_REF ||
    env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME ||
    (await git(root, ['rev-parse', '--abbrev-ref', 'HEAD']))?.trim();
  return branch && /^(dependabot|renovate)\//.test(branch) ? branch : undefined;
}
