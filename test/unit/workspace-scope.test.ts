import { describe, expect, it } from 'vitest';
import type { TestCaseResult } from '../../src/diagnose/types.js';
import type { ReactorGraph, ReactorProject } from '../../src/maven/reactor.js';
import { decideScope, excludesFileText, testSkipBlockers, type ScopeInput } from '../../src/workspace/verify-scope.js';
import { appendArgLineFlags, QUICK_FORK_FLAGS, QUICK_JVM_FLAGS, quickJvm } from '../../src/workspace/quick-jvm.js';

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

// util <- core <- {app, report}; app is also needed by nothing.
const graph: ReactorGraph = {
  projects: [
    project(''),
    project('util'),
    project('core', ['util']),
    project('app', ['core']),
    project('report', ['core']),
  ],
  problems: [],
};

const passed = (module: string, n = 2): TestCaseResult[] =>
  Array.from({ length: n }, (_, i) => ({
    className: `com.acme.${module}.T`,
    method: `m${i}`,
    module,
    status: 'passed' as const,
    reportFile: `${module}/target/surefire-reports/TEST-T.xml`,
  }));
const baseline = [
  ...passed('util'),
  ...passed('core'),
  ...passed('app'),
  { ...passed('report', 1)[0]!, status: 'failed' as const },
];

const decide = (over: Partial<ScopeInput>) =>
  decideScope({
    scope: 'affected',
    graph,
    touchedFiles: ['report/src/main/java/com/acme/report/R.java'],
    failingModules: ['report'],
    baselineTests: baseline,
    blockers: [],
    ...over,
  });

describe('decideScope', () => {
  it("a leaf fix: only the leaf is affected; the other modules' passing tests are taken from your build", () => {
    const decision = decide({});
    expect(decision).toEqual({
      scope: 'affected',
      affected: ['report'],
      testsFromYourBuild: [
        { dir: 'util', artifactId: 'util' },
        { dir: 'core', artifactId: 'core' },
        { dir: 'app', artifactId: 'app' },
      ],
    });
  });

  it('a core fix: core and every module that needs it are affected', () => {
    const decision = decide({ touchedFiles: ['core/src/main/java/C.java'], failingModules: ['core'] });
    expect(decision.affected).toEqual(['app', 'core', 'report']);
    expect(decision.testsFromYourBuild.map((m) => m.dir)).toEqual(['util']);
  });

  it('the failing module is affected even when the fix is elsewhere', () => {
    expect(decide({ touchedFiles: ['app/src/main/java/A.java'], failingModules: ['report'] }).affected).toEqual([
      'app',
      'report',
    ]);
  });

  it('a module whose tests did not run in your build (skipped after the failure) or failed there runs its tests', () => {
    const decision = decide({ baselineTests: [...passed('util'), { ...passed('core', 1)[0]!, status: 'error' }] });
    expect(decision.testsFromYourBuild.map((m) => m.dir)).toEqual(['util']);
  });

  it.each([
    ['a pom', ['core/pom.xml'], /changes core\/pom\.xml, which every module may read/],
    ['.mvn', ['.mvn/jvm.config'], /changes \.mvn\/jvm\.config/],
    ['a file of the parent', ['config/checkstyle.xml'], /belongs to the parent parent/],
  ])('%s touched: every module is affected', (_, touchedFiles, why) => {
    const decision = decide({ touchedFiles });
    expect(decision).toMatchObject({
      scope: 'full',
      affected: ['', 'util', 'core', 'app', 'report'],
      testsFromYourBuild: [],
    });
    expect(decision.why).toMatch(why);
  });

  it('a reactor that could not be read completely: every module is affected', () => {
    expect(decide({ graph: { ...graph, problems: ['cannot read x/pom.xml'] } })).toMatchObject({
      scope: 'full',
      why: expect.stringMatching(/could not be read completely/),
    });
    expect(decide({ graph: { projects: [], problems: [] } })).toMatchObject({ scope: 'full', affected: [] });
  });

  it('verify.scope full: the affected modules are still rebuilt from clean, but every test runs', () => {
    expect(decide({ scope: 'full' })).toEqual({ scope: 'full', affected: ['report'], testsFromYourBuild: [] });
  });

  it('a blocker (the project sets its own excludes file) keeps every test', () => {
    expect(decide({ blockers: ['pom.xml sets a Surefire excludes file'] })).toEqual({
      scope: 'full',
      affected: ['report'],
      testsFromYourBuild: [],
      why: 'pom.xml sets a Surefire excludes file',
    });
  });

  it('a single-module project is always wholly affected', () => {
    const single: ReactorGraph = { projects: [{ ...project('x'), dir: '', packaging: 'jar' }], problems: [] };
    expect(decide({ graph: single, touchedFiles: ['src/main/java/A.java'], failingModules: [''] })).toMatchObject({
      scope: 'full',
      affected: [''],
    });
  });

  it('two modules with the same artifactId cannot be told apart in the reports: their tests run', () => {
    const twins: ReactorGraph = {
      projects: [...graph.projects, project('legacy/util', [], { artifactId: 'util' })],
      problems: [],
    };
    expect(decide({ graph: twins }).testsFromYourBuild.map((m) => m.dir)).toEqual(['core', 'app']);
  });
});

