import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeAsLeft } from '../../src/workspace/reuse-as-left.js';
import { freshness, rebaseListText, snapshotOutputs, takeOutputs } from '../../src/workspace/reuse-outputs.js';
import { createWorkspace } from '../../src/workspace/workspace.js';

let scratch: string;
let project: string;
const T0 = new Date('2026-01-01T10:00:00Z').getTime() / 1000;

/** Writes a file with a modification time `at` seconds after T0. */
async function put(rel: string, at: number, content = rel) {
  const file = path.join(project, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  await utimes(file, T0 + at, T0 + at);
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-reuse-test-'));
  project = path.join(scratch, 'shop');
  await put('pom.xml', 0, '<project/>');
  await put('.mvn/maven.config', 0, '-B');
  // core: built after its last change (fresh).
  await put('core/pom.xml', 0);
  await put('core/src/main/java/Core.java', 1);
  await put('core/target/classes/Core.class', 10);
  await put('core/target/surefire-reports/TEST-CoreTest.xml', 10);
  await put(
    'core/target/maven-status/maven-compiler-plugin/compile/default-compile/inputFiles.lst',
    10,
    `${project}/core/src/main/java/Core.java\n`,
  );
  // app: a source changed after the build (stale).
  await put('app/pom.xml', 0);
  await put('app/target/classes/App.class', 10);
  await put('app/src/main/java/App.java', 20);
  // web: its pom changed after the build (stale too: the compiler plugin would not notice).
  await put('web/target/classes/Web.class', 10);
  await put('web/src/main/java/Web.java', 1);
  await put('web/pom.xml', 30);
  // docs: no target at all. nested/inner: a module inside a module.
  await put('docs/pom.xml', 0);
  await put('nested/pom.xml', 0);
  await put('nested/target/classes/N.class', 10);
  await put('nested/inner/pom.xml', 0);
  await put('nested/inner/src/I.java', 50);
  await put('nested/inner/target/classes/I.class', 60);
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('freshness', () => {
  it('fresh only when every output is newer than every input (and written since, when asked)', () => {
    const files = [
      { rel: 'classes/A.class', mtimeMs: 100 },
      { rel: 'x.jar', mtimeMs: 200 },
    ];
    expect(freshness({ files }, 50)).toBeUndefined();
    expect(freshness({ files }, 100)).toBe(
      "target/classes/A.class is not newer than the module's sources (or those of a module it needs)",
    );
    expect(freshness({ files }, 50, 150)).toBe(
      'target/classes/A.class was not written by your build (it cleaned first)',
    );
    expect(freshness({ files: [] }, 0)).toBe('target is empty');
    expect(freshness({ files, problem: 'target/x is not a regular file' }, 0)).toBe('target/x is not a regular file');
  });
});

describe('takeAsLeft: outputs as a build without clean left them', () => {
  // A plain build at 10-12, then DataUtil.java edited at 20, then the user's build at 30 compiled it alone (31).
  const outputs = [
    { rel: 'classes/org/Jsoup.class', mtimeMs: 10 },
    { rel: 'classes/org/DataUtil.class', mtimeMs: 31 },
    { rel: 'classes/META-INF/services/x', mtimeMs: 10 },
    { rel: 'test-classes/org/DataUtilTest.class', mtimeMs: 11 },
    { rel: 'maven-status/maven-compiler-plugin/compile/default-compile/inputFiles.lst', mtimeMs: 10 },
    { rel: 'maven-archiver/pom.properties', mtimeMs: 12 },
    { rel: 'jsoup-1.0.jar', mtimeMs: 12 },
  ];
  const javaSources = [
    { rel: 'src/main/java/org/Jsoup.java', mtimeMs: 1 },
    { rel: 'src/main/java/org/DataUtil.java', mtimeMs: 20 },
    { rel: 'src/test/java/org/DataUtilTest.java', mtimeMs: 1 },
  ];
  const base = { outputs, javaSources, newestOtherInputMs: 5, builtAtMs: 30 };

  it('takes them when only Java sources changed and the build compiled each, leaving the stale archive out', () => {
    expect(takeAsLeft(base)).toEqual({
      leaveOut: ['jsoup-1.0.jar'],
      changedSources: ['src/main/java/org/DataUtil.java'],
    });
  });

  it('refuses, saying why, whatever could make them differ from what Maven would build', () => {
    expect(takeAsLeft({ ...base, builtAtMs: 20 })).toEqual({ reason: 'a file changed after your build started' });
    expect(takeAsLeft({ ...base, newestOtherInputMs: 10 })).toEqual({
      reason: 'files other than Java sources changed since the outputs were written',
    });
    // The build stopped before compiling the changed source (its class is the old one).
    expect(
      takeAsLeft({
        ...base,
        outputs: outputs.map((o) => (o.rel.endsWith('DataUtil.class') ? { ...o, mtimeMs: 10 } : o)),
      }),
    ).toEqual({
      reason: 'src/main/java/org/DataUtil.java changed after target/classes/org/DataUtil.class was written',
    });
    expect(
      takeAsLeft({ ...base, javaSources: [...javaSources, { rel: 'src/main/java11/org/Impl.java', mtimeMs: 21 }] }),
    ).toEqual({
      reason: 'src/main/java11/org/Impl.java changed and is outside src/main/java and src/test/java',
    });
    expect(
      takeAsLeft({
        ...base,
        outputs: [...outputs, { rel: 'generated-sources/annotations/org/Gen.java', mtimeMs: 10 }],
      }),
    ).toEqual({
      reason:
        'target/generated-sources/annotations/org/Gen.java was written before the sources changed and is not a class or a resource',
    });
    expect(takeAsLeft({ ...base, outputs: [] })).toEqual({ reason: 'target is empty' });
  });

  it('a test source compiles to test-classes', () => {
    const changedTest = javaSources.map((s) =>
      s.rel.endsWith('DataUtilTest.java')
        ? { ...s, mtimeMs: 20 }
        : s.rel.endsWith('DataUtil.java')
          ? { ...s, mtimeMs: 1 }
          : s,
    );
    expect(takeAsLeft({ ...base, javaSources: changedTest })).toEqual({
      reason:
        'src/test/java/org/DataUtilTest.java changed after target/test-classes/org/DataUtilTest.class was written',
    });
    const compiled = outputs.map((o) => (o.rel.endsWith('DataUtilTest.class') ? { ...o, mtimeMs: 31 } : o));
    expect(takeAsLeft({ ...base, outputs: compiled, javaSources: changedTest })).toEqual({
      leaveOut: ['jsoup-1.0.jar'],
      changedSources: ['src/test/java/org/DataUtilTest.java'],
    });
  });
});

describe('rebaseListText', () => {
  it('points absolute paths under the project at the workspace, nothing else', () => {
    const text = '/home/u/shop/core/A.java\n/home/u/shopping/B.java\nrelative/C.class\n/home/u/shop\n';
    expect(rebaseListText(text, ['/home/u/shop'], '/tmp/ws/project')).toBe(
      '/tmp/ws/project/core/A.java\n/home/u/shopping/B.java\nrelative/C.class\n/tmp/ws/project\n',
    );
  });
});

describe('snapshotOutputs', () => {
  it('takes the fresh modules only, without test reports, keeping modification times', async () => {
    const into = path.join(scratch, 'snap1');
    const snapshot = await snapshotOutputs({
      projectRoot: project,
      into,
      modules: ['', 'core', 'app', 'web', 'docs', 'nested', 'nested/inner'],
    });
    expect(snapshot.modules).toEqual(['core', 'nested', 'nested/inner']);
    expect(snapshot.notTaken).toEqual([
      {
        module: 'app',
        reason: "target/classes/App.class is not newer than the module's sources (or those of a module it needs)",
      },
      {
        module: 'web',
        reason: "target/classes/Web.class is not newer than the module's sources (or those of a module it needs)",
      },
    ]);
    expect(existsSync(path.join(into, 'core/target/classes/Core.class'))).toBe(true);
    expect(existsSync(path.join(into, 'core/target/surefire-reports'))).toBe(false);
    expect((await stat(path.join(into, 'core/target/classes/Core.class'))).mtimeMs).toBe((T0 + 10) * 1000);
  });

  it('a module compiled against an older version of a module it needs is not taken, although its own sources did not change', async () => {
    // nested/inner changed at 50, after nested's classes were written (10): nested needs it.
    const upstream = new Map([
      ['nested', ['nested/inner']],
      ['core', []],
    ]);
    const snapshot = await snapshotOutputs({
      projectRoot: project,
      into: path.join(scratch, 'snap3'),
      modules: ['core', 'nested', 'nested/inner'],
      upstream,
    });
    expect(snapshot.modules).toEqual(['core', 'nested/inner']);
    expect(snapshot.notTaken).toEqual([
      {
        module: 'nested',
        reason: "target/classes/N.class is not newer than the module's sources (or those of a module it needs)",
      },
    ]);
  });

  it('after a build that did not clean, a module whose changed Java sources it compiled is taken as it left it, the stale archive left out', async () => {
    const root = path.join(scratch, 'as-left');
    const at = async (rel: string, t: number) => {
      const file = path.join(root, rel);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, rel);
      await utimes(file, T0 + t, T0 + t);
    };
    await at('pom.xml', 0);
    await at('src/main/java/p/A.java', 1);
    await at('src/main/java/p/B.java', 20);
    await at('target/classes/p/A.class', 10);
    await at('target/classes/p/B.class', 31);
    await at('target/app.jar', 11);
    const builtAt = new Date((T0 + 30) * 1000);
    const snapshot = await snapshotOutputs({
      projectRoot: root,
      into: path.join(scratch, 'snap-as-left'),
      modules: [''],
      builtAt,
    });
    expect(snapshot.modules).toEqual(['']);
    expect(snapshot.takenAsLeft).toEqual([
      { module: '', changedSources: ['src/main/java/p/B.java'], leftOut: ['app.jar'] },
    ]);
    expect(existsSync(path.join(scratch, 'snap-as-left/target/classes/p/A.class'))).toBe(true);
    expect(existsSync(path.join(scratch, 'snap-as-left/target/app.jar'))).toBe(false);
    // Without the build's start (or after a cleaning command), the strict rule alone: not taken.
    const strict = await snapshotOutputs({ projectRoot: root, into: path.join(scratch, 'snap-strict'), modules: [''] });
    expect(strict.notTaken).toEqual([
      {
        module: '',
        reason: "target/classes/p/A.class is not newer than the module's sources (or those of a module it needs)",
      },
    ]);
    // A pom edited after the outputs: doubt, not taken.
    await at('pom.xml', 15);
    const pomChanged = await snapshotOutputs({
      projectRoot: root,
      into: path.join(scratch, 'snap-pom'),
      modules: [''],
      builtAt,
    });
    expect(pomChanged.modules).toEqual([]);
  });

  it("after a cleaning command, only outputs the user's build wrote", async () => {
    const snapshot = await snapshotOutputs({
      projectRoot: project,
      into: path.join(scratch, 'snap2'),
      modules: ['core', 'nested/inner'],
      writtenSince: new Date((T0 + 55) * 1000),
    });
    expect(snapshot.modules).toEqual(['nested/inner']);
    expect(snapshot.notTaken[0]).toEqual({
      module: 'core',
      reason: expect.stringMatching(/was not written by your build/),
    });
  });
});

describe('a workspace with reused outputs', () => {
  it('lays the outputs in with their times, rebases the status lists, and reset brings them back', async () => {
    const { snapshot, dispose } = await takeOutputs({ projectRoot: project, modules: ['core', 'app'] });
    const ws = await createWorkspace(project, { outputs: snapshot });
    try {
      expect(ws.reusedOutputs).toEqual(['core']);
      const cls = path.join(ws.root, 'core/target/classes/Core.class');
      const lst = path.join(
        ws.root,
        'core/target/maven-status/maven-compiler-plugin/compile/default-compile/inputFiles.lst',
      );
      expect((await stat(cls)).mtimeMs).toBe((T0 + 10) * 1000);
      // Sources keep their times too: Maven compares them with the classes.
      expect((await stat(path.join(ws.root, 'core/src/main/java/Core.java'))).mtimeMs).toBe((T0 + 1) * 1000);
      expect(await readFile(lst, 'utf8')).toBe(`${ws.root}/core/src/main/java/Core.java\n`);
      expect((await stat(lst)).mtimeMs).toBe((T0 + 10) * 1000);
      expect(existsSync(path.join(ws.root, 'app/target'))).toBe(false);

      // A build deletes and rewrites outputs; reset restores them from the snapshot, not from the project.
      await writeFile(path.join(project, 'core/target/classes/Core.class'), 'changed by a later build of the user');
      await rm(path.join(ws.root, 'core/target'), { recursive: true });
      await mkdir(path.join(ws.root, 'app/target'), { recursive: true });
      await writeFile(path.join(ws.root, 'app/target/new.class'), 'x');
      await ws.reset();
      expect(await readFile(cls, 'utf8')).toBe('core/target/classes/Core.class');
      expect((await stat(cls)).mtimeMs).toBe((T0 + 10) * 1000);
      expect(await readFile(lst, 'utf8')).toBe(`${ws.root}/core/src/main/java/Core.java\n`);
      expect(existsSync(path.join(ws.root, 'app/target'))).toBe(false);

      // One rewritten file alone comes back too.
      await writeFile(lst, 'rewritten by the compiler plugin');
      await ws.reset();
      expect(await readFile(lst, 'utf8')).toBe(`${ws.root}/core/src/main/java/Core.java\n`);
    } finally {
      await ws.dispose();
      await dispose();
      await put('core/target/classes/Core.class', 10);
    }
    expect(existsSync(snapshot.dir)).toBe(false);
  });

  it('refuses outputs taken from another project', async () => {
    const { snapshot, dispose } = await takeOutputs({ projectRoot: path.join(project, 'core'), modules: [''] });
    try {
      await expect(createWorkspace(project, { outputs: snapshot })).rejects.toThrow(/were taken from .*core, not from/);
    } finally {
      await dispose();
    }
  });
});
