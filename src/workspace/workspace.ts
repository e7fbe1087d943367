/**
 * A private copy of the project where candidate patches are applied and built, so the
 * user's tree is never written (the contract's "The original tree").
 *
 * Files are copied, copy-on-write where the filesystem can (reflink on btrfs/XFS/APFS;
 * a plain copy elsewhere, e.g. ext4). They are deliberately never hard-linked: the patch
 * layer replaces files by rename, but Maven itself writes into the tree it builds
 * (resource filtering, generated sources, plugins that touch files in place), and a
 * single in-place write through a hard link would change the user's file.
 *
 * Symlinks never reach back into the user's tree: a link whose text is absolute, or
 * climbs out of the project and back in, and that leads inside the project, is rewritten
 * as a relative link to the same place in the copy (see `linkTextInCopy`).
 *
 * Modification times are kept (Maven's staleness checks compare them), and the fresh
 * build outputs of an `OutputSnapshot` (reuse-outputs.ts) are laid into the copy, so the
 * build does not redo what the user's build already did.
 *
 * Layout: `<tmp>/mvnx-ws-<pid>-n<pid namespace>-<random>/project` is the copy; `.../logs` holds verification
 * logs, kept until `dispose()` so the caller can diagnose a new failure from them.
 */
import { chmod, lstat, mkdir, mkdtemp, readdir, readlink, realpath, rm, stat, symlink } from 'node:fs/promises';
import type { BigIntStats, Dirent } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { markOwner, ownedPrefix } from '../maven/owner-marker.js';
import { pauseForKillTest } from '../maven/kill-window-pause.js';
import { registerCleanup } from './cleanup.js';
import { copyPreserving, rebaseStatusLists, type OutputSnapshot } from './reuse-outputs.js';

export interface Workspace {
  /** The copy of the project: build here. */
  root: string;
  /** The project the copy was made from. */
  source: string;
  /** Private folder beside the copy (never inside it) for logs and scratch files. */
  scratchDir: string;
  /** Remove everything. Safe to call more than once. */
  dispose(): Promise<void>;
  /** Back to the content it was created with: changed files restored, added ones (target/) removed. */
  reset(): Promise<void>;
  /** Module folders whose build outputs (target/) were laid in from the user's build. */
  reusedOutputs: string[];
}

export interface WorkspaceOptions {
  /** Copy `.git` too (only for steps that need history). Default false. */
  includeGit?: boolean;
  /** Parent folder of the workspace; default `os.tmpdir()`. */
  baseDir?: string;
  /** Fresh outputs of the user's build to lay into the copy (taken from this same project). */
  outputs?: OutputSnapshot;
}

export class WorkspaceError extends Error {
  override name = 'WorkspaceError';
}

/** What the copy looked like right after creation, per root-relative path. */
type Manifest = Map<string, Fingerprint>;
interface Fingerprint {
  kind: 'file' | 'dir' | 'symlink';
  /** Inode plus change time catch every later write, chmod and rename-over. */
  ino: bigint;
  ctimeNs: bigint;
  size: bigint;
}

export async function createWorkspace(projectRoot: string, options: WorkspaceOptions = {}): Promise<Workspace> {
  if (typeof projectRoot !== 'string' || projectRoot === '')
    throw new WorkspaceError('createWorkspace needs the project folder');
  const source = path.resolve(projectRoot);
  let info;
  try {
    info = await stat(source);
  } catch {
    throw new WorkspaceError(`cannot copy the project: ${source} does not exist`);
  }
  if (!info.isDirectory()) throw new WorkspaceError(`cannot copy the project: ${source} is not a folder`);
  const baseDir = path.resolve(options.baseDir ?? os.tmpdir());
  if (isInside(baseDir, source))
    throw new WorkspaceError(`the workspace folder ${baseDir} must not be inside the project ${source}`);
  const outputs = options.outputs;
  if (outputs && path.resolve(outputs.source) !== source)
    throw new WorkspaceError(`the build outputs were taken from ${outputs.source}, not from ${source}`);

  await mkdir(baseDir, { recursive: true });
  // The name carries this pid, so that a kill before the marker is written still leaves it attributable.
  const container = await mkdtemp(path.join(baseDir, ownedPrefix('mvnx-ws-')));
  const unregister = registerCleanup(container);
  pauseForKillTest('workspace-marker');
  // Beside the copy, not in it: the next run removes the container by this marker if this one is killed.
  await markOwner(container);
  const root = path.join(container, 'project');
  const scratchDir = path.join(container, 'logs');
  const exclude = exclusionRule(options.includeGit === true);

  let manifest: Manifest;
  const links: LinkRoots = { sources: [source], copy: root };
  const origin = originOf(source, outputs);
  try {
    const sourceReal = await realpath(source);
    if (sourceReal !== source) links.sources.push(sourceReal);
    await mkdir(scratchDir);
    await copyTree(source, root, exclude, links);
    if (outputs) await layOutputs(outputs, root, links.sources);
    manifest = await snapshot(root);
  } catch (error) {
    await rm(container, { recursive: true, force: true });
    unregister();
    throw new WorkspaceError(`cannot copy ${source} to a workspace: ${(error as Error).message}`);
  }

  let disposed = false;
  return {
    root,
    source,
    scratchDir,
    async dispose() {
      if (disposed) return;
      disposed = true;
      await rm(container, { recursive: true, force: true, maxRetries: 3 });
      unregister();
    },
    async reset() {
      if (disposed) throw new WorkspaceError(`workspace ${root} was disposed; it cannot be reset`);
      const restored = await restore(origin, root, manifest, exclude, links);
      for (const module of outputs?.modules ?? []) {
        if (restored.some((rel) => rel === targetOf(module) || rel.startsWith(`${targetOf(module)}/`)))
          await rebaseStatusLists(path.join(root, targetOf(module)), links.sources, root);
      }
      manifest = await snapshot(root);
    },
    reusedOutputs: [...(outputs?.modules ?? [])],
  };
}

