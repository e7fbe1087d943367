/**
 * The deterministic tier end to end: mvnx on each mechanical break, with a model server
 * that records a failure if it is ever asked for a completion. Every mechanical fixture
 * must end with a verified fix and zero model calls; the others must not be "fixed" by a
 * quick-fix (they stop on the model, which here is down).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { startOllamaMock, deadServerUrl, type OllamaMock } from '../helpers/ollama-mock.js';
import { copyProject, repoRoot, runMvnx, snapshotTree } from '../helpers/repair-project.js';

const fixtures = path.join(repoRoot, 'test/fixtures/fixers');
const CONFIG = 'tier: monitor\n';
let mock: OllamaMock;

beforeAll(async () => {
  mock = await startOllamaMock({ failIfCalled: true });
});
afterAll(async () => {
  await mock.close();
});

const names = (await readdir(fixtures, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
const mechanical = names.filter((name) => !name.startsWith('other-'));
const others = names.filter((name) => name.startsWith('other-'));

describe('quick-fixes through the whole engine, with no model', () => {
  it('has at least 10 mechanical fixtures', () => {
    expect(mechanical.length).toBeGreaterThanOrEqual(10);
  });

  it.each(mechanical)('%s: verified by a quick-fix with zero model calls', async (name) => {
    const copy = await copyProject(path.join(fixtures, name, 'project'), CONFIG);
    try {
      const before = await snapshotTree(copy.root);
      const run = await runMvnx(copy.root, [
        '-o',
        '-B',
        '-q',
        'test-compile',
        `--mvnx-host=${mock.url}`,
        '--mvnx-json',
      ]);
      expect(run.record?.status, run.stderr).toBe('fixed');
      const verified = run.record?.attempts.find((a) => a.outcome === 'verified');
      expect(verified?.source).toBe('fixer');
      expect(run.record?.modelCalls).toBe(0);
      expect(mock.failures).toEqual([]);
      // Monitor: the real tree is byte-identical; the fix only exists in the record.
      expect(await snapshotTree(copy.root)).toEqual(before);
      const expectedDir = path.join(fixtures, name, 'expected');
      const patch = await readFile(path.join(copy.root, '.mvnx/runs', run.record!.runId, 'fix.patch'), 'utf8');
      for (const file of await listFiles(expectedDir)) {
        const wanted = await readFile(path.join(expectedDir, file), 'utf8');
        const lastAdded = wanted.split(/\r?\n/).find((line) => !before.get(file)?.includes(line));
        if (lastAdded) expect(patch).toContain(lastAdded.trim());
      }
    } finally {
      await copy.remove();
    }
  });

  it.each(others)('%s: no quick-fix claims it; the repair stops on the missing model', async (name) => {
    const copy = await copyProject(path.join(fixtures, name, 'project'), CONFIG);
    try {
      const run = await runMvnx(copy.root, [
        '-o',
        '-B',
        '-q',
        'test',
        `--mvnx-host=${await deadServerUrl()}`,
        '--mvnx-json',
      ]);
      expect(run.record?.status, run.stderr).not.toBe('fixed');
      expect(run.record?.attempts.every((a) => a.source !== 'fixer' || a.outcome !== 'verified')).toBe(true);
      expect(run.record?.stopReason).toBe('provider-unavailable');
      expect(run.exitCode).toBe(1);
    } finally {
      await copy.remove();
    }
  });
});

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else out.push(rel);
  }
  return out;
}