describe('excludes file and blockers', () => {
  it('excludes everything, or nothing (a comment only)', () => {
    expect(
      excludesFileText(true)
        .split('\n')
        .filter((l) => l && !l.startsWith('#')),
    ).toEqual(['**/*']);
    expect(
      excludesFileText(false)
        .split('\n')
        .filter((l) => l && !l.startsWith('#')),
    ).toEqual([]);
  });

  it('names what forbids leaving tests out', () => {
    expect(
      testSkipBlockers(
        [
          { name: 'core/pom.xml', text: '<excludesFile>x</excludesFile>' },
          { name: 'pom.xml', text: '<failIfNoTests>true</failIfNoTests>' },
        ],
        ['-Dtest=Foo', 'test'],
      ),
    ).toEqual([
      'core/pom.xml sets a Surefire excludes file',
      'pom.xml sets failIfNoTests',
      'the command line selects tests itself',
    ]);
    expect(testSkipBlockers([{ name: 'pom.xml', text: '<artifactId>surefire</artifactId>' }], ['verify'])).toEqual([]);
  });
});

describe('quickJvm', () => {
  it('adds every flag to MAVEN_OPTS, and to Surefire all but C1-only (a test run of seconds needs C2), when nobody set their own', () => {
    expect(QUICK_FORK_FLAGS).toEqual(['-XX:+UseSerialGC', '-Xshare:auto']);
    expect(quickJvm({ poms: ['<project/>'], args: ['verify'] })).toEqual({
      mavenOpts: QUICK_JVM_FLAGS.join(' '),
      argLine: '-DargLine=-XX:+UseSerialGC -Xshare:auto',
      added: [...QUICK_JVM_FLAGS.map((f) => `MAVEN_OPTS ${f}`), 'argLine -XX:+UseSerialGC -Xshare:auto'],
    });
  });

  it("keeps the user's MAVEN_OPTS and never adds a second collector or compiler setting", () => {
    expect(quickJvm({ mavenOpts: '-Xmx2g -XX:+UseG1GC', poms: [], args: [] }).mavenOpts).toBe(
      '-Xmx2g -XX:+UseG1GC -XX:TieredStopAtLevel=1 -Xshare:auto',
    );
    expect(quickJvm({ jvmConfig: '-XX:-TieredCompilation\n-Xshare:off', poms: [], args: [] }).mavenOpts).toBe(
      '-XX:+UseSerialGC',
    );
    expect(
      quickJvm({ mavenOpts: '-XX:TieredStopAtLevel=1 -XX:+UseParallelGC -Xshare:auto', poms: [], args: [] }).mavenOpts,
    ).toBeUndefined();
  });

  it('leaves Surefire alone where the project has an argLine or JaCoCo (a -DargLine would replace it)', () => {
    for (const over of [
      { poms: ['<properties><argLine>-Xmx1g</argLine></properties>'] },
      { poms: ['<artifactId>jacoco-maven-plugin</artifactId>'] },
      { mavenConfig: '-DargLine=-ea' },
      { args: ['-DargLine=-ea', 'verify'] },
    ]) {
      const result = quickJvm({ poms: [], args: ['verify'], ...over });
      expect(result.argLine, JSON.stringify(over)).toBeUndefined();
      expect(
        result.added.some((a) => a.startsWith('argLine')),
        JSON.stringify(over),
      ).toBe(false);
    }
  });

  it("appends the flags to the project's own <argLine> in named poms, each only when nothing in the project names its family", () => {
    const pom = {
      name: 'core/pom.xml',
      text: '<plugin><artifactId>maven-surefire-plugin</artifactId><configuration><argLine>-Xss640k</argLine></configuration></plugin>',
    };
    const result = quickJvm({ poms: [pom, { name: 'pom.xml', text: '<project/>' }], args: ['verify'] });
    expect(result.argLine).toBeUndefined();
    expect(result.forkFlagsInPoms).toEqual({ poms: ['core/pom.xml'], flags: ['-XX:+UseSerialGC', '-Xshare:auto'] });
    expect(result.added).toContain('argLine of core/pom.xml -XX:+UseSerialGC -Xshare:auto');
    // A collector named anywhere (an \${argLine} may carry it): no second collector.
    expect(quickJvm({ poms: [pom], args: ['-DargLine=-XX:+UseG1GC', 'verify'] }).forkFlagsInPoms?.flags).toEqual([
      '-Xshare:auto',
    ]);
    expect(
      quickJvm({ poms: [{ name: 'pom.xml', text: '<argLine>-XX:+UseParallelGC -Xshare:off</argLine>' }], args: [] })
        .forkFlagsInPoms,
    ).toBeUndefined();
    // Only named poms are edited; an argLine only on the command line leaves the poms alone.
    expect(quickJvm({ poms: [pom.text], args: [] }).forkFlagsInPoms).toBeUndefined();
    expect(
      quickJvm({ poms: [{ name: 'pom.xml', text: '<project/>' }], args: ['-DargLine=-ea'] }).forkFlagsInPoms,
    ).toBeUndefined();
  });

  it('writes the flags into every <argLine> element outside comments, once', () => {
    const pom = [
      '<properties><argLine>-Xmx1g</argLine></properties>',
      '<!-- <argLine>-old</argLine> -->',
      '<configuration><argLine>@{argLine} -Xss640k -XX:+UseSerialGC</argLine></configuration>',
      '<configuration><argLine/></configuration>',
      '<configuration><argLine><![CDATA[-Dx=<y>]]></argLine></configuration>',
    ].join('\n');
    const once = appendArgLineFlags(pom, QUICK_JVM_FLAGS);
    expect(once.split('\n')).toEqual([
      '<properties><argLine>-Xmx1g -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto</argLine></properties>',
      '<!-- <argLine>-old</argLine> -->',
      '<configuration><argLine>@{argLine} -Xss640k -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto</argLine></configuration>',
      '<configuration><argLine>-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto</argLine></configuration>',
      '<configuration><argLine><![CDATA[-Dx=<y>]]></argLine></configuration>',
    ]);
    expect(appendArgLineFlags(once, QUICK_JVM_FLAGS)).toBe(once);
  });
});
