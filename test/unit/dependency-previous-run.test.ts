/**
 * The comparison with the previous mvnx run of the project: a build that passed under mvnx keeps its POMs
 * (.mvnx/last-passing-build.json); a later failure whose versions git cannot explain (no repository, or a bump two
 * commits back on the main branch, where HEAD~1 shows nothing) is compared with that build. Real filesystem, real git.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PASSING_BUILD_FILE, readPassingBuild, rememberPassingBuild } from '../../src/report/passing-build.js';
import { detectVersionChanges } from '../../src/repair/dependency-update/detect.js';

const pom = (guava: string, shapes = '1.0') => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>app</groupId>
  <artifactId>app</artifactId>
  <version>1</version>
  <dependencies>
    <dependency><groupId>com.google.guava</groupId><artifactId>guava</artifactId><version>${guava}</version></dependency>
    <dependency><groupId>mvnxbench</groupId><artifactId>shapes</artifactId><version>${shapes}</version></dependency>
  </dependencies>
</project>
`;
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
};

let root: string;
const repository = path.join(tmpdir(), 'mvnx-no-such-repository');
const git = (...args: string[]) => execa('git', args, { cwd: root, env: GIT_ENV });
const commit = async (message: string) => {
  await git('add', '-A');
  await git('commit', '-q', '-m', message);
};

beforeEach(async () => {
  root = path.join(await mkdtemp(path.join(tmpdir(), 'mvnx-prev-run-')), 'app');
  await mkdir(root);
});
afterEach(async () => rm(path.dirname(root), { recursive: true, force: true }));

describe('the last build that passed under mvnx', () => {
  it('is kept only where mvnx already has its folder, with the POMs and the commit', async () => {
    await writeFile(path.join(root, 'pom.xml'), pom('16.0.1'));
    expect(await rememberPassingBuild(root)).toBe(false);
    expect(existsSync(path.join(root, '.mvnx'))).toBe(false);

    await git('init', '-q', '-b', 'main');
    await commit('app');
    await mkdir(path.join(root, '.mvnx'));
    expect(await rememberPassingBuild(root, new Date('2026-12-01T10:00:00Z'))).toBe(true);
    const kept = await readPassingBuild(root);
    expect(kept).toEqual({
      at: '2026-12-01T10:00:00.000Z',
      commit: (await git('rev-parse', 'HEAD')).stdout.trim(),
      poms: { 'pom.xml': pom('16.0.1') },
    });
  });

  it('a file that is not such a record is no record', async () => {
    await mkdir(path.join(root, '.mvnx'));
    await writeFile(path.join(root, '.mvnx', PASSING_BUILD_FILE), '{"at": 3}');
    expect(await readPassingBuild(root)).toBeUndefined();
    await writeFile(path.join(root, '.mvnx', PASSING_BUILD_FILE), 'not json');
    expect(await readPassingBuild(root)).toBeUndefined();
  });

  it('outside git, the versions are compared with it', async () => {
    await mkdir(path.join(root, '.mvnx'));
    await writeFile(path.join(root, 'pom.xml'), pom('16.0.1'));
    await rememberPassingBuild(root, new Date('2026-12-01T10:00:00Z'));
    await writeFile(path.join(root, 'pom.xml'), pom('33.0.0-jre'));
    const changes = await detectVersionChanges({ projectRoot: root, localRepository: repository });
    expect(changes).toEqual([
      {
        groupId: 'com.google.guava',
        artifactId: 'guava',
        from: '16.0.1',
        to: '33.0.0-jre',
        source: 'explicit',
        fromSource: 'explicit',
        comparedWith: 'the last passing build (2026-12-01T10:00:00.000Z)',
        previousRun: { at: '2026-12-01T10:00:00.000Z' },
      },
    ]);
  });

  it('on the main branch, a bump two commits back (HEAD~1 shows nothing) is found against it', async () => {
    await git('init', '-q', '-b', 'main');
    await writeFile(path.join(root, 'pom.xml'), pom('16.0.1'));
    await commit('app');
    const passed = (await git('rev-parse', 'HEAD')).stdout.trim();
    await mkdir(path.join(root, '.mvnx'));
    await writeFile(path.join(root, '.gitignore'), '.mvnx/\n');
    await rememberPassingBuild(root, new Date('2026-12-01T10:00:00Z'));
    await writeFile(path.join(root, 'pom.xml'), pom('33.0.0-jre', '2.0'));
    await commit('bump guava and shapes');
    await writeFile(path.join(root, 'README.md'), 'docs\n');
    await commit('docs');
    const changes = await detectVersionChanges({ projectRoot: root, localRepository: repository });
    expect(changes.map((c) => `${c.groupId}:${c.artifactId} ${c.from} -> ${c.to}`)).toEqual([
      'com.google.guava:guava 16.0.1 -> 33.0.0-jre',
      'mvnxbench:shapes 1.0 -> 2.0',
    ]);
    expect(changes[0]!.comparedWith).toBe(`the last passing build (2026-12-01T10:00:00.000Z, ${passed.slice(0, 12)})`);
    expect(changes[0]!.previousRun).toEqual({ at: '2026-12-01T10:00:00.000Z', commit: passed });
    // Without that record, git alone finds nothing to compare.
    await rm(path.join(root, '.mvnx', PASSING_BUILD_FILE));
    expect(await detectVersionChanges({ projectRoot: root, localRepository: repository })).toEqual([]);
  });

  it('a change git sees wins over the kept build', async () => {
    await git('init', '-q', '-b', 'main');
    await writeFile(path.join(root, 'pom.xml'), pom('16.0.1'));
    await commit('app');
    await mkdir(path.join(root, '.mvnx'));
    await rememberPassingBuild(root);
    await writeFile(path.join(root, 'pom.xml'), pom('31.1-jre'));
    await commit('guava 31');
    await writeFile(path.join(root, 'pom.xml'), pom('33.0.0-jre'));
    const changes = await detectVersionChanges({ projectRoot: root, localRepository: repository });
    expect(changes).toMatchObject([{ from: '31.1-jre', to: '33.0.0-jre', comparedWith: 'HEAD' }]);
    expect(changes[0]!.previousRun).toBeUndefined();
    expect(JSON.parse(await readFile(path.join(root, '.mvnx', PASSING_BUILD_FILE), 'utf8')).poms['pom.xml']).toBe(
      pom('16.0.1'),
    );
  });
});
