/**
 * Maven's project-level errors as a new user meets them (issue 48): each is named in one
 * line as what it is, the exit code is Maven's, and a folder with no pom.xml gets no
 * `.mvnx/`. Real offline Maven on tiny fixtures, the built CLI.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { copyProject, FAST_MAVEN_OPTS, repoRoot, runMvnx } from '../helpers/repair-project.js';

const projects = path.join(repoRoot, 'test/fixtures/diagnose/projects');
const passing = path.join(repoRoot, 'examples/passing');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function copy(source: string): Promise<string> {
  const project = await copyProject(source);
  cleanups.push(project.remove);
  return project.root;
}

async function emptyFolder(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mvnx-no-pom-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** mvnx's own lines after Maven's output (Maven ends with colour resets and no newline). */
function mvnxLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .map((line) => line.replace(/^(?:\x1b\[[0-9;]*m)+/, ''))
    .filter((line) => line.startsWith('mvnx'));
}

async function expectOneNamingLine(cwd: string, args: string[], line: RegExp, category: string) {
  const run = await runMvnx(cwd, ['-o', '-B', '-q', ...args, '--mvnx-json']);
  expect(run.exitCode, run.stderr).toBe(1);
  const said = mvnxLines(run.stderr).filter((l) => l.startsWith('mvnx: not repairing'));
  expect(said, run.stderr).toHaveLength(1);
  expect(said[0]).toMatch(line);
  expect(run.record?.mavenExitCode).toBe(1);
  expect(run.record?.diagnostics.map((d) => d.category)).toEqual([category]);
  expect(run.record?.stopReason).toBe('not-fixable');
  return run;
}

describe("Maven's project-level errors, named in one line each (issue 48)", () => {
  it('a folder with no pom.xml: one line naming it, Maven exit code, and no .mvnx/ written', async () => {
    const dir = await emptyFolder();
    const maven = await execa('mvn', ['-o', '-B', '-q', 'verify'], {
      cwd: dir,
      reject: false,
      env: { MAVEN_OPTS: FAST_MAVEN_OPTS },
    });

    const run = await expectOneNamingLine(
      dir,
      ['verify'],
      /^mvnx: not repairing: there is no pom\.xml in \S+, so Maven has no project to build; run mvnx in the project's folder, or name its pom with -f\.$/,
      'pom-invalid',
    );

    expect(run.exitCode).toBe(maven.exitCode);
    expect(mvnxLines(run.stderr)).toHaveLength(1);
    expect(await readdir(dir)).toEqual([]);
  });

  it('-f naming a pom that does not exist, outside a project: named, nothing written', async () => {
    const dir = await emptyFolder();
    await expectOneNamingLine(
      dir,
      ['-f', 'nope.xml', 'verify'],
      /^mvnx: not repairing: the pom \S*nope\.xml does not exist; fix the -f argument, or run mvnx in the project's folder\.$/,
      'pom-invalid',
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it('an unparseable pom', async () => {
    await expectOneNamingLine(
      await copy(path.join(projects, 'pom-malformed')),
      ['verify'],
      /^mvnx: not repairing: pom\.xml is not a valid pom \(line \d+\); fix the build file, a source patch cannot help\.$/,
      'pom-invalid',
    );
  });

  it('an unknown lifecycle phase, with the phase it most likely meant', async () => {
    await expectOneNamingLine(
      await copy(passing),
      ['veriffy'],
      /^mvnx: not repairing: "veriffy" is not a lifecycle phase \(did you mean verify\?\); fix the Maven arguments\.$/,
      'unknown-lifecycle',
    );
  });

  it('a plugin missing from the local repository, offline', async () => {
    await expectOneNamingLine(
      await copy(path.join(projects, 'plugin-missing')),
      ['verify'],
      /^mvnx: not repairing: the plugin org\.apache\.maven\.plugins:maven-compiler-plugin:9\.9\.9 is not in the local repository and Maven ran offline; .*\.$/,
      'plugin-resolution',
    );
  });

  it('a dependency that cannot be resolved, offline', async () => {
    await expectOneNamingLine(
      await copy(path.join(projects, 'dependency-missing')),
      ['verify'],
      /^mvnx: not repairing: the dependency org\.junit\.jupiter:junit-jupiter-api:jar:5\.99\.0 is not in the local repository and Maven ran offline; .*\.$/,
      'dependency-resolution',
    );
  });

  it('maven.compiler.release newer than the JDK running Maven', async () => {
    const root = await copy(passing);
    const pom = path.join(root, 'pom.xml');
    await writeFile(
      pom,
      (await readFile(pom, 'utf8')).replace(/<maven.compiler.release>\d+</, '<maven.compiler.release>99<'),
    );
    await expectOneNamingLine(
      root,
      ['verify'],
      /^mvnx: not repairing: the build compiles for Java 99 \(maven\.compiler\.release, or source and target\), which the JDK running Maven does not support; run Maven with JDK 99 or newer \(JAVA_HOME\), or lower the release in the pom\.$/,
      'java-version',
    );
  });
});
