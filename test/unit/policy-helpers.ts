// Shared by the policy-*.test.ts files: real folders in the OS temp dir, real loading.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { MvnxError } from '../../src/shared/errors.js';
import { loadEffectiveConfig, type LoadConfigOptions } from '../../src/policy/load.js';
import type { EffectiveConfig } from '../../src/policy/schema.js';

const created: string[] = [];
afterAll(async () => {
  await Promise.all(created.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A temp folder with a `.git` folder (the search's stop) and the given files. */
export async function tempRepo(files: Record<string, string> = {}, options: { git?: boolean } = {}): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'mvnx-policy-'));
  created.push(root);
  if (options.git !== false) await mkdir(path.join(root, '.git'));
  await writeFiles(root, files);
  return root;
}

export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), content);
  }
}

export function load(
  projectRoot: string,
  options: Partial<Omit<LoadConfigOptions, 'projectRoot'>> = {},
): Promise<EffectiveConfig> {
  return loadEffectiveConfig({ projectRoot, env: {}, ...options });
}

/** The one-line MvnxError message loading fails with; fails the test when loading succeeds. */
export async function loadError(
  projectRoot: string,
  options: Partial<Omit<LoadConfigOptions, 'projectRoot'>> = {},
): Promise<string> {
  try {
    await load(projectRoot, options);
  } catch (error) {
    if (!(error instanceof MvnxError)) throw error;
    if (error.exitCode !== 2) throw new Error(`exit code ${error.exitCode}, expected 2`);
    if (error.message.includes('\n')) throw new Error(`message is not one line: ${error.message}`);
    return error.message;
  }
  throw new Error('expected loading to fail');
}
