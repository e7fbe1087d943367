/**
 * What the user's build already produced, taken once for every workspace of a repair:
 * a module's `target/` is taken when every file in it is newer than every input of the
 * module (its files outside `target/`, the poms above it and `.mvn/`), so nothing stale is
 * ever reused; with `writtenSince` (the user's command cleaned), only when every file was
 * also written by the user's build itself; with `builtAt` (it did not clean), also as the
 * user's build left it when only Java sources changed and it compiled them (reuse-as-left.ts). Test reports are not
 * taken: they
 * are not build inputs, and verification reads only reports its own stages wrote.
 *
 * The outputs are copied (copy-on-write where the file system can), never hard-linked:
 * Maven writes into `target/` in place. Modification times are kept, because Maven's
 * staleness checks compare them. `maven-status/**\/*.lst` files hold absolute source
 * paths; copied as they are, the compiler plugin would see every source as new and
 * recompile the module, so `rebaseStatusLists` points them at the workspace.
 */
import { constants as fsConstants } from 'node:fs';
import { copyFile, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { markOwner, ownedPrefix } from '../maven/owner-marker.js';
import { pauseForKillTest } from '../maven/kill-window-pause.js';
import { registerCleanup } from './cleanup.js';
import { takeAsLeft, type OutputFile } from './reuse-as-left.js';

export interface OutputSnapshot {
  /** The project the outputs were taken from. */
  source: string;
  /** Private folder holding `<module>/target` copies. */
  dir: string;
  /** Module folders (root-relative, '' for the root) whose target/ was taken. */
  modules: string[];
  /** Modules with a target/ that was not taken, and why. */
  notTaken: { module: string; reason: string }[];
  /**
   * Modules taken as the user's build left them (reuse-as-left.ts), with the sources it compiled and the archives left
   * out.
   */
  takenAsLeft?: { module: string; changedSources: string[]; leftOut: string[] }[];
}

export interface SnapshotInput {
  projectRoot: string;
  /** Where the copies go (an empty or missing folder outside the project). */
  into: string;
  /** Module folders, root-relative, forward slashes. */
  modules: string[];
  /** Take only outputs written at or after this moment (the user's command cleaned first). */
  writtenSince?: Date;
  /** When the user's build (one that did not clean) started: outputs may then be taken as it left them. */
  builtAt?: Date;
  /**
   * Module folder -> the module folders it needs (transitively): their inputs are this
   * module's inputs too, since its classes were compiled against them. Without it, a
   * module the user's build skipped could bring classes compiled against an older API.
   */
  upstream?: ReadonlyMap<string, Iterable<string>>;
}

/** Report folders: not build outputs, never taken. */
export const UNTAKEN_OUTPUTS = new Set(['surefire-reports', 'failsafe-reports']);

/** A snapshot in its own temp folder, removed by dispose() (or at exit). */
export async function takeOutputs(
  input: Omit<SnapshotInput, 'into'> & { baseDir?: string },
): Promise<{ snapshot: OutputSnapshot; dispose(): Promise<void> }> {
  const container = await mkdtemp(path.join(path.resolve(input.baseDir ?? os.tmpdir()), ownedPrefix('mvnx-outputs-')));
  const unregister = registerCleanup(container);
  pauseForKillTest('outputs-marker');
  await markOwner(container);
  const dispose = async () => {
    await rm(container, { recursive: true, force: true, maxRetries: 3 });
    unregister();
  };
  try {
    return { snapshot: await snapshotOutputs({ ...input, into: path.join(container, 'modules') }), dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

export async function snapshotOutputs(input: SnapshotInput): Promise<OutputSnapshot> {
  const source = path.resolve(input.projectRoot);
  const modules = [...new Set(input.modules)].sort();
  const snapshot: OutputSnapshot = { source, dir: input.into, modules: [], notTaken: [] };
  await mkdir(input.into, { recursive: true });
  const rootInputs = await rootInputsNewest(source);
  const own = new Map<string, ModuleInputs>();
  for (const module of modules) {
    const listed = await moduleInputs(
      path.join(source, module),
      modules.filter((m) => isNested(m, module)).map((m) => path.join(source, m)),
    );
    const poms = await ancestorPomsNewest(source, module);
    own.set(module, {
      ...listed,
      newestMs: Math.max(poms, listed.newestMs),
      newestOtherMs: Math.max(poms, listed.newestOtherMs),
    });
  }
  for (const module of modules) {
    const target = path.join(source, module, 'target');
    const info = await lstat(target).catch(() => undefined);
    if (!info) continue;
    if (!info.isDirectory()) {
      snapshot.notTaken.push({ module, reason: 'target is not a folder' });
      continue;
    }
    const needed = [...(input.upstream?.get(module) ?? [])];
    const upstreamNewest = Math.max(0, ...needed.map((dir) => own.get(dir)?.newestMs ?? 0));
    const inputs = Math.max(rootInputs, own.get(module)?.newestMs ?? 0, upstreamNewest);
    const outputs = await listOutputs(target);
    const verdict = freshness(outputs, inputs, input.writtenSince?.getTime());
    let leaveOut = new Set<string>();
    if (verdict) {
      const asLeft =
        input.builtAt && !input.writtenSince && !outputs.problem
          ? takeAsLeft({
              outputs: outputs.files,
              javaSources: own.get(module)?.javaSources ?? [],
              newestOtherInputMs: Math.max(rootInputs, own.get(module)?.newestOtherMs ?? 0, upstreamNewest),
              builtAtMs: input.builtAt.getTime(),
            })
          : undefined;
      if (!asLeft || 'reason' in asLeft) {
        snapshot.notTaken.push({ module, reason: verdict });
        continue;
      }
      leaveOut = new Set(asLeft.leaveOut);
      (snapshot.takenAsLeft ??= []).push({ module, changedSources: asLeft.changedSources, leftOut: asLeft.leaveOut });
    }
    const taken = outputs.files.filter((file) => !leaveOut.has(file.rel));
    await copyPreserving(
      taken.map(
        (file) => [path.join(target, file.rel), path.join(input.into, module, 'target', file.rel)] as [string, string],
      ),
    );
    snapshot.modules.push(module);
  }
  return snapshot;
}

interface OutputListing {
  files: OutputFile[];
  /** Why the folder cannot be taken at all (a link, a socket...). */
  problem?: string;
}

/** Pure: why a module's outputs are not fresh, or undefined when they are. */
export function freshness(outputs: OutputListing, newestInputMs: number, writtenSinceMs?: number): string | undefined {
  if (outputs.problem) return outputs.problem;
  if (outputs.files.length === 0) return 'target is empty';
  const oldest = outputs.files.reduce((min, file) => (file.mtimeMs < min.mtimeMs ? file : min));
  if (oldest.mtimeMs <= newestInputMs)
    return `target/${oldest.rel} is not newer than the module's sources (or those of a module it needs)`;
  if (writtenSinceMs !== undefined && oldest.mtimeMs < writtenSinceMs)
    return `target/${oldest.rel} was not written by your build (it cleaned first)`;
  return undefined;
}

async function listOutputs(target: string): Promise<OutputListing> {
  const files: OutputListing['files'] = [];
  let problem: string | undefined;
  const walk = async (dir: string, rel: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const relPath = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (rel === '' && UNTAKEN_OUTPUTS.has(entry.name)) continue;
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(abs, relPath);
      else if (entry.isFile()) files.push({ rel: relPath, mtimeMs: (await lstat(abs)).mtimeMs });
      else problem ??= `target/${relPath} is not a regular file`;
    }
  };
  await walk(target, '');
  return { files, ...(problem ? { problem } : {}) };
}

function isNested(candidate: string, parent: string): boolean {
  return candidate !== parent && (parent === '' || candidate.startsWith(`${parent}/`));
}

/** Never a build input: version control, mvnx's own files, editors' folders. */
const NOT_INPUTS = new Set(['.git', '.mvnx', 'node_modules', '.idea', '.vscode']);
const notAnInput = (name: string) => NOT_INPUTS.has(name) || name.startsWith('.mvnxrc');

interface ModuleInputs {
  /** The newest of every input. */
  newestMs: number;
  /** The newest input that is not a Java source. */
  newestOtherMs: number;
  /** The Java sources, relative to the module folder. */
  javaSources: OutputFile[];
}

/** A module's own files (not target/, not nested modules): their newest time, and the Java sources apart. */
async function moduleInputs(moduleDir: string, nested: string[]): Promise<ModuleInputs> {
  const listed: ModuleInputs = { newestMs: 0, newestOtherMs: 0, javaSources: [] };
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const hasPom = entries.some((e) => e.name === 'pom.xml');
    for (const entry of entries) {
      const abs = path.join(dir, entry.name);
      const relPath = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (notAnInput(entry.name) || (entry.name === 'target' && hasPom) || nested.includes(abs)) continue;
      if (rel === '' && entry.name === '.mvn') continue;
      const info = await lstat(abs).catch(() => undefined);
      if (!info) continue;
      if (info.isDirectory()) await walk(abs, relPath);
      else {
        listed.newestMs = Math.max(listed.newestMs, info.mtimeMs);
        if (entry.name.endsWith('.java')) listed.javaSources.push({ rel: relPath, mtimeMs: info.mtimeMs });
        else listed.newestOtherMs = Math.max(listed.newestOtherMs, info.mtimeMs);
      }
    }
  };
  await walk(moduleDir, '');
  return listed;
}

/** The root's `.mvn/` (jvm.config, maven.config, extensions) is an input of every module. */
async function rootInputsNewest(root: string): Promise<number> {
  let newest = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(abs);
      else newest = Math.max(newest, (await lstat(abs).catch(() => ({ mtimeMs: 0 }))).mtimeMs);
    }
  };
  await walk(path.join(root, '.mvn'));
  return newest;
}

