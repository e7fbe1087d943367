import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  doctorExitCode,
  evaluateDoctor,
  formatCheck,
  isModelPulled,
  type DoctorFacts,
} from '../../src/cli/commands/doctor/checks.js';
import { parseJavaVersion, parseMavenVersion, pinnedPlugins } from '../../src/cli/commands/doctor/doctor-facts.js';

const healthy = (): DoctorFacts => ({
  java: { ok: true, value: { command: '/jdk/bin/java', version: '17.0.15' } },
  maven: { ok: true, value: { path: '/usr/bin/mvn', source: 'PATH' } },
  mavenVersion: { ok: true, value: '3.8.7' },
  offline: {
    localRepository: '/m2',
    repositoryExists: true,
    pomFound: true,
    plugins: [{ groupId: 'g', artifactId: 'a', version: '1', present: true }],
  },
  config: { ok: true, value: { tier: 'assist', files: [] } },
  model: {
    host: 'http://h:1',
    name: 'm:7b',
    version: { ok: true, value: '0.6.4' },
    models: { ok: true, value: ['m:7b'] },
  },
  sandbox: {
    mode: 'auto',
    modeSource: 'default',
    image: 'maven:3.9-eclipse-temurin-17',
    imageSuggested: true,
    probe: { ok: true, value: { kind: 'bwrap', isolated: true, available: true, tried: [{ kind: 'bwrap' }] } },
    env: { passed: ['HOME', 'PATH'], dropped: ['GITHUB_TOKEN'] },
    localRepository: '/home/u/.m2/repository',
  },
  startup: {},
});

const statusOf = (facts: DoctorFacts, check: string) => evaluateDoctor(facts).find((r) => r.check === check)?.status;

