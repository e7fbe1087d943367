/**
 * Corners of config discovery and `extends` (src/policy/config-discovery.ts, extends.ts) that
 * policy-discovery.test.ts and policy-extends.test.ts do not reach: the line of a bad
 * single base, a bad base in a JavaScript config (no lines), the hint for a file named
 * without "./", places that are not search places, JS configs that export nothing or
 * throw an error whose message starts blank. Real files in a temp folder, real loading.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRESET_NAMES } from '../../src/policy/extends.js';
import { load, loadError, tempRepo } from './policy-helpers.js';

const PRESETS = PRESET_NAMES.join(', ');

describe('a base that cannot be found', () => {
  it('is reported on the line of a single extends value', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': 'tier: auto\n\nextends: enterprise\n' });
    expect(await loadError(root)).toBe(
      `Invalid config .mvnxrc.yaml:3: extends: found "enterprise", expected a preset (${PRESETS}), a relative file path or an installed npm package (none found from ${root})`,
    );
  });

  it('is reported without a line from a JavaScript config', async () => {
    const root = await tempRepo({ '.mvnxrc.cjs': 'module.exports = { extends: "enterprise" };\n' });
    expect(await loadError(root)).toBe(
      `Invalid config .mvnxrc.cjs: extends: found "enterprise", expected a preset (${PRESETS}), a relative file path or an installed npm package (none found from ${root})`,
    );
  });

  it('says to write "./" when a file of that name sits next to the config', async () => {
    const root = await tempRepo({ 'team/.mvnxrc.yaml': 'extends: base.yaml\n', 'team/base.yaml': 'tier: monitor\n' });
    expect(await loadError(path.join(root, 'team'))).toBe(
      `Invalid config .mvnxrc.yaml:1: extends: found "base.yaml", expected a preset (${PRESETS}), a relative file path or an installed npm package (none found from ${path.join(root, 'team')}) (for the file next to this config write "./base.yaml")`,
    );
  });
});

describe('config discovery corners', () => {
  it("reads no package.json field and no place outside mvnx's own list", async () => {
    const root = await tempRepo({
      'package.json': JSON.stringify({ name: 'web', mvnx: { tier: 'auto' } }),
      'mvnx.config.ts': 'export default { tier: "auto" };\n',
    });
    const config = await load(root);
    expect(config.tier).toBe('assist');
    expect(config.files).toEqual([]);
  });

  it.each([['module.exports = null;\n'], ['module.exports = undefined;\n']])(
    'takes a named JS config that exports nothing (%s) as empty',
    async (text) => {
      const root = await tempRepo({ 'team.cjs': text });
      const config = await load(root, { configFile: path.join(root, 'team.cjs') });
      expect(config.tier).toBe('assist');
      expect(config.files).toEqual([path.join(root, 'team.cjs')]);
    },
  );

  it('takes a named empty YAML file as empty', async () => {
    const root = await tempRepo({ 'team.yaml': '' });
    expect((await load(root, { configFile: path.join(root, 'team.yaml') })).files).toEqual([
      path.join(root, 'team.yaml'),
    ]);
  });

  it.each([
    ['throw new Error("   \\nboom after a blank line\\nat the second line");\n', 'boom after a blank line'],
    ['throw new Error("");\n', 'Error'],
    ['throw new RangeError("");\n', 'RangeError'],
  ])('reports the first non-blank line of a JS config error: %s', async (text, reason) => {
    const root = await tempRepo({ '.mvnxrc.cjs': text });
    expect(await loadError(root)).toBe(`Invalid config .mvnxrc.cjs: cannot be loaded: ${reason}`);
  });
});
