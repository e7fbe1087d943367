import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEARCH_PLACES } from '../../src/policy/config-discovery.js';
import { load, loadError, tempRepo } from './policy-helpers.js';

/** A config setting tier monitor, in the syntax of each file form. */
function monitorConfig(place: string): string {
  if (place.endsWith('.json')) return '{ "tier": "monitor" }\n';
  if (place.endsWith('.cjs')) return 'module.exports = { tier: "monitor" };\n';
  if (place.endsWith('.js') || place.endsWith('.mjs')) return 'export default { tier: "monitor" };\n';
  return 'tier: monitor\n';
}

describe('config discovery', () => {
  it.each(SEARCH_PLACES)('finds %s in the project root', async (place) => {
    // .js is ESM only under "type": "module"; the package.json gives that without stopping the search.
    const root = await tempRepo({ [place]: monitorConfig(place), 'package.json': '{"type": "module"}' });
    const config = await load(root);
    expect(config.tier).toBe('monitor');
    expect(config.files).toEqual([path.join(root, place)]);
    expect(config.sources.tier).toBe(place);
  });

  it('accepts CommonJS in .js when the folder is not an ES module package', async () => {
    const root = await tempRepo({ '.mvnxrc.js': 'module.exports = { tier: "auto" };\n' });
    expect((await load(root)).tier).toBe('auto');
  });

  it('walks up from a nested project root to the git root', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': 'tier: monitor\n' });
    const project = path.join(root, 'services', 'billing');
    await mkdir(project, { recursive: true });
    const config = await load(project);
    expect(config.tier).toBe('monitor');
    expect(config.sources.tier).toBe(path.join(root, '.mvnxrc.yaml'));
  });

  it('prefers the nearest config file', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': 'tier: monitor\n', 'app/.mvnxrc.json': '{"tier": "auto"}' });
    expect((await load(path.join(root, 'app'))).tier).toBe('auto');
  });

  it('uses the first search place when one folder has several', async () => {
    const root = await tempRepo({
      '.mvnxrc.yaml': 'tier: monitor\n',
      '.mvnxrc.json': '{"tier": "auto"}',
      '.config/mvnxrc': 'tier: off',
    });
    expect((await load(root)).tier).toBe('auto');
  });

  it('does not look above the git root', async () => {
    const outer = await tempRepo({ '.mvnxrc.yaml': 'tier: monitor\n' }, { git: false });
    const repo = path.join(outer, 'repo');
    await mkdir(path.join(repo, '.git'), { recursive: true });
    const config = await load(repo);
    expect(config.tier).toBe('assist');
    expect(config.files).toEqual([]);
  });

  it('skips an empty file and keeps searching upwards', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': 'tier: auto\n', 'app/.mvnxrc.yaml': '' });
    expect((await load(path.join(root, 'app'))).tier).toBe('auto');
  });

  it('uses defaults when there is no config file', async () => {
    const root = await tempRepo();
    const config = await load(root);
    expect(config.tier).toBe('assist');
    expect(config.model.name).toBe('qwen2.5-coder:7b');
    expect(config.model.host).toBe('http://127.0.0.1:11434');
    expect(config.sources.tier).toBe('default');
  });

  it('loads an explicit --mvnx-config file instead of searching', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': 'tier: monitor\n', 'ci/mvnx-ci.yml': 'tier: auto\n' });
    const config = await load(root, { configFile: path.join(root, 'ci/mvnx-ci.yml') });
    expect(config.tier).toBe('auto');
    expect(config.files).toEqual([path.join(root, 'ci/mvnx-ci.yml')]);
  });

  it('loads the file named by MVNX_CONFIG', async () => {
    const root = await tempRepo({ 'other.json': '{"tier": "off"}' });
    expect((await load(root, { env: { MVNX_CONFIG: path.join(root, 'other.json') } })).tier).toBe('off');
  });

  it('reports a missing --mvnx-config file in one line', async () => {
    const root = await tempRepo();
    expect(await loadError(root, { configFile: path.join(root, 'nope.yaml') })).toBe(
      'Config file nope.yaml (from --mvnx-config) does not exist',
    );
  });

  it('reports a missing MVNX_CONFIG file and says where the name came from', async () => {
    const root = await tempRepo();
    expect(await loadError(root, { env: { MVNX_CONFIG: '/does/not/exist.yaml' } })).toBe(
      'Config file /does/not/exist.yaml (from MVNX_CONFIG) does not exist',
    );
  });

  it('refuses an explicit config of an unknown file type', async () => {
    const root = await tempRepo({ 'mvnx.toml': 'tier = "auto"' });
    expect(await loadError(root, { configFile: path.join(root, 'mvnx.toml') })).toBe(
      'Invalid config mvnx.toml: unsupported file type ".toml" (use .yaml, .yml, .json, .js, .mjs, .cjs or no extension)',
    );
  });

  it('reports a JS config that throws when loaded', async () => {
    const root = await tempRepo({ '.mvnxrc.cjs': 'throw new Error("boom from config");\n' });
    expect(await loadError(root)).toBe('Invalid config .mvnxrc.cjs: cannot be loaded: boom from config');
  });
});
