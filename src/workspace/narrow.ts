/**
 * Verifying only what a fix can change, inside the module it touches (issue 26 part 3):
 * the module keeps the fresh outputs of the user's build, only the classes the fix can
 * change are compiled again, and only the test classes that can reach a changed class
 * run; the others' results are taken from the user's build.
 *
 * Read from the compiled classes (class-refs.ts, class-graph.ts), never from source text:
 * - Compile: the fix's sources lose their classes (all of them, nested and secondary ones,
 *   by the classes' SourceFile attribute), so the compiler plugin, recompiling only stale
 *   sources (verify.ts STALE_SOURCES_ONLY), compiles them again. When every change is
 *   inside method and constructor bodies, no other class's bytecode can change (javac
 *   copies only constant field values into other classes, and those sit outside bodies;
 *   javac 9+ names their class in the user's pool, JDK-7153958, older compilers do not).
 *   When a change reaches a declaration (a signature, a field, an initializer, a member
 *   added or removed), every class that uses a changed class, transitively, is compiled
 *   again too, or the whole module when a changed class declares constants javac may
 *   have copied into classes that no longer name it.
 * - Tests: STARTS-style selection (class-graph.ts `selectTests`); the failing tests always run.
 *
 * Any doubt means today's way (the module rebuilt from clean, all its tests): a build
 * file or resource touched, a file added or deleted, a source root or annotation
 * processing configured, generated sources, service files, a class the reader cannot read.
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { TestCaseResult } from '../diagnose/types.js';
import {
  buildClassGraph,
  selectTests,
  sourcePathOf,
  usersOf,
  type ClassGraph,
  type ClassNode,
} from '../maven/class-graph.js';
import { readClassRefs } from '../maven/class-refs.js';
import { bodyRanges, parseKept } from '../java/index.js';
import type { ScopeDecision } from './verify-scope.js';

export type TestsMode = 'affected' | 'all';

export interface NarrowInput {
  /** The workspace root (the fix applied) and the user's project (the original sources). */
  root: string;
  source: string;
  tests: TestsMode;
  decision: ScopeDecision;
  /** Module folders whose target/ came from the user's build. */
  reusedOutputs: readonly string[];
  touchedFiles: readonly string[];
  /** `com.acme.FooTest#method` (or a class) that failed: always run. */
  failingTests: readonly string[];
  baselineTests: readonly TestCaseResult[];
  blockers: readonly string[];
  /** The module's artifactId (the `module` of its test results). */
  artifactId: string;
  /**
   * Reads the module's compiled classes (default: readModuleClasses of its folder in the workspace); see
   * classesOfOutputs.
   */
  readClasses?: ModuleClassesReader;
}

export type ModuleClasses = { nodes: ClassNode[]; versioned: Set<string> } | { why: string };
/** The compiled classes of `module` (root-relative), whose folder in the workspace is `moduleDir`. */
export type ModuleClassesReader = (module: string, moduleDir: string) => Promise<ModuleClasses>;

/**
 * The classes of the user's build outputs, read once per module from the snapshot they were
 * taken into (reuse-outputs.ts), which no build writes: every candidate's workspace starts
 * from the same classes, so reading them again for each (jsoup: 0.2 s of constant pools)
 * would read the same bytes. `warm` reads them ahead, beside the flaky check.
 */
export function classesOfOutputs(
  snapshotDir: string,
): ModuleClassesReader & { warm(modules: readonly string[]): void } {
  const read = new Map<string, Promise<ModuleClasses>>();
  const of = (module: string) => {
    let pending = read.get(module);
    if (!pending) {
      pending = readModuleClasses(path.join(snapshotDir, module));
      read.set(module, pending);
    }
    return pending;
  };
  return Object.assign((module: string) => of(module), {
    warm(modules: readonly string[]) {
      for (const module of modules) of(module).catch(() => undefined);
    },
  });
}

/** What the verdict build of a narrowed module does; the record says it. */
export interface Narrowing {
  module: string;
  /** The module's artifactId, as its test results name it. */
  artifactId: string;
  /** Test classes left out (their results taken from the user's build). */
  excluded: string[];
  selected: string[];
  why: string;
  /** Sources compiled again (relative to the module), or undefined: the whole module. */
  recompiled?: string[];
  recompileWhy: string;
}

const MAIN = 'src/main/java/';
const TEST = 'src/test/java/';
/** Build configuration that moves sources or generates code: the graph cannot speak for it. */
const POM_DOUBTS =
  /<(sourceDirectory|testSourceDirectory|annotationProcessorPaths|annotationProcessors|proc|generatedSourcesDirectory)[\s/>]|build-helper-maven-plugin|kotlin-maven-plugin|scala-maven-plugin|gmavenplus|aspectj-maven-plugin|maven-antrun-plugin/;

