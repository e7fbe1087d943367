import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROTECTED_PATHS } from '../../src/policy/schema.js';
import { PRESETS_DIR } from '../../src/policy/extends.js';
import { load, loadError, tempRepo } from './policy-helpers.js';

describe('extends', () => {
  it('applies a preset by name from policies/', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': 'extends: auto\n' });
    const config = await load(root);
    expect(config.tier).toBe('auto');
    expect(config.files).toEqual([path.join(PRESETS_DIR, 'auto.yaml'), path.join(root, '.mvnxrc.yaml')]);
    expect(config.sources.tier).toBe('preset auto');
  });

  it('appends rules base first, overrides scalars and merges objects deeply', async () => {
    const root = await tempRepo({
      'team/base.yaml': `
tier: monitor
rules:
  - paths: ['**/payments/**']
    tier: monitor
model:
  name: base-model
  temperature: 0.5
budget:
  hardCap:
    maxAttempts: 6
`,
      '.mvnxrc.yaml': `
extends: ./team/base.yaml
tier: assist
rules:
  - paths: ['**/*Test.java']
    tier: auto
model:
  temperature: 0.1
budget:
  hardCap:
    maxModelCalls: 20
`,
    });
    const config = await load(root);
    expect(config.tier).toBe('assist');
    expect(config.rules.map((rule) => rule.paths[0])).toEqual(['**/payments/**', '**/*Test.java']);
    expect(config.sources['rules[0]']).toBe('team/base.yaml');
    expect(config.sources['rules[1]']).toBe('.mvnxrc.yaml');
    expect(config.model).toMatchObject({ name: 'base-model', temperature: 0.1 });
    expect(config.budget.hardCap).toMatchObject({ maxAttempts: 6, maxModelCalls: 20, maxWallSeconds: 900 });
  });

  it('adds protectedPaths to the defaults instead of replacing them, without duplicates', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': "protectedPaths: ['secrets/**', 'pom.xml']\n" });
    const config = await load(root);
    expect(config.protectedPaths).toEqual([...DEFAULT_PROTECTED_PATHS, 'secrets/**']);
    expect(config.sources[`protectedPaths[${DEFAULT_PROTECTED_PATHS.length}]`]).toBe('.mvnxrc.yaml');
  });

  it('replaces other lists whole', async () => {
    const root = await tempRepo({
      'base.yaml': 'allowedChanges: [edit-main-source, edit-test-source]\n',
      '.mvnxrc.yaml': 'extends: ./base.yaml\nallowedChanges: [edit-test-source]\n',
    });
    expect((await load(root)).allowedChanges).toEqual(['edit-test-source']);
  });

  it('follows a chain of files and presets, base first, each applied once', async () => {
    const root = await tempRepo({
      'a.yaml': "extends: [./b.yaml, ./c.yaml]\nrules:\n  - paths: ['a/**']\n",
      'b.yaml': "extends: ./d.yaml\nrules:\n  - paths: ['b/**']\n",
      'c.yaml': "extends: ./d.yaml\nrules:\n  - paths: ['c/**']\n",
      'd.yaml': "extends: monitor\nrules:\n  - paths: ['d/**']\n",
      '.mvnxrc.yaml': 'extends: ./a.yaml\n',
    });
    const config = await load(root);
    expect(config.rules.map((rule) => rule.paths[0])).toEqual(['d/**', 'b/**', 'c/**', 'a/**']);
    expect(config.files.map((file) => path.basename(file))).toEqual([
      'monitor.yaml',
      'd.yaml',
      'b.yaml',
      'c.yaml',
      'a.yaml',
      '.mvnxrc.yaml',
    ]);
    expect(config.tier).toBe('monitor');
  });

  it("resolves an npm package from the config file's folder", async () => {
    const root = await tempRepo({
      'node_modules/@acme/mvnx-policy/package.json': JSON.stringify({
        name: '@acme/mvnx-policy',
        version: '1.0.0',
        main: 'policy.yaml',
      }),
      'node_modules/@acme/mvnx-policy/policy.yaml':
        "extends: ./shared.yaml\ntier: monitor\nrules:\n  - paths: ['**/billing/**']\n    tier: off\n",
      'node_modules/@acme/mvnx-policy/shared.yaml': 'model:\n  name: acme-coder\n',
      'service/.mvnxrc.yaml': 'extends: "@acme/mvnx-policy"\n',
    });
    const config = await load(path.join(root, 'service'));
    expect(config.tier).toBe('monitor');
    expect(config.model.name).toBe('acme-coder');
    expect(config.rules[0]).toMatchObject({ tier: 'off' });
    expect(config.sources.tier).toBe('package @acme/mvnx-policy');
  });

  it('resolves a JS npm package whose main exports the config', async () => {
    const root = await tempRepo({
      'node_modules/mvnx-config-strict/package.json': JSON.stringify({ name: 'mvnx-config-strict', main: 'index.cjs' }),
      'node_modules/mvnx-config-strict/index.cjs': 'module.exports = { tier: "off" };\n',
      '.mvnxrc.json': '{"extends": "mvnx-config-strict"}',
    });
    expect((await load(root)).tier).toBe('off');
  });

  it('refuses a cycle and lists the chain', async () => {
    const root = await tempRepo({
      '.mvnxrc.yaml': 'extends: ./a.yaml\n',
      'a.yaml': 'extends: ./b.yaml\n',
      'b.yaml': 'extends: ./a.yaml\n',
    });
    expect(await loadError(root)).toBe(
      'Invalid config b.yaml: extends cycle: .mvnxrc.yaml -> a.yaml -> b.yaml -> a.yaml',
    );
  });

  it('refuses a file that extends itself', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': 'extends: ./.mvnxrc.yaml\n' });
    expect(await loadError(root)).toBe('Invalid config .mvnxrc.yaml: extends cycle: .mvnxrc.yaml -> .mvnxrc.yaml');
  });

  it('refuses a base that is neither preset, file nor package, with its line', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': 'tier: auto\nextends:\n  - monitor\n  - enterprise\n' });
    const message = await loadError(root);
    expect(message).toBe(
      `Invalid config .mvnxrc.yaml:4: extends: found "enterprise", expected a preset (monitor, assist, auto, enterprise-tiered), a relative file path or an installed npm package (none found from ${root})`,
    );
  });

  it('refuses a missing relative base', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': 'extends: ./missing.yaml\n' });
    expect(await loadError(root)).toBe('Config file missing.yaml (extended by .mvnxrc.yaml) does not exist');
  });

  it('validates a base with its own file name and line', async () => {
    const root = await tempRepo({
      '.mvnxrc.yaml': 'extends: ./base.yaml\n',
      'base.yaml': 'tier: monitor\nbudget:\n  maxAtempts: 2\n',
    });
    expect(await loadError(root)).toBe(
      'Invalid config base.yaml:3: budget.maxAtempts: unknown key "maxAtempts" (did you mean "maxAttempts"?)',
    );
  });

  it('resolves guidelines.file and local plugins relative to the file that names them', async () => {
    const root = await tempRepo({
      'team/base.yaml': 'guidelines:\n  file: rules.md\nplugins: [./plugins/x.js, mvnx-plugin-y]\n',
      '.mvnxrc.yaml': 'extends: ./team/base.yaml\n',
    });
    const config = await load(root);
    expect(config.guidelines).toEqual({ file: path.join(root, 'team/rules.md') });
    expect(config.plugins).toEqual([path.join(root, 'team/plugins/x.js'), 'mvnx-plugin-y']);
  });

  it('lets text guidelines replace file guidelines from a base', async () => {
    const root = await tempRepo({
      'base.yaml': 'guidelines:\n  file: rules.md\n',
      '.mvnxrc.yaml': 'extends: ./base.yaml\nguidelines: Prefer records.\n',
    });
    const config = await load(root);
    expect(config.guidelines).toBe('Prefer records.');
    expect(config.sources.guidelines).toBe('.mvnxrc.yaml');
    expect(config.sources['guidelines.file']).toBeUndefined();
  });
});
