import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { TestCaseResult } from '../../src/diagnose/types.js';
import { toProjects, type ReactorGraph } from '../../src/maven/reactor.js';
import {
  addFailingFirstExecution,
  decideOneRun,
  failingFirstOutcome,
  FAILING_FIRST_EXECUTION,
  PomEditError,
  removeFailingFirstExecution,
} from '../../src/workspace/failing-first.js';

const head =
  '<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion><artifactId>m</artifactId>';
const surefire = (inner = '') =>
  `<plugin><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version>${inner}</plugin>`;
const compiler = '<plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>';

/** The pom as Maven's model sees it (comments dropped): project.build.plugins.plugin[] with their executions. */
function pluginsOf(pom: string) {
  const project = new XMLParser({
    ignoreDeclaration: true,
    isArray: (name) => ['plugin', 'execution', 'goal'].includes(name),
  }).parse(pom).project;
  return (project.build?.plugins?.plugin ?? []) as {
    artifactId: string;
    version?: string;
    executions?: {
      execution: { id: string; phase: string; goals: { goal: string[] }; configuration: Record<string, unknown> }[];
    };
  }[];
}

const tests = ['com.acme.FooTest#adds', 'com.acme.BarTest'];

describe('addFailingFirstExecution', () => {
  it.each([
    ['no build at all (the packaging’s lifecycle picks Surefire’s version)', `${head}</project>`],
    [
      'a build with pluginManagement only (the managed version applies)',
      `${head}<build><pluginManagement><plugins>${surefire()}</plugins></pluginManagement></build></project>`,
    ],
    [
      'build/plugins without Surefire (inherited from a parent’s pluginManagement)',
      `${head}<build><plugins>${compiler}</plugins></build></project>`,
    ],
    [
      'Surefire in build/plugins with its configuration',
      `${head}<build><plugins>${surefire('<configuration><forkCount>2</forkCount></configuration>')}</plugins></build></project>`,
    ],
    [
      'Surefire with executions of its own',
      `${head}<build><plugins>${surefire('<executions><execution><id>slow</id><goals><goal>test</goal></goals></execution></executions>')}</plugins></build></project>`,
    ],
    ['self-closing build and plugins', `${head}<build><plugins/></build></project>`],
  ])(
    '%s: one Surefire plugin in build/plugins carries the execution before `test`, and removing it gives the pom back',
    (_name, pom) => {
      const edited = addFailingFirstExecution(pom, tests);
      const plugins = pluginsOf(edited).filter((p) => p.artifactId === 'maven-surefire-plugin');
      expect(plugins).toHaveLength(1);
      const execution = plugins[0]!.executions!.execution.find((e) => e.id === FAILING_FIRST_EXECUTION)!;
      expect(execution).toMatchObject({
        phase: 'process-test-classes',
        goals: { goal: ['test'] },
        configuration: {
          test: 'com.acme.FooTest#adds,com.acme.BarTest',
          failIfNoSpecifiedTests: false,
          testFailureIgnore: false,
          // Its own reports folder: what ran first is never read as run by the user's command.
          reportsDirectory: '${project.build.directory}/surefire-reports/mvnx-failing-first',
        },
      });
      // The version stays whatever the pom said (none added): default-test and this execution run the same Surefire.
      const before = pluginsOf(pom).find((p) => p.artifactId === 'maven-surefire-plugin');
      expect(plugins[0]!.version).toBe(before?.version);
      if (!pom.includes('<plugins/>')) expect(removeFailingFirstExecution(edited)).toBe(pom);
    },
  );

  it('keeps everything else of the pom, comments with tags in them and CDATA included', () => {
    const pom = `${head}<!-- <build><plugins></plugins></build> --><description><![CDATA[</project>]]></description><build><plugins>${surefire()}</plugins></build><profiles><profile><build><plugins>${compiler}</plugins></build></profile></profiles></project>`;
    const edited = addFailingFirstExecution(pom, tests);
    expect(removeFailingFirstExecution(edited)).toBe(pom);
    expect(edited.indexOf(FAILING_FIRST_EXECUTION)).toBeLessThan(edited.indexOf('<profiles>'));
    expect(edited.indexOf(FAILING_FIRST_EXECUTION)).toBeGreaterThan(edited.indexOf('<build><plugins>'));
  });

  it('written twice (the workspace reused for the next candidate), the second replaces the first', () => {
    const pom = `${head}<build><plugins>${surefire()}</plugins></build></project>`;
    const twice = addFailingFirstExecution(addFailingFirstExecution(pom, ['a.One#x']), ['a.Two#y']);
    expect(twice).toBe(addFailingFirstExecution(pom, ['a.Two#y']));
    expect(twice.split(`<id>${FAILING_FIRST_EXECUTION}</id>`)).toHaveLength(2);
  });

  it('a Surefire of another groupId is not the one: a Surefire of its own is declared', () => {
    const pom = `${head}<build><plugins><plugin><groupId>com.acme</groupId><artifactId>maven-surefire-plugin</artifactId></plugin></plugins></build></project>`;
    const plugins = pluginsOf(addFailingFirstExecution(pom, tests));
    expect(plugins.map((p) => p.executions?.execution.length ?? 0)).toEqual([0, 1]);
  });

  it('escapes what XML would read as markup in a test name', () => {
    expect(addFailingFirstExecution(`${head}</project>`, ['a.B#c<d>&e'])).toContain(
      '<test>a.B#c&lt;d&gt;&amp;e</test>',
    );
  });

  it('refuses a text without a <project> element, or no tests', () => {
    expect(() => addFailingFirstExecution('<settings></settings>', tests)).toThrow(PomEditError);
    expect(() => addFailingFirstExecution('<!-- <project> --><x/>', tests)).toThrow(/no <project> element/);
    expect(() => addFailingFirstExecution(`${head}</project>`, [])).toThrow(/at least one test/);
  });
});