/** The narrowed plan for the one module a fix touches, or why there is none (all tests then run as today). */
export async function narrowVerification(input: NarrowInput): Promise<Narrowing | { why: string }> {
  if (input.tests === 'all') return { why: 'verify.tests is all' };
  const affected = input.decision.affected;
  if (affected.length !== 1) return { why: `the fix can affect ${affected.length} modules` };
  const module = affected[0]!;
  if (input.blockers.length > 0) return { why: input.blockers[0]! };
  if (!input.reusedOutputs.includes(module))
    return { why: `the outputs of ${module || 'the project'} were not taken from your build` };
  const prefix = module === '' ? '' : `${module}/`;
  const changedSources: { rel: string; root: 'main' | 'test' }[] = [];
  for (const file of input.touchedFiles) {
    const rel = file.startsWith(prefix) ? file.slice(prefix.length) : undefined;
    const root =
      rel?.startsWith(MAIN) && rel.endsWith('.java')
        ? 'main'
        : rel?.startsWith(TEST) && rel.endsWith('.java')
          ? 'test'
          : undefined;
    if (!rel || !root) return { why: `the fix changes ${file}, which is not a Java source of the module` };
    const before = await readFile(path.join(input.source, file), 'utf8').catch(() => undefined);
    const after = await readFile(path.join(input.root, file), 'utf8').catch(() => undefined);
    if (before === undefined || after === undefined)
      return { why: `the fix ${before === undefined ? 'adds' : 'deletes'} ${file}` };
    changedSources.push({ rel, root });
  }
  const moduleDir = path.join(input.root, module);
  const pom = await readFile(path.join(moduleDir, 'pom.xml'), 'utf8').catch(() => '');
  const doubt = POM_DOUBTS.exec(pom);
  if (doubt) return { why: `the module's pom configures ${doubt[1] ?? doubt[0]}` };
  const read = await (input.readClasses ?? ((_: string, dir: string) => readModuleClasses(dir)))(module, moduleDir);
  if ('why' in read) return read;
  const graph = buildClassGraph(read.nodes);

  const changedClasses = read.nodes.filter((node) =>
    changedSources.some(
      (s) => s.root === node.root && `${s.root === 'main' ? MAIN : TEST}${sourcePathOf(node)}` === s.rel,
    ),
  );
  for (const source of changedSources) {
    if (!changedClasses.some((node) => `${node.root === 'main' ? MAIN : TEST}${sourcePathOf(node)}` === source.rel))
      return { why: `no compiled class of ${prefix}${source.rel} was found` };
  }
  const changedNames = changedClasses.map((node) => node.name);
  const overlaid = changedNames.find((name) => read.versioned.has(name));
  if (overlaid) return { why: `${overlaid} also has a multi-release copy under META-INF/versions` };
  const declarations = await declarationChanges(
    input,
    changedSources.map((s) => prefix + s.rel),
  );
  if (declarations.why) return { why: declarations.why };
  const constants = declarations.changed ? changedClasses.find((node) => node.constantFields.length > 0) : undefined;
  if (constants)
    return {
      why: `the fix changes a declaration of ${constants.name}, whose constants (${constants.constantFields.slice(0, 3).join(', ')}) javac copies into the classes that use them`,
    };

  const users = declarations.changed ? usersOf(graph, changedNames, true) : new Set<string>();
  const recompileNodes = [...changedClasses, ...[...users].map((name) => graph.classes.get(name)!)];
  const recompiled = [
    ...new Set(recompileNodes.map((node) => `${node.root === 'main' ? MAIN : TEST}${sourcePathOf(node)}`)),
  ].sort();
  const baselineByClass = new Map<string, TestCaseResult[]>();
  for (const test of input.baselineTests)
    if (test.module === input.artifactId)
      baselineByClass.set(topLevel(test.className), [...(baselineByClass.get(topLevel(test.className)) ?? []), test]);
  if (baselineByClass.size === 0) return { why: `no test of ${input.artifactId} ran in your build` };
  await removeClassesOf(moduleDir, read.nodes, recompiled);

  // A test reaching a class that uses a changed one reaches the changed one too.
  const selection = selectTests(graph, changedNames);
  const failing = new Set(input.failingTests.map((test) => topLevel(test.split('#')[0]!)));
  // A test that failed, or never passed in the user's build, has no result to take.
  const excluded = selection.notSelected.filter(
    (name) =>
      !failing.has(name) &&
      (baselineByClass.get(name) ?? []).every((t) => t.status === 'passed' || t.status === 'skipped'),
  );
  const selected = selection.selected
    .map((s) => s.name)
    .concat(selection.notSelected.filter((name) => !excluded.includes(name)))
    .sort();
  const changedTops = [...new Set(changedNames.map(topLevel))];
  const dynamicTops = [
    ...new Set(
      selection.selected
        .map((s) => s.reaches)
        .filter((r) => !changedNames.includes(r))
        .map((r) => topLevel(r.split(',')[0]!)),
    ),
  ];
  const reach = `${summarize(changedTops)}${dynamicTops.length > 0 ? ` or a class that loads classes by name (${summarize(dynamicTops)})` : ''}`;
  const total = selection.selected.length + selection.notSelected.length;
  return {
    module,
    artifactId: input.artifactId,
    excluded,
    selected,
    why: `selected ${selected.length} of ${total} test classes that reach ${reach}; ${excluded.length} taken from your build`,
    recompiled,
    recompileWhy: declarations.changed
      ? `the fix changes declarations in ${summarize(changedNames)}: ${recompiled.length} source${recompiled.length === 1 ? '' : 's'} that use them, transitively, compiled again`
      : `every change is inside method bodies: only ${summarize(recompiled)} compiled again`,
  };
}

