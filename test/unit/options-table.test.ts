// The option table (src/shared/options.ts) is the one declaration of every --mvnx-* option:
// these tests walk it, so a new option is checked end to end by adding its sample below.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { helpText } from '../../src/cli/commands/help.js';
import { explainLines } from '../../src/cli/commands/explain.js';
import { parseInvocation } from '../../src/cli/flags.js';
import { configOptions, envName, flagName, OPTIONS, readFlag } from '../../src/shared/options.js';
import { load, tempRepo } from './policy-helpers.js';

const REPO = path.resolve(import.meta.dirname, '../..');

/** A valid value for each option, and the config value it sets (for config-backed ones). */
const SAMPLES: Record<string, { value: string; sets?: unknown }> = {
  tier: { value: 'monitor', sets: 'monitor' },
  'no-fix': { value: 'true', sets: 'off' },
  config: { value: 'ci/mvnx.yaml' },
  json: { value: 'true' },
  sarif: { value: 'out.sarif' },
  'run-id-file': { value: '/tmp/run-id' },
  maven: { value: '/opt/maven/bin/mvn', sets: '/opt/maven/bin/mvn' },
  model: { value: 'tiny:1b', sets: 'tiny:1b' },
  host: { value: 'http://gpu-box:9000', sets: 'http://gpu-box:9000' },
  provider: { value: 'openai-compatible', sets: 'openai-compatible' },
  'edit-format': { value: 'json', sets: 'json' },
  agent: { value: 'true', sets: 'always' },
  publish: { value: 'true', sets: true },
  temperature: { value: '0.5', sets: 0.5 },
  seed: { value: '7', sets: 7 },
  'num-ctx': { value: '16384', sets: 16384 },
  'model-timeout': { value: '30', sets: 30 },
  'keep-alive': { value: '5m', sets: '5m' },
  offline: { value: 'always', sets: 'always' },
  sandbox: { value: 'none', sets: 'none' },
  'max-attempts': { value: '2', sets: 2 },
  'max-model-calls': { value: '2', sets: 2 },
  'max-wall-seconds': { value: '60', sets: 60 },
  'attempt-timeout': { value: '60', sets: 60 },
  'require-coverage': { value: '75', sets: 75 },
  'no-fixers': { value: 'true', sets: false },
  'auto-apply-low-risk': { value: 'true', sets: true },
  verbose: { value: 'true' },
};

function valueAt(config: object, field: string): unknown {
  return field.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key], config);
}

describe('the option table', () => {
  it('has a sample here for every option (add one with each new option)', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(OPTIONS.map((option) => option.name).sort());
    expect(new Set(OPTIONS.map((option) => option.name)).size).toBe(OPTIONS.length);
  });

  it.each(OPTIONS.map((option) => [option.name, option] as const))(
    '--mvnx-%s parses as its kind says',
    (name, option) => {
      const sample = SAMPLES[name]!;
      const given = option.kind === 'switch' ? flagName(name) : `${flagName(name)}=${sample.value}`;
      expect(parseInvocation([given, 'verify']).flags).toEqual({
        [name]: option.kind === 'switch' ? true : sample.value,
      });
      if (option.kind !== 'switch')
        expect(readFlag(flagName(name))).toEqual({ problem: expect.stringContaining('needs a value') });
      else expect(readFlag(`${flagName(name)}=perhaps`)).toEqual({ problem: expect.stringContaining('is a switch') });
    },
  );

  it.each(configOptions().map((option) => [option.name, option] as const))(
    '--mvnx-%s and its variable set the field it names, each named as the source',
    async (name, option) => {
      const sample = SAMPLES[name]!;
      const root = await tempRepo();
      const byFlag = await load(root, { overrides: { [name]: option.kind === 'switch' ? true : sample.value } });
      expect(valueAt(byFlag, option.config)).toEqual(sample.sets);
      expect(byFlag.sources[option.config]).toBe(`flag ${flagName(name)}`);
      const byEnv = await load(root, { env: { [envName(name)]: sample.value } });
      expect(valueAt(byEnv, option.config)).toEqual(sample.sets);
      expect(byEnv.sources[option.config]).toBe(`env ${envName(name)}`);
    },
  );

  it('lists every option in mvnx --help and every config-backed one in mvnx explain', async () => {
    const help = helpText();
    for (const option of OPTIONS)
      expect(help).toContain(`${flagName(option.name)}${option.kind === 'switch' ? '' : `=${option.valueName}`}`);
    const explained = explainLines(await load(await tempRepo()), '/project').join('\n');
    for (const option of configOptions())
      expect(explained).toMatch(
        new RegExp(
          `^ {2}${option.config.replace('.', '\\.')} .*${flagName(option.name)}\\b.*${envName(option.name)}`,
          'm',
        ),
      );
  });

  it('matches the flag table in docs/config.md', async () => {
    const docs = await readFile(path.join(REPO, 'docs/config.md'), 'utf8');
    const rows = [...docs.matchAll(/^\| `(--mvnx-[a-z-]+)[^`]*` \| `(MVNX_[A-Z_]+)[^`]*` \| `([\w.]+)/gm)].map(
      ([, flag, env, field]) => [flag!, env!, field!],
    );
    const byFlag = (a: string[], b: string[]) => a[0]!.localeCompare(b[0]!);
    expect(rows.sort(byFlag)).toEqual(
      configOptions()
        .map((option) => [flagName(option.name), envName(option.name), option.config])
        .sort(byFlag),
    );
  });
});
