import { mkdir, mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keptDeclaredClasspath, resolveDeclaredClasspath } from '../../src/codebase/declared-classpath.js';

let scratch: string;
let repository: string;
let cacheDir: string;
/** The module's pom (its text is passed alongside; the file names the kept entry). */
let pomFile: string;

beforeEach(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-kept-classpath-'));
  repository = path.join(scratch, 'repository');
  cacheDir = path.join(scratch, 'cache');
  pomFile = path.join(scratch, 'project', 'pom.xml');
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const dependency = (artifactId: string, version?: string, scope = 'compile') =>
  `<dependency><groupId>g</groupId><artifactId>${artifactId}</artifactId>${version ? `<version>${version}</version>` : ''}<scope>${scope}</scope></dependency>`;
const pomOf = (...dependencies: string[]) => `<project><dependencies>${dependencies.join('')}</dependencies></project>`;

/** An artifact in the local repository: its pom (with these dependencies) and, unless told otherwise, its jar. */
async function publish(
  artifactId: string,
  version: string,
  dependencies: string[] = [],
  { jar = true } = {},
): Promise<string> {
  const folder = path.join(repository, 'g', artifactId, version);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, `${artifactId}-${version}.pom`), pomOf(...dependencies));
  if (jar) await writeFile(path.join(folder, `${artifactId}-${version}.jar`), 'jar');
  return path.join(folder, `${artifactId}-${version}.jar`);
}

const jarOf = (artifactId: string, version: string) =>
  path.join(repository, 'g', artifactId, version, `${artifactId}-${version}.jar`);

