/**
 * The published bin (package.json's `bin.mvnx`, the dist/cli/mvnx.cjs bundle) as a drop-in for mvn, against the fake mvn in
 * test/helpers: argv and environment pass through, exit codes, signals, one-line errors.
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_MVN, readRecord, recordDir } from '../helpers/fake-mvn.js';

const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
  bin: { mvnx: string };
};
const MAIN = fileURLToPath(new URL(`../../${manifest.bin.mvnx}`, import.meta.url));
const cleanups: string[] = [];
afterEach(async () => {
  for (const dir of cleanups.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function project(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mvnx-wrapper-'));
  cleanups.push(dir);
  await writeFile(path.join(dir, 'pom.xml'), '<project/>\n');
  return dir;
}

/** An environment with no MVNX_* or FAKE_* leaking in from the outer shell. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith('MVNX_') && !name.startsWith('FAKE_MVN')) env[name] = value;
  return { ...env, MVNX_MAVEN: FAKE_MVN, MVNX_HOST: 'http://127.0.0.1:9', ...extra };
}

function mvnx(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  return execa('node', [MAIN, ...args], { cwd, env, extendEnv: false, reject: false, stdin: 'ignore' });
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

describe('mvnx as a drop-in for mvn', () => {
  it('passes the tricky arguments verbatim and in order, mvnx flags removed', async () => {
    const cwd = await project();
    const record = await recordDir();
    const args = [
      '-o',
      '-Dkey=value with spaces',
      '--mvnx-tier=off',
      '-Dmsg="quoted"',
      '-pl',
      'a,b',
      '-f',
      'pom.xml',
      '--settings',
      'x',
      '-T',
      '1C',
      '-rf',
      ':module',
      'verify',
      '--mvnx-no-fix',
    ];
    const run = await mvnx(args, cwd, cleanEnv({ FAKE_MVN_RECORD: record }));
    expect(run.exitCode).toBe(0);
    expect((await readRecord(record)).argv).toEqual([
      '-o',
      '-Dkey=value with spaces',
      '-Dmsg="quoted"',
      '-pl',
      'a,b',
      '-f',
      'pom.xml',
      '--settings',
      'x',
      '-T',
      '1C',
      '-rf',
      ':module',
      'verify',
    ]);
  });

  it('passes everything after -- to Maven', async () => {
    const cwd = await project();
    const record = await recordDir();
    const run = await mvnx(['--', 'help', '--mvnx-tier=auto', '--help'], cwd, cleanEnv({ FAKE_MVN_RECORD: record }));
    expect(run.exitCode).toBe(0);
    expect((await readRecord(record)).argv).toEqual(['help', '--mvnx-tier=auto', '--help']);
  });

  it('passes the environment through untouched and runs Maven in the working directory', async () => {
    const cwd = await project();
    const sub = path.join(cwd, 'module');
    await mkdir(sub);
    const record = await recordDir();
    const env = cleanEnv({
      FAKE_MVN_RECORD: record,
      MAVEN_OPTS: '-Xmx64m -Dx="a b"',
      MAVEN_ARGS: '-e',
      JAVA_TOOL_OPTIONS: '-Dfoo=bar',
    });
    await mvnx(['verify'], sub, env);
    const seen = await readRecord(record);
    for (const name of ['MAVEN_OPTS', 'MAVEN_ARGS', 'JAVA_TOOL_OPTIONS', 'MVNX_MAVEN', 'PATH', 'HOME'])
      expect(seen.env[name]).toBe(env[name]);
    expect(seen.cwd).toBe(sub);
  });

  it("prints nothing of its own on success: the output is exactly Maven's", async () => {
    const cwd = await project();
    const run = await mvnx(
      ['-q', 'verify'],
      cwd,
      cleanEnv({ FAKE_MVN_STDOUT: '[INFO] BUILD SUCCESS\n', FAKE_MVN_STDERR: 'a warning\n' }),
    );
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([0, '[INFO] BUILD SUCCESS', 'a warning']);
    expect(await exists(path.join(cwd, '.mvnx'))).toBe(false);
  });

  it("exits with Maven's exit code when the tier is off", async () => {
    const cwd = await project();
    for (const code of [1, 3]) {
      const run = await mvnx(['--mvnx-tier=off', 'verify'], cwd, cleanEnv({ FAKE_MVN_EXIT: String(code) }));
      expect([run.exitCode, run.stderr]).toEqual([code, '']);
    }
    expect(await exists(path.join(cwd, '.mvnx'))).toBe(false);
  });

  it('exits 128+N when Maven dies from a signal', async () => {
    const cwd = await project();
    const term = await mvnx(['--mvnx-no-fix', 'verify'], cwd, cleanEnv({ FAKE_MVN_SIGNAL: 'TERM' }));
    const kill = await mvnx(['--mvnx-no-fix', 'verify'], cwd, cleanEnv({ FAKE_MVN_SIGNAL: 'KILL' }));
    expect([term.exitCode, kill.exitCode]).toEqual([143, 137]);
  });

  it('hands a failed build to the repair stage when the tier is not off, leaving a run record', async () => {
    const cwd = await project();
    const run = await mvnx(
      ['--mvnx-tier=monitor', 'verify'],
      cwd,
      cleanEnv({ FAKE_MVN_EXIT: '1', FAKE_MVN_STDOUT: '[ERROR] BUILD FAILURE\n' }),
    );
    expect(run.exitCode).toBe(1);
    const runId = (await readFile(path.join(cwd, '.mvnx', 'runs', 'latest'), 'utf8')).trim();
    const record = JSON.parse(await readFile(path.join(cwd, '.mvnx', 'runs', runId, 'run.json'), 'utf8')) as {
      mavenArgs: string[];
      mavenExitCode: number;
    };
    expect(record).toMatchObject({ mavenArgs: ['verify'], mavenExitCode: 1 });
  });

  it('with no config at all, loads the defaults after a failure and hands it to the repair stage', async () => {
    const cwd = await project();
    const run = await mvnx(
      ['verify'],
      cwd,
      cleanEnv({ FAKE_MVN_EXIT: '1', FAKE_MVN_STDOUT: '[ERROR] BUILD FAILURE\n' }),
    );
    expect(run.exitCode).toBe(1);
    const runId = (await readFile(path.join(cwd, '.mvnx', 'runs', 'latest'), 'utf8')).trim();
    const record = JSON.parse(await readFile(path.join(cwd, '.mvnx', 'runs', runId, 'run.json'), 'utf8')) as {
      tier: string;
    };
    expect(record.tier).toBe('assist');
  });

  it('starts loading the repair stage at the first sign of a failing build, while Maven still runs; never for a passing build or tier off', async () => {
    // Node's own module-loading trace (NODE_DEBUG=esm) says when the repair stage was asked for; Maven's last line comes 2 s after the sign.
    const failing = {
      NODE_DEBUG: 'esm',
      FAKE_MVN_STDOUT: '[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0 <<< FAILURE! -- in demo.CalcTest\n',
      FAKE_MVN_SLEEP: '2',
      FAKE_MVN_LAST: 'FAKE-MAVEN-LAST-LINE\n',
      FAKE_MVN_EXIT: '1',
    };
    const loadedAt = (stderr: string) => stderr.search(/file:\/\/\S*\/app\/index\.js/);

    const run = await mvnx(['verify'], await project(), cleanEnv(failing));
    expect(run.exitCode).toBe(1);
    expect(loadedAt(run.stderr)).toBeGreaterThan(-1);
    expect(loadedAt(run.stderr)).toBeLessThan(run.stderr.indexOf('FAKE-MAVEN-LAST-LINE'));

    const passing = await mvnx(
      ['verify'],
      await project(),
      cleanEnv({
        NODE_DEBUG: 'esm',
        FAKE_MVN_STDOUT: '[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS\n',
      }),
    );
    expect(passing.exitCode).toBe(0);
    expect(loadedAt(passing.stderr)).toBe(-1);
    const off = await mvnx(['--mvnx-tier=off', 'verify'], await project(), cleanEnv(failing));
    expect(off.exitCode).toBe(1);
    expect(loadedAt(off.stderr)).toBe(-1);
  });

  it('forwards SIGINT and SIGTERM to the whole Maven tree and exits 128+N', async () => {
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const) {
      const cwd = await project();
      const pidFile = path.join(cwd, 'child.pid');
      const child = mvnx(['--mvnx-no-fix', 'verify'], cwd, cleanEnv({ FAKE_MVN_CHILD_PID: pidFile }));
      const grandchild = await waitForPid(pidFile);
      child.kill(signal);
      const run = await child;
      expect(run.exitCode).toBe(code);
      expect(await running(grandchild)).toBe(false);
    }
  });

  it('forwards a signal that arrives the moment Maven starts, before Maven has done anything', async () => {
    const cwd = await project();
    const pidFile = path.join(cwd, 'child.pid');
    const run = await mvnx(
      ['--mvnx-no-fix', 'verify'],
      cwd,
      cleanEnv({ FAKE_MVN_SIGNAL_PARENT: 'TERM', FAKE_MVN_CHILD_PID: pidFile }),
    );
    expect(run.exitCode).toBe(143);
    const grandchild = Number(await readFile(pidFile, 'utf8').catch(() => 'NaN'));
    if (Number.isInteger(grandchild)) expect(await running(grandchild)).toBe(false);
  });
});

describe('one-line errors', () => {
  it('exits 127 naming what was searched when Maven is not found', async () => {
    const cwd = await project();
    const env = cleanEnv({ PATH: '/nonexistent-bin' });
    delete env.MVNX_MAVEN;
    const run = await execa(process.execPath, [MAIN, 'verify'], { cwd, env, extendEnv: false, reject: false });
    expect(run.exitCode).toBe(127);
    expect(run.stderr).toBe(
      `mvnx: Maven not found: searched --mvnx-maven, MVNX_MAVEN, config maven.executable (none set), mvnw in ${cwd} and its parents, mvn on PATH (/nonexistent-bin); install Maven or set MVNX_MAVEN=/path/to/mvn`,
    );
  });

  it('exits 2 on an unknown flag before Maven runs', async () => {
    const cwd = await project();
    const record = await recordDir();
    const run = await mvnx(['--mvnx-tierr=auto', 'verify'], cwd, cleanEnv({ FAKE_MVN_RECORD: record }));
    expect([run.exitCode, run.stderr]).toEqual([
      2,
      'mvnx: unknown flag --mvnx-tierr; did you mean --mvnx-tier? (see mvnx --help)',
    ]);
    expect(await exists(record)).toBe(false);
  });

  it('exits 2 on a bad config before Maven runs, naming the file and field', async () => {
    const cwd = await project();
    const record = await recordDir();
    await writeFile(path.join(cwd, 'bad.json'), '{"tier": "sometimes"}\n');
    const run = await mvnx(['--mvnx-config=bad.json', 'verify'], cwd, cleanEnv({ FAKE_MVN_RECORD: record }));
    expect(run.exitCode).toBe(2);
    expect(run.stderr.split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^mvnx: .*bad\.json.*tier/);
    expect(await exists(record)).toBe(false);
  });

  it('exits 2 before Maven runs on a bad config that is found, not named', async () => {
    const cwd = await project();
    const record = await recordDir();
    await writeFile(path.join(cwd, '.mvnxrc.json'), '{"tier": "sometimes"}\n');
    const run = await mvnx(['verify'], cwd, cleanEnv({ FAKE_MVN_RECORD: record }));
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/^mvnx: .*\.mvnxrc\.json.*tier/);
    expect(await exists(record)).toBe(false);
  });

  it('exits 2 before Maven runs on a bad global config (XDG_CONFIG_HOME/mvnx)', async () => {
    const cwd = await project();
    const record = await recordDir();
    const xdg = path.join(cwd, 'xdg');
    await mkdir(path.join(xdg, 'mvnx'), { recursive: true });
    await writeFile(path.join(xdg, 'mvnx', 'config.yaml'), 'tier: sometimes\n');
    const run = await mvnx(['verify'], path.join(cwd), cleanEnv({ FAKE_MVN_RECORD: record, XDG_CONFIG_HOME: xdg }));
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/^mvnx: .*config\.yaml.*tier/);
    expect(await exists(record)).toBe(false);
  });

  it('exits 2 when --mvnx-maven names no executable', async () => {
    const cwd = await project();
    const run = await mvnx(['--mvnx-maven=./nope/mvn', 'verify'], cwd, cleanEnv());
    expect([run.exitCode, run.stderr]).toEqual([
      127,
      `mvnx: Maven not found: --mvnx-maven=./nope/mvn is not an executable file`,
    ]);
  });
});

describe("the project's ./mvnw", () => {
  it('says which Maven ran and why when the wrapper fails before Maven starts (offline, no distribution yet)', async () => {
    const cwd = await project();
    await mkdir(path.join(cwd, '.mvn', 'wrapper'), { recursive: true });
    await writeFile(
      path.join(cwd, '.mvn', 'wrapper', 'maven-wrapper.properties'),
      'distributionUrl=https\\://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/3.9.9/apache-maven-3.9.9-bin.zip\n',
    );
    // What the Apache Maven Wrapper (3.3, only-script) prints when it cannot download Maven.
    await writeFile(
      path.join(cwd, 'mvnw'),
      '#!/bin/sh\necho "Downloading https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/3.9.9/apache-maven-3.9.9-bin.zip"\necho "curl: (6) Could not resolve host: repo.maven.apache.org" >&2\necho "ERROR: Failed to fetch https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/3.9.9/apache-maven-3.9.9-bin.zip" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const env = cleanEnv();
    delete env.MVNX_MAVEN;
    const run = await mvnx(['-o', 'verify'], cwd, env);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(
      "mvnx: not repairing: Maven did not start: the project's Maven wrapper ./mvnw exited 1 (ERROR: Failed to fetch",
    );
    expect(run.stderr).toContain(
      'it downloads apache-maven-3.9.9-bin.zip (.mvn/wrapper/maven-wrapper.properties) on first use, which needs the network',
    );
    expect(run.stderr).toContain('--mvnx-maven=mvn or MVNX_MAVEN');

    const doctor = await mvnx(['doctor'], cwd, env);
    expect(doctor.stdout + doctor.stderr).toMatch(
      /maven version: Maven did not start: the project's Maven wrapper \.\/mvnw exited 1/,
    );

    // mvnx explain says the same before anything runs: the wrapper, its distribution, not downloaded yet.
    const explain = await mvnx(['explain'], cwd, { ...env, MAVEN_USER_HOME: path.join(cwd, 'maven-user-home') });
    expect(explain.exitCode).toBe(0);
    expect(explain.stdout).toContain(
      `maven: ./mvnw (the project's Maven wrapper, the nearest mvnw; it runs apache-maven-3.9.9-bin.zip from .mvn/wrapper/maven-wrapper.properties, not downloaded yet (${path.join(cwd, 'maven-user-home', 'wrapper', 'dists', 'apache-maven-3.9.9')}): its first run needs the network)`,
    );
  });

  it('says nothing of the kind when Maven itself ran and failed', async () => {
    const cwd = await project();
    await writeFile(
      path.join(cwd, 'mvnw'),
      '#!/bin/sh\necho "[INFO] Scanning for projects..."\necho "[ERROR] Some problem Maven reports"\nexit 1\n',
      { mode: 0o755 },
    );
    const env = cleanEnv();
    delete env.MVNX_MAVEN;
    const run = await mvnx(['-o', 'verify'], cwd, env);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).not.toContain('Maven did not start');
  });
});

describe('help and version', () => {
  it('mvnx --help explains the wrapper and points to mvn --help; mvnx version prints the version', async () => {
    const cwd = await project();
    for (const args of [['--help'], ['-h'], ['help']]) {
      const run = await mvnx(args, cwd, cleanEnv());
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toContain('--mvnx-tier=off|monitor|assist|auto');
      expect(run.stdout).toContain("For Maven's own help run mvn --help");
    }
    const version = await mvnx(['version'], cwd, cleanEnv());
    const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect([version.exitCode, version.stdout]).toEqual([0, `mvnx ${manifest.version} (node ${process.version})`]);
  });
});

async function waitForPid(file: string): Promise<number> {
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.trim()) return Number(text);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Dead, or a zombie that a non-reaping PID 1 has not collected. */
async function running(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return !/^State:\s+Z/m.test(status);
}
