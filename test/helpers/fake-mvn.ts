/** Helpers around test/helpers/fake-mvn: where it is and what it recorded. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './temp-dir.js';

export const FAKE_MVN = fileURLToPath(new URL('./fake-mvn', import.meta.url));

export interface FakeMvnRecord {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
}

export async function recordDir(): Promise<string> {
  return path.join(await tempDir('mvnx-fake-'), 'record');
}

export async function readRecord(dir: string): Promise<FakeMvnRecord> {
  const argvText = await readFile(path.join(dir, 'argv'), 'utf8');
  const envText = await readFile(path.join(dir, 'env'), 'utf8');
  const env: Record<string, string> = {};
  for (const entry of envText.split('\0')) {
    const equals = entry.indexOf('=');
    if (equals > 0) env[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  return {
    argv: argvText === '' ? [] : argvText.slice(0, -1).split('\0'),
    env,
    cwd: (await readFile(path.join(dir, 'cwd'), 'utf8')).trim(),
  };
}
