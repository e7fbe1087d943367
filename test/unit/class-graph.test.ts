/**
 * The class dependency graph read from real class files (javac 17 compiles a small
 * project in a temp folder), test selection over it, and the narrowed plan of a fix:
 * what is compiled again and which test classes run.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestCaseResult } from '../../src/diagnose/types.js';
import { buildClassGraph, selectTests, sourcePathOf, usersOf, type ClassGraph } from '../../src/maven/class-graph.js';
import { readClassRefs } from '../../src/maven/class-refs.js';
import {
  classesOfOutputs,
  narrowVerification,
  readModuleClasses,
  skeleton,
  type NarrowInput,
} from '../../src/workspace/narrow.js';

const MAIN: Record<string, string> = {
  'Constants.java':
    'package lib;\npublic class Constants {\n  public static final int LIMIT = 3;\n  public static final String NAME = "x";\n}\n',
  // Uses Constants.LIMIT only: javac copies the 3 in (since JDK 9 it keeps a class entry for Constants, JDK-7153958).
  'Util.java':
    'package lib;\npublic class Util {\n  public static int pad(int n) {\n    return n + Constants.LIMIT;\n  }\n  static class Helper { Other other; }\n}\nclass Secondary { int x() { return Util.pad(0); } }\n',
  'Other.java': 'package lib;\npublic class Other {\n  public int value() {\n    return 1;\n  }\n}\n',
  'Facade.java': 'package lib;\npublic class Facade {\n  public int go() {\n    return Util.pad(1);\n  }\n}\n',
  'Plugin.java':
    'package lib;\npublic class Plugin {\n  public Object load(String name) throws Exception {\n    return Class.forName(name).getDeclaredConstructor().newInstance();\n  }\n}\n',
  'Services.java':
    'package lib;\nimport java.util.ServiceLoader;\npublic class Services {\n  public long count() {\n    return ServiceLoader.load(Runnable.class).stream().count();\n  }\n}\n',
  'Holder.java': 'package lib;\nimport java.util.List;\npublic class Holder {\n  public List<Other> others;\n}\n',
};
const TEST: Record<string, string> = {
  'FacadeTest.java': 'package lib;\npublic class FacadeTest { void t() { new Facade().go(); } }\n',
  'UtilTest.java': 'package lib;\npublic class UtilTest { void t() { Util.pad(2); } }\n',
  'OtherTest.java': 'package lib;\npublic class OtherTest { void t() { new Other().value(); } }\n',
  'PluginTest.java':
    'package lib;\npublic class PluginTest { void t() throws Exception { new Plugin().load("x"); } }\n',
  'ServicesTest.java': 'package lib;\npublic class ServicesTest { void t() { new Services().count(); } }\n',
  'HolderTest.java': 'package lib;\npublic class HolderTest { void t() { new Holder(); } }\n',
};

let dir: string;
let project: string;
let graph: ClassGraph;

async function compile(root: string): Promise<void> {
  const mainFiles = Object.keys(MAIN).map((f) => path.join(root, 'src/main/java/lib', f));
  const testFiles = Object.keys(TEST).map((f) => path.join(root, 'src/test/java/lib', f));
  execFileSync('javac', ['-d', path.join(root, 'target/classes'), ...mainFiles]);
  execFileSync('javac', [
    '-d',
    path.join(root, 'target/test-classes'),
    '-cp',
    path.join(root, 'target/classes'),
    ...testFiles,
  ]);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mvnx-class-graph-'));
  project = path.join(dir, 'project');
  for (const [name, text] of Object.entries(MAIN)) await writeTo(path.join(project, 'src/main/java/lib', name), text);
  for (const [name, text] of Object.entries(TEST)) await writeTo(path.join(project, 'src/test/java/lib', name), text);
  await compile(project);
  const read = await readModuleClasses(project);
  if ('why' in read) throw new Error(read.why);
  graph = buildClassGraph(read.nodes);
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeTo(file: string, text: string): Promise<void> {
  await import('node:fs/promises').then((fs) => fs.mkdir(path.dirname(file), { recursive: true }));
  await writeFile(file, text);
}

describe('readClassRefs (javac 17 class files)', () => {
  it('names the classes a class uses, its source file, and its constants', async () => {
    const util = readClassRefs(await readFile(path.join(project, 'target/classes/lib/Util.class')));
    expect(util.name).toBe('lib.Util');
    expect(util.sourceFile).toBe('Util.java');
    expect(util.references).toContain('lib.Util$Helper');
    // javac 9+ names the class of an inlined constant (JDK-7153958); older compilers leave no trace,
    // which is why a change to a class with constants still compiles the whole module.
    expect(util.references).toContain('lib.Constants');
    expect(util.dynamic).toBeUndefined();
    const constants = readClassRefs(await readFile(path.join(project, 'target/classes/lib/Constants.class')));
    expect(constants.constantFields).toEqual(['LIMIT', 'NAME']);
  });

  it('reads types from generic signatures and field types, and maps nested and secondary classes to their source file', () => {
    expect(graph.classes.get('lib.Holder')!.references).toContain('lib.Other');
    expect(graph.classes.get('lib.Util$Helper')!.references).toContain('lib.Other');
    expect(sourcePathOf(graph.classes.get('lib.Util$Helper')!)).toBe('lib/Util.java');
    expect(sourcePathOf(graph.classes.get('lib.Secondary')!)).toBe('lib/Util.java');
  });

  it('marks classes that load classes by name', () => {
    expect(graph.classes.get('lib.Plugin')!.dynamic).toBe('calls java.lang.Class.forName');
    expect(graph.classes.get('lib.Services')!.dynamic).toBe('uses java.util.ServiceLoader');
    expect(graph.classes.get('lib.Facade')!.dynamic).toBeUndefined();
  });

  it('refuses bytes that are not a class file', () => {
    expect(() => readClassRefs(Buffer.from('not a class file at all'))).toThrow(/bad magic/);
  });
});

describe('selectTests (STARTS-style, class level)', () => {
  const selectedFor = (changed: string[]) => selectTests(graph, changed).selected.map((s) => s.name);
  it.each([
    // changed class, test classes selected; PluginTest and ServicesTest reach a class that loads classes by name
    // FacadeTest -> Facade -> Util -> Util$Helper (a field of type Other): class-level edges, nesting included
    [
      'direct use',
      ['lib.Other'],
      ['lib.FacadeTest', 'lib.HolderTest', 'lib.OtherTest', 'lib.PluginTest', 'lib.ServicesTest', 'lib.UtilTest'],
    ],
    [
      'transitive use (FacadeTest -> Facade -> Util)',
      ['lib.Util'],
      ['lib.FacadeTest', 'lib.PluginTest', 'lib.ServicesTest', 'lib.UtilTest'],
    ],
    [
      'a changed test class selects itself',
      ['lib.HolderTest'],
      ['lib.HolderTest', 'lib.PluginTest', 'lib.ServicesTest'],
    ],
  ])('%s', (_label, changed, expected) => {
    expect(selectedFor(changed)).toEqual(expected);
  });

  it('says why a test was selected: the changed class it reaches, or the reflection on its way', () => {
    const selection = selectTests(graph, ['lib.Util']);
    expect(selection.selected.find((s) => s.name === 'lib.FacadeTest')!.reaches).toBe('lib.Util');
    expect(selection.selected.find((s) => s.name === 'lib.PluginTest')!.reaches).toBe(
      'lib.Plugin, which calls java.lang.Class.forName',
    );
    expect(selection.selected.find((s) => s.name === 'lib.ServicesTest')!.reaches).toBe(
      'lib.Services, which uses java.util.ServiceLoader',
    );
    expect(selection.notSelected).toEqual(['lib.HolderTest', 'lib.OtherTest']);
  });

  it('one node for a class with a multi-release copy, using what either uses', () => {
    const node = (references: string[], dynamic?: string) => ({
      name: 'a.A',
      references,
      constantFields: [],
      root: 'main' as const,
      ...(dynamic ? { dynamic } : {}),
    });
    const merged = buildClassGraph([node(['a.B']), node(['a.C'], 'uses java.util.ServiceLoader')]).classes.get('a.A')!;
    expect(merged.references).toEqual(['a.B', 'a.C']);
    expect(merged.dynamic).toBe('uses java.util.ServiceLoader');
  });

  it('finds users directly and transitively', () => {
    expect([...usersOf(graph, ['lib.Util'], false)].sort()).toEqual([
      'lib.Facade',
      'lib.Secondary',
      'lib.Util$Helper',
      'lib.UtilTest',
    ]);
    expect([...usersOf(graph, ['lib.Util'], true)].sort()).toEqual([
      'lib.Facade',
      'lib.FacadeTest',
      'lib.Secondary',
      'lib.Util$Helper',
      'lib.UtilTest',
    ]);
  });
});

describe('narrowVerification: what a fix compiles again and which tests run', () => {
  const passed = (cls: string): TestCaseResult => ({
    className: `lib.${cls}`,
    method: 't',
    module: 'lib',
    status: 'passed',
    reportFile: 'x',
  });
  const baseline = ['FacadeTest', 'UtilTest', 'OtherTest', 'PluginTest', 'ServicesTest', 'HolderTest'].map(passed);
  let workspace: string;

  async function withChange(file: string, from: string, to: string): Promise<NarrowInput> {
    workspace = await mkdtemp(path.join(dir, 'ws-'));
    await cp(project, workspace, { recursive: true, preserveTimestamps: true });
    const abs = path.join(workspace, file);
    const before = await readFile(abs, 'utf8');
    expect(before).toContain(from);
    await writeFile(abs, before.replace(from, to));
    return {
      root: workspace,
      source: project,
      tests: 'affected',
      decision: { scope: 'full', affected: [''], testsFromYourBuild: [] },
      reusedOutputs: [''],
      touchedFiles: [file],
      failingTests: ['lib.UtilTest#t'],
      baselineTests: baseline,
      blockers: [],
      artifactId: 'lib',
    };
  }

  it('a change inside a method body: only its file compiled again (its nested and secondary classes removed), tests that reach it run', async () => {
    const result = await narrowVerification(
      await withChange('src/main/java/lib/Util.java', 'return n + Constants.LIMIT;', 'return n + Constants.LIMIT + 1;'),
    );
    if (!('module' in result)) throw new Error(result.why);
    expect(result.recompiled).toEqual(['src/main/java/lib/Util.java']);
    expect(result.recompileWhy).toBe('every change is inside method bodies: only Util.java compiled again');
    for (const cls of ['Util', 'Util$Helper', 'Secondary'])
      expect(existsSync(path.join(workspace, `target/classes/lib/${cls}.class`))).toBe(false);
    expect(existsSync(path.join(workspace, 'target/classes/lib/Facade.class'))).toBe(true);
    expect(result.selected).toEqual(['lib.FacadeTest', 'lib.PluginTest', 'lib.ServicesTest', 'lib.UtilTest']);
    expect(result.excluded).toEqual(['lib.HolderTest', 'lib.OtherTest']);
    expect(result.artifactId).toBe('lib');
    expect(result.why).toBe(
      'selected 4 of 6 test classes that reach Secondary, Util or a class that loads classes by name (Plugin, Services); 2 taken from your build',
    );
  });

  it('a changed signature: every class using it, transitively, is compiled again', async () => {
    const result = await narrowVerification(
      await withChange('src/main/java/lib/Other.java', 'public int value()', 'public long value()'),
    );
    if (!('module' in result)) throw new Error(result.why);
    expect(result.recompiled).toEqual([
      'src/main/java/lib/Facade.java',
      'src/main/java/lib/Holder.java',
      'src/main/java/lib/Other.java',
      'src/main/java/lib/Util.java',
      'src/test/java/lib/FacadeTest.java',
      'src/test/java/lib/HolderTest.java',
      'src/test/java/lib/OtherTest.java',
      'src/test/java/lib/UtilTest.java',
    ]);
    expect(result.recompileWhy).toBe(
      'the fix changes declarations in Other: 8 sources that use them, transitively, compiled again',
    );
  });

  it('a changed constant (inlined into users the graph cannot see): the whole module, all tests', async () => {
    const result = await narrowVerification(
      await withChange('src/main/java/lib/Constants.java', 'LIMIT = 3', 'LIMIT = 4'),
    );
    expect(result).toEqual({
      why: 'the fix changes a declaration of lib.Constants, whose constants (LIMIT, NAME) javac copies into the classes that use them',
    });
    expect(existsSync(path.join(workspace, 'target/classes/lib/Util.class'))).toBe(true);
  });

  it.each([
    ['verify.tests all', { tests: 'all' as const }, 'verify.tests is all'],
    [
      'a resource',
      { touchedFiles: ['src/main/resources/app.properties'] },
      'the fix changes src/main/resources/app.properties, which is not a Java source of the module',
    ],
    [
      'two modules',
      { decision: { scope: 'full' as const, affected: ['a', 'b'], testsFromYourBuild: [] } },
      'the fix can affect 2 modules',
    ],
    ['outputs rebuilt', { reusedOutputs: [] }, 'the outputs of the project were not taken from your build'],
    [
      'a project blocker',
      { blockers: ['pom.xml sets a Surefire excludes file'] },
      'pom.xml sets a Surefire excludes file',
    ],
    ['a new file', { touchedFiles: ['src/main/java/lib/New.java'] }, 'the fix adds src/main/java/lib/New.java'],
  ])('any doubt means all tests: %s', async (_label, override, why) => {
    const input = { ...(await withChange('src/main/java/lib/Other.java', 'return 1;', 'return 2;')), ...override };
    expect(await narrowVerification(input)).toEqual({ why });
  });

  it.each([
    [
      'service files a library may load by name',
      'target/classes/META-INF/services/java.lang.Runnable',
      'lib.Other\n',
      'target/classes/META-INF/services/java.lang.Runnable registers services a library may load by name',
    ],
    [
      'generated sources',
      'target/generated-sources/annotations/lib/Gen.java',
      'package lib; class Gen {}\n',
      'the module has generated sources (target/generated-sources)',
    ],
    [
      'annotation processors in the pom',
      'pom.xml',
      '<project><build><plugins><plugin><configuration><annotationProcessorPaths/></configuration></plugin></plugins></build></project>\n',
      "the module's pom configures annotationProcessorPaths",
    ],
  ])('any doubt means all tests: %s', async (_label, file, text, why) => {
    const input = await withChange('src/main/java/lib/Other.java', 'return 1;', 'return 2;');
    await writeTo(path.join(workspace, file), text);
    expect(await narrowVerification(input)).toEqual({ why });
  });

  it('a class file the reader cannot read: all tests', async () => {
    const input = await withChange('src/main/java/lib/Other.java', 'return 1;', 'return 2;');
    await writeFile(path.join(workspace, 'target/classes/lib/Broken.class'), 'garbage');
    expect(await narrowVerification(input)).toEqual({
      why: 'target/classes/lib/Broken.class cannot be read: not a class file (bad magic)',
    });
  });

  it("the classes of the user's outputs are read once, from their snapshot, however many candidates narrow; a candidate's workspace is not read for them", async () => {
    // The snapshot is the project as built (its target/ is what reuse-outputs.ts copies); the workspace below has lost its classes.
    const classes = classesOfOutputs(project);
    classes.warm(['']);
    const first = await narrowVerification({
      ...(await withChange(
        'src/main/java/lib/Util.java',
        'return n + Constants.LIMIT;',
        'return n + Constants.LIMIT + 1;',
      )),
      readClasses: classes,
    });
    if (!('module' in first)) throw new Error(first.why);
    const input = await withChange('src/main/java/lib/Other.java', 'return 1;', 'return 2;');
    await rm(path.join(workspace, 'target/test-classes'), { recursive: true });
    expect(await narrowVerification(input)).toEqual({ why: 'the module has no compiled tests' });
    const second = await narrowVerification({ ...input, readClasses: classes });
    if (!('module' in second)) throw new Error(second.why);
    expect(second.selected).toEqual([
      'lib.FacadeTest',
      'lib.HolderTest',
      'lib.OtherTest',
      'lib.PluginTest',
      'lib.ServicesTest',
      'lib.UtilTest',
    ]);
    expect(await classes('', workspace)).toBe(await classes('', project));
    // A module the snapshot lacks says why, as for a workspace.
    expect(await classesOfOutputs(path.join(dir, 'nowhere'))('', workspace)).toEqual({
      why: 'the module has no compiled tests',
    });
  });

  it('the skeleton keeps declarations and drops bodies', () => {
    expect(skeleton('class A { int f = 1; void m() { int x = 2; } }')).toBe('class A { int f = 1; void m() {} }');
    expect(skeleton('class A {')).toBeUndefined();
    // Enum constants' bodies and anonymous classes hold method bodies too (jsoup's HtmlTreeBuilderState): a change there is body-only.
    const states = (cond: string) =>
      `enum S { Initial { boolean process(int t) { if (t ${cond} 1) return true; return false; } }; abstract boolean process(int t); }`;
    expect(skeleton(states('=='))).toBe(skeleton(states('!=')));
    expect(skeleton(states('=='))).toBe(
      'enum S { Initial { boolean process(int t) {} }; abstract boolean process(int t); }',
    );
    expect(skeleton('class A { Runnable r = new Runnable() { public void run() { go(1); } }; A() { super(); } }')).toBe(
      'class A { Runnable r = new Runnable() { public void run() {} }; A() {} }',
    );
    // A field of an enum constant's body is not a body: it stays.
    expect(skeleton('enum S { X { int n = 1; }; }')).toBe('enum S { X { int n = 1; }; }');
  });
});
