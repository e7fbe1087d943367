/**
 * Which modules a candidate fix can affect, and so what verification must redo. Pure.
 *
 * The affected modules are the ones the fix touches, the ones that failed, and every
 * module that needs any of those (reactor.ts). They are rebuilt from clean in the
 * workspace and all their tests run. Every other module builds from the same inputs as
 * in the user's build: its outputs come from that build (when fresh), and under
 * `verify.scope: affected` its tests are taken from that build too, when they all ran
 * and passed there. Upstream modules stay in the reactor (Maven 3 resolves a module of
 * the project only from the reactor), their tests left out through a Surefire excludes
 * file per module; a module that is neither affected nor needed by one leaves the
 * reactor (`-pl ... -am`) when the user's command built the whole reactor one module at
 * a time (no -pl/-rf/-N, no -T): then its tests ran and passed, and it is not a failing
 * module, so every goal of the command passed for it.
 *
 * When in doubt the answer is "everything": a pom or `.mvn` file touched, a pom the
 * reactor reader could not read, a file outside every module, a project that sets its
 * own test excludes file or fails when a module has no tests.
 */
import type { TestCaseResult } from '../diagnose/types.js';
import { moduleOfFile, withDependents, type ReactorGraph } from '../maven/reactor.js';
import { hasOption, parseMavenArgs } from './maven-args.js';

export type VerifyScope = 'affected' | 'full';

export interface ScopeInput {
  scope: VerifyScope;
  graph: ReactorGraph;
  /** Project-relative paths the fix writes (renames: both sides). */
  touchedFiles: string[];
  /** Module folders with a failure in the diagnosis being worked on. */
  failingModules: string[];
  /** Test results of the user's failed build. */
  baselineTests: TestCaseResult[];
  /** Project facts that forbid leaving tests out (see `testSkipBlockers`). */
  blockers: string[];
  /** The user's command: whether it built the whole reactor one module at a time. */
  mavenArgs?: readonly string[];
  /**
   * Modules the user's build never reached whose tests ran on the unchanged code beside the model
   * (never-reached.ts): those the fix cannot affect are left out of the verdict build like the proven ones, their
   * results taken from that run.
   */
  testedBeforeCandidate?: readonly { dir: string; artifactId: string }[];
}

export interface ScopeDecision {
  /** `affected` only when some module's tests are taken from the user's build. */
  scope: VerifyScope;
  /** Module folders rebuilt from clean, all their tests run. */
  affected: string[];
  /** Modules whose tests are taken from the user's build. */
  testsFromYourBuild: { dir: string; artifactId: string }[];
  /** The modules the verdict build selects (`-pl` these `-am`); absent: the command's own selection. */
  reactor?: string[];
  /** Why verification covers every module although `affected` was asked for. */
  why?: string;
  /** Of `testsFromYourBuild`: the modules whose tests ran beside the model (`testedBeforeCandidate`). */
  testedBeforeCandidate?: { dir: string; artifactId: string }[];
}

/** The file every module's Surefire reads under the affected scope (relative: Maven resolves it per module). */
export const EXCLUDES_FILE = 'target/mvnx-verify-excludes.txt';

