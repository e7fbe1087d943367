import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { run as explain } from '../../src/cli/commands/explain.js';
import { run as init, STARTER_SCHEMA } from '../../src/cli/commands/init.js';
import { PRESETS_DIR } from '../../src/policy/extends.js';
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
    // The README's recommendation (test/integration/package-links.test.ts holds them together).
    expect(text.split('\n')[0]).toBe(`# yaml-language-server: $schema=${STARTER_SCHEMA}`);
    expect(STARTER_SCHEMA).toBe('./node_modules/mvnx/schema.json');
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
    expect(stderr).toBe(
      'mvnx init: unknown preset "asist" (did you mean "assist"?); expected one of monitor, assist, auto, enterprise-tiered\n',
    );
  });

  it('prints its usage for --help and writes nothing', async () => {
    const root = await tempRepo({ 'pom.xml': '<project/>' });
    expect(await init(['--help'], { cwd: root, env: {} })).toBe(0);
    expect(stdout).toMatch(/^usage: mvnx init \[--preset /);
    await expect(readFile(path.join(root, '.mvnxrc.yaml'), 'utf8')).rejects.toThrow();
  });

  it('refuses unknown arguments', async () => {
    const root = await tempRepo();
    expect(await init(['--yes'], { cwd: root, env: {} })).toBe(2);
    expect(stderr).toBe(
      'mvnx init: unknown argument --yes; usage: mvnx init [--preset monitor|assist|auto|enterprise-tiered] [--force]\n',
    );
  });
});

