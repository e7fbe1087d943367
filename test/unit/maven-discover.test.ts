import { chmod, mkdir, mkdtemp, writeFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MvnxError } from '../../src/shared/errors.js';
import { findMaven } from '../../src/maven/discover.js';

let root: string;

async function executable(file: string, mode = 0o755): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, '#!/bin/sh\n');
  await chmod(file, mode);
  return file;
}

async function failure(promise: Promise<unknown>): Promise<MvnxError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof MvnxError)) throw new Error(`expected an MvnxError, got ${String(error)}`);
  return error;
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'mvnx-discover-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('findMaven', () => {
  it('follows the order flag, MVNX_MAVEN, config, mvnw, PATH', async () => {
    const flag = await executable(path.join(root, 'flag', 'mvn'));
    const fromEnv = await executable(path.join(root, 'env', 'mvn'));
    const configured = await executable(path.join(root, 'config', 'mvn'));
    const wrapper = await executable(path.join(root, 'project', 'mvnw'));
    const onPath = await executable(path.join(root, 'bin', 'mvn'));
    const cwd = path.join(root, 'project');
    const env = { MVNX_MAVEN: fromEnv, PATH: path.join(root, 'bin') };

    expect(await findMaven({ flag, env, configured, cwd, mavenArgs: [] })).toEqual({
      executable: flag,
      source: 'flag',
    });
    expect(await findMaven({ env, configured, cwd, mavenArgs: [] })).toEqual({ executable: fromEnv, source: 'env' });
    expect(await findMaven({ env: { PATH: env.PATH }, configured, cwd, mavenArgs: [] })).toEqual({
      executable: configured,
      source: 'config',
    });
    expect(await findMaven({ env: { PATH: env.PATH }, cwd, mavenArgs: [] })).toEqual({
      executable: wrapper,
      source: 'mvnw',
    });
    expect(await findMaven({ env: { PATH: env.PATH }, cwd: root, mavenArgs: [] })).toEqual({
      executable: onPath,
      source: 'path',
    });
  });

  it('finds the nearest mvnw walking up from cwd', async () => {
    const outer = await executable(path.join(root, 'mvnw'));
    const inner = await executable(path.join(root, 'a', 'mvnw'));
    const deep = path.join(root, 'a', 'b', 'c');
    await mkdir(deep, { recursive: true });
    expect((await findMaven({ env: {}, cwd: deep, mavenArgs: [] })).executable).toBe(inner);
    expect((await findMaven({ env: {}, cwd: path.join(root), mavenArgs: [] })).executable).toBe(outer);
  });

  it('starts the mvnw search at the -f target, as a pom file or a folder', async () => {
    const wrapper = await executable(path.join(root, 'other', 'mvnw'));
    await writeFile(path.join(root, 'other', 'pom.xml'), '<project/>');
    const cwd = path.join(root, 'here');
    await mkdir(cwd);
    for (const mavenArgs of [
      ['-f', '../other/pom.xml'],
      ['--file', '../other'],
      ['--file=../other/pom.xml'],
      ['-f../other/pom.xml', 'verify'],
    ]) {
      expect(await findMaven({ env: {}, cwd, mavenArgs })).toEqual({ executable: wrapper, source: 'mvnw' });
    }
    // -fae is "fail at end", not a file.
    await expect(findMaven({ env: {}, cwd, mavenArgs: ['-fae'] })).rejects.toThrow(MvnxError);
  });

  it('skips an mvnw that is not executable, as running it would fail', async () => {
    await executable(path.join(root, 'mvnw'), 0o644);
    const onPath = await executable(path.join(root, 'bin', 'mvn'));
    expect(
      await findMaven({ env: { PATH: `/nonexistent:${path.join(root, 'bin')}` }, cwd: root, mavenArgs: [] }),
    ).toEqual({ executable: onPath, source: 'path' });
  });

  it('looks up a bare name on PATH and resolves a relative path against cwd', async () => {
    const custom = await executable(path.join(root, 'bin', 'mvn-3.9'));
    expect(
      await findMaven({ flag: 'mvn-3.9', env: { PATH: path.join(root, 'bin') }, cwd: root, mavenArgs: [] }),
    ).toEqual({ executable: custom, source: 'flag' });
    expect(await findMaven({ env: { MVNX_MAVEN: './bin/mvn-3.9' }, cwd: root, mavenArgs: [] })).toEqual({
      executable: custom,
      source: 'env',
    });
  });

  it('uses mvnw.cmd and mvn.cmd with ; in PATH on Windows', async () => {
    const wrapper = await executable(path.join(root, 'project', 'mvnw.cmd'), 0o644);
    await executable(path.join(root, 'project', 'mvnw'));
    const onPath = await executable(path.join(root, 'bin', 'mvn.cmd'), 0o644);
    await executable(path.join(root, 'bin', 'mvn'));
    expect(await findMaven({ env: {}, cwd: path.join(root, 'project'), mavenArgs: [], platform: 'win32' })).toEqual({
      executable: wrapper,
      source: 'mvnw',
    });
    expect(
      await findMaven({
        env: { Path: `C:\\nowhere;${path.join(root, 'bin')}` },
        cwd: root,
        mavenArgs: [],
        platform: 'win32',
      }),
    ).toEqual({ executable: onPath, source: 'path' });
  });

  it('fails with 127 and one line naming what was searched', async () => {
    const error = await failure(
      findMaven({ env: { PATH: '/nonexistent-a:/nonexistent-b' }, cwd: root, mavenArgs: [] }),
    );
    expect(error.exitCode).toBe(127);
    expect(error.message).not.toContain('\n');
    expect(error.message).toBe(
      `Maven not found: searched --mvnx-maven, MVNX_MAVEN, config maven.executable (none set), mvnw in ${root} and its parents, ` +
        'mvn on PATH (/nonexistent-a:/nonexistent-b); install Maven or set MVNX_MAVEN=/path/to/mvn',
    );
  });

  it('fails with 127 when an explicit choice does not exist, without falling back', async () => {
    await executable(path.join(root, 'bin', 'mvn'));
    const env = { PATH: path.join(root, 'bin') };
    const missing = path.join(root, 'no-such-mvn');
    const fromFlag = await failure(findMaven({ flag: missing, env, cwd: root, mavenArgs: [] }));
    expect([fromFlag.exitCode, fromFlag.message]).toEqual([
      127,
      `Maven not found: --mvnx-maven=${missing} is not an executable file`,
    ]);
    const fromEnv = await failure(findMaven({ env: { ...env, MVNX_MAVEN: root }, cwd: root, mavenArgs: [] }));
    expect(fromEnv.message).toBe(`Maven not found: MVNX_MAVEN=${root} is not an executable file`);
    const fromConfig = await failure(findMaven({ env, configured: 'mvn-missing', cwd: root, mavenArgs: [] }));
    // A bare name is looked for on PATH, and said so (issue 48: MVNX_MAVEN=mvn3).
    expect(fromConfig.message).toBe('Maven not found: config maven.executable=mvn-missing is not found on PATH');
    const bareFromEnv = await failure(findMaven({ env: { ...env, MVNX_MAVEN: 'mvn3' }, cwd: root, mavenArgs: [] }));
    expect([bareFromEnv.exitCode, bareFromEnv.message]).toEqual([
      127,
      'Maven not found: MVNX_MAVEN=mvn3 is not found on PATH',
    ]);
  });
});