const targetOf = (module: string) => (module === '' ? 'target' : `${module}/target`);

/** Where a root-relative path of the copy comes from: the snapshot for reused outputs, else the project. */
type Origin = (rel: string) => string;

function originOf(source: string, outputs: OutputSnapshot | undefined): Origin {
  const targets = (outputs?.modules ?? []).map((module) => ({ module, prefix: targetOf(module) }));
  return (rel) => {
    const hit = targets.find((t) => rel === t.prefix || rel.startsWith(`${t.prefix}/`));
    return hit ? path.join(outputs!.dir, hit.module, 'target', rel.slice(hit.prefix.length)) : path.join(source, rel);
  };
}

/** The snapshot's target/ folders, copied in with their times, their status lists pointed at the copy. */
async function layOutputs(outputs: OutputSnapshot, root: string, sources: string[]): Promise<void> {
  for (const module of outputs.modules) {
    const from = path.join(outputs.dir, module, 'target');
    const to = path.join(root, targetOf(module));
    const pairs: [string, string][] = [];
    const walk = async (dir: string, rel: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const relPath = rel === '' ? entry.name : `${rel}/${entry.name}`;
        if (entry.isDirectory()) await walk(path.join(dir, entry.name), relPath);
        else if (entry.isFile()) pairs.push([path.join(dir, entry.name), path.join(to, relPath)]);
      }
    };
    await walk(from, '');
    await copyPreserving(pairs);
    await rebaseStatusLists(to, sources, root);
  }
}

type ExclusionRule = (entry: Dirent, parentHasPom: boolean) => boolean;

/**
 * `target` is excluded only beside a pom.xml: a Java package may well be called `target`
 * (`src/main/java/com/acme/target/`), and dropping it would break the build.
 */
function exclusionRule(includeGit: boolean): ExclusionRule {
  return (entry, parentHasPom) => {
    if (entry.name === 'node_modules' || entry.name === '.mvnx') return entry.isDirectory();
    if (entry.name === '.git') return !includeGit;
    return entry.name === 'target' && entry.isDirectory() && parentHasPom;
  };
}

async function readEntries(dir: string, exclude: ExclusionRule): Promise<Dirent[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const hasPom = entries.some((e) => e.name === 'pom.xml' && !e.isDirectory());
  return entries.filter((e) => !exclude(e, hasPom));
}

/** The project's folder (as given and as real path) and its copy, for rewriting links. */
interface LinkRoots {
  sources: string[];
  copy: string;
}

/**
 * The text a project symlink gets in the copy. A relative link that stays inside the
 * project keeps its text (it points inside the copy as it is). One that is absolute, or
 * climbs out of the project on its way (`../../shop/src`), and leads inside the project,
 * is rewritten relative, to the same place in the copy: kept as it was, it would lead the
 * build (and any write) back into the user's real files. A link leading outside the
 * project keeps its text; the sandbox keeps that read-only, and patches never follow links.
 */
export async function linkTextInCopy(link: string, linkInCopy: string, roots: LinkRoots): Promise<string> {
  const text = await readlink(link);
  const root = roots.sources.find((candidate) => isInside(link, candidate)) ?? roots.sources[0]!;
  if (!path.isAbsolute(text) && !climbsOut(path.relative(root, path.dirname(link)), text)) return text;
  const target = path.resolve(path.dirname(link), text);
  const inside = roots.sources.find((candidate) => isInside(target, candidate));
  if (inside === undefined) return text;
  const inCopy = path.join(roots.copy, path.relative(inside, target));
  return path.relative(path.dirname(linkInCopy), inCopy) || '.';
}