describe('doctor verdicts', () => {
  it('names the command tools and the programs that are not installed', () => {
    const facts = healthy();
    facts.commandTools = [{ name: 'lint', program: './tools/lint.sh', found: true }];
    expect(evaluateDoctor(facts).find((r) => r.check === 'command tools')).toEqual({
      check: 'command tools',
      status: 'ok',
      detail: 'lint (./tools/lint.sh)',
    });
    facts.commandTools.push({ name: 'spotbugs_advisor', program: 'spotbugs', found: false });
    expect(evaluateDoctor(facts).find((r) => r.check === 'command tools')?.detail).toBe(
      'not installed here: spotbugs_advisor needs spotbugs',
    );
  });

  it('passes a healthy machine with every check ok', () => {
    const results = evaluateDoctor(healthy());
    expect(results.map((r) => `${r.status} ${r.check}`)).toEqual([
      'ok java',
      'ok maven',
      'ok maven version',
      'ok offline',
      'ok config',
      'ok model server',
      'ok model',
      'ok sandbox',
      'ok isolation',
      'ok plugins',
      'ok command tools',
      'ok start-up',
    ]);
    expect(doctorExitCode(results)).toBe(0);
  });

  it.each([
    ['java', (f: DoctorFacts) => (f.java = { ok: false, error: 'java: not found' })],
    ['maven', (f: DoctorFacts) => (f.maven = { ok: false, error: 'not found' })],
    ['config', (f: DoctorFacts) => (f.config = { ok: false, error: 'Invalid config .mvnxrc.yaml: tier' })],
    ['maven version', (f: DoctorFacts) => (f.mavenVersion = { ok: false, error: 'exited 1' })],
    ['plugins', (f: DoctorFacts) => (f.plugins = { ok: false, error: 'plugin mvnx-plugin-acme: not found from /p' })],
  ])('an unusable %s fails the doctor', (check, breakIt) => {
    const facts = healthy();
    breakIt(facts);
    expect(statusOf(facts, check)).toBe('fail');
    expect(doctorExitCode(evaluateDoctor(facts))).toBe(1);
  });

  it.each([
    [
      'model server',
      (f: DoctorFacts) => (f.model = { ...f.model, version: { ok: false, error: 'ECONNREFUSED' }, models: undefined }),
    ],
    ['model', (f: DoctorFacts) => (f.model = { ...f.model, models: { ok: true, value: ['other:1b'] } })],
    [
      'sandbox',
      (f: DoctorFacts) =>
        (f.sandbox = {
          ...f.sandbox,
          probe: {
            ok: true,
            value: {
              kind: 'none',
              isolated: false,
              available: true,
              reason: 'no sandbox available (bwrap: not installed)',
              tried: [],
            },
          },
        }),
    ],
    [
      'isolation',
      (f: DoctorFacts) =>
        (f.sandbox = {
          ...f.sandbox,
          probe: { ok: true, value: { kind: 'none', isolated: false, available: true, reason: 'x', tried: [] } },
        }),
    ],
    [
      'offline',
      (f: DoctorFacts) =>
        (f.offline = { ...f.offline, plugins: [{ groupId: 'g', artifactId: 'a', version: '1', present: false }] }),
    ],
    ['offline', (f: DoctorFacts) => (f.offline = { ...f.offline, repositoryExists: false })],
    ['maven version', (f: DoctorFacts) => (f.mavenVersion = { ok: true, value: '3.6.0' })],
    [
      'start-up',
      (f: DoctorFacts) =>
        (f.startup = {
          extraCaCerts: '/etc/ssl/certs/ca-certificates.crt',
          extraCaCertsCostMs: { ok: true, value: 47.6 },
        }),
    ],
    [
      'command tools',
      (f: DoctorFacts) =>
        (f.commandTools = [
          { name: 'lint', program: 'lint', found: true },
          { name: 'spotbugs_advisor', program: 'spotbugs', found: false },
        ]),
    ],
  ])('a problem with %s is a warning with a hint, not a failure', (check, breakIt) => {
    const facts = healthy();
    breakIt(facts);
    const result = evaluateDoctor(facts).find((r) => r.check === check)!;
    expect(result.status).toBe('warn');
    expect(result.hint).toBeTruthy();
    expect(doctorExitCode(evaluateDoctor(facts))).toBe(0);
  });

  it('names the certificate file and its measured cost, and stays quiet about a cost within noise', () => {
    const facts = healthy();
    facts.startup = { extraCaCerts: '/corp/ca.pem', extraCaCertsCostMs: { ok: true, value: 47.6 } };
    expect(evaluateDoctor(facts).find((r) => r.check === 'start-up')?.detail).toBe(
      'NODE_EXTRA_CA_CERTS=/corp/ca.pem adds about 48 ms to every mvnx run: node parses it before mvnx starts',
    );
    facts.startup = { extraCaCerts: '/corp/ca.pem', extraCaCertsCostMs: { ok: true, value: 3.2 } };
    expect(evaluateDoctor(facts).find((r) => r.check === 'start-up')).toMatchObject({
      status: 'ok',
      detail: 'NODE_EXTRA_CA_CERTS=/corp/ca.pem costs about 3 ms per start',
    });
    facts.startup = { extraCaCerts: '/corp/ca.pem', extraCaCertsCostMs: { ok: false, error: 'node -e 0 exited 9' } };
    expect(evaluateDoctor(facts).find((r) => r.check === 'start-up')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('could not be measured: node -e 0 exited 9'),
    });
  });

  it('formats ok, warn and FAIL lines the same way', () => {
    expect(formatCheck({ check: 'java', status: 'ok', detail: '17', hint: 'unused' })).toBe('ok   java: 17');
    expect(formatCheck({ check: 'sandbox', status: 'warn', detail: 'no bwrap', hint: 'install it' })).toBe(
      'warn sandbox: no bwrap — install it',
    );
    expect(formatCheck({ check: 'maven', status: 'fail', detail: 'not found', hint: 'install' })).toBe(
      'FAIL maven: not found — install',
    );
  });

  it('compares Maven versions numerically', () => {
    expect(compareVersions('3.8.7', '3.6.3')).toBe(1);
    expect(compareVersions('3.6.3', '3.6.3')).toBe(0);
    expect(compareVersions('3.10.0', '3.9.9')).toBe(1);
    expect(compareVersions('3.6.2', '3.6.3')).toBe(-1);
    expect(compareVersions('4.0.0-rc-2', '3.6.3')).toBe(1);
  });

  it('treats an untagged model name as :latest', () => {
    expect(isModelPulled('tiny', ['tiny:latest'])).toBe(true);
    expect(isModelPulled('tiny:1b', ['tiny:latest'])).toBe(false);
    expect(isModelPulled('qwen2.5-coder:7b', ['qwen2.5-coder:7b'])).toBe(true);
  });

  it('reads versions from real tool output and plugin pins from a pom', () => {
    expect(parseJavaVersion('openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime Environment')).toBe('17.0.15');
    expect(parseJavaVersion('garbage')).toBeUndefined();
    expect(parseMavenVersion('\x1b[1mApache Maven 3.8.7\x1b[m\nMaven home: /usr/share/maven')).toBe('3.8.7');
    const pom = `<project><properties><surefire.version>3.2.5</surefire.version></properties><build><pluginManagement><plugins>
      <plugin><groupId>org.codehaus.mojo</groupId><artifactId>exec-maven-plugin</artifactId><version>3.1.0</version></plugin></plugins></pluginManagement>
      <plugins><plugin><artifactId>maven-surefire-plugin</artifactId><version>\${surefire.version}</version>
      <dependencies><dependency><groupId>x</groupId><artifactId>y</artifactId><version>1</version></dependency></dependencies></plugin>
      <plugin><artifactId>unpinned-plugin</artifactId></plugin></plugins></build></project>`;
    expect(pinnedPlugins(pom)).toEqual([
      { groupId: 'org.codehaus.mojo', artifactId: 'exec-maven-plugin', version: '3.1.0' },
      { groupId: 'org.apache.maven.plugins', artifactId: 'maven-surefire-plugin', version: '3.2.5' },
    ]);
  });
});