function topLevel(className: string): string {
  return className.split('$')[0]!;
}

function summarize(names: readonly string[]): string {
  const simple = names.map((name) =>
    name.includes('/') ? name.slice(name.lastIndexOf('/') + 1) : name.slice(name.lastIndexOf('.') + 1),
  );
  if (simple.length === 0) return 'nothing changed';
  return simple.length <= 3 ? simple.join(', ') : `${simple.slice(0, 3).join(', ')} and ${simple.length - 3} more`;
}

/** Every class of target/classes and target/test-classes, or why the graph cannot be trusted. */
export async function readModuleClasses(moduleDir: string): Promise<ModuleClasses> {
  const nodes: ClassNode[] = [];
  /** Classes with a copy under META-INF/versions/N (multi-release outputs), which narrowing does not compile again. */
  const versioned = new Set<string>();
  const versionedCopies: ClassNode[] = [];
  for (const [root, folder] of [
    ['main', 'classes'],
    ['test', 'test-classes'],
  ] as const) {
    const base = path.join(moduleDir, 'target', folder);
    for (const generated of ['generated-sources', 'generated-test-sources']) {
      if ((await listFiles(path.join(moduleDir, 'target', generated))).length > 0)
        return { why: `the module has generated sources (target/${generated})` };
    }
    for (const rel of await listFiles(base)) {
      if (rel.startsWith('META-INF/services/'))
        return { why: `target/${folder}/${rel} registers services a library may load by name` };
      if (!rel.endsWith('.class') || rel.endsWith('module-info.class')) continue;
      try {
        const node: ClassNode = { ...readClassRefs(await readFile(path.join(base, rel))), root };
        if (rel.startsWith('META-INF/versions/')) {
          versioned.add(node.name);
          versionedCopies.push(node);
        } else nodes.push(node);
      } catch (error) {
        return { why: `target/${folder}/${rel} cannot be read: ${(error as Error).message}` };
      }
    }
  }
  if (!nodes.some((node) => node.root === 'test')) return { why: 'the module has no compiled tests' };
  // A versioned copy's edges count too (on its own name).
  return { nodes: [...nodes, ...versionedCopies], versioned };
}

/** Whether any change reaches outside method and constructor bodies (read with the Java parser, both sides). */
async function declarationChanges(input: NarrowInput, files: string[]): Promise<{ changed: boolean; why?: string }> {
  let changed = false;
  for (const file of files) {
    const before = skeleton(await readFile(path.join(input.source, file), 'utf8'));
    const after = skeleton(await readFile(path.join(input.root, file), 'utf8'));
    if (before === undefined || after === undefined) return { changed: true, why: `${file} cannot be parsed` };
    if (before !== after) changed = true;
  }
  return { changed };
}

/** The file without the contents of its method and constructor bodies: what other classes can see of it. */
export function skeleton(text: string): string | undefined {
  const parsed = parseKept(text);
  if (!parsed.ok) return undefined;
  // Every body, also those of enum constants and anonymous classes (jsoup's HtmlTreeBuilderState states).
  const bodies = bodyRanges(parsed.file);
  let out = '';
  let at = 0;
  for (const body of bodies) {
    if (body.start < at) continue;
    out += `${text.slice(at, body.start)}{}`;
    at = body.end;
  }
  return out + text.slice(at);
}

/** Deletes the classes compiled from `sources`, so that the compiler plugin sees those sources as stale. */
async function removeClassesOf(
  moduleDir: string,
  nodes: readonly ClassNode[],
  sources: readonly string[],
): Promise<void> {
  const wanted = new Set(sources);
  for (const node of nodes) {
    const rel = `${node.root === 'main' ? MAIN : TEST}${sourcePathOf(node)}`;
    if (!wanted.has(rel)) continue;
    await rm(
      path.join(
        moduleDir,
        'target',
        node.root === 'main' ? 'classes' : 'test-classes',
        `${node.name.replace(/\./g, '/')}.class`,
      ),
      { force: true },
    );
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (abs: string, rel: string): Promise<void> => {
    for (const entry of await readdir(abs, { withFileTypes: true }).catch(() => [])) {
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) await walk(path.join(abs, entry.name), childRel);
      else out.push(childRel);
    }
  };
  if ((await stat(dir).catch(() => undefined))?.isDirectory()) await walk(dir, '');
  return out;
}

/** Surefire exclude lines for test classes whose results are taken from the user's build. */
export function excludedTestLines(classes: readonly string[]): string {
  return classes.map((name) => `${name.replace(/\./g, '/')}.class\n`).join('');
}

export type { ClassGraph };
