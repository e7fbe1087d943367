import { describe, expect, it } from 'vitest';
import { compareVersions, doctorExitCode, evaluateDoctor, formatCheck, isModelPulled, type DoctorFacts } from '../../src/cli/commands/doctor/checks.js';
import { parseJavaVersion, parseMavenVersion, pinnedPlugins } from '../../src/cli/commands/doctor/facts.js';

const healthy = (): DoctorFacts => ({
  java: { ok: true, value: { command: '/jdk/bin/java', version: '17.0.15' } },
  maven: { ok: true, value: { path: '/usr/bin/mvn', source: 'PATH' } },
  mavenVersion: { ok: true, value: '3.8.7' },
  offline: { localRepository: '/m2', repositoryExists: true, pomFound: true, plugins: [{ groupId: 'g', artifactId: 'a', version: '1', present: true }] },
  config: { ok: true, value: { tier: 'assist', files: [] } },
  model: { host: 'http://h:1', name: 'm:7b', version: { ok: true, value: '0.6.4' }, models: { ok: true, value: ['m:7b'] } },
  sandbox: { version: { ok: true, value: 'bubblewrap 0.8.0' }, isolatedRun: { ok: true, value: true } },
  startup: {},
});

const statusOf = (facts: DoctorFacts, check: string) => evaluateDoctor(facts).find((r) => r.check === check)?.status;

describe('doctor verdicts', () => {
  it('passes a healthy machine with every check ok', () => {
    const results = evaluateDoctor(healthy());
    expect(results.map((r) => `${r.status} ${r.check}`)).toEqual(['ok java', 'ok maven', 'ok maven version', 'ok offline', 'ok config', 'ok model server', 'ok model', 'ok sandbox', 'ok plugins', 'ok start-up']);
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
    ['model server', (f: DoctorFacts) => (f.model = { ...f.model, version: { ok: false, error: 'ECONNREFUSED' }, models: undefined })],
    ['model', (f: DoctorFacts) => (f.model = { ...f.model, models: { ok: true, value: ['other:1b'] } })],
    ['sandbox', (f: DoctorFacts) => (f.sandbox = { version: { ok: false, error: 'spawn bwrap ENOENT' } })],
    ['sandbox', (f: DoctorFacts) => (f.sandbox = { ...f.sandbox, isolatedRun: { ok: false, error: 'No permissions to create new namespace' } })],
    ['offline', (f: DoctorFacts) => (f.offline = { ...f.offline, plugins: [{ groupId: 'g', artifactId: 'a', version: '1', present: false }] })],
    ['offline', (f: DoctorFacts) => (f.offline = { ...f.offline, repositoryExists: false })],
    ['maven version', (f: DoctorFacts) => (f.mavenVersion = { ok: true, value: '3.6.0' })],
    ['start-up', (f: DoctorFacts) => (f.startup = { extraCaCerts: '/etc/ssl/certs/ca-certificates.crt', extraCaCertsCostMs: { ok: true, value: 47.6 } })],
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
    expect(evaluateDoctor(facts).find((r) => r.check === 'start-up')?.detail).toBe('NODE_EXTRA_CA_CERTS=/corp/ca.pem adds about 48 ms to every mvnx run: node parses it before mvnx starts');
    facts.startup = { extraCaCerts: '/corp/ca.pem', extraCaCertsCostMs: { ok: true, value: 3.2 } };
    expect(evaluateDoctor(facts).find((r) => r.check === 'start-up')).toMatchObject({ status: 'ok', detail: 'NODE_EXTRA_CA_CERTS=/corp/ca.pem costs about 3 ms per start' });
    facts.startup = { extraCaCerts: '/corp/ca.pem', extraCaCertsCostMs: { ok: false, error: 'node -e 0 exited 9' } };
    expect(evaluateDoctor(facts).find((r) => r.check === 'start-up')).toMatchObject({ status: 'ok', detail: expect.stringContaining('could not be measured: node -e 0 exited 9') });
  });

  it('formats ok, warn and FAIL lines the same way', () => {
    expect(formatCheck({ check: 'java', status: 'ok', detail: '17', hint: 'unused' })).toBe('ok   java: 17');
    expect(formatCheck({ check: 'sandbox', status: 'warn', detail: 'no bwrap', hint: 'install it' })).toBe('warn sandbox: no bwrap — install it');
    expect(formatCheck({ check: 'maven', status: 'fail', detail: 'not found', hint: 'install' })).toBe('FAIL maven: not found — install');
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
