/**
 * javap answers kept on disk (codebase/class-members.ts): each javap run is a JVM start,
 * and the same JDK and library types are asked for by every prompt of a project. Real javap;
 * a fresh module instance stands for a new mvnx process (its in-memory answers are gone).
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const MODULE = '../../src/codebase/class-members.js';
const cleanups: (() => Promise<void>)[] = [];
const path0 = process.env.PATH;
afterEach(async () => {
  process.env.PATH = path0;
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function freshReader(): Promise<(typeof import('../../src/codebase/class-members.js'))['readLibraryTypes']> {
  vi.resetModules();
  return (await import(MODULE)).readLibraryTypes;
}

describe('javap answers cached on disk', () => {
  it('a new process answers from the cache without javap; a class javap does not know is remembered as unknown; a damaged entry is a miss', async () => {
    const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'mvnx-javap-cache-'));
    cleanups.push(() => rm(cacheDir, { recursive: true, force: true }));

    const first = await (
      await freshReader()
    )(['java.lang.Cloneable', 'java.lang.Iterable', 'com.acme.Missing'], [], undefined, cacheDir);
    expect(first.get('java.lang.Iterable')?.members.map((m) => m.name)).toEqual(
      expect.arrayContaining(['iterator', 'forEach', 'spliterator']),
    );
    expect(first.get('java.lang.Cloneable')).toMatchObject({
      name: 'java.lang.Cloneable',
      kind: 'interface',
      members: [],
    });
    expect(first.get('com.acme.Missing')).toBeUndefined();
    const entries = await readdir(path.join(cacheDir, 'javap'));
    expect(entries).toHaveLength(3);

    // No javap on PATH now: every answer must come from the disk.
    process.env.PATH = '';
    const again = await (
      await freshReader()
    )(['java.lang.Iterable', 'java.lang.Cloneable', 'com.acme.Missing'], [], undefined, cacheDir);
    expect(again.get('java.lang.Iterable')).toEqual(first.get('java.lang.Iterable'));
    expect(again.get('java.lang.Cloneable')).toEqual(first.get('java.lang.Cloneable'));
    expect(again.has('com.acme.Missing')).toBe(true);
    expect(again.get('com.acme.Missing')).toBeUndefined();

    // Another classpath is another key: not answered from these entries (and javap is not there to ask).
    const otherJar = path.join(cacheDir, 'other.jar');
    await writeFile(otherJar, 'not a jar');
    expect(
      (await (await freshReader())(['java.lang.Iterable'], [otherJar], undefined, cacheDir)).get('java.lang.Iterable'),
    ).toBeUndefined();

    // A damaged entry is a miss, never an error.
    for (const entry of entries) {
      const file = path.join(cacheDir, 'javap', entry);
      if ((await readFile(file, 'utf8')).includes('"java.lang.Iterable"'))
        await writeFile(file, '{"name":"java.lang.Iterable","type":{"name":');
    }
    expect(
      (await (await freshReader())(['java.lang.Iterable'], [], undefined, cacheDir)).get('java.lang.Iterable'),
    ).toBeUndefined();
  });

  it('without a cache folder nothing is written and javap answers as before', async () => {
    const types = await (await freshReader())(['java.lang.Runnable'], []);
    expect(types.get('java.lang.Runnable')?.members.map((m) => m.name)).toEqual(['run']);
  });
});
