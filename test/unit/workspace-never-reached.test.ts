/**
 * Which modules a failed build never reached and a fix cannot affect (tested beside the
 * model), the Maven command that tests them, and how a candidate's scope leaves them out
 * (issue 42, item 5). Pure; the real Maven side is test/integration/verify-never-reached.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { ReactorModule, TestCaseResult } from '../../src/diagnose/types.js';
import type { ReactorGraph, ReactorProject } from '../../src/maven/reactor.js';
import { neverReachedArgs, neverReachedModules, type NeverReachedInput } from '../../src/workspace/never-reached.js';
import { decideScope } from '../../src/workspace/verify-scope.js';

const project = (dir: string, needs: string[] = [], extra: Partial<ReactorProject> = {}): ReactorProject => ({
  dir,
  groupId: 'com.acme',
  artifactId: dir === '' ? 'parent' : dir,
  packaging: dir === '' ? 'pom' : 'jar',
  ...(dir === '' ? {} : { parent: 'com.acme:parent' }),
  needs: needs.map((n) => `com.acme:${n}`),
  needsUnknown: false,
  ...extra,
});

// util <- core <- app <- web; util <- report; the build order: util, core, app, web, report.
const graph: ReactorGraph = {
  projects: [
    project(''),
    project('util'),
    project('core', ['util']),
    project('app', ['core']),
    project('web', ['app']),
    project('report', ['util']),
  ],
  problems: [],
};
const reactor = (failing: string, skipped: string[]): ReactorModule[] => [
  { name: 'parent', artifactId: 'parent', status: 'SUCCESS' },
  ...['util', 'core', 'app', 'web', 'report'].map((m) => ({
    name: m,
    artifactId: m,
    status: m === failing ? ('FAILURE' as const) : skipped.includes(m) ? ('SKIPPED' as const) : ('SUCCESS' as const),
  })),
];
const tests = (...modules: string[]): TestCaseResult[] =>
  modules.map((module) => ({
    className: `com.acme.${module}.T`,
    method: 'm',
    module,
    status: 'passed' as const,
    reportFile: `${module}/target/surefire-reports/TEST-T.xml`,
  }));

const select = (over: Partial<NeverReachedInput> = {}) =>
  neverReachedModules({
    graph,
    failingModules: ['app'],
    reactor: reactor('app', ['web', 'report']),
    mavenArgs: ['-B', 'verify'],
    blockers: [],
    baselineTests: tests('util', 'core', 'app'),
    ...over,
  });

describe('neverReachedModules', () => {
  it('takes a module the build skipped that needs none of the failing ones; not one that needs a failing module', () => {
    expect(select()).toEqual([{ dir: 'report', artifactId: 'report' }]);
  });

  it('without a reactor summary (-q), a module no test result came from is taken as not reached', () => {
    const quiet = reactor('app', []).map(({ name, artifactId }) => ({ name, artifactId }));
    expect(select({ reactor: quiet, mavenArgs: ['-q', 'verify'] })).toEqual([{ dir: 'report', artifactId: 'report' }]);
    expect(select({ reactor: [], baselineTests: tests('util', 'core', 'app', 'report') })).toEqual([]);
  });

  it('takes nothing a reached module, a parent, or a module needing everything', () => {
    expect(select({ reactor: reactor('app', ['web']) })).toEqual([]);
    const unknown: ReactorGraph = {
      ...graph,
      projects: graph.projects.map((p) => (p.dir === 'report' ? { ...p, needsUnknown: true } : p)),
    };
    expect(select({ graph: unknown })).toEqual([]);
  });

  it('takes nothing where the verdict build could not leave the module out', () => {
    expect(select({ mavenArgs: ['-pl', 'app,report', 'verify'] })).toEqual([]);
    expect(select({ mavenArgs: ['-rf', ':app', 'verify'] })).toEqual([]);
    expect(select({ mavenArgs: ['-T', '2', 'verify'] })).toEqual([]);
    expect(select({ blockers: ['pom.xml sets a Surefire excludes file'] })).toEqual([]);
    expect(select({ graph: { ...graph, problems: ['cannot read report/pom.xml'] } })).toEqual([]);
    expect(select({ failingModules: [] })).toEqual([]);
    expect(select({ failingModules: ['gone'] })).toEqual([]);
  });
});

describe('neverReachedArgs', () => {
  it("the user's command without clean, install as verify, those modules with what they need, failing at the end", () => {
    expect(neverReachedArgs(['-o', '-q', 'clean', 'install'], [{ dir: 'report', artifactId: 'report' }])).toEqual([
      '--fail-at-end',
      '-o',
      '-pl',
      'report',
      '-am',
      '-Dsurefire.excludesFile=target/mvnx-verify-excludes.txt',
      'verify',
    ]);
  });
});

describe('decideScope with modules tested before the candidate', () => {
  const decide = (touched: string, failing: string[]) =>
    decideScope({
      scope: 'affected',
      graph,
      touchedFiles: [`${touched}/src/main/java/com/acme/X.java`],
      failingModules: failing,
      baselineTests: tests('util', 'core'),
      blockers: [],
      mavenArgs: ['-B', 'verify'],
      testedBeforeCandidate: [{ dir: 'report', artifactId: 'report' }],
    });

  it('a fix that cannot affect them leaves them out of the verdict build, named apart from those of your build', () => {
    const decision = decide('app', ['app']);
    expect(decision.affected).toEqual(['app', 'web']);
    expect(decision.testsFromYourBuild.map((m) => m.dir)).toEqual(['util', 'core', 'report']);
    expect(decision.testedBeforeCandidate).toEqual([{ dir: 'report', artifactId: 'report' }]);
    expect(decision.reactor).toEqual(['app', 'web']);
  });

  it('a fix that touches them (or what they need) runs their tests in the verdict build, as before', () => {
    const decision = decide('util', ['app']);
    expect(decision.affected).toContain('report');
    expect(decision.testedBeforeCandidate).toBeUndefined();
    expect(decision.testsFromYourBuild.map((m) => m.dir)).not.toContain('report');
  });
});
