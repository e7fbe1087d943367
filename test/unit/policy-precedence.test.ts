import { describe, expect, it } from 'vitest';
import { load, loadError, tempRepo } from './policy-helpers.js';

const FILE = `extends: monitor
tier: assist
model:
  name: file-model
  host: http://file-host:1
  editFormat: search-replace
maven:
  executable: /opt/file/mvn
budget:
  maxAttempts: 4
`;

describe('precedence: defaults < extends < file < env < flags', () => {
  it('lets the file override its base, and records both sources', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': FILE });
    const config = await load(root);
    expect(config.tier).toBe('assist');
    expect(config.sources.tier).toBe('.mvnxrc.yaml');
    expect(config.sources['assist.autoApplyLowRisk']).toBe('preset monitor');
    expect(config.sources['model.temperature']).toBe('default');
    expect(config.budget.maxAttempts).toBe(4);
  });

  it('lets env override the file', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': FILE });
    const config = await load(root, {
      env: {
        MVNX_TIER: 'auto',
        MVNX_MODEL: 'env-model',
        MVNX_MAVEN: '/env/mvn',
        MVNX_EDIT_FORMAT: 'json',
        MVNX_MAX_ATTEMPTS: '6',
      },
    });
    expect(config.tier).toBe('auto');
    expect(config.model.name).toBe('env-model');
    expect(config.maven.executable).toBe('/env/mvn');
    expect(config.model.editFormat).toBe('json');
    expect(config.budget.maxAttempts).toBe(6);
    expect(config.sources.tier).toBe('env MVNX_TIER');
    expect(config.sources['budget.maxAttempts']).toBe('env MVNX_MAX_ATTEMPTS');
  });

  it('lets flags override env', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': FILE });
    const config = await load(root, {
      env: { MVNX_TIER: 'auto', MVNX_MODEL: 'env-model', MVNX_EDIT_FORMAT: 'json' },
      overrides: { tier: 'monitor', model: 'flag-model', 'edit-format': 'diff' },
    });
    expect(config.tier).toBe('monitor');
    expect(config.model.name).toBe('flag-model');
    expect(config.model.editFormat).toBe('diff');
    expect(config.sources.tier).toBe('flag --mvnx-tier');
    expect(config.sources['model.name']).toBe('flag --mvnx-model');
  });

  it('treats --mvnx-no-fix as tier off, above --mvnx-tier and env', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': 'tier: auto\n' });
    const config = await load(root, { env: { MVNX_TIER: 'auto' }, overrides: { tier: 'auto', 'no-fix': true } });
    expect(config.tier).toBe('off');
    expect(config.sources.tier).toBe('flag --mvnx-no-fix');
  });

  it('treats MVNX_NO_FIX=1 as tier off, and MVNX_NO_FIX=0 as nothing', async () => {
    const root = await tempRepo();
    expect((await load(root, { env: { MVNX_NO_FIX: '1', MVNX_TIER: 'auto' } })).tier).toBe('off');
    expect((await load(root, { env: { MVNX_NO_FIX: '0', MVNX_TIER: 'auto' } })).tier).toBe('auto');
  });

  it('treats --mvnx-agent and MVNX_AGENT=1 as agent.mode always, above the config file', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': 'agent:\n  mode: escalate\n' });
    const flagged = await load(root, { overrides: { agent: true } });
    expect(flagged.agent.mode).toBe('always');
    expect(flagged.sources['agent.mode']).toBe('flag --mvnx-agent');
    expect((await load(root, { env: { MVNX_AGENT: '1' } })).agent.mode).toBe('always');
    expect((await load(root, { env: { MVNX_AGENT: '0' } })).agent.mode).toBe('escalate');
    expect((await load(await tempRepo())).agent.mode).toBe('off');
  });

  it('defaults the tier to assist', async () => {
    const root = await tempRepo({ '.mvnxrc.json': '{"model": {"name": "x"}}' });
    expect((await load(root)).tier).toBe('assist');
  });

  describe('model host: flag, MVNX_HOST, config, OLLAMA_HOST, default', () => {
    const cases: [string, Record<string, string>, Record<string, string>, string | undefined, string, string][] = [
      [
        'flag wins over everything',
        { MVNX_HOST: 'http://env:2', OLLAMA_HOST: 'ollama:3' },
        { host: 'http://flag:1' },
        'http://file:4',
        'http://flag:1',
        'flag --mvnx-host',
      ],
      [
        'MVNX_HOST wins over config',
        { MVNX_HOST: 'http://env:2', OLLAMA_HOST: 'ollama:3' },
        {},
        'http://file:4',
        'http://env:2',
        'env MVNX_HOST',
      ],
      [
        'config wins over OLLAMA_HOST',
        { OLLAMA_HOST: 'ollama:3' },
        {},
        'http://file:4',
        'http://file:4',
        '.mvnxrc.yaml',
      ],
      [
        'OLLAMA_HOST wins over the default',
        { OLLAMA_HOST: 'ollama:3' },
        {},
        undefined,
        'http://ollama:3',
        'env OLLAMA_HOST',
      ],
      [
        "OLLAMA_HOST without a port gets Ollama's",
        { OLLAMA_HOST: 'gpu-box' },
        {},
        undefined,
        'http://gpu-box:11434',
        'env OLLAMA_HOST',
      ],
      [
        'OLLAMA_HOST as a URL is kept',
        { OLLAMA_HOST: 'https://ollama.example.com/' },
        {},
        undefined,
        'https://ollama.example.com',
        'env OLLAMA_HOST',
      ],
      ['default', {}, {}, undefined, 'http://127.0.0.1:11434', 'default'],
    ];
    it.each(cases)('%s', async (_name, env, flags, fileHost, expected, source) => {
      const root = await tempRepo(fileHost ? { '.mvnxrc.yaml': `model:\n  host: ${fileHost}\n` } : {});
      const config = await load(root, { env, overrides: flags });
      expect(config.model.host).toBe(expected);
      expect(config.sources['model.host']).toBe(source);
    });

    // Before the option table, the flag, MVNX_HOST and a config file gave http://gpu-box (port 80)
    // while OLLAMA_HOST gave port 11434; the contract reads a bare host the same from every source.
    it.each([
      ['flag', { overrides: { host: 'gpu-box' } }, 'flag --mvnx-host'],
      ['MVNX_HOST', { env: { MVNX_HOST: 'gpu-box' } }, 'env MVNX_HOST'],
      ['OLLAMA_HOST', { env: { OLLAMA_HOST: 'gpu-box' } }, 'env OLLAMA_HOST'],
    ] as const)("a bare host from %s means Ollama's port 11434", async (_source, options, source) => {
      const root = await tempRepo();
      const config = await load(root, options);
      expect(config.model.host).toBe('http://gpu-box:11434');
      expect(config.sources['model.host']).toBe(source);
    });

    it('a bare host in a config file means port 11434 too, and a port or scheme given is kept', async () => {
      expect((await load(await tempRepo({ '.mvnxrc.yaml': 'model:\n  host: gpu-box\n' }))).model.host).toBe(
        'http://gpu-box:11434',
      );
      expect((await load(await tempRepo(), { overrides: { host: 'gpu-box:8080' } })).model.host).toBe(
        'http://gpu-box:8080',
      );
      expect((await load(await tempRepo(), { overrides: { host: 'http://gpu-box' } })).model.host).toBe(
        'http://gpu-box',
      );
      expect((await load(await tempRepo(), { overrides: { host: ':11500' } })).model.host).toBe(
        'http://127.0.0.1:11500',
      );
    });

    it("a bare host for an OpenAI-compatible server keeps the scheme's port (11434 is Ollama's)", async () => {
      const config = await load(await tempRepo(), { overrides: { host: 'llm-box', provider: 'openai-compatible' } });
      expect(config.model.host).toBe('http://llm-box');
    });

    it('adds http:// to a host given without a scheme', async () => {
      const root = await tempRepo();
      expect((await load(root, { overrides: { host: 'gpu-box:11434/' } })).model.host).toBe('http://gpu-box:11434');
    });

    it('a preset host (config) also beats OLLAMA_HOST', async () => {
      const root = await tempRepo({
        'base.yaml': 'model:\n  host: http://base:5\n',
        '.mvnxrc.yaml': 'extends: ./base.yaml\n',
      });
      expect((await load(root, { env: { OLLAMA_HOST: 'ollama:3' } })).model.host).toBe('http://base:5');
    });
  });

  it('ignores flags that are not config overrides (they belong to the wrapper)', async () => {
    const root = await tempRepo();
    expect((await load(root, { overrides: { json: true, config: 'x' } })).tier).toBe('assist');
  });

  it('refuses a value flag given without a value', async () => {
    const root = await tempRepo();
    expect(await loadError(root, { overrides: { tier: true } })).toBe(
      'Invalid flag --mvnx-tier: it needs a value (--mvnx-tier=VALUE)',
    );
  });

  it('refuses a bad switch value', async () => {
    const root = await tempRepo();
    expect(await loadError(root, { env: { MVNX_NO_FIX: 'maybe' } })).toBe(
      'Invalid env MVNX_NO_FIX: found "maybe", expected true or false (1/0, yes/no)',
    );
  });

  it('refuses a bad tier from env with a did-you-mean', async () => {
    const root = await tempRepo();
    expect(await loadError(root, { env: { MVNX_TIER: 'asist' } })).toBe(
      'Invalid env MVNX_TIER: tier: found "asist" (string), expected one of "off", "monitor", "assist", "auto" (did you mean "assist"?)',
    );
  });

  it('refuses a non-numeric number flag, naming the flag', async () => {
    const root = await tempRepo();
    expect(await loadError(root, { overrides: { 'max-attempts': 'lots' } })).toBe(
      'Invalid flag --mvnx-max-attempts: budget.maxAttempts: found "lots" (string), expected a number',
    );
  });
});
