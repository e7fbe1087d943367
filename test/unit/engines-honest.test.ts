/**
 * Honest engines: every package a user's `npm install mvnx` gets must admit every Node
 * version mvnx's own `engines.node` admits. Otherwise npm prints EBADENGINE on the lines we
 * claim, and the tests (which ran on the lines that happen to be installed) did not notice.
 * This reads the installed tree, as `npm ci` left it from the lockfile.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineMismatches, nativeAddons, readInstalledTree, type InstalledPackage } from '../helpers/installed-tree.js';
import { tempDir } from '../helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
};

describe('the installed tree against package.json engines', () => {
  it('has no runtime dependency that declares fewer Node versions than mvnx does', async () => {
    const tree = await readInstalledTree(root);
    expect(tree.filter((pkg) => !pkg.devOnly).length).toBeGreaterThan(50);
    expect(engineMismatches(manifest.engines.node, tree)).toEqual([]);
  });

  it('has no compiled addon among the runtime dependencies (nothing tied to one Node ABI)', async () => {
    const runtime = (await readInstalledTree(root)).filter((pkg) => !pkg.devOnly);
    expect(await nativeAddons(root, runtime)).toEqual([]);
  });
});

describe('engineMismatches', () => {
  const pkg = (name: string, nodeRange: string | undefined, devOnly = false): InstalledPackage => ({
    location: `node_modules/${name}`,
    name,
    version: '1.0.0',
    devOnly,
    ...(nodeRange === undefined ? {} : { nodeRange }),
  });

  it('names a runtime package whose range leaves out versions ours admits', () => {
    const found = engineMismatches('>=20.5.0', [
      pkg('content-type', '>=22'),
      pkg('otel', '^18.19.0 || >=20.6.0'),
      pkg('brace-expansion', '20 || >=22'),
      pkg('fine', '^18.19.0 || >=20'),
      pkg('no-engines', undefined),
    ]);
    expect(found.map((m) => m.package)).toEqual(['content-type@1.0.0', 'otel@1.0.0', 'brace-expansion@1.0.0']);
    expect(found[0]).toEqual({
      package: 'content-type@1.0.0',
      location: 'node_modules/content-type',
      declares: '>=22',
    });
  });

  it('accepts those ranges once ours admits only what they admit', () => {
    const runtime = [pkg('otel', '^18.19.0 || >=20.6.0'), pkg('brace-expansion', '20 || >=22'), pkg('x', '>= 20')];
    expect(engineMismatches('^20.6.0 || >=22', runtime)).toEqual([]);
  });

  it('ignores dev-only packages: a user never installs them', () => {
    expect(engineMismatches('>=20.5.0', [pkg('vitest-ish', '>=24', true)])).toEqual([]);
  });

  it('treats a range npm cannot read as a mismatch, and rejects a bad range of ours', () => {
    expect(engineMismatches('>=20', [pkg('odd', 'node twenty')]).map((m) => m.declares)).toEqual(['node twenty']);
    expect(() => engineMismatches('twenty', [])).toThrow('engines.node is not a range: twenty');
  });
});

describe('readInstalledTree', () => {
  it('reads engines from the installed package.json, flags dev-only packages, skips absent optional ones', async () => {
    const project = await tempDir('mvnx-tree-');
    const write = async (location: string, json: object) => {
      await mkdir(path.join(project, location), { recursive: true });
      await writeFile(path.join(project, location, 'package.json'), JSON.stringify(json));
    };
    await write('node_modules', {});
    await writeFile(
      path.join(project, 'node_modules/.package-lock.json'),
      JSON.stringify({
        packages: {
          'node_modules/a': {},
          'node_modules/a/node_modules/b': { devOptional: true },
          'node_modules/@scope/c': { dev: true },
          'node_modules/other-platform': { optional: true },
        },
      }),
    );
    await write('node_modules/a', { name: 'a', version: '1.2.3', engines: { node: '>=22' } });
    await write('node_modules/a/node_modules/b', { name: 'b', version: '2.0.0' });
    await write('node_modules/@scope/c', { name: '@scope/c', version: '3.0.0', engines: { node: '>=18' } });
    await writeFile(path.join(project, 'node_modules/a/addon.node'), 'not really a binary');

    const tree = await readInstalledTree(project);
    expect(tree).toEqual([
      { location: 'node_modules/a', name: 'a', version: '1.2.3', devOnly: false, nodeRange: '>=22' },
      { location: 'node_modules/a/node_modules/b', name: 'b', version: '2.0.0', devOnly: true },
      { location: 'node_modules/@scope/c', name: '@scope/c', version: '3.0.0', devOnly: true, nodeRange: '>=18' },
    ]);
    expect(engineMismatches('>=20', tree).map((m) => m.package)).toEqual(['a@1.2.3']);
    expect(await nativeAddons(project, tree)).toEqual(['node_modules/a/addon.node']);
  });
});