describe('failingFirstOutcome', () => {
  const ran = '[INFO] --- maven-surefire-plugin:3.2.5:test (mvnx-failing-first) @ calc ---\n';
  it('reads from the log whether the execution stopped the build, passed, or never ran', () => {
    expect(
      failingFirstOutcome(
        `${ran}[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (mvnx-failing-first) on project calc: There are test failures.\n`,
      ),
    ).toBe('stopped');
    expect(
      failingFirstOutcome(
        `${ran}[INFO] --- maven-surefire-plugin:3.2.5:test (default-test) @ calc ---\n[INFO] BUILD SUCCESS\n`,
      ),
    ).toBe('passed');
    expect(
      failingFirstOutcome(
        `${ran}[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project calc\n`,
      ),
    ).toBe('passed');
    expect(
      failingFirstOutcome(
        '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:compile (default-compile) on project calc\n',
      ),
    ).toBe('not-reached');
  });
});

describe('decideOneRun', () => {
  // app needs core, core needs util; tools stands alone; parent is the aggregator.
  const graph: ReactorGraph = {
    projects: toProjects([
      {
        dir: '',
        facts: {
          groupId: 'g',
          artifactId: 'parent',
          packaging: 'pom',
          properties: {},
          modules: ['util', 'core', 'app', 'tools'],
          coordinates: [],
        },
      },
      {
        dir: 'util',
        facts: {
          groupId: 'g',
          artifactId: 'util',
          parent: { groupId: 'g', artifactId: 'parent' },
          properties: {},
          modules: [],
          coordinates: [],
        },
      },
      {
        dir: 'core',
        facts: {
          groupId: 'g',
          artifactId: 'core',
          parent: { groupId: 'g', artifactId: 'parent' },
          properties: {},
          modules: [],
          coordinates: [{ groupId: 'g', artifactId: 'util' }],
        },
      },
      {
        dir: 'app',
        facts: {
          groupId: 'g',
          artifactId: 'app',
          parent: { groupId: 'g', artifactId: 'parent' },
          properties: {},
          modules: [],
          coordinates: [{ groupId: 'g', artifactId: 'core' }],
        },
      },
      {
        dir: 'tools',
        facts: {
          groupId: 'g',
          artifactId: 'tools',
          parent: { groupId: 'g', artifactId: 'parent' },
          properties: {},
          modules: [],
          coordinates: [],
        },
      },
    ]),
    problems: [],
  };
  const single: ReactorGraph = {
    projects: toProjects([
      { dir: '', facts: { groupId: 'g', artifactId: 'calc', properties: {}, modules: [], coordinates: [] } },
    ]),
    problems: [],
  };
  const result = (module: string, status: TestCaseResult['status'] = 'passed'): TestCaseResult =>
    ({ module, className: `g.${module}.T`, method: 'm', status }) as TestCaseResult;
  const baseline = [result('util'), result('core', 'failed'), result('core')];

  it.each([
    [
      'a single-module project',
      { graph: single, failingModules: [''], baselineTests: [result('calc', 'failed')], testsFromYourBuild: [] },
      { oneRun: true },
    ],
    [
      'the failing module runs the first tests of the build (util’s are taken from your build)',
      { graph, failingModules: ['core'], baselineTests: baseline, testsFromYourBuild: ['util'] },
      { oneRun: true },
    ],
    [
      'the failing module is first with tests (util had none)',
      { graph, failingModules: ['core'], baselineTests: [result('core', 'failed')], testsFromYourBuild: [] },
      { oneRun: true },
    ],
    [
      'util’s tests run before the failing module',
      { graph, failingModules: ['core'], baselineTests: baseline, testsFromYourBuild: [] },
      { oneRun: false, why: 'module util runs 1 test before the failing module' },
    ],
    [
      'util left out of the verdict build’s selection',
      {
        graph,
        failingModules: ['app'],
        baselineTests: [result('tools'), result('app', 'failed')],
        testsFromYourBuild: [],
        selected: ['app'],
      },
      { oneRun: true },
    ],
    [
      'tools selected, its tests ran in your build before the failing module',
      {
        graph,
        failingModules: ['app'],
        baselineTests: [result('tools'), result('tools'), result('app', 'failed')],
        testsFromYourBuild: [],
      },
      { oneRun: false, why: 'module tools runs 2 tests before the failing module' },
    ],
    [
      'skipped tests are not tests that run',
      {
        graph,
        failingModules: ['core'],
        baselineTests: [result('util', 'skipped'), result('core', 'failed')],
        testsFromYourBuild: [],
      },
      { oneRun: true },
    ],
    [
      'no reactor',
      { failingModules: [''], baselineTests: [], testsFromYourBuild: [] },
      { oneRun: false, why: 'the reactor is unknown' },
    ],
    [
      'a reactor read in part',
      {
        graph: { ...graph, problems: ['x/pom.xml: unreadable'] },
        failingModules: ['core'],
        baselineTests: [],
        testsFromYourBuild: [],
      },
      { oneRun: false, why: 'the reactor could not be read completely' },
    ],
    [
      'no failing module',
      { graph, failingModules: [], baselineTests: [], testsFromYourBuild: [] },
      { oneRun: false, why: 'no failing module is known' },
    ],
    [
      'a failing module outside the reactor',
      { graph, failingModules: ['gone'], baselineTests: [], testsFromYourBuild: [] },
      { oneRun: false, why: 'the failing module gone is not in the reactor' },
    ],
  ] as const)('%s', (_name, input, expected) => {
    expect(decideOneRun(input as unknown as Parameters<typeof decideOneRun>[0])).toEqual(expected);
  });
});
