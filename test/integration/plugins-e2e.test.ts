/**
 * Plugins through the whole engine with real Maven: a local plugin's fixer repairs a
 * failure no built-in quick-fix knows, its reporter sees the final record, and a plugin
 * that cannot be loaded stops the repair with one line while Maven's exit code stands.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOllamaMock, type OllamaMock } from '../helpers/ollama-mock.js';
import { copyProject, repoRoot, runMvnx, snapshotTree } from '../helpers/repair-project.js';

const unknownMethod = path.join(repoRoot, 'test/fixtures/fixers/other-unknown-method/project');
let mock: OllamaMock;

beforeAll(async () => {
  mock = await startOllamaMock({ failIfCalled: true });
});
afterAll(async () => {
  await mock.close();
});

const TYPOS_PLUGIN = `
import { mkdirSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

export default {
  name: 'acme-typos',
  version: '1.0.0',
  fixers: [
    {
      name: 'acme/stream-sum',
      handles: (diagnostic) => diagnostic.kind === 'compile' && diagnostic.message.includes('cannot find symbol'),
      async propose(diagnostics, view) {
        const candidates = [];
        for (const diagnostic of diagnostics) {
          const before = await view.read(diagnostic.file);
          if (before && before.includes('.totl()')) {
            candidates.push({
              changeSet: { files: [{ path: diagnostic.file, before, after: before.replace('.totl()', '.sum()') }] },
              confidence: 0.9,
              reason: 'IntStream has sum(), not totl()',
            });
          }
        }
        return candidates;
      },
    },
  ],
  reporters: [
    {
      name: 'acme-record-copy',
      async report(record, context) {
        await writeFile(path.join(context.recordDir, 'reported.json'), JSON.stringify({ runId: record.runId, status: record.status }));
      },
    },
  ],
  parsers: [
    {
      // Finds nothing, but leaves what it read where the test can see it: the build's own log.
      name: 'acme-log-parser',
      start: ({ projectRoot }) => {
        const levels = {};
        return {
          line: ({ level }) => { levels[level ?? 'none'] = (levels[level ?? 'none'] ?? 0) + 1; },
          finish: () => {
            mkdirSync(path.join(projectRoot, '.mvnx'), { recursive: true });
            writeFileSync(path.join(projectRoot, '.mvnx', 'parser-saw.json'), JSON.stringify(levels));
          },
        };
      },
    },
  ],
};
`;

describe('plugins', () => {
  it('a local plugin fixer repairs what no built-in fixer handles, with no model call, and its reporter sees the record', async () => {
    const copy = await copyProject(unknownMethod, 'tier: monitor\nplugins:\n  - ./mvnx/typos.mjs\n');
    try {
      await mkdir(path.join(copy.root, 'mvnx'), { recursive: true });
      await writeFile(path.join(copy.root, 'mvnx/typos.mjs'), TYPOS_PLUGIN);
      const before = await snapshotTree(copy.root);
      const run = await runMvnx(copy.root, ['-o', '-B', '-q', 'compile', `--mvnx-host=${mock.url}`, '--mvnx-json']);
      expect(run.exitCode).toBe(1);
      expect(run.record?.status, run.stderr).toBe('fixed');
      const verified = run.record?.attempts.find((attempt) => attempt.outcome === 'verified');
      expect(verified).toMatchObject({
        source: 'fixer',
        fixer: 'acme/stream-sum',
        filesChanged: ['src/main/java/com/acme/shop/Basket.java'],
      });
      expect(run.record?.modelCalls).toBe(0);
      expect(mock.failures).toEqual([]);
      expect(run.record?.decisions).toContain('plugins: acme-typos');
      // The plugin's parser read the failed build's log (-q: only its [ERROR] lines).
      expect(JSON.parse(await readFile(path.join(copy.root, '.mvnx', 'parser-saw.json'), 'utf8'))).toMatchObject({
        ERROR: expect.any(Number),
      });
      const recordDir = path.join(copy.root, '.mvnx/runs', run.record!.runId);
      expect(JSON.parse(await readFile(path.join(recordDir, 'reported.json'), 'utf8'))).toEqual({
        runId: run.record!.runId,
        status: 'fixed',
      });
      expect(await readFile(path.join(recordDir, 'fix.patch'), 'utf8')).toContain(
        '+        return prices.stream().mapToInt(Integer::intValue).sum();',
      );
      // Monitor: the tree is untouched.
      expect(await snapshotTree(copy.root)).toEqual(before);
    } finally {
      await copy.remove();
    }
  });

  it("a plugin that is not installed stops the repair with one line; the exit code is Maven's", async () => {
    const copy = await copyProject(unknownMethod, 'tier: monitor\nplugins:\n  - mvnx-plugin-not-installed\n');
    try {
      const run = await runMvnx(copy.root, ['-o', '-B', '-q', 'compile', `--mvnx-host=${mock.url}`, '--mvnx-json']);
      expect(run.exitCode).toBe(1);
      expect(run.record).toMatchObject({ status: 'error', attempts: [] });
      expect(run.stderr).toContain(
        `mvnx: the repair stopped on an error: plugin mvnx-plugin-not-installed: not found from ${copy.root} (install it there, e.g. npm install --save-dev mvnx-plugin-not-installed).`,
      );
      expect(mock.failures).toEqual([]);
    } finally {
      await copy.remove();
    }
  });

  it('a passing build never loads plugins: a broken one costs nothing and prints nothing', async () => {
    const copy = await copyProject(path.join(repoRoot, 'examples/passing'), 'plugins:\n  - ./no-such-plugin.mjs\n');
    try {
      const run = await runMvnx(copy.root, ['-o', '-q', 'compile']);
      expect([run.exitCode, run.stderr.replace(/\x1b\[0m/g, '')]).toEqual([0, '']);
    } finally {
      await copy.remove();
    }
  });
});
