import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MvnxError } from '../../src/shared/errors.js';
import { runReporters } from '../../src/plugins/load.js';
import { loadPlugins } from '../../src/repair/plugins.js';
import type { RunRecord } from '../../src/report/run-record.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A project folder with these files (paths relative to it). */
async function project(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'mvnx-plugins-'));
  dirs.push(root);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

const FIXER = `{ name: 'acme/sum', handles: (d) => d.kind === 'compile', propose: async () => [] }`;
const REPORTER = `{ name: 'acme-log', report: async () => {} }`;
const TOOL = `{ name: 'who_owns', description: 'the team owning a file', parameters: { file: { type: 'string', description: 'a file' } }, states: ['collect'], run: async () => ({ ok: true, output: 'team-a' }) }`;

async function loadError(specifiers: string[], root: string): Promise<MvnxError> {
  const error = await loadPlugins(specifiers, { projectRoot: root }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(MvnxError);
  expect((error as MvnxError).exitCode).toBe(2);
  return error as MvnxError;
}

describe('loadPlugins', () => {
  it('loads a local ES module by relative and by absolute path, with its fixers and reporters', async () => {
    const root = await project({ 'tools/typos.mjs': `export default { name: 'acme', version: '1.2.0', fixers: [${FIXER}], reporters: [${REPORTER}] };\n` });
    for (const specifier of ['./tools/typos.mjs', path.join(root, 'tools/typos.mjs')]) {
      const loaded = await loadPlugins([specifier], { projectRoot: root });
      expect(loaded.plugins.map((p) => [p.specifier, p.file, p.plugin.name])).toEqual([[specifier, path.join(root, 'tools/typos.mjs'), 'acme']]);
      expect(loaded.fixers.map((f) => f.name)).toEqual(['acme/sum']);
      expect(loaded.reporters.map((r) => [r.plugin, r.reporter.name])).toEqual([['acme', 'acme-log']]);
      expect(loaded.notes).toEqual([]);
    }
  });

  it('loads an npm package from the project\'s node_modules, CommonJS or ES module, and an export named plugin', async () => {
    const root = await project({
      'node_modules/mvnx-plugin-cjs/package.json': JSON.stringify({ name: 'mvnx-plugin-cjs', main: 'index.js' }),
      'node_modules/mvnx-plugin-cjs/index.js': `module.exports = { name: 'cjs', fixers: [${FIXER}] };\n`,
      'node_modules/@acme/mvnx-plugin/package.json': JSON.stringify({ name: '@acme/mvnx-plugin', type: 'module', exports: { '.': { default: './main.js' } } }),
      'node_modules/@acme/mvnx-plugin/main.js': `export const plugin = { name: 'scoped', reporters: [${REPORTER}] };\n`,
    });
    const loaded = await loadPlugins(['mvnx-plugin-cjs', '@acme/mvnx-plugin'], { projectRoot: root });
    expect(loaded.plugins.map((p) => p.plugin.name)).toEqual(['cjs', 'scoped']);
    expect(loaded.fixers.map((f) => f.name)).toEqual(['acme/sum']);
    expect(loaded.reporters.map((r) => r.plugin)).toEqual(['scoped']);
  });

  it('finds a package installed in a parent folder, as node does', async () => {
    const root = await project({
      'node_modules/mvnx-plugin-up/package.json': JSON.stringify({ name: 'mvnx-plugin-up', main: 'index.js' }),
      'node_modules/mvnx-plugin-up/index.js': `module.exports = { name: 'up' };\n`,
      'service/pom.xml': '<project/>',
    });
    const loaded = await loadPlugins(['mvnx-plugin-up'], { projectRoot: path.join(root, 'service') });
    expect(loaded.plugins[0]?.plugin.name).toBe('up');
  });

  it('loads parsers, and refuses a malformed one or a second parser of the same name with one line each', async () => {
    const parser = "{ name: 'acme-lint', reports: ['acme-lint.xml'], start: () => ({ line: () => undefined }) }";
    const root = await project({
      'p.mjs': `export default { name: 'lint', parsers: [${parser}] };\n`,
      'q.mjs': `export default { name: 'lint2', parsers: [${parser}] };\n`,
      'bad.mjs': `export default { name: 'bad', parsers: [{ name: 'x' }] };\n`,
      'folder.mjs': `export default { name: 'folder', parsers: [{ name: 'y', reports: ['target/y.xml'], start() {} }] };\n`,
    });
    const loaded = await loadPlugins(['./p.mjs'], { projectRoot: root });
    expect(loaded.parsers.map((p) => [p.name, p.reports])).toEqual([['acme-lint', ['acme-lint.xml']]]);
    expect(loaded.notes).toEqual([]);
    await expect(loadPlugins(['./bad.mjs'], { projectRoot: root })).rejects.toThrow('plugin ./bad.mjs: parsers[0]: parser x needs a start(context) function that returns { line?, report?, finish? }');
    await expect(loadPlugins(['./folder.mjs'], { projectRoot: root })).rejects.toThrow('plugins[0]'.replace('plugins', 'parsers'));
    await expect(loadPlugins(['./p.mjs', './q.mjs'], { projectRoot: root })).rejects.toThrow('plugin ./q.mjs: parser acme-lint has the name of a parser another plugin already has');
  });

  it('loads agent tools', async () => {
    const root = await project({ 'p.mjs': `export default { name: 'owners', tools: [${TOOL}] };\n` });
    const loaded = await loadPlugins(['./p.mjs'], { projectRoot: root });
    expect(loaded.tools.map((tool) => [tool.name, tool.states])).toEqual([['who_owns', ['collect']]]);
    expect(loaded.notes).toEqual([]);
  });

  it('names a missing file and a package that is not installed', async () => {
    const root = await project({});
    expect((await loadError(['./nope.mjs'], root)).message).toBe('plugin ./nope.mjs: no such file');
    expect((await loadError(['mvnx-plugin-missing'], root)).message).toBe(
      `plugin mvnx-plugin-missing: not found from ${root} (install it there, e.g. npm install --save-dev mvnx-plugin-missing)`,
    );
  });

  it('explains a package whose exports offer nothing to load', async () => {
    const root = await project({
      'node_modules/esm-only/package.json': JSON.stringify({ name: 'esm-only', exports: { '.': { import: './x.mjs' } } }),
      'node_modules/esm-only/x.mjs': 'export default {};\n',
    });
    expect((await loadError(['esm-only'], root)).message).toBe('plugin esm-only: its package.json "exports" has no "default" or "require" entry to load');
  });

  it('reports a module that throws or does not parse as one line naming the file', async () => {
    const root = await project({ 'throws.mjs': "throw new Error('no API key\\nstack...');\n", 'broken.mjs': 'export default {\n' });
    expect((await loadError(['./throws.mjs'], root)).message).toBe(`plugin ./throws.mjs: loading ${path.join(root, 'throws.mjs')} failed: no API key`);
    expect((await loadError(['./broken.mjs'], root)).message).toMatch(new RegExp(`^plugin \\./broken\\.mjs: loading .*broken\\.mjs failed: \\S`));
  });

  it.each([
    ['export const nothing = 1;', 'its default export (or export "plugin") must be an object with a name'],
    ['export default [1];', 'its default export (or export "plugin") must be an object with a name'],
    ['export default { fixers: [] };', 'the plugin object needs a name'],
    ["export default { name: 'x', fixer: [] };", 'unknown key "fixer" (a plugin has name, version, description, fixers, reporters, parsers, tools)'],
    ["export default { name: 'x', fixers: {} };", 'fixers must be an array'],
    ["export default { name: 'x', fixers: [{ name: 'a b', handles() {}, propose() {} }] };", 'fixers[0]: a fixer needs a non-empty name without spaces, got "a b"'],
    ["export default { name: 'x', fixers: [{ name: 'ok', handles() {} }] };", 'fixers[0]: fixer ok must have handles() and propose() functions'],
    ["export default { name: 'x', reporters: [{ name: 'r' }] };", 'reporters[0]: a reporter must be an object with a name and a report(record, context) function'],
    ["export default { name: 'x', tools: [{ name: 'Who Owns' }] };", 'tools[0]: a tool name is lower_snake_case, got "Who Owns"'],
    ["export default { name: 'x', tools: [{ name: 'who', description: 'd', parameters: {}, states: ['debug'], run() {} }] };", 'tools[0]: tool who: states must list some of understand, collect, fix'],
    ["export default { name: 'x', tools: [{ name: 'who', description: 'd', parameters: {}, states: ['fix'] }] };", 'tools[0]: tool who needs a run(args, context) function'],
  ])('refuses a plugin of the wrong shape: %s', async (source, problem) => {
    const root = await project({ 'p.mjs': `${source}\n` });
    expect((await loadError(['./p.mjs'], root)).message).toBe(`plugin ./p.mjs: ${problem}`);
  });

  it('refuses two plugins with one name, and a fixer or tool named like a built-in one', async () => {
    const root = await project({
      'd.mjs': "export default { name: 'd', tools: [{ name: 'read_range', description: 'mine', parameters: {}, states: ['fix'], run: async () => ({ ok: true, output: '' }) }] };\n",
      'a.mjs': "export default { name: 'same' };\n",
      'b.mjs': "export default { name: 'same' };\n",
      'c.mjs': "export default { name: 'c', fixers: [{ name: 'missing-import', handles: () => false, propose: async () => [] }] };\n",
    });
    expect((await loadError(['./a.mjs', './b.mjs'], root)).message).toBe('plugin ./b.mjs: another plugin is already named same');
    expect((await loadError(['./c.mjs'], root)).message).toBe('plugin ./c.mjs: fixer missing-import has the name of a fixer mvnx already has');
    expect((await loadError(['./d.mjs'], root)).message).toBe('plugin ./d.mjs: tool read_range has the name of a tool mvnx already has');
  });
});

describe('runReporters', () => {
  it('runs every reporter, and a failing one becomes one warning line without stopping the others', async () => {
    const seen: string[] = [];
    const warnings: string[] = [];
    const record = { runId: 'r1', status: 'unfixed' } as RunRecord;
    await runReporters(
      [
        { plugin: 'a', reporter: { name: 'boom', report: () => Promise.reject(new Error('webhook 500\nbody')) } },
        { plugin: 'b', reporter: { name: 'log', report: (r, context) => void seen.push(`${r.runId} ${context.recordDir}`) } },
      ],
      record,
      { projectRoot: '/p', recordDir: '/p/.mvnx/runs/r1' },
      (line) => warnings.push(line),
    );
    expect(seen).toEqual(['r1 /p/.mvnx/runs/r1']);
    expect(warnings).toEqual(['mvnx: reporter boom of plugin a failed: webhook 500']);
  });
});
