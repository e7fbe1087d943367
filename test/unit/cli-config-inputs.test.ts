import { mkdir, mkdtemp, readFile, writeFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { configFileMayExist, configGivenOnCommandLine, globalConfigDir } from '../../src/cli/config-inputs.js';

let root: string;
let home: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'mvnx-config-inputs-'));
  home = path.join(root, 'home');
  await mkdir(path.join(root, 'repo', '.git'), { recursive: true });
  await mkdir(path.join(root, 'repo', 'project', 'module'), { recursive: true });
  await mkdir(home);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const search = (projectRoot: string, env: NodeJS.ProcessEnv = {}) =>
  configFileMayExist({ projectRoot, cwd: projectRoot, env, platform: 'linux', homedir: home });

describe('configFileMayExist', () => {
  it('loads none of the config stack (cosmiconfig, zod, yaml), which a passing build does not need', async () => {
    const packages = new Set<string>();
    const seen = new Set<string>();
    const visit = async (file: string): Promise<void> => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = await readFile(file, 'utf8');
      for (const [, specifier = ''] of source.matchAll(/^import (?!type )[^;]*?from '([^']+)'/gms)) {
        if (specifier.startsWith('.')) await visit(path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.ts')));
        else packages.add(specifier);
      }
    };
    await visit(fileURLToPath(new URL('../../src/cli/config-inputs.ts', import.meta.url)));
    expect([...packages].filter((name) => !name.startsWith('node:'))).toEqual([]);
  });

  it('is false with no config anywhere up to the git root', async () => {
    await writeFile(path.join(root, '.mvnxrc.json'), '{}'); // above the git root: not searched
    expect(await search(path.join(root, 'repo', 'project'))).toBe(false);
  });

  it('finds a config in the project, in a folder up to the git root, and in .config/', async () => {
    const project = path.join(root, 'repo', 'project');
    await writeFile(path.join(root, 'repo', 'mvnx.config.mjs'), 'export default {}');
    expect(await search(project)).toBe(true);
    const other = path.join(root, 'repo', 'project', 'module');
    await mkdir(path.join(other, '.config'));
    await writeFile(path.join(other, '.config', 'mvnxrc.yaml'), 'tier: off');
    expect(
      await configFileMayExist({
        projectRoot: other,
        cwd: other,
        env: {},
        platform: 'linux',
        homedir: path.join(root, 'nohome'),
      }),
    ).toBe(true);
  });

  it('counts the global config folder and a meta config in the working directory', async () => {
    const project = path.join(root, 'repo', 'project');
    await mkdir(path.join(root, 'xdg', 'mvnx'), { recursive: true });
    expect(await search(project, { XDG_CONFIG_HOME: path.join(root, 'xdg') })).toBe(true);
    await writeFile(path.join(project, 'package.json'), '{}');
    expect(await search(project)).toBe(true);
  });

  it('names the global folder as env-paths does on each platform', () => {
    expect(globalConfigDir({}, 'linux', '/h')).toBe('/h/.config/mvnx');
    expect(globalConfigDir({ XDG_CONFIG_HOME: '/x' }, 'linux', '/h')).toBe('/x/mvnx');
    expect(globalConfigDir({}, 'darwin', '/h')).toBe('/h/Library/Preferences/mvnx');
    expect(globalConfigDir({ APPDATA: '/a' }, 'win32', '/h')).toBe(path.join('/a', 'mvnx', 'Config'));
  });
});

describe('configGivenOnCommandLine', () => {
  it('ignores the switches and variables that only the CLI reads', () => {
    expect(
      configGivenOnCommandLine(
        { json: true, verbose: true, maven: '/m' },
        { MVNX_MAVEN: '/m', MVNX_DEBUG: '1', MVNX_JSON: '1', MVNX_TIER: '', PATH: '/bin' },
      ),
    ).toBe(false);
  });

  it('sees config-backed flags and MVNX_* variables', () => {
    expect(configGivenOnCommandLine({ tier: 'off' }, {})).toBe(true);
    expect(configGivenOnCommandLine({ 'no-fix': true }, {})).toBe(true);
    expect(configGivenOnCommandLine({ agent: true }, {})).toBe(true);
    expect(configGivenOnCommandLine({}, { MVNX_AGENT: '1' })).toBe(true);
    expect(configGivenOnCommandLine({}, { MVNX_CONFIG: 'x.yaml' })).toBe(true);
    expect(configGivenOnCommandLine({}, { MVNX_SOMETHING_NEW: '1' })).toBe(true);
  });
});