describe('keptDeclaredClasspath', () => {
  it('resolves as resolveDeclaredClasspath does, and keeps the answer with what it looked at', async () => {
    await publish('lib', '1.0', [dependency('inner', '2.0')]);
    await publish('inner', '2.0');
    await publish('junit', '5.0');
    const pom = pomOf(dependency('lib', '1.0'), dependency('junit', '5.0', 'test'));

    const kept = await keptDeclaredClasspath(pomFile, pom, repository, cacheDir);
    expect(kept).toEqual(await resolveDeclaredClasspath(pom, repository));
    expect(kept).toEqual({
      main: [jarOf('lib', '1.0'), jarOf('inner', '2.0')],
      test: [jarOf('lib', '1.0'), jarOf('inner', '2.0'), jarOf('junit', '5.0')],
      missing: [],
    });
    expect(await readdir(path.join(cacheDir, 'classpath'))).toHaveLength(1);
  });

  it('reads the kept answer back while every file it looked at keeps its size and time', async () => {
    await publish('lib', '1.0', [dependency('inner', '2.0')]);
    await publish('inner', '2.0');
    await publish('other', '2.0');
    const pom = pomOf(dependency('lib', '1.0'));
    // A whole second, which the file system keeps exactly when it is set again.
    const libPom = path.join(repository, 'g/lib/1.0/lib-1.0.pom');
    const time = new Date('2026-01-02T03:04:05Z');
    await utimes(libPom, time, time);
    await keptDeclaredClasspath(pomFile, pom, repository, cacheDir);

    // The same size and time, another content: only a kept answer still names inner.
    await writeFile(libPom, pomOf(dependency('other', '2.0')));
    await utimes(libPom, time, time);
    expect((await keptDeclaredClasspath(pomFile, pom, repository, cacheDir)).main).toEqual([
      jarOf('lib', '1.0'),
      jarOf('inner', '2.0'),
    ]);
    expect((await resolveDeclaredClasspath(pom, repository)).main).toEqual([
      jarOf('lib', '1.0'),
      jarOf('other', '2.0'),
    ]);
  });

  it('resolves again when a pom it read changed', async () => {
    await publish('lib', '1.0', [dependency('inner', '2.0')]);
    await publish('inner', '2.0');
    await publish('extra', '3.0');
    const pom = pomOf(dependency('lib', '1.0'));
    await keptDeclaredClasspath(pomFile, pom, repository, cacheDir);

    await writeFile(
      path.join(repository, 'g/lib/1.0/lib-1.0.pom'),
      pomOf(dependency('inner', '2.0'), dependency('extra', '3.0')),
    );
    expect((await keptDeclaredClasspath(pomFile, pom, repository, cacheDir)).main).toEqual([
      jarOf('lib', '1.0'),
      jarOf('inner', '2.0'),
      jarOf('extra', '3.0'),
    ]);
  });

  it('resolves again when a jar that was missing arrives', async () => {
    await publish('lib', '1.0', [], { jar: false });
    const pom = pomOf(dependency('lib', '1.0'));
    expect(await keptDeclaredClasspath(pomFile, pom, repository, cacheDir)).toEqual({
      main: [],
      test: [],
      missing: ['g:lib:1.0'],
    });

    await writeFile(jarOf('lib', '1.0'), 'jar');
    expect(await keptDeclaredClasspath(pomFile, pom, repository, cacheDir)).toEqual({
      main: [jarOf('lib', '1.0')],
      test: [jarOf('lib', '1.0')],
      missing: [],
    });
  });

  it('resolves again when a second version arrives beside the only one a versionless dependency took', async () => {
    await publish('managed', '1.0');
    const pom = pomOf(dependency('managed'));
    expect((await keptDeclaredClasspath(pomFile, pom, repository, cacheDir)).main).toEqual([jarOf('managed', '1.0')]);

    // Two versions: which one a parent manages cannot be told here.
    await publish('managed', '1.1');
    expect(await keptDeclaredClasspath(pomFile, pom, repository, cacheDir)).toEqual({
      main: [],
      test: [],
      missing: ['g:managed:?'],
    });
  });

  it('keeps one answer per pom file and local repository, and resolves again when the pom text changed', async () => {
    await publish('a', '1.0');
    await publish('b', '1.0');
    const other = path.join(scratch, 'other-module', 'pom.xml');
    expect((await keptDeclaredClasspath(pomFile, pomOf(dependency('a', '1.0')), repository, cacheDir)).main).toEqual([
      jarOf('a', '1.0'),
    ]);
    expect((await keptDeclaredClasspath(other, pomOf(dependency('b', '1.0')), repository, cacheDir)).main).toEqual([
      jarOf('b', '1.0'),
    ]);
    expect(
      (await keptDeclaredClasspath(pomFile, pomOf(dependency('a', '1.0')), path.join(scratch, 'elsewhere'), cacheDir))
        .missing,
    ).toEqual(['g:a:1.0']);
    expect(await readdir(path.join(cacheDir, 'classpath'))).toHaveLength(3);
    // The module's pom edited: its entry is replaced, not added to.
    expect((await keptDeclaredClasspath(pomFile, pomOf(dependency('b', '1.0')), repository, cacheDir)).main).toEqual([
      jarOf('b', '1.0'),
    ]);
    expect(await readdir(path.join(cacheDir, 'classpath'))).toHaveLength(3);
  });

  it('resolves again over a damaged kept answer, and still answers when nothing can be kept', async () => {
    await publish('lib', '1.0');
    const pom = pomOf(dependency('lib', '1.0'));
    await keptDeclaredClasspath(pomFile, pom, repository, cacheDir);
    const [kept] = await readdir(path.join(cacheDir, 'classpath'));
    const { pom: pomHash } = JSON.parse(await readFile(path.join(cacheDir, 'classpath', kept!), 'utf8')) as {
      pom: string;
    };
    const sameKey = { format: 'mvnx-declared-classpath/1', pom: pomHash, localRepository: repository, consulted: {} };
    for (const damaged of [
      '{"format":',
      'null',
      '{"format":"mvnx-declared-classpath/1","consulted":null}',
      JSON.stringify({ ...sameKey, classpath: null }),
      JSON.stringify({ ...sameKey, classpath: { main: [1], test: [], missing: [] } }),
    ]) {
      await writeFile(path.join(cacheDir, 'classpath', kept!), damaged);
      expect((await keptDeclaredClasspath(pomFile, pom, repository, cacheDir)).main).toEqual([jarOf('lib', '1.0')]);
    }

    // A cache folder that is a file: nothing is kept, the answer is the same.
    const blocked = path.join(scratch, 'blocked');
    await writeFile(blocked, 'not a folder');
    expect((await keptDeclaredClasspath(pomFile, pom, repository, blocked)).main).toEqual([jarOf('lib', '1.0')]);
  });
});
