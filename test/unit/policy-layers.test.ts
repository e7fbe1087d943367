/**
 * The layers the effective config is merged from (src/policy/merge.ts, overrides.ts) as pure
 * functions: which keys a layer keeps, where each value came from after a later layer
 * replaces it, and how environment variables and flags become layers. policy-precedence.test.ts
 * goes through loadEffectiveConfig; these pin the cases it does not reach.
 */
import { describe, expect, it } from 'vitest';
import { isPlainObject, mergeLayers } from '../../src/policy/merge.js';
import { envLayers, flagLayers, ollamaHostLayer } from '../../src/policy/overrides.js';

describe('mergeLayers', () => {
  it("drops a file's own extends and $schema at the top level, and keeps those names deeper as values", () => {
    const merged = mergeLayers([
      {
        value: {
          extends: ['assist'],
          $schema: './schema.json',
          tier: 'auto',
          guidelines: { extends: 'kept', $schema: 'kept too' },
        },
        source: 'team.yaml',
      },
    ]);
    expect(merged).toEqual({
      value: { tier: 'auto', guidelines: { extends: 'kept', $schema: 'kept too' } },
      sources: { tier: 'team.yaml', 'guidelines.extends': 'team.yaml', 'guidelines.$schema': 'team.yaml' },
    });
  });

  it('appends only the top-level rules and protectedPaths; a list deeper, even named rules, is replaced', () => {
    const merged = mergeLayers([
      {
        value: {
          rules: [{ paths: ['a/**'] }],
          protectedPaths: ['x/**'],
          section: { rules: ['base'], protectedPaths: ['base'] },
        },
        source: 'base',
      },
      {
        value: {
          rules: [{ paths: ['b/**'] }],
          protectedPaths: ['x/**', 'y/**'],
          section: { rules: ['mine'], protectedPaths: ['mine'] },
        },
        source: 'mine',
      },
    ]);
    expect(merged.value).toEqual({
      rules: [{ paths: ['a/**'] }, { paths: ['b/**'] }],
      protectedPaths: ['x/**', 'y/**'],
      section: { rules: ['mine'], protectedPaths: ['mine'] },
    });
    expect(merged.sources).toEqual({
      'rules[0]': 'base',
      'rules[1]': 'mine',
      'protectedPaths[0]': 'base',
      'protectedPaths[1]': 'mine',
      'section.rules': 'mine',
      'section.protectedPaths': 'mine',
    });
  });

  it('forgets the sources a replaced value had: a scalar turned into a mapping, and a list turned into a scalar', () => {
    expect(
      mergeLayers([
        { value: { model: 'qwen' }, source: 'base' },
        { value: { model: { name: 'llama' } }, source: 'mine' },
      ]).sources,
    ).toEqual({ 'model.name': 'mine' });
    expect(
      mergeLayers([
        {
          value: { rules: [{ paths: ['a/**'] }, { paths: ['b/**'] }], model: { name: 'qwen', host: 'h' } },
          source: 'base',
        },
        { value: { rules: 'none', model: 'gone' }, source: 'mine' },
      ]),
    ).toEqual({ value: { rules: 'none', model: 'gone' }, sources: { rules: 'mine', model: 'mine' } });
  });

  it('takes null as a value that replaces a mapping', () => {
    expect(
      mergeLayers([
        { value: { model: { name: 'qwen' } }, source: 'base' },
        { value: { model: null }, source: 'mine' },
      ]),
    ).toEqual({ value: { model: null }, sources: { model: 'mine' } });
  });

  it('isPlainObject: a mapping, not null, a list or a scalar', () => {
    expect([{}, { a: 1 }, null, [], 'x', 3, undefined].map(isPlainObject)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('envLayers', () => {
  it('skips variables that are unset or empty', () => {
    expect(envLayers({ MVNX_TIER: '', MVNX_MODEL: '', MVNX_MAX_ATTEMPTS: '' })).toEqual([]);
  });

  it('keeps a string option a string even when it looks like a number', () => {
    expect(envLayers({ MVNX_MODEL: '7', MVNX_KEEP_ALIVE: '300' })).toEqual([
      { value: { model: { name: '7' } }, source: 'env MVNX_MODEL' },
      { value: { model: { keepAlive: '300' } }, source: 'env MVNX_KEEP_ALIVE' },
    ]);
  });

  it('reads numbers, and leaves blank or non-numeric text for validation to name', () => {
    expect(envLayers({ MVNX_TEMPERATURE: ' 0.5 ' })).toEqual([
      { value: { model: { temperature: 0.5 } }, source: 'env MVNX_TEMPERATURE' },
    ]);
    expect(() => envLayers({ MVNX_TEMPERATURE: ' ' })).toThrow(
      'Invalid env MVNX_TEMPERATURE: model.temperature: found " " (string), expected a number',
    );
    expect(() => envLayers({ MVNX_SEED: 'Infinity' })).toThrow(
      'Invalid env MVNX_SEED: model.seed: found "Infinity" (string), expected a number',
    );
  });

  it('reads a switch without whenOn as the boolean itself, and refuses a word that is no switch', () => {
    expect(envLayers({ MVNX_PUBLISH: 'no' })).toEqual([
      { value: { publish: { auto: false } }, source: 'env MVNX_PUBLISH' },
    ]);
    expect(envLayers({ MVNX_PUBLISH: 'YES' })).toEqual([
      { value: { publish: { auto: true } }, source: 'env MVNX_PUBLISH' },
    ]);
    expect(() => envLayers({ MVNX_PUBLISH: 'sometimes' })).toThrow(
      'Invalid env MVNX_PUBLISH: found "sometimes", expected true or false (1/0, yes/no)',
    );
  });
});

describe('flagLayers', () => {
  it('reads a bare switch as on, and refuses a bare value option', () => {
    expect(flagLayers({ publish: true, agent: true })).toEqual([
      { value: { publish: { auto: true } }, source: 'flag --mvnx-publish' },
      { value: { agent: { mode: 'always' } }, source: 'flag --mvnx-agent' },
    ]);
    expect(() => flagLayers({ model: true })).toThrow(
      'Invalid flag --mvnx-model: it needs a value (--mvnx-model=VALUE)',
    );
  });
});

describe('ollamaHostLayer', () => {
  it('ignores a blank OLLAMA_HOST and reads a host around spaces as Ollama does', () => {
    expect(ollamaHostLayer({})).toEqual([]);
    expect(ollamaHostLayer({ OLLAMA_HOST: '   ' })).toEqual([]);
    expect(ollamaHostLayer({ OLLAMA_HOST: ' gpu-box ' })).toEqual([
      { value: { model: { host: 'http://gpu-box:11434' } }, source: 'env OLLAMA_HOST' },
    ]);
  });
});
