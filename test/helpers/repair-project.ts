/**
 * Runs the built CLI on a temp copy of a fixture project, the way a user would,
 * and reads back what it left: exit code, stdout JSON, the run record and the tree.
 */
import { execa } from 'execa';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRunRecordFromStdout } from '../../src/bench/harness.js';
import type { RunRecord } from '../../src/report/run-record.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../..');
export const cliPath = path.join(repoRoot, 'dist/cli/mvnx.cjs');
export const repairFixtures = path.join(repoRoot, 'test/fixtures/repair');

export const FAST_MAVEN_OPTS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto';

export async function reply(name: string): Promise<string> {
  return readFile(path.join(repairFixtures, 'replies', `${name}.md`), 'utf8');
}

export interface ProjectCopy {
  root: string;
  remove(): Promise<void>;
  snapshot(): Promise<Map<string, string>>;
}

/** A throwaway copy of a fixture, optionally with a `.mvnxrc.yaml`. */
export async function copyProject(source: string, config?: string): Promise<ProjectCopy> {
  const parent = await mkdtemp(path.join(tmpdir(), 'mvnx-it-'));
  const root = path.join(parent, path.basename(source));
  await cp(source, root, {
    recursive: true,
    filter: (file) => !/[\\/](target|\.mvnx)([\\/]|$)/.test(file.slice(source.length)),
  });
  if (config) await writeFile(path.join(root, '.mvnxrc.yaml'), config);
  return {
    root,
    remove: () => rm(parent, { recursive: true, force: true }),
    snapshot: () => snapshotTree(root),
  };
}

/** Every file outside target/ and .mvnx/, with its content: to prove a tree untouched. */
export async function snapshotTree(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name === 'target' || entry.name === '.mvnx') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else files.set(path.relative(root, full), await readFile(full, 'utf8'));
    }
  };
  await walk(root);
  return files;
}

export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** The `--mvnx-json` record, when one was printed. */
  record?: RunRecord;
}

export async function runMvnx(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const started = Date.now();
  const result = await execa('node', [cliPath, ...args], {
    cwd,
    reject: false,
    stdin: 'ignore',
    env: { CI: 'true', MAVEN_OPTS: FAST_MAVEN_OPTS, ...env },
  });
  const record = parseRunRecordFromStdout(result.stdout);
  return {
    exitCode: result.exitCode ?? -1,
    stdout: result.stdout,
    stderr: result.stderr,
    durationMs: Date.now() - started,
    ...(record ? { record } : {}),
  };
}

export async function readRecordFile(root: string, file: string): Promise<string> {
  const runId = (await readFile(path.join(root, '.mvnx/runs/latest'), 'utf8')).trim();
  return readFile(path.join(root, '.mvnx/runs', runId, file), 'utf8');
}