/** Whether `text`, followed from the folder `from` (relative to the root), ever goes above the root. */
function climbsOut(from: string, text: string): boolean {
  let depth = from === '' ? 0 : from.split(path.sep).length;
  for (const segment of text.split(/[\\/]/)) {
    if (segment === '' || segment === '.') continue;
    depth += segment === '..' ? -1 : 1;
    if (depth < 0) return true;
  }
  return false;
}

async function copyTree(from: string, to: string, exclude: ExclusionRule, links: LinkRoots): Promise<void> {
  const files: [string, string][] = [];
  const walk = async (src: string, dest: string): Promise<void> => {
    await mkdir(dest);
    const entries = await readEntries(src, exclude);
    await Promise.all(
      entries.map((entry) => {
        const s = path.join(src, entry.name);
        const d = path.join(dest, entry.name);
        return entry.isDirectory() ? walk(s, d) : copyEntry(entry, s, d, files, links);
      }),
    );
    await chmod(dest, (await stat(src)).mode & 0o7777);
  };
  await walk(from, to);
  await copyPreserving(files);
}

/** Regular files are queued for the parallel copy; the rest is made right away. */
async function copyEntry(
  entry: Dirent,
  src: string,
  dest: string,
  queue: [string, string][],
  links: LinkRoots,
): Promise<void> {
  if (entry.isFile()) queue.push([src, dest]);
  else if (entry.isSymbolicLink()) await symlink(await linkTextInCopy(src, dest, links), dest);
  // Sockets, FIFOs and devices are no part of a build's inputs.
}

async function snapshot(root: string): Promise<Manifest> {
  const manifest: Manifest = new Map();
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    await Promise.all(
      entries.map(async (entry) => {
        const relPath = rel === '' ? entry.name : `${rel}/${entry.name}`;
        const abs = path.join(dir, entry.name);
        const info = await lstat(abs, { bigint: true });
        manifest.set(relPath, fingerprint(info));
        if (info.isDirectory()) await walk(abs, relPath);
      }),
    );
  };
  await walk(root, '');
  return manifest;
}

function fingerprint(info: BigIntStats): Fingerprint {
  const kind = info.isDirectory() ? 'dir' : info.isSymbolicLink() ? 'symlink' : 'file';
  return { kind, ino: info.ino, ctimeNs: info.ctimeNs, size: info.size };
}

function unchanged(a: Fingerprint, b: Fingerprint): boolean {
  return a.kind === b.kind && a.ino === b.ino && a.ctimeNs === b.ctimeNs && a.size === b.size;
}

/**
 * Restores the copy without copying the whole project again: anything not in the
 * manifest goes (build output, files a patch added), anything whose inode or change time
 * moved is copied again from where it came from (the project, or the outputs snapshot),
 * anything missing comes back. Returns the root-relative paths copied again.
 */
async function restore(
  origin: Origin,
  root: string,
  manifest: Manifest,
  exclude: ExclusionRule,
  links: LinkRoots,
): Promise<string[]> {
  const seen = new Set<string>();
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    await Promise.all(
      entries.map(async (entry) => {
        const relPath = rel === '' ? entry.name : `${rel}/${entry.name}`;
        const abs = path.join(dir, entry.name);
        const original = manifest.get(relPath);
        const info = await lstat(abs, { bigint: true });
        if (original?.kind === 'dir' && info.isDirectory()) {
          seen.add(relPath);
          await walk(abs, relPath);
        } else if (original && unchanged(original, fingerprint(info))) {
          seen.add(relPath);
        } else {
          await rm(abs, { recursive: true, force: true });
        }
      }),
    );
  };
  await walk(root, '');

  const missing = [...manifest.keys()].filter((rel) => !seen.has(rel)).sort();
  const queue: [string, string][] = [];
  for (const rel of missing) {
    if (missing.some((other) => other !== rel && rel.startsWith(`${other}/`) && manifest.get(other)?.kind === 'dir'))
      continue;
    const src = origin(rel);
    const dest = path.join(root, rel);
    const info = await lstat(src).catch(() => undefined);
    if (!info) throw new WorkspaceError(`cannot reset ${root}: ${rel} is no longer in the project`);
    await mkdir(path.dirname(dest), { recursive: true });
    if (info.isDirectory()) await copyTree(src, dest, exclude, links);
    else if (info.isSymbolicLink()) await symlink(await linkTextInCopy(src, dest, links), dest);
    else queue.push([src, dest]);
  }
  await copyPreserving(queue);
  return missing;
}

function isInside(candidate: string, folder: string): boolean {
  const relative = path.relative(folder, candidate);
  return relative === '' || !(relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative));
}
