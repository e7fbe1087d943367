import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdsArchivePath, cdsOptions, cdsRoom, keepDumpedArchive } from '../../src/workspace/maven-cds.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mvnx-cds-unit-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function tool(rel: string): Promise<string> {
  const file = path.join(dir, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, '#!/bin/sh\n');
  await chmod(file, 0o755);
  return file;
}

describe('maven-cds', () => {
  it('leaves class sharing to the user whenever MAVEN_OPTS or jvm.config says anything of it', () => {
    expect(cdsRoom('-Xmx1g\n-Dfile.encoding=UTF-8')).toBe(true);
    for (const own of [
      '-Xshare:off',
      '-Xshare:auto',
      '-XX:SharedArchiveFile=/x.jsa',
      '-XX:ArchiveClassesAtExit=a.jsa',
      '-XX:SharedClassListFile=l',
      '-XX:DumpLoadedClassList=l',
      '-XX:+AutoCreateSharedArchive',
    ]) {
      expect(cdsRoom(`-Xmx1g ${own}`), own).toBe(false);
    }
  });

  it('uses or makes the archive with its logging off', () => {
    expect(cdsOptions({ use: '/c/a.jsa' })).toEqual([
      '-XX:SharedArchiveFile=/c/a.jsa',
      '-Xlog:cds=off',
      '-Xlog:cds+dynamic=off',
    ]);
    expect(cdsOptions({ dumpTo: '/w/d.jsa' })).toEqual([
      '-XX:ArchiveClassesAtExit=/w/d.jsa',
      '-Xlog:cds=off',
      '-Xlog:cds+dynamic=off',
    ]);
  });

  async function jdk(name: string, version: string, defaultArchive = true): Promise<string> {
    const java = await tool(`${name}/bin/java`);
    await writeFile(path.join(dir, name, 'release'), `IMPLEMENTOR="Test"\nJAVA_VERSION="${version}"\n`);
    if (defaultArchive) await tool(`${name}/lib/server/classes.jsa`);
    return java;
  }

  it('names one archive per JDK and Maven installation, none when either is missing or the cache path holds whitespace', async () => {
    const java = await jdk('jdk', '17.0.15');
    const mvnA = await tool('maven-a/bin/mvn');
    const mvnB = await tool('maven-b/bin/mvn');
    const env = { JAVA_HOME: path.join(dir, 'jdk'), PATH: '' };
    const a = cdsArchivePath({ executable: mvnA, env, cacheDir: path.join(dir, 'cache') });
    expect(a).toMatch(new RegExp(`^${path.join(dir, 'cache', 'cds')}/maven-[0-9a-f]{24}\\.jsa$`));
    expect(cdsArchivePath({ executable: mvnA, env, cacheDir: path.join(dir, 'cache') })).toBe(a);
    expect(cdsArchivePath({ executable: mvnB, env, cacheDir: path.join(dir, 'cache') })).not.toBe(a);
    // java from PATH when JAVA_HOME is unset
    expect(
      cdsArchivePath({ executable: mvnA, env: { PATH: path.dirname(java) }, cacheDir: path.join(dir, 'cache') }),
    ).toBe(a);
    expect(cdsArchivePath({ executable: mvnA, env: { PATH: '' }, cacheDir: path.join(dir, 'cache') })).toBeUndefined();
    expect(
      cdsArchivePath({ executable: 'mvn', env: { ...env, PATH: '' }, cacheDir: path.join(dir, 'cache') }),
    ).toBeUndefined();
    expect(cdsArchivePath({ executable: mvnA, env, cacheDir: path.join(dir, 'my cache') })).toBeUndefined();
  });

  it("none for a JVM the flags would stop (JDK 8 and 11, a JDK without HotSpot's default archive), nor when an mvnrc file may choose another JDK", async () => {
    const mvn = await tool('maven-c/bin/mvn');
    const cacheDir = path.join(dir, 'cache');
    for (const [name, version, defaultArchive] of [
      ['jdk8', '1.8.0_392', true],
      ['jdk11', '11.0.22', true],
      ['j9', '17.0.9', false],
    ] as const) {
      await jdk(name, version, defaultArchive);
      expect(
        cdsArchivePath({ executable: mvn, env: { JAVA_HOME: path.join(dir, name) }, cacheDir }),
        name,
      ).toBeUndefined();
    }
    await jdk('jdk13', '13.0.2');
    expect(cdsArchivePath({ executable: mvn, env: { JAVA_HOME: path.join(dir, 'jdk13') }, cacheDir })).toBeDefined();
    const home = path.join(dir, 'user');
    await mkdir(home, { recursive: true });
    await writeFile(path.join(home, '.mavenrc'), 'JAVA_HOME=/opt/jdk8\n');
    expect(
      cdsArchivePath({ executable: mvn, env: { JAVA_HOME: path.join(dir, 'jdk13'), HOME: home }, cacheDir }),
    ).toBeUndefined();
    expect(
      cdsArchivePath({
        executable: mvn,
        env: { JAVA_HOME: path.join(dir, 'jdk13'), HOME: home, MAVEN_SKIP_RC: 'true' },
        cacheDir,
      }),
    ).toBeDefined();
  });

  it('keeps a dumped archive whole in the cache and removes it from the workspace; an empty or missing dump keeps nothing', async () => {
    const dumped = path.join(dir, 'ws', 'd.jsa');
    await mkdir(path.dirname(dumped), { recursive: true });
    await writeFile(dumped, 'archive bytes');
    const archive = path.join(dir, 'kept', 'cds', 'maven-x.jsa');
    await keepDumpedArchive(dumped, archive);
    const { readFile, readdir } = await import('node:fs/promises');
    expect(await readFile(archive, 'utf8')).toBe('archive bytes');
    expect(await readdir(path.dirname(archive))).toEqual(['maven-x.jsa']);
    await expect(readFile(dumped)).rejects.toThrow();
    await writeFile(dumped, '');
    const other = path.join(dir, 'kept', 'cds', 'maven-y.jsa');
    await keepDumpedArchive(dumped, other);
    await keepDumpedArchive(path.join(dir, 'ws', 'none.jsa'), other);
    await expect(readFile(other)).rejects.toThrow();
  });
});
