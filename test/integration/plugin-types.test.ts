/**
 * A plugin written in TypeScript takes its shapes from the package: `mvnx/plugin` is the
 * one public import (package.json `exports`), and its declarations are the contracts
 * mvnx's own fixers and tools use. Checked the way an author's project would check it:
 * mvnx installed in node_modules, tsc with NodeNext resolution, strict. At run time it is
 * the contracts module alone: a plugin that imports it loads no zod and no config schema.
 */
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from '../helpers/repair-project.js';
import { tempDir } from '../helpers/temp-dir.js';

const TSC = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
const HOOK = path.join(repoRoot, 'test/helpers/module-log-hook.mjs');

const GOOD_PLUGIN = `
import type { Fixer, MvnxPlugin, RunReporter } from 'mvnx/plugin';

const streamSum: Fixer = {
  name: 'acme/stream-sum',
  handles: (diagnostic) => diagnostic.kind === 'compile' && /cannot find symbol/.test(diagnostic.message),
  async propose(diagnostics, view) {
    const candidates = [];
    for (const d of diagnostics) {
      if (!d.file) continue;
      const before = await view.read(d.file);
      if (before?.includes('.totl()')) {
        candidates.push({ fixer: 'acme/stream-sum', changeSet: { files: [{ path: d.file, before, after: before.replace('.totl()', '.sum()') }] }, confidence: 0.9, reason: 'IntStream has sum()' });
      }
    }
    return candidates;
  },
};

const counter: RunReporter = {
  name: 'acme/counter',
  report(record) {
    console.log(record.runId, record.status, record.attempts.length);
  },
};

const plugin: MvnxPlugin = { name: 'acme', fixers: [streamSum], reporters: [counter] };
export default plugin;
`;

// A reporter whose report() reads a field the run record does not have.
const BAD_PLUGIN = `
import type { MvnxPlugin } from 'mvnx/plugin';
const plugin: MvnxPlugin = { name: 'acme', reporters: [{ name: 'r', report(record) { return record.noSuchField; } }] };
export default plugin;
`;

async function authorProject(source: string): Promise<string> {
  const dir = await tempDir('mvnx-plugin-types-');
  await mkdir(path.join(dir, 'node_modules'), { recursive: true });
  await symlink(repoRoot, path.join(dir, 'node_modules/mvnx'), 'dir');
  await writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'acme-plugin', type: 'module', private: true }),
  );
  await writeFile(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        typeRoots: [path.join(repoRoot, 'node_modules/@types')],
        types: ['node'],
      },
      include: ['plugin.ts'],
    }),
  );
  await writeFile(path.join(dir, 'plugin.ts'), source);
  return dir;
}

it('a TypeScript plugin type-checks against mvnx/plugin, and a wrong field is a type error', async () => {
  expect(existsSync(path.join(repoRoot, 'dist/plugins/contracts.d.ts')), 'run npm run build first').toBe(true);

  const good = await execa('node', [TSC, '-p', '.'], { cwd: await authorProject(GOOD_PLUGIN), reject: false });
  expect(good.stdout + good.stderr).toBe('');
  expect(good.exitCode).toBe(0);

  const bad = await execa('node', [TSC, '-p', '.'], { cwd: await authorProject(BAD_PLUGIN), reject: false });
  expect(bad.exitCode).not.toBe(0);
  expect(bad.stdout).toMatch(
    /plugin\.ts\(\d+,\d+\): error TS2339: Property 'noSuchField' does not exist on type 'RunRecord'/,
  );
});

it('the package exposes only mvnx/plugin to imports, not its internals', async () => {
  const dir = await authorProject('');
  const importOf = (specifier: string) =>
    execa('node', ['--input-type=module', '-e', `await import(${JSON.stringify(specifier)}); console.log('ok')`], {
      cwd: dir,
      reject: false,
    });
  expect((await importOf('mvnx/plugin')).stdout).toBe('ok');
  const internal = await importOf('mvnx/dist/repair/loop/repair-loop.js');
  expect(internal.exitCode).not.toBe(0);
  expect(internal.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
});

it('importing mvnx/plugin at run time loads the contracts module alone: no zod, no config schema', async () => {
  const dir = await authorProject('');
  const log = path.join(dir, 'modules.log');
  const run = await execa(
    'node',
    [`--import=${HOOK}`, '--input-type=module', '-e', "await import('mvnx/plugin'); console.log('ok')"],
    {
      cwd: dir,
      env: { MVNX_TEST_MODULE_LOG: log, MVNX_TEST_MODULE_MATCH: '' },
      reject: false,
    },
  );
  expect(run.stdout, run.stderr).toBe('ok');
  const loaded = [...new Set((await readFile(log, 'utf8')).split('\n').filter((url) => url.startsWith('file:')))];
  expect(
    loaded.filter((url) => url.includes('/node_modules/zod/')),
    'zod loaded',
  ).toEqual([]);
  expect(
    loaded.filter((url) => url.includes('/policy/schema')),
    'the config schema loaded',
  ).toEqual([]);
  expect(loaded.map((url) => path.relative(repoRoot, new URL(url).pathname))).toEqual(['dist/plugins/contracts.js']);
});