/** Poms of the folders between the root and the module: the parents a module usually inherits from. */
async function ancestorPomsNewest(root: string, module: string): Promise<number> {
  const parts = module === '' ? [] : module.split('/');
  let newest = 0;
  for (let i = 0; i < parts.length; i++) {
    const pom = path.join(root, ...parts.slice(0, i), 'pom.xml');
    newest = Math.max(newest, (await stat(pom).catch(() => ({ mtimeMs: 0 }))).mtimeMs);
  }
  return newest;
}

/** Copies files (copy-on-write where possible) and gives each its source's modification time. */
export async function copyPreserving(pairs: [string, string][], concurrency = 32): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < pairs.length) {
      const [src, dest] = pairs[next++]!;
      await mkdir(path.dirname(dest), { recursive: true });
      // libuv's copyfile keeps the mode bits; the times are set here.
      await copyFile(src, dest, fsConstants.COPYFILE_FICLONE);
      const info = await stat(src);
      await utimes(dest, info.atimeMs / 1000, info.mtimeMs / 1000);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, pairs.length) }, worker));
}

/**
 * Points the absolute paths of `maven-status` lists (the compiler plugin's inputFiles.lst)
 * at the workspace, keeping each file's modification time.
 */
export async function rebaseStatusLists(moduleTarget: string, fromRoots: string[], toRoot: string): Promise<void> {
  const status = path.join(moduleTarget, 'maven-status');
  const lists: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(abs);
      else if (entry.isFile() && entry.name.endsWith('.lst')) lists.push(abs);
    }
  };
  await walk(status);
  for (const list of lists) {
    const before = await readFile(list, 'utf8');
    const after = rebaseListText(before, fromRoots, toRoot);
    if (after === before) continue;
    const info = await stat(list);
    await writeFile(list, after);
    await utimes(list, info.atimeMs / 1000, info.mtimeMs / 1000);
  }
}

/** Pure: every line that starts with one of `fromRoots` starts with `toRoot` instead. */
export function rebaseListText(text: string, fromRoots: string[], toRoot: string): string {
  const roots = [...new Set(fromRoots)].sort((a, b) => b.length - a.length);
  return text
    .split('\n')
    .map((line) => {
      const root = roots.find((r) => line === r || line.startsWith(`${r}${path.sep}`));
      return root === undefined ? line : toRoot + line.slice(root.length);
    })
    .join('\n');
}
