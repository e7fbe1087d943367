import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildJsonSchema, SCHEMA_ID } from '../../src/policy/json-schema.js';
import { PRESET_NAMES, PRESETS_DIR } from '../../src/policy/extends.js';
import { load, tempRepo } from './policy-helpers.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

describe('schema.json', () => {
  it('is in sync with the zod schema (run `npm run schema` after changing src/policy/schema.ts)', async () => {
    const checkedIn = JSON.parse(await readFile(path.join(REPO, 'schema.json'), 'utf8')) as unknown;
    expect(checkedIn).toEqual(buildJsonSchema());
  });

  it('has $schema, $id and a description on every property', () => {
    const schema = buildJsonSchema();
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(SCHEMA_ID);
    const undocumented: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      for (const [key, child] of Object.entries((n.properties as Record<string, Record<string, unknown>>) ?? {})) {
        if (typeof child.description !== 'string' || child.description.length < 8) undocumented.push(`${at}${key}`);
        walk(child, `${at}${key}.`);
      }
      if (n.items) walk(n.items, `${at}[].`);
      for (const branch of (n.anyOf as unknown[]) ?? []) walk(branch, at);
    };
    walk(schema, '');
    expect(undocumented).toEqual([]);
  });

  it('rejects unknown keys for editors too', () => {
    const schema = buildJsonSchema() as {
      additionalProperties: unknown;
      properties: { model: { additionalProperties: unknown } };
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.model.additionalProperties).toBe(false);
  });
});

describe('presets', () => {
  it('ships exactly the documented presets', async () => {
    expect((await readdir(PRESETS_DIR)).sort()).toEqual(PRESET_NAMES.map((name) => `${name}.yaml`).sort());
  });

  it.each(PRESET_NAMES)('%s loads, validates and says who it is for', async (name) => {
    const text = await readFile(path.join(PRESETS_DIR, `${name}.yaml`), 'utf8');
    expect(text).toMatch(new RegExp(`# Preset "${name}": for `));
    const config = await load(await tempRepo({ '.mvnxrc.yaml': `extends: ${name}\n` }));
    expect(config.files[0]).toContain(
      path.join('policies', name === 'enterprise-tiered' ? 'assist.yaml' : `${name}.yaml`),
    );
  });

  it.each([
    ['monitor', 'monitor'],
    ['assist', 'assist'],
    ['auto', 'auto'],
    ['enterprise-tiered', 'assist'],
  ])('%s sets tier %s', async (name, tier) => {
    expect((await load(await tempRepo({ '.mvnxrc.yaml': `extends: ${name}\n` }))).tier).toBe(tier);
  });
});

describe('example configs', () => {
  const dir = path.join(REPO, 'examples/configs');
  it('all load and validate', async () => {
    const files = await readdir(dir);
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      const config = await load(await tempRepo(), { configFile: path.join(dir, file) });
      expect(config.files.at(-1)).toBe(path.join(dir, file));
    }
  });
});

describe('docs/config.md', () => {
  it('documents every field of the schema', async () => {
    const docs = await readFile(path.join(REPO, 'docs/config.md'), 'utf8');
    const fields: string[] = [];
    const walk = (node: Record<string, unknown>, at: string): void => {
      for (const [key, child] of Object.entries((node.properties as Record<string, Record<string, unknown>>) ?? {})) {
        if (!child.properties) fields.push(`${at}${key}`);
        walk(child, `${at}${key}.`);
        const items = child.items as Record<string, unknown> | undefined;
        if (items?.properties) walk(items, `${at}${key}[].`);
      }
    };
    walk(buildJsonSchema(), '');
    expect(fields.filter((field) => !docs.includes(`\`${field}\``))).toEqual([]);
  });
});
