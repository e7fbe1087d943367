import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { run as explain } from '../../src/cli/commands/explain.js';
import { run as init } from '../../src/cli/commands/init.js';
import { PRESETS_DIR } from '../../src/policy/extends.js';
import { SCHEMA_ID } from '../../src/policy/json-schema.js';
import { load, tempRepo, writeFiles } from './policy-helpers.js';

// The commands write to the process streams; capture them (the code under test runs for real).
let stdout = '';
let stderr = '';
beforeEach(() => {
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
});
afterEach(() => vi.restoreAllMocks());

describe('mvnx init', () => {
  it('writes a commented .mvnxrc.yaml with a $schema line in the top pom folder, and it loads', async () => {
    const root = await tempRepo({ 'pom.xml': '<project/>', 'core/pom.xml': '<project/>' });
    expect(await init([], { cwd: path.join(root, 'core'), env: {} })).toBe(0);
    const text = await readFile(path.join(root, '.mvnxrc.yaml'), 'utf8');
    expect(text.split('\n')[0]).toBe(`# yaml-language-server: $schema=${SCHEMA_ID}`);
    expect(text).toContain('extends: assist');
    const config = await load(root);
    expect(config.tier).toBe('assist');
    expect(config.sources.tier).toBe('preset assist');
  });

  it.each(['monitor', 'auto', 'enterprise-tiered'])('--preset %s', async (preset) => {
    const root = await tempRepo();
    expect(await init(['--preset', preset], { cwd: root, env: {} })).toBe(0);
    expect(await readFile(path.join(root, '.mvnxrc.yaml'), 'utf8')).toContain(`extends: ${preset}`);
    expect((await load(root)).files[0]).toContain('policies');
  });

  it('never overwrites without --force', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': 'tier: off\n' });
    expect(await init(['--preset=auto'], { cwd: root, env: {} })).toBe(2);
    expect(stderr).toBe(`mvnx init: .mvnxrc.yaml already exists in ${root}; use --force to overwrite .mvnxrc.yaml\n`);
    expect(await readFile(path.join(root, '.mvnxrc.yaml'), 'utf8')).toBe('tier: off\n');
  });

  it('refuses when another config form exists, and --force overwrites', async () => {
    const root = await tempRepo({ '.config/mvnxrc.json': '{}' });
    expect(await init([], { cwd: root, env: {} })).toBe(2);
    expect(stderr).toContain('.config/mvnxrc.json already exists');
    await writeFile(path.join(root, '.mvnxrc.yaml'), 'tier: off\n');
    expect(await init(['--force', '--preset', 'monitor'], { cwd: root, env: {} })).toBe(0);
    expect((await load(root)).tier).toBe('monitor');
  });

  it('refuses an unknown preset with a did-you-mean', async () => {
    const root = await tempRepo();
    expect(await init(['--preset', 'asist'], { cwd: root, env: {} })).toBe(2);
    expect(stderr).toBe('mvnx init: unknown preset "asist" (did you mean "assist"?); expected one of monitor, assist, auto, enterprise-tiered\n');
  });

  it('refuses unknown arguments', async () => {
    const root = await tempRepo();
    expect(await init(['--yes'], { cwd: root, env: {} })).toBe(2);
    expect(stderr).toBe('mvnx init: unknown argument --yes; usage: mvnx init [--preset monitor|assist|auto|enterprise-tiered] [--force]\n');
  });
});

describe('mvnx explain', () => {
  it('prints each value with the file, env variable, flag or default that set it', async () => {
    const root = await tempRepo({ 'pom.xml': '<project/>', '.mvnxrc.yaml': "extends: monitor\nrules:\n  - paths: ['**/*Test.java']\n    tier: auto\nmodel:\n  name: file-model\n" });
    expect(await explain(['--mvnx-tier=assist'], { cwd: root, env: { MVNX_MAVEN: '/opt/mvn/bin/mvn' } })).toBe(0);
    const lines = stdout.split('\n');
    const line = (prefix: string): string | undefined => lines.find((candidate) => candidate.startsWith(prefix));
    expect(line('tier = ')).toMatch(/^tier = "assist"\s+\(flag --mvnx-tier\)$/);
    expect(line('model.name = ')).toMatch(/^model.name = "file-model"\s+\(\.mvnxrc\.yaml\)$/);
    expect(line('maven.executable = ')).toMatch(/\(env MVNX_MAVEN\)$/);
    expect(line('model.host = ')).toMatch(/^model.host = "http:\/\/127.0.0.1:11434"\s+\(default\)$/);
    expect(line('rules[0] = ')).toMatch(/^rules\[0\] = \{"paths":\["\*\*\/\*Test.java"\],"tier":"auto"\}\s+\(\.mvnxrc\.yaml\)$/);
    expect(line('assist.autoApplyLowRisk = ')).toMatch(/\(preset monitor\)$/);
    expect(line('config files: ')).toBe(`config files: ${path.join(PRESETS_DIR, 'monitor.yaml')}, ${path.join(root, '.mvnxrc.yaml')}`);
  });

  it('prints JSON with --json', async () => {
    const root = await tempRepo({ '.mvnxrc.json': '{"tier": "monitor"}' });
    expect(await explain(['--json'], { cwd: root, env: {} })).toBe(0);
    const printed = JSON.parse(stdout) as { tier: string; sources: Record<string, string> };
    expect(printed.tier).toBe('monitor');
    expect(printed.sources.tier).toBe('.mvnxrc.json');
  });

  it('uses --mvnx-config relative to the working folder', async () => {
    const root = await tempRepo();
    await writeFiles(root, { 'ci/policy.yaml': 'tier: off\n' });
    expect(await explain(['--mvnx-config=ci/policy.yaml', '--json'], { cwd: root, env: {} })).toBe(0);
    expect((JSON.parse(stdout) as { tier: string }).tier).toBe('off');
  });

  it('refuses unknown arguments and a --mvnx-config without a file', async () => {
    const root = await tempRepo();
    expect(await explain(['--verbose'], { cwd: root, env: {} })).toBe(2);
    expect(await explain(['--mvnx-config'], { cwd: root, env: {} })).toBe(2);
    expect(stderr).toBe(
      'mvnx explain: unknown argument "--verbose" (usage: mvnx explain [--json] [--mvnx-NAME=VALUE ...])\nmvnx explain: --mvnx-config needs a file (--mvnx-config=FILE)\n',
    );
  });

  it('reports an invalid config in one line with exit 2', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': 'tier: auto\nbudgets: {}\n' });
    expect(await explain([], { cwd: root, env: {} })).toBe(2);
    expect(stderr).toBe('Invalid config .mvnxrc.yaml:2: budgets: unknown key "budgets" (did you mean "budget"?)\n');
    expect(stdout).toBe('');
  });
});