export function decideScope(input: ScopeInput): ScopeDecision {
  const everything = (why?: string): ScopeDecision => ({
    scope: 'full',
    affected: input.graph.projects.map((p) => p.dir),
    testsFromYourBuild: [],
    ...(why ? { why } : {}),
  });
  if (input.graph.projects.length === 0) return everything('no module could be read from the poms');
  if (input.graph.problems.length > 0)
    return everything(`the reactor could not be read completely (${input.graph.problems[0]})`);

  const touched = new Set<string>();
  for (const file of input.touchedFiles) {
    const name = file.split('/').pop() ?? '';
    if (name === 'pom.xml' || file === '.mvn' || file.startsWith('.mvn/') || file.includes('/.mvn/'))
      return everything(`the fix changes ${file}, which every module may read`);
    const module = moduleOfFile(input.graph, file);
    if (!module) return everything(`${file} is in no module`);
    if (module.packaging === 'pom' && input.graph.projects.length > 1)
      return everything(`${file} belongs to the parent ${module.artifactId}, which other modules may read`);
    touched.add(module.dir);
  }
  const known = new Set(input.graph.projects.map((p) => p.dir));
  for (const dir of input.failingModules) {
    if (!known.has(dir)) return everything(`the failing module ${dir || '.'} is not in the reactor`);
    touched.add(dir);
  }
  const affected = withDependents(input.graph, touched);
  const decision: ScopeDecision = { scope: 'full', affected: [...affected].sort(), testsFromYourBuild: [] };
  if (input.scope === 'full') return decision;
  if (input.blockers.length > 0) return { ...decision, why: input.blockers[0]! };

  const artifactCount = new Map<string, number>();
  for (const project of input.graph.projects)
    artifactCount.set(project.artifactId, (artifactCount.get(project.artifactId) ?? 0) + 1);
  for (const project of input.graph.projects) {
    if (affected.has(project.dir) || artifactCount.get(project.artifactId) !== 1) continue;
    const results = input.baselineTests.filter((test) => test.module === project.artifactId);
    const ran = results.some((test) => test.status !== 'skipped');
    const allPassed = results.every((test) => test.status === 'passed' || test.status === 'skipped');
    if (ran && allPassed) decision.testsFromYourBuild.push({ dir: project.dir, artifactId: project.artifactId });
  }
  const proven = new Set(decision.testsFromYourBuild.map((m) => m.dir));
  const before = (input.testedBeforeCandidate ?? []).filter((m) => !affected.has(m.dir) && !proven.has(m.dir));
  if (before.length > 0) {
    decision.testsFromYourBuild.push(...before.map((m) => ({ dir: m.dir, artifactId: m.artifactId })));
    decision.testedBeforeCandidate = before.map((m) => ({ dir: m.dir, artifactId: m.artifactId }));
  }
  if (decision.testsFromYourBuild.length === 0)
    return { ...decision, why: 'no unaffected module has tests that ran and passed in your build' };
  const reactor = wholeReactorOneByOne(input.mavenArgs)
    ? keptModules(
        input.graph,
        decision.testsFromYourBuild.map((m) => m.dir),
      )
    : undefined;
  return { ...decision, scope: 'affected', ...(reactor ? { reactor } : {}) };
}

/** Whether the user's command built the whole reactor one module at a time (no -pl/-rf/-N/-am/-amd/-T). */
export function wholeReactorOneByOne(mavenArgs: readonly string[] | undefined): boolean {
  if (!mavenArgs) return false;
  const parsed = parseMavenArgs(mavenArgs);
  return !['projects', 'resume-from', 'non-recursive', 'also-make', 'also-make-dependents', 'threads', 'builder'].some(
    (option) => hasOption(parsed, option),
  );
}

/**
 * Every module but the proven ones (Maven's -am brings back those still needed); undefined when nothing would leave.
 */
function keptModules(graph: ReactorGraph, proven: string[]): string[] | undefined {
  const provenSet = new Set(proven);
  // Aggregators (packaging pom) are brought in by -am where they are parents; alone they build nothing.
  const kept = graph.projects.filter(
    (p) =>
      !provenSet.has(p.dir) &&
      !(p.packaging === 'pom' && graph.projects.some((child) => child.parent === `${p.groupId}:${p.artifactId}`)),
  );
  if (kept.length === 0 || kept.length + proven.length >= graph.projects.length) return undefined;
  return kept.map((p) => p.dir);
}

/** The content of a module's excludes file: everything for a module whose tests are taken from the user's build. */
export function excludesFileText(skipTests: boolean): string {
  return skipTests
    ? '# mvnx: tests taken from your build (the fix cannot affect this module)\n**/*\n'
    : "# mvnx: this module's tests run\n";
}

/**
 * Why tests cannot be left out per module, from the project's poms, `.mvn/maven.config`
 * and the command line: Surefire's excludesFile set by the project (a -D would replace
 * it) or a build that fails when a module runs no tests.
 */
export function testSkipBlockers(texts: { name: string; text: string }[], mavenArgs: readonly string[]): string[] {
  const blockers: string[] = [];
  const all = [...texts, { name: 'the command line', text: mavenArgs.join('\n') }];
  for (const { name, text } of all) {
    if (/excludesFile/i.test(text)) blockers.push(`${name} sets a Surefire excludes file`);
    if (/failIfNoTests/i.test(text)) blockers.push(`${name} sets failIfNoTests`);
    if (/(^|\s)-Dtest=|<test>/.test(text)) blockers.push(`${name} selects tests itself`);
  }
  return blockers;
}