describe('the sandbox checks tell the truth', () => {
  const withProbe = (value: DoctorFacts['sandbox']['probe'], extra: Partial<DoctorFacts['sandbox']> = {}) => {
    const facts = healthy();
    facts.sandbox = { ...facts.sandbox, probe: value, ...extra };
    return evaluateDoctor(facts);
  };
  const find = (results: ReturnType<typeof evaluateDoctor>, check: string) => results.find((r) => r.check === check)!;

  it('says which backend verification will use, what is isolated and what is not, and names withheld variables (never values)', () => {
    const results = withProbe({
      ok: true,
      value: { kind: 'bwrap', isolated: true, available: true, tried: [{ kind: 'bwrap' }] },
    });
    expect(find(results, 'sandbox').detail).toBe('verification builds will run under bubblewrap (sandbox.mode auto)');
    const isolation = find(results, 'isolation').detail;
    expect(isolation).toMatch(
      /^isolated: network \(none\), writes \(workspace only; \/home\/u\/.m2\/repository read-only\)/,
    );
    expect(isolation).toContain('Not isolated: CPU and memory');
    expect(isolation).toContain('2 variable(s) pass (HOME, PATH), 1 withheld (GITHUB_TOKEN)');
  });

  it('a container backend names its image, and what auto passed over', () => {
    const results = withProbe({
      ok: true,
      value: {
        kind: 'podman',
        isolated: true,
        available: true,
        tried: [{ kind: 'bwrap', problem: 'bubblewrap (bwrap) is not installed' }, { kind: 'podman' }],
      },
    });
    expect(find(results, 'sandbox').detail).toBe(
      'verification builds will run under podman, image maven:3.9-eclipse-temurin-17 (sandbox.mode auto); passed over: bwrap: bubblewrap (bwrap) is not installed',
    );
  });

  it('no isolation: a warning that says so, suggests an image for the project, and that auto will not apply', () => {
    const results = withProbe({
      ok: true,
      value: { kind: 'none', isolated: false, available: true, reason: 'no sandbox available (bwrap: x)', tried: [] },
    });
    expect(find(results, 'sandbox')).toMatchObject({
      status: 'warn',
      detail: 'verification builds will run WITHOUT isolation: no sandbox available (bwrap: x)',
    });
    expect(find(results, 'sandbox').hint).toContain('suggested for this project: maven:3.9-eclipse-temurin-17');
    expect(find(results, 'isolation')).toMatchObject({ status: 'warn' });
    expect(find(results, 'isolation').hint).toBe(
      'auto and assist.autoApplyLowRisk will not apply fixes verified like this',
    );
  });

  it('sandbox.mode none written in a config file: still a warning, and says auto trusts it', () => {
    const results = withProbe(
      {
        ok: true,
        value: { kind: 'none', isolated: false, available: true, reason: 'sandbox.mode is none', tried: [] },
      },
      { mode: 'none', modeSource: '/repo/.mvnxrc.yaml' },
    );
    expect(find(results, 'isolation').hint).toBe(
      '/repo/.mvnxrc.yaml says the environment is the sandbox: auto applies fixes anyway',
    );
  });

  it('a backend required by name that cannot run fails the doctor', () => {
    const results = withProbe(
      {
        ok: true,
        value: {
          kind: 'bwrap',
          isolated: false,
          available: false,
          reason: 'bubblewrap (bwrap) is not installed',
          tried: [],
        },
      },
      { mode: 'bwrap', modeSource: '.mvnxrc.yaml' },
    );
    expect(find(results, 'sandbox')).toMatchObject({
      status: 'fail',
      detail: 'sandbox.mode bwrap (.mvnxrc.yaml) is required but unavailable: bubblewrap (bwrap) is not installed',
    });
    expect(doctorExitCode(results)).toBe(1);
  });
});
