/**
 * Reads an installed node_modules tree the way npm left it: which packages are there, whether
 * a user's install gets them (not dev-only), and what Node versions each one declares.
 * npm records the installed tree in node_modules/.package-lock.json; the engines are read
 * from each package's own package.json on disk, since that is what npm checks at install.
 */
import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';

export interface InstalledPackage {
  /** Path under the project root, e.g. `node_modules/@octokit/request/node_modules/content-type`. */
  location: string;
  name: string;
  version: string;
  /** True when only a development install has it (npm's `dev` or `devOptional`). */
  devOnly: boolean;
  /** `engines.node` of the installed package.json, when it declares one. */
  nodeRange?: string;
}

interface HiddenLockEntry {
  dev?: boolean;
  devOptional?: boolean;
}

export async function readInstalledTree(projectRoot: string): Promise<InstalledPackage[]> {
  const lockFile = path.join(projectRoot, 'node_modules/.package-lock.json');
  const lock = JSON.parse(await readFile(lockFile, 'utf8')) as { packages?: Record<string, HiddenLockEntry> };
  const installed: InstalledPackage[] = [];
  for (const [location, entry] of Object.entries(lock.packages ?? {})) {
    if (!location.startsWith('node_modules/')) continue;
    const manifest = await readManifest(path.join(projectRoot, location, 'package.json'));
    // Optional packages for other platforms are listed but not on disk: nothing to check.
    if (!manifest) continue;
    installed.push({
      location,
      name: manifest.name ?? location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length),
      version: manifest.version ?? '?',
      devOnly: entry.dev === true || entry.devOptional === true,
      ...(typeof manifest.engines?.node === 'string' ? { nodeRange: manifest.engines.node } : {}),
    });
  }
  return installed;
}

interface Manifest {
  name?: string;
  version?: string;
  engines?: { node?: unknown };
}

async function readManifest(file: string): Promise<Manifest | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Manifest;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export interface EngineMismatch {
  package: string;
  location: string;
  /** What the package declares; every version our range admits must be in it. */
  declares: string;
}

/**
 * The packages a user's install gets whose `engines.node` does not admit every Node version
 * `ourRange` admits: on those versions npm prints EBADENGINE, and the package may not work.
 */
export function engineMismatches(ourRange: string, packages: readonly InstalledPackage[]): EngineMismatch[] {
  if (semver.validRange(ourRange) === null) throw new Error(`package.json engines.node is not a range: ${ourRange}`);
  return packages
    .filter((pkg) => !pkg.devOnly && pkg.nodeRange !== undefined)
    .filter((pkg) => semver.validRange(pkg.nodeRange!) === null || !semver.subset(ourRange, pkg.nodeRange!))
    .map((pkg) => ({ package: `${pkg.name}@${pkg.version}`, location: pkg.location, declares: pkg.nodeRange! }));
}

/**
 * Compiled addons (`*.node`) under the given installed packages: these are built for one Node
 * ABI unless they use Node-API, so each one is a reason to run the tests on every Node line.
 */
export async function nativeAddons(projectRoot: string, packages: readonly InstalledPackage[]): Promise<string[]> {
  const found: string[] = [];
  for (const pkg of packages) {
    const dir = path.join(projectRoot, pkg.location);
    for (const file of await filesBelow(dir)) if (file.endsWith('.node')) found.push(path.relative(projectRoot, file));
  }
  return found;
}

async function filesBelow(dir: string): Promise<string[]> {
  try {
    await access(dir);
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    // A nested node_modules holds packages of its own, which the tree lists separately.
    if (entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await filesBelow(full)));
    else files.push(full);
  }
  return files;
}
