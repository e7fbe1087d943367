import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileArgument } from '../../src/maven/args.js';
import { findGitRoot, findProjectRoot, findProjectRootAbove } from '../../src/maven/project.js';

let root: string;

async function pom(dir: string, name = 'pom.xml'): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, name), '<project/>');
  return dir;
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'mvnx-project-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('findProjectRoot', () => {
  it('walks up to the top pom of consecutive pom folders', async () => {
    await pom(root);
    await pom(path.join(root, 'parent'));
    await pom(path.join(root, 'parent', 'module'));
    const module = path.join(root, 'parent', 'module');
    expect(await findProjectRoot(module, [])).toBe(root);
  });

  it('stops where the parent folder has no pom', async () => {
    await pom(path.join(root, 'a', 'b'));
    expect(await findProjectRoot(path.join(root, 'a', 'b'), [])).toBe(path.join(root, 'a', 'b'));
  });

  it('does not walk above a .git boundary', async () => {
    await pom(root);
    const repo = await pom(path.join(root, 'repo'));
    await mkdir(path.join(repo, '.git'));
    await pom(path.join(repo, 'module'));
    expect(await findProjectRoot(path.join(repo, 'module'), [])).toBe(repo);
  });

  it('returns cwd when there is no pom', async () => {
    await pom(root);
    const plain = path.join(root, 'docs');
    await mkdir(plain);
    expect(await findProjectRoot(plain, [])).toBe(plain);
  });

  it('starts at the -f target, which may be a folder or a pom of any name', async () => {
    const other = await pom(path.join(root, 'other'), 'pom-ci.xml');
    const cwd = path.join(root, 'cwd');
    await mkdir(cwd);
    expect(await findProjectRoot(cwd, ['-f', '../other/pom-ci.xml', 'verify'])).toBe(other);
    await pom(path.join(root, 'multi'));
    await pom(path.join(root, 'multi', 'core'));
    expect(await findProjectRoot(cwd, ['--file', '../multi/core'])).toBe(path.join(root, 'multi'));
  });
});

describe("findProjectRootAbove (the subcommands' rule)", () => {
  it('from a source folder without a pom, finds the top pom above it', async () => {
    await pom(root);
    await pom(path.join(root, 'core'));
    const sources = path.join(root, 'core', 'src', 'main', 'java');
    await mkdir(sources, { recursive: true });
    expect(await findProjectRootAbove(sources)).toBe(root);
    expect(await findProjectRoot(sources, [])).toBe(sources);
  });

  it('never looks above the git root, and without any pom means cwd', async () => {
    await pom(root);
    const repo = path.join(root, 'repo');
    await mkdir(path.join(repo, '.git'), { recursive: true });
    await mkdir(path.join(repo, 'docs'), { recursive: true });
    expect(await findProjectRootAbove(path.join(repo, 'docs'))).toBe(path.join(repo, 'docs'));
  });
});

describe('findGitRoot', () => {
  it('finds the nearest folder holding .git, or nothing', async () => {
    const repo = path.join(root, 'repo');
    await mkdir(path.join(repo, '.git'), { recursive: true });
    await mkdir(path.join(repo, 'a', 'b'), { recursive: true });
    expect(await findGitRoot(path.join(repo, 'a', 'b'))).toBe(repo);
    expect(await findGitRoot(repo)).toBe(repo);
  });
});

describe('fileArgument', () => {
  it('reads every -f spelling and lets the last win', () => {
    expect(fileArgument(['-f', 'a/pom.xml'])).toBe('a/pom.xml');
    expect(fileArgument(['--file=b', '-f', 'c'])).toBe('c');
    expect(fileArgument(['-fd/pom.xml'])).toBe('d/pom.xml');
    expect(fileArgument(['-fae', '-ff', '-fn', 'verify'])).toBeUndefined();
    expect(fileArgument(['-f'])).toBeUndefined();
    expect(fileArgument(['--file='])).toBeUndefined();
  });
});
