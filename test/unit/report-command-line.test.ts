/**
 * The line `mvnx report` ends with (issue 48): a path the user can open from where they
 * are (relative below cwd, absolute elsewhere, never a chain of ../) and "1 run", not "1 runs".
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run as report } from '../../src/cli/commands/report.js';
import { record } from './stats-support.js';

let base: string;
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(base, { recursive: true, force: true });
});

async function projectWithOneRun(): Promise<string> {
  base = await mkdtemp(path.join(os.tmpdir(), 'mvnx-report-line-'));
  const root = path.join(base, 'project');
  const runId = '20260101-090000Z-abcdef';
  await mkdir(path.join(root, '.mvnx/runs', runId), { recursive: true });
  await writeFile(path.join(root, 'pom.xml'), '<project/>');
  const started = new Date(Date.now() - 3600_000).toISOString();
  await writeFile(
    path.join(root, '.mvnx/runs', runId, 'run.json'),
    JSON.stringify(record({ runId, startedAt: started })),
  );
  return root;
}

async function reportLine(cwd: string, html: string): Promise<string> {
  let err = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  });
  expect(await report(['--html', html], { cwd, env: {} })).toBe(0);
  vi.restoreAllMocks();
  return err.trim();
}

describe('mvnx report: the line it ends with', () => {
  it('names a file outside cwd by its absolute path, and one run as "1 run"', async () => {
    const root = await projectWithOneRun();
    const outside = path.join(base, 'pages', 'r.html');

    const line = await reportLine(root, path.relative(root, outside));

    expect(line).toBe(`mvnx: report written to ${outside} (1 run, 1 repository)`);
  });

  it('names a file below cwd relative to it', async () => {
    const root = await projectWithOneRun();
    expect(await reportLine(root, 'out/r.html')).toBe('mvnx: report written to out/r.html (1 run, 1 repository)');
  });
});
