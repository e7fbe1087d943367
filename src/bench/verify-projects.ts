/**
 * The verification benchmark's projects (`npm run bench:verify`), generated at bench time
 * so that nothing large is checked in: a reactor of seven jar modules with inter-module
 * dependencies (util <- model <- core <- storage/service/report, service <- app) and a
 * single-module project, a few hundred classes and a few hundred JUnit 5 tests each, built
 * offline with the plugins pinned in `~/.m2`.
 *
 * Pure and deterministic: the same spec always gives the same files. Every class computes
 * a small integer function of its input through a chain of other classes (its own
 * module's and its dependencies'), so the tests' expected values are computed here, from
 * the same formulas, and a bug anywhere shows in the tests downstream of it.
 *
 * Each bug comes with the three replies a model gives: one that does not compile, one
 * that compiles but leaves the failing test failing, and the right fix.
 *
 * This file holds the specs and the generator; `verify-projects-java.ts` writes the Java
 * sources and their expected values, `verify-projects-poms.ts` the POMs and
 * `verify-projects-bugs.ts` the bugs and their replies; their shapes are in
 * `verify-projects-types.ts`.
 */

import { makeBug } from './verify-projects-bugs.js';
import {
  type ClassModel,
  javaPath,
  mainClass,
  operationInterface,
  TESTS_PER_CLASS,
  testClass,
} from './verify-projects-java.js';
import { modulePom, parentPom, singlePom } from './verify-projects-poms.js';
import type { BugSpec, GeneratedProject, ModuleSpec, ProjectSpec } from './verify-projects-types.js';

export { unifiedDiff } from './verify-projects-bugs.js';

export type {
  BugKind,
  BugSpec,
  GeneratedBug,
  GeneratedProject,
  ModuleSpec,
  ProjectSpec,
} from './verify-projects-types.js';

export const MULTI_MODULE_SPEC: ProjectSpec = {
  name: 'ledger',
  groupId: 'com.acme.ledger',
  modules: [
    { dir: 'util', stems: ['Text', 'Numbers', 'Checks', 'Codec'], classes: 36, testEvery: 4, dependsOn: [] },
    {
      dir: 'model',
      stems: ['Account', 'Entry', 'Money', 'Party', 'Period'],
      classes: 48,
      testEvery: 4,
      dependsOn: ['util'],
    },
    {
      dir: 'core',
      stems: ['Posting', 'Balance', 'Rule', 'Journal', 'Ledger'],
      classes: 56,
      testEvery: 4,
      dependsOn: ['model', 'util'],
    },
    { dir: 'storage', stems: ['Store', 'Index', 'Cache', 'Page'], classes: 40, testEvery: 4, dependsOn: ['core'] },
    {
      dir: 'service',
      stems: ['Orders', 'Billing', 'Transfer', 'Audit'],
      classes: 48,
      testEvery: 4,
      dependsOn: ['core', 'storage'],
    },
    {
      dir: 'app',
      stems: ['Command', 'Screen', 'Config', 'Session'],
      classes: 36,
      testEvery: 4,
      dependsOn: ['service'],
    },
    // Declared last, so a fail-fast build reaches it after every other module.
    { dir: 'report', stems: ['Summary', 'Chart', 'Export', 'Digest'], classes: 40, testEvery: 4, dependsOn: ['core'] },
  ],
};

export const MULTI_MODULE_BUGS: BugSpec[] = [
  { name: 'leaf module (report)', kind: 'leaf', module: 'report', classIndex: 8 },
  { name: 'core module (core)', kind: 'core', module: 'core', classIndex: 12 },
  { name: 'test code (service)', kind: 'test', module: 'service', classIndex: 16 },
  // Issue 42: app fails and Maven stops there, before report (declared last), which needs none of app.
  { name: 'leaf before an independent module (app)', kind: 'leaf', module: 'app', classIndex: 8 },
];

export const SINGLE_MODULE_SPEC: ProjectSpec = {
  name: 'invoicing',
  groupId: 'com.acme.invoicing',
  modules: [
    {
      dir: '',
      stems: ['Invoice', 'Line', 'Tax', 'Discount', 'Customer', 'Rounding', 'Currency', 'Terms'],
      classes: 200,
      testEvery: 3,
      dependsOn: [],
    },
  ],
};

export const SINGLE_MODULE_BUGS: BugSpec[] = [{ name: 'single module', kind: 'leaf', module: '', classIndex: 120 }];

/** mulberry32: small, seeded, the same sequence everywhere. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function packageOf(spec: ProjectSpec, module: ModuleSpec): string {
  return module.dir === '' ? spec.groupId : `${spec.groupId}.${module.dir}`;
}

export function generateProject(spec: ProjectSpec, bugs: BugSpec[], seed = 17): GeneratedProject {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const models = new Map<string, ClassModel[]>();
  const files = new Map<string, string>();

  for (const module of spec.modules) {
    const pkg = packageOf(spec, module);
    const own: ClassModel[] = [];
    // Classes build on their own module's and on those of the modules they depend on directly.
    const upstream = module.dependsOn.flatMap((dir) => (models.get(dir) ?? []).slice(-12));
    for (let i = 0; i < module.classes; i++) {
      const stem = module.stems[i % module.stems.length]!;
      const candidates = [...own.slice(-12), ...upstream];
      // Chains stay short enough to read, long enough that a bug travels downstream.
      const dep = candidates.length > 0 && next() < 0.8 ? pick(candidates) : undefined;
      own.push({
        module: module.dir,
        pkg,
        name: `${stem}${i}`,
        factor: 2 + Math.floor(next() * 8),
        offset: 1 + Math.floor(next() * 50),
        ...(dep ? { dep } : {}),
        tested: i % module.testEvery === 0,
      });
    }
    models.set(module.dir, own);
    for (const model of own) {
      files.set(javaPath(module, 'main', pkg, model.name), mainClass(model));
      if (model.tested) files.set(javaPath(module, 'test', pkg, `${model.name}Test`), testClass(model));
    }
    files.set(javaPath(module, 'main', pkg, 'Operation'), operationInterface(pkg));
    files.set(
      `${module.dir === '' ? '' : `${module.dir}/`}src/main/resources/${module.dir || spec.name}.properties`,
      `module=${module.dir || spec.name}\nclasses=${module.classes}\n`,
    );
    files.set(
      `${module.dir === '' ? '' : `${module.dir}/`}pom.xml`,
      module.dir === '' ? singlePom(spec) : modulePom(spec, module),
    );
  }
  if (spec.modules.some((m) => m.dir !== '')) files.set('pom.xml', parentPom(spec));
  files.set('.gitignore', 'target/\n.mvnx/\n');

  const generatedBugs = bugs.map((bug) => makeBug(spec, bug, models, files));
  const all = [...models.values()].flat();
  const testClasses = all.filter((m) => m.tested).length;
  return {
    name: spec.name,
    files,
    bugs: generatedBugs,
    stats: {
      modules: spec.modules.length,
      mainClasses: all.length + spec.modules.length,
      testClasses,
      tests: testClasses * TESTS_PER_CLASS,
    },
  };
}
