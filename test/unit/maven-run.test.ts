import { readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MvnxError } from '../../src/shared/errors.js';
import { colorArgs, runMaven } from '../../src/maven/run.js';
import { FAKE_MVN, readRecord, recordDir } from '../helpers/fake-mvn.js';
import { tempDir } from '../helpers/temp-dir.js';

const cwd = os.tmpdir();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A killed grandchild may linger as a zombie under a PID 1 that does not reap: that is dead too. */
async function running(pid: number): Promise<boolean> {
  if (!alive(pid)) return false;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return !/^State:\s+Z/m.test(status);
}

describe('runMaven', () => {
  it('passes argv verbatim and the environment untouched', async () => {
    const record = await recordDir();
    const args = [
      '-Dkey=value with spaces',
      '-Dq="quoted"',
      '-pl',
      'a,b',
      '-f',
      'x y/pom.xml',
      '--settings',
      's.xml',
      '-T',
      '1C',
      '-rf',
      ':module',
      'verify',
    ];
    const env = { PATH: process.env.PATH, FAKE_MVN_RECORD: record, MAVEN_OPTS: '-Xmx64m -Dx="a b"', MAVEN_ARGS: '-B' };
    const result = await runMaven({ executable: FAKE_MVN, args, cwd, env, echo: false });
    await result.log.dispose();
    const seen = await readRecord(record);
    expect(seen.argv).toEqual(args);
    expect(seen.env.MAVEN_OPTS).toBe('-Xmx64m -Dx="a b"');
    expect(seen.env.MAVEN_ARGS).toBe('-B');
    // The env given is the whole environment: nothing of ours leaks in.
    expect(
      Object.keys(seen.env)
        .filter((name) => !['PWD', 'SHLVL', '_', 'OLDPWD'].includes(name))
        .sort(),
    ).toEqual(Object.keys(env).sort());
    expect(seen.cwd).toBe(await import('node:fs/promises').then((fs) => fs.realpath(cwd)));
  });

  it("returns Maven's exit code and captures stdout and stderr", async () => {
    const env = { FAKE_MVN_STDOUT: '[INFO] out\n', FAKE_MVN_STDERR: '[ERROR] err\n', FAKE_MVN_EXIT: '3' };
    const result = await runMaven({ executable: FAKE_MVN, args: [], cwd, env, echo: false });
    expect(result).toMatchObject({ exitCode: 3, interrupted: false, timedOut: false });
    expect(result.signal).toBeUndefined();
    const captured = await readFile(result.log.file, 'utf8');
    expect(captured).toContain('[INFO] out\n');
    expect(captured).toContain('[ERROR] err\n');
    expect(result.log).toMatchObject({ bytes: 23, truncated: false });
    expect(result.finishedAt.getTime()).toBeGreaterThanOrEqual(result.startedAt.getTime());
    await result.log.dispose();
    await result.log.dispose();
    await expect(stat(result.log.file)).rejects.toThrow();
  });

  it('says once that Maven started, before it ends; not when the spawn failed', async () => {
    const events: string[] = [];
    const result = await runMaven({
      executable: FAKE_MVN,
      args: [],
      cwd,
      env: { FAKE_MVN_STDOUT: '[INFO] out\n' },
      echo: false,
      onSpawn: () => events.push('spawned'),
    });
    events.push('ended');
    await result.log.dispose();
    expect(events).toEqual(['spawned', 'ended']);
    let called = false;
    await expect(
      runMaven({
        executable: FAKE_MVN,
        args: [],
        cwd: path.join(cwd, 'no-such-folder-mvnx'),
        echo: false,
        onSpawn: () => (called = true),
      }),
    ).rejects.toThrow();
    expect(called).toBe(false);
  });

  it('hands each chunk of both streams to onOutput as it was captured', async () => {
    const chunks: Buffer[] = [];
    const result = await runMaven({
      executable: FAKE_MVN,
      args: [],
      cwd,
      env: { FAKE_MVN_STDOUT: '[INFO] out\n', FAKE_MVN_STDERR: '[ERROR] err\n' },
      echo: false,
      onOutput: (chunk) => chunks.push(chunk),
    });
    const captured = await readFile(result.log.file, 'utf8');
    await result.log.dispose();
    const seen = Buffer.concat(chunks).toString('utf8');
    expect(seen.length).toBe(captured.length);
    expect(seen).toContain('[INFO] out\n');
    expect(seen).toContain('[ERROR] err\n');
  });

  it('exits 128+N when Maven dies from a signal', async () => {
    for (const [signal, code] of [
      ['TERM', 143],
      ['KILL', 137],
      ['INT', 130],
    ] as const) {
      const result = await runMaven({
        executable: FAKE_MVN,
        args: [],
        cwd,
        env: { FAKE_MVN_SIGNAL: signal },
        echo: false,
      });
      await result.log.dispose();
      expect([result.exitCode, result.signal]).toEqual([code, `SIG${signal}`]);
    }
  });

  it('keeps only the tail, from a whole line, when the output exceeds the capture limit', async () => {
    const line = '[INFO] Compiling 1 source file with javac [debug release 17] to target/classes\n';
    const result = await runMaven({
      executable: FAKE_MVN,
      args: [],
      cwd,
      env: { FAKE_MVN_BYTES: String(line.length * 1000), FAKE_MVN_STDOUT: 'FIRST LINE\n' },
      echo: false,
      captureLimitBytes: 4096,
    });
    const captured = await readFile(result.log.file, 'utf8');
    await result.log.dispose();
    expect(result.log.truncated).toBe(true);
    expect(result.log.bytes).toBe(line.length * 1000 + 'FIRST LINE\n'.length);
    expect(captured.length).toBeLessThanOrEqual(4096);
    expect(captured.length).toBeGreaterThan(4096 - line.length);
    expect(captured).not.toContain('FIRST LINE');
    expect(
      captured
        .split('\n')
        .slice(0, -1)
        .every((text) => `${text}\n` === line),
    ).toBe(true);
  });

  it('stops the whole tree on timeout, grandchildren included', async () => {
    const pidFile = path.join(await tempDir('mvnx-run-'), 'child.pid');
    const result = await runMaven({
      executable: FAKE_MVN,
      args: [],
      cwd,
      env: { FAKE_MVN_CHILD_PID: pidFile },
      echo: false,
      timeoutMs: 500,
    });
    await result.log.dispose();
    expect(result).toMatchObject({ timedOut: true, exitCode: 143, signal: 'SIGTERM' });
    const grandchild = Number(await readFile(pidFile, 'utf8'));
    expect(await running(grandchild)).toBe(false);
  });

  it('stops the whole tree on abort', async () => {
    const pidFile = path.join(await tempDir('mvnx-run-'), 'child.pid');
    const controller = new AbortController();
    const pending = runMaven({
      executable: FAKE_MVN,
      args: [],
      cwd,
      env: { FAKE_MVN_CHILD_PID: pidFile },
      echo: false,
      signal: controller.signal,
    });
    const grandchild = await waitForPid(pidFile);
    controller.abort();
    const result = await pending;
    await result.log.dispose();
    expect(result).toMatchObject({ interrupted: true, timedOut: false, exitCode: 143 });
    expect(await running(grandchild)).toBe(false);
  });

  it('runs the wrapped command when a wrap is given', async () => {
    const record = await recordDir();
    const result = await runMaven({
      executable: 'mvn-that-does-not-exist',
      args: ['verify'],
      cwd,
      env: { FAKE_MVN_RECORD: record, PATH: process.env.PATH },
      echo: false,
      wrap: (file, args) => ['/usr/bin/env', ['WRAPPED=1', FAKE_MVN, file, ...args]],
    });
    await result.log.dispose();
    const seen = await readRecord(record);
    expect(seen.argv).toEqual(['mvn-that-does-not-exist', 'verify']);
    expect(seen.env.WRAPPED).toBe('1');
  });

  it('fails with a one-line MvnxError when Maven cannot be started', async () => {
    const missing = path.join(cwd, 'mvnx-no-such-maven');
    const error = await runMaven({ executable: missing, args: [], cwd, echo: false }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(MvnxError);
    expect(error).toMatchObject({ exitCode: 127, message: `cannot run Maven: ${missing} does not exist` });
    const notExecutable = await runMaven({
      executable: path.join(process.cwd(), 'package.json'),
      args: [],
      cwd,
      echo: false,
    }).catch((caught: unknown) => caught);
    expect(notExecutable).toMatchObject({ exitCode: 126 });
  });

  it('rejects a capture limit that is not a positive integer', async () => {
    await expect(runMaven({ executable: FAKE_MVN, args: [], cwd, echo: false, captureLimitBytes: 0 })).rejects.toThrow(
      'capture limit must be a positive integer of bytes, got 0',
    );
  });
});

describe('colorArgs', () => {
  it('asks for colours only on a terminal when the user chose neither batch mode nor a colour', () => {
    expect(colorArgs(['verify'], true)).toEqual(['-Dstyle.color=always']);
    expect(colorArgs(['verify'], false)).toEqual([]);
    expect(colorArgs(['-B', 'verify'], true)).toEqual([]);
    expect(colorArgs(['--batch-mode'], true)).toEqual([]);
    expect(colorArgs(['-Dstyle.color=never'], true)).toEqual([]);
    expect(colorArgs(['-D', 'style.color=never'], true)).toEqual([]);
    expect(colorArgs(['-PB'], true)).toEqual(['-Dstyle.color=always']);
  });
});

async function waitForPid(file: string): Promise<number> {
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.trim()) return Number(text);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