describe('mvnx explain', () => {
  it('prints each value with the file, env variable, flag or default that set it', async () => {
    const root = await tempRepo({
      'pom.xml': '<project/>',
      '.mvnxrc.yaml':
        "extends: monitor\nrules:\n  - paths: ['**/*Test.java']\n    tier: auto\nmodel:\n  name: file-model\n",
    });
    expect(await explain(['--mvnx-tier=assist'], { cwd: root, env: { MVNX_MAVEN: '/opt/mvn/bin/mvn' } })).toBe(0);
    const lines = stdout.split('\n');
    const line = (prefix: string): string | undefined => lines.find((candidate) => candidate.startsWith(prefix));
    expect(line('tier = ')).toMatch(/^tier = "assist"\s+\(flag --mvnx-tier\)$/);
    expect(line('model.name = ')).toMatch(/^model.name = "file-model"\s+\(\.mvnxrc\.yaml\)$/);
    expect(line('maven.executable = ')).toMatch(/\(env MVNX_MAVEN\)$/);
    expect(line('model.host = ')).toMatch(/^model.host = "http:\/\/127.0.0.1:11434"\s+\(default\)$/);
    expect(line('rules[0] = ')).toMatch(
      /^rules\[0\] = \{"paths":\["\*\*\/\*Test.java"\],"tier":"auto"\}\s+\(\.mvnxrc\.yaml\)$/,
    );
    expect(line('assist.autoApplyLowRisk = ')).toMatch(/\(preset monitor\)$/);
    expect(line('config files: ')).toBe(
      `config files: ${path.join(PRESETS_DIR, 'monitor.yaml')}, ${path.join(root, '.mvnxrc.yaml')}`,
    );
    expect(line('maven: ')).toBe('maven: Maven not found: MVNX_MAVEN=/opt/mvn/bin/mvn is not an executable file');
  });

  describe('says which Maven a build here runs, and why', () => {
    const DISTRIBUTION =
      'https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/3.9.9/apache-maven-3.9.9-bin.zip';
    const mavenLine = () => stdout.split('\n').find((candidate) => candidate.startsWith('maven: '));
    const withWrapper = async () => {
      const root = await tempRepo({
        'pom.xml': '<project/>',
        '.mvn/wrapper/maven-wrapper.properties': `distributionUrl=${DISTRIBUTION.replace(':', '\\:')}\n`,
        'core/pom.xml': '<project/>',
      });
      await writeFile(path.join(root, 'mvnw'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
      return root;
    };

    it("the project's ./mvnw with its distribution, not downloaded yet, then downloaded", async () => {
      const root = await withWrapper();
      const userHome = path.join(root, 'user-m2');
      expect(await explain([], { cwd: root, env: { MAVEN_USER_HOME: userHome, PATH: '/usr/bin:/bin' } })).toBe(0);
      const dists = path.join(userHome, 'wrapper', 'dists', 'apache-maven-3.9.9');
      expect(mavenLine()).toBe(
        `maven: ./mvnw (the project's Maven wrapper, the nearest mvnw; it runs apache-maven-3.9.9-bin.zip from .mvn/wrapper/maven-wrapper.properties, not downloaded yet (${dists}): its first run needs the network)`,
      );
      await writeFiles(dists, { 'abc123/apache-maven-3.9.9/bin/mvn': '' });
      stdout = '';
      expect(
        await explain([], { cwd: path.join(root, 'core'), env: { MAVEN_USER_HOME: userHome, PATH: '/usr/bin:/bin' } }),
      ).toBe(0);
      expect(mavenLine()).toBe(
        `maven: ${path.join(root, 'mvnw')} (the project's Maven wrapper, the nearest mvnw; it runs apache-maven-3.9.9-bin.zip from .mvn/wrapper/maven-wrapper.properties, downloaded in ${dists})`,
      );
    });

    it('mvn on PATH when there is no wrapper, and the setting that names another Maven', async () => {
      const root = await tempRepo({ 'pom.xml': '<project/>' });
      const bin = path.join(root, 'bin');
      await writeFiles(bin, { mvn: '#!/bin/sh\n' });
      await chmod(path.join(bin, 'mvn'), 0o755);
      expect(await explain([], { cwd: root, env: { PATH: bin } })).toBe(0);
      expect(mavenLine()).toBe(`maven: ${path.join(bin, 'mvn')} (mvn on PATH: no mvnw in ${root} or its parents)`);
      stdout = '';
      const wrapped = await withWrapper();
      expect(
        await explain([`--mvnx-maven=${path.join(bin, 'mvn')}`, '--json'], { cwd: wrapped, env: { PATH: bin } }),
      ).toBe(0);
      expect((JSON.parse(stdout) as { mavenToRun: unknown }).mavenToRun).toEqual({
        executable: path.join(bin, 'mvn'),
        source: 'flag',
        why: `${path.join(bin, 'mvn')} (--mvnx-maven)`,
      });
    });
  });

  it('prints JSON with --json', async () => {
    const root = await tempRepo({ '.mvnxrc.json': '{"tier": "monitor"}' });
    expect(await explain(['--json'], { cwd: root, env: {} })).toBe(0);
    const printed = JSON.parse(stdout) as { tier: string; sources: Record<string, string> };
    expect(printed.tier).toBe('monitor');
    expect(printed.sources.tier).toBe('.mvnxrc.json');
    stdout = '';
    expect(await explain(['--mvnx-json'], { cwd: root, env: {} })).toBe(0);
    expect((JSON.parse(stdout) as { tier: string }).tier).toBe('monitor');
  });

  it('uses --mvnx-config relative to the working folder', async () => {
    const root = await tempRepo();
    await writeFiles(root, { 'ci/policy.yaml': 'tier: off\n' });
    expect(await explain(['--mvnx-config=ci/policy.yaml', '--json'], { cwd: root, env: {} })).toBe(0);
    expect((JSON.parse(stdout) as { tier: string }).tier).toBe('off');
  });

  const USAGE = 'usage: mvnx explain [--json] [--mvnx-NAME=VALUE ...]';
  it.each([
    [['--verbose'], 'unknown argument --verbose'],
    [['pom.xml'], 'unknown argument pom.xml'],
    [['--json=yes'], '--json takes no value'],
    [['--mvnx-config'], 'flag --mvnx-config needs a value: --mvnx-config=FILE'],
    [['--mvnx-tire=auto'], 'unknown flag --mvnx-tire; did you mean --mvnx-tier? (see mvnx --help)'],
  ])('refuses %j with the usage error (exit 2)', async (args, what) => {
    const root = await tempRepo();
    await expect(explain(args, { cwd: root, env: {} })).rejects.toMatchObject({
      exitCode: 2,
      message: `mvnx explain: ${what}; ${USAGE}`,
    });
    expect(stdout).toBe('');
  });

  it('reports an invalid config in one line with exit 2', async () => {
    const root = await tempRepo({ '.mvnxrc.yaml': 'tier: auto\nbudgets: {}\n' });
    expect(await explain([], { cwd: root, env: {} })).toBe(2);
    expect(stderr).toBe('Invalid config .mvnxrc.yaml:2: budgets: unknown key "budgets" (did you mean "budget"?)\n');
    expect(stdout).toBe('');
  });
});
