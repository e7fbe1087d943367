import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MvnxError } from '../../src/shared/errors.js';
import { runReporters } from '../../src/plugins/load-plugins.js';
import { loadPlugins } from '../../src/app/plugin-loading.js';
import { checkTestIntegrity } from '../../src/repair/integrity/index.js';
import type { Diagnostic } from '../../src/diagnose/types.js';
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
    const root = await project({
      'tools/typos.mjs': `export default { name: 'acme', version: '1.2.0', fixers: [${FIXER}], reporters: [${REPORTER}] };\n`,
    });
    for (const specifier of ['./tools/typos.mjs', path.join(root, 'tools/typos.mjs')]) {
      const loaded = await loadPlugins([specifier], { projectRoot: root });
      expect(loaded.plugins.map((p) => [p.specifier, p.file, p.plugin.name])).toEqual([
        [specifier, path.join(root, 'tools/typos.mjs'), 'acme'],
      ]);
      expect(loaded.fixers.map((f) => f.name)).toEqual(['acme/sum']);
      expect(loaded.reporters.map((r) => [r.plugin, r.reporter.name])).toEqual([['acme', 'acme-log']]);
      expect(loaded.notes).toEqual([]);
    }
  });

  it("loads an npm package from the project's node_modules, CommonJS or ES module, and an export named plugin", async () => {
    const root = await project({
      'node_modules/mvnx-plugin-cjs/package.json': JSON.stringify({ name: 'mvnx-plugin-cjs', main: 'index.js' }),
      'node_modules/mvnx-plugin-cjs/index.js': `module.exports = { name: 'cjs', fixers: [${FIXER}] };\n`,
      'node_modules/@acme/mvnx-plugin/package.json': JSON.stringify({
        name: '@acme/mvnx-plugin',
        type: 'module',
        exports: { '.': { default: './main.js' } },
      }),
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
    expect((await loadError(['./bad.mjs'], root)).message).toBe(
      'plugin ./bad.mjs: parsers[0].start: found nothing, expected a function',
    );
    expect((await loadError(['./folder.mjs'], root)).message).toBe(
      'plugin ./folder.mjs: parsers[0].reports[0]: found "target/y.xml" (string), expected a file name without folders, e.g. "acme-lint.xml"',
    );
    expect((await loadError(['./p.mjs', './q.mjs'], root)).message).toBe(
      'plugin ./q.mjs: parsers[0]: the parser name "acme-lint" is already taken by parsers[0] of plugin ./p.mjs',
    );
  });

  it('loads agent tools', async () => {
    const root = await project({ 'p.mjs': `export default { name: 'owners', tools: [${TOOL}] };\n` });
    const loaded = await loadPlugins(['./p.mjs'], { projectRoot: root });
    expect(loaded.tools.map((tool) => [tool.name, tool.states])).toEqual([['who_owns', ['collect']]]);
    expect(loaded.notes).toEqual([]);
  });

  it('loads integrity rules that the check then runs after its own, and refuses a malformed one or a name taken by mvnx or another plugin', async () => {
    // A team's rule: main code may not read the environment. It can only add findings: the built-in ones stay.
    const rule = (id: string, reports = '') =>
      `{ id: '${id}', description: 'no System.getenv in main code',${reports} check: ({ changes }) => changes.filter((c) => /System\\.getenv/.test(c.after ?? '')).map((c) => ({ rule: '${id}', file: c.path, message: 'reads the environment in ' + c.path, failingTestEdit: false })) }`;
    const root = await project({
      'env.mjs': `export default { name: 'env', integrityRules: [${rule('main-reads-env')}] };\n`,
      'again.mjs': `export default { name: 'again', integrityRules: [${rule('main-reads-env')}] };\n`,
      'builtin.mjs': `export default { name: 'builtin', integrityRules: [${rule('test-side-changed')}] };\n`,
      'reported.mjs': `export default { name: 'reported', integrityRules: [${rule('mine', " reports: ['test-deleted'],")}] };\n`,
      'bad.mjs': `export default { name: 'bad', integrityRules: [{ id: 'Main Reads', description: 'x', check() {} }] };\n`,
    });
    const loaded = await loadPlugins(['./env.mjs'], { projectRoot: root });
    expect(loaded.integrityRules.map((r) => r.id)).toEqual(['main-reads-env']);
    const test = 'src/test/java/com/acme/CalcTest.java';
    const testClass = (body: string) =>
      `package com.acme;\nimport org.junit.jupiter.api.Test;\nclass CalcTest {\n  @Test void adds() { ${body} }\n}\n`;
    const verdict = checkTestIntegrity({
      changeSet: {
        files: [
          { path: test, before: testClass('assertEquals(5, 2 + 3);'), after: testClass('') },
          {
            path: 'src/main/java/com/acme/Calc.java',
            before: 'class Calc {}',
            after: 'class Calc { String home = System.getenv("HOME"); }',
          },
        ],
      },
      failingTests: [{ className: 'com.acme.CalcTest', method: 'adds' }],
      policy: { allowFailingTestEdits: false },
      rules: loaded.integrityRules,
    });
    expect(verdict.blocking.map((finding) => [finding.rule, finding.file])).toEqual([
      ['assertion-removed', test],
      ['main-reads-env', 'src/main/java/com/acme/Calc.java'],
    ]);
    expect((await loadError(['./bad.mjs'], root)).message).toBe(
      'plugin ./bad.mjs: integrityRules[0].id: found "Main Reads" (string), expected a kebab-case name, e.g. "main-reads-env"',
    );
    expect((await loadError(['./builtin.mjs'], root)).message).toBe(
      'plugin ./builtin.mjs: integrityRules[0]: the integrity rule name "test-side-changed" is already taken by a built-in integrity rule of mvnx',
    );
    expect((await loadError(['./reported.mjs'], root)).message).toBe(
      'plugin ./reported.mjs: integrityRules[0]: the integrity rule name "test-deleted" is already taken by a built-in integrity rule of mvnx',
    );
    expect((await loadError(['./env.mjs', './again.mjs'], root)).message).toBe(
      'plugin ./again.mjs: integrityRules[0]: the integrity rule name "main-reads-env" is already taken by integrityRules[0] of plugin ./env.mjs',
    );
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
      'node_modules/esm-only/package.json': JSON.stringify({
        name: 'esm-only',
        exports: { '.': { import: './x.mjs' } },
      }),
      'node_modules/esm-only/x.mjs': 'export default {};\n',
    });
    expect((await loadError(['esm-only'], root)).message).toBe(
      'plugin esm-only: its package.json "exports" has no "default" or "require" entry to load',
    );
  });

  it('reports a module that throws or does not parse as one line naming the file', async () => {
    const root = await project({
      'throws.mjs': "throw new Error('no API key\\nstack...');\n",
      'broken.mjs': 'export default {\n',
    });
    expect((await loadError(['./throws.mjs'], root)).message).toBe(
      `plugin ./throws.mjs: loading ${path.join(root, 'throws.mjs')} failed: no API key`,
    );
    expect((await loadError(['./broken.mjs'], root)).message).toMatch(
      new RegExp(`^plugin \\./broken\\.mjs: loading .*broken\\.mjs failed: \\S`),
    );
  });

  const GOOD_TOOL =
    "name: 'who', description: 'd', parameters: {}, states: ['fix'], run: async () => ({ ok: true, output: '' })";
  it.each([
    ['export const nothing = 1;', 'its default export (or export "plugin") must be an object with a name'],
    ['export default [1];', 'its default export (or export "plugin") must be an object with a name'],
    ["export default 'acme';", 'its default export (or export "plugin") must be an object with a name'],
    // The plugin object: the same words as a config error, the field path first.
    ['export default { fixers: [] };', 'name: found nothing, expected a string'],
    ["export default { name: '  ' };", 'name: found "  " (string), expected a non-empty string'],
    ["export default { name: 'x', version: 2 };", 'version: found 2 (number), expected a string'],
    ["export default { name: 'x', fixer: [] };", 'fixer: unknown key "fixer" (did you mean "fixers"?)'],
    [
      "export default { name: 'x', onLoad: 1 };",
      'onLoad: unknown key "onLoad" (expected one of: name, version, description, fixers, tools, parsers, reporters, integrityRules)',
    ],
    ["export default { name: 'x', fixers: {} };", 'fixers: found a mapping, expected a list'],
    ["export default { name: 'x', tools: 'who_owns' };", 'tools: found "who_owns" (string), expected a list'],
    ["export default { name: 'x', parsers: null };", 'parsers: found null, expected a list'],
    ["export default { name: 'x', reporters: {} };", 'reporters: found a mapping, expected a list'],
    // Fixers.
    ["export default { name: 'x', fixers: [null] };", 'fixers[0]: found null, expected a mapping (object)'],
    [
      "export default { name: 'x', fixers: [{ handles() {}, propose() {} }] };",
      'fixers[0].name: found nothing, expected a string',
    ],
    [
      "export default { name: 'x', fixers: [{ name: 'a b', handles() {}, propose() {} }] };",
      'fixers[0].name: found "a b" (string), expected a name of letters, digits and . : / - _ (no spaces)',
    ],
    [
      "export default { name: 'x', fixers: [{ name: 'ok', handles() {} }] };",
      'fixers[0].propose: found nothing, expected a function',
    ],
    [
      "export default { name: 'x', fixers: [{ name: 'ok', handles: true, propose() {} }] };",
      'fixers[0].handles: found true (boolean), expected a function',
    ],
    // Agent tools.
    [
      "export default { name: 'x', tools: [{ name: 'Who Owns' }] };",
      'tools[0].name: found "Who Owns" (string), expected a lower_snake_case name (and 4 more problems)',
    ],
    [
      "export default { name: 'x', tools: [{ name: 'who', parameters: {}, states: ['fix'], run() {} }] };",
      'tools[0].description: found nothing, expected a string',
    ],
    [
      "export default { name: 'x', tools: [{ name: 'who', description: ' ', parameters: {}, states: ['fix'], run() {} }] };",
      'tools[0].description: found " " (string), expected a non-empty string',
    ],
    [
      "export default { name: 'x', tools: [{ name: 'who', description: 'd', states: ['fix'], run() {} }] };",
      'tools[0].parameters: found nothing, expected a mapping (object)',
    ],
    [
      "export default { name: 'x', tools: [{ name: 'who', description: 'd', parameters: [], states: ['fix'], run() {} }] };",
      'tools[0].parameters: found a list, expected a mapping (object)',
    ],
    [
      "export default { name: 'x', tools: [{ name: 'who', description: 'd', parameters: { file: { type: 'path', description: 'f' } }, states: ['fix'], run() {} }] };",
      'tools[0].parameters.file.type: found "path" (string), expected one of "string", "integer", "string[]"',
    ],
    [
      "export default { name: 'x', tools: [{ name: 'who', description: 'd', parameters: { file: { type: 'string' } }, states: ['fix'], run() {} }] };",
      'tools[0].parameters.file.description: found nothing, expected a string',
    ],
    [
      "export default { name: 'x', tools: [{ name: 'who', description: 'd', parameters: {}, states: ['debug'], run() {} }] };",
      'tools[0].states[0]: found "debug" (string), expected one of "understand", "collect", "fix"',
    ],
    [
      "export default { name: 'x', tools: [{ name: 'who', description: 'd', parameters: {}, states: [], run() {} }] };",
      'tools[0].states: found a list, expected a list of at least 1 item(s)',
    ],
    [
      "export default { name: 'x', tools: [{ name: 'who', description: 'd', parameters: {}, states: ['fix'] }] };",
      'tools[0].run: found nothing, expected a function',
    ],
    // Parsers.
    ["export default { name: 'x', parsers: [() => []] };", 'parsers[0]: found a function, expected a mapping (object)'],
    [
      "export default { name: 'x', parsers: [{ name: 'p', start: {} }] };",
      'parsers[0].start: found a mapping, expected a function',
    ],
    [
      "export default { name: 'x', parsers: [{ name: 'p', reports: 'p.xml', start() {} }] };",
      'parsers[0].reports: found "p.xml" (string), expected a list',
    ],
    // Reporters.
    [
      "export default { name: 'x', reporters: [{ name: 'r' }] };",
      'reporters[0].report: found nothing, expected a function',
    ],
    [
      "export default { name: 'x', reporters: [{ report() {} }] };",
      'reporters[0].name: found nothing, expected a string',
    ],
    // More than one problem: the first, and how many more.
    [
      `export default { name: 'x', fixers: [{ name: 'a' }], tools: [{ ${GOOD_TOOL}, run: 1 }] };`,
      'fixers[0].handles: found nothing, expected a function (and 2 more problems)',
    ],
  ])('refuses a plugin of the wrong shape: %s', async (source, problem) => {
    const root = await project({ 'p.mjs': `${source}\n` });
    expect((await loadError(['./p.mjs'], root)).message).toBe(`plugin ./p.mjs: ${problem}`);
  });

  it('notes the fields of a part that mvnx does not read, and keeps a class instance as it is (its methods keep their this)', async () => {
    const root = await project({
      'p.mjs': `class SumFixer {
  constructor() { this.name = 'acme/sum'; this.pattern = /totl/; this.priority = 3; }
  handles(d) { return this.pattern.test(d.message); }
  async propose() { return []; }
}
export default { name: 'acme', fixers: [new SumFixer()], tools: [{ name: 'who', description: 'd', parameters: {}, states: ['fix'], run: async () => ({ ok: true, output: '' }), cache: {} }] };
`,
    });
    const loaded = await loadPlugins(['./p.mjs'], { projectRoot: root });
    expect(loaded.fixers[0]?.handles({ kind: 'compile', message: 'x.totl()' } as Diagnostic)).toBe(true);
    expect(loaded.notes).toEqual([
      'plugin ./p.mjs: fixers[0].pattern is not read by mvnx (a fixer has name, handles, propose)',
      'plugin ./p.mjs: fixers[0].priority is not read by mvnx (a fixer has name, handles, propose)',
      'plugin ./p.mjs: tools[0].cache is not read by mvnx (a tool has name, description, parameters, states, run)',
    ]);
  });

  it('refuses a name used twice, naming both: plugins, a fixer or tool of mvnx, and fixers, tools, parsers or reporters of two plugins or of one', async () => {
    const tool = (name: string) =>
      `{ name: '${name}', description: 'mine', parameters: {}, states: ['fix'], run: async () => ({ ok: true, output: '' }) }`;
    const fixer = (name: string) => `{ name: '${name}', handles: () => false, propose: async () => [] }`;
    const reporter = (name: string) => `{ name: '${name}', report: async () => {} }`;
    const root = await project({
      'a.mjs': `export default { name: 'same', fixers: [${fixer('acme/sum')}], tools: [${tool('who_owns')}], reporters: [${reporter('chat')}] };\n`,
      'b.mjs': "export default { name: 'same' };\n",
      'builtin-fixer.mjs': `export default { name: 'c', fixers: [${fixer('missing-import')}] };\n`,
      'builtin-tool.mjs': `export default { name: 'd', tools: [${tool('read_range')}] };\n`,
      'state-tool.mjs': `export default { name: 'e', tools: [${tool('write_fix')}] };\n`,
      'other-fixer.mjs': `export default { name: 'f', fixers: [${fixer('acme/sum')}] };\n`,
      'other-tool.mjs': `export default { name: 'g', tools: [${tool('who_owns')}] };\n`,
      'other-reporter.mjs': `export default { name: 'h', reporters: [${reporter('chat')}] };\n`,
      'twice.mjs': `export default { name: 'i', fixers: [${fixer('one')}, ${fixer('one')}] };\n`,
    });
    expect((await loadError(['./a.mjs', './b.mjs'], root)).message).toBe(
      'plugin ./b.mjs: the plugin name "same" is already taken by plugin ./a.mjs',
    );
    expect((await loadError(['./builtin-fixer.mjs'], root)).message).toBe(
      'plugin ./builtin-fixer.mjs: fixers[0]: the fixer name "missing-import" is already taken by a built-in fixer of mvnx',
    );
    expect((await loadError(['./builtin-tool.mjs'], root)).message).toBe(
      'plugin ./builtin-tool.mjs: tools[0]: the tool name "read_range" is already taken by a built-in tool of mvnx',
    );
    expect((await loadError(['./state-tool.mjs'], root)).message).toBe(
      'plugin ./state-tool.mjs: tools[0]: the tool name "write_fix" is already taken by a built-in tool of mvnx',
    );
    expect((await loadError(['./a.mjs', './other-fixer.mjs'], root)).message).toBe(
      'plugin ./other-fixer.mjs: fixers[0]: the fixer name "acme/sum" is already taken by fixers[0] of plugin ./a.mjs',
    );
    expect((await loadError(['./a.mjs', './other-tool.mjs'], root)).message).toBe(
      'plugin ./other-tool.mjs: tools[0]: the tool name "who_owns" is already taken by tools[0] of plugin ./a.mjs',
    );
    expect((await loadError(['./a.mjs', './other-reporter.mjs'], root)).message).toBe(
      'plugin ./other-reporter.mjs: reporters[0]: the reporter name "chat" is already taken by reporters[0] of plugin ./a.mjs',
    );
    expect((await loadError(['./twice.mjs'], root)).message).toBe(
      'plugin ./twice.mjs: fixers[1]: the fixer name "one" is already taken by fixers[0] of plugin ./twice.mjs',
    );
    // Each on its own loads.
    for (const alone of ['./a.mjs', './b.mjs', './other-fixer.mjs', './other-tool.mjs', './other-reporter.mjs'])
      await expect(loadPlugins([alone], { projectRoot: root })).resolves.toBeDefined();
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
        {
          plugin: 'b',
          reporter: { name: 'log', report: (r, context) => void seen.push(`${r.runId} ${context.recordDir}`) },
        },
      ],
      record,
      { projectRoot: '/p', recordDir: '/p/.mvnx/runs/r1' },
      (line) => warnings.push(line),
    );
    expect(seen).toEqual(['r1 /p/.mvnx/runs/r1']);
    expect(warnings).toEqual(['mvnx: reporter boom of plugin a failed: webhook 500']);
  });
});
