import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  moduleOfFile,
  readPomFacts,
  readReactor,
  toProjects,
  withDependencies,
  withDependents,
  type ReactorGraph,
} from '../../src/maven/reactor.js';

const pom = (body: string) =>
  `<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n<modelVersion>4.0.0</modelVersion>\n${body}\n</project>\n`;
const dep = (groupId: string, artifactId: string, extra = '') =>
  `<dependency><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId>${extra}</dependency>`;

describe('readPomFacts', () => {
  it('reads coordinates, parent, properties, modules of every profile, and needs that are not managed', () => {
    const facts = readPomFacts(
      pom(`
  <parent><groupId>com.acme</groupId><artifactId>parent</artifactId><version>1</version></parent>
  <artifactId>app</artifactId>
  <packaging>jar</packaging>
  <properties><lib.group>com.acme</lib.group></properties>
  <modules><module>a</module></modules>
  <profiles><profile><id>x</id><modules><module>b</module></modules>
    <dependencies>${dep('com.acme', 'from-profile')}</dependencies></profile></profiles>
  <dependencyManagement><dependencies>
    ${dep('com.acme', 'managed-only')}
    ${dep('com.acme', 'bom', '<type>pom</type><scope>import</scope>')}
  </dependencies></dependencyManagement>
  <dependencies>${dep('${lib.group}', 'core')}${dep('com.acme', 'testkit', '<scope>test</scope>')}</dependencies>
  <build>
    <pluginManagement><plugins><plugin><groupId>com.acme</groupId><artifactId>managed-plugin</artifactId></plugin></plugins></pluginManagement>
    <plugins><plugin><groupId>com.acme</groupId><artifactId>own-plugin</artifactId>
      <dependencies>${dep('com.acme', 'plugin-dep')}</dependencies></plugin></plugins>
    <extensions><extension><groupId>com.acme</groupId><artifactId>ext</artifactId></extension></extensions>
  </build>`),
    );
    expect(facts).toMatchObject({
      artifactId: 'app',
      packaging: 'jar',
      parent: { groupId: 'com.acme', artifactId: 'parent' },
      modules: ['a', 'b'],
      properties: { 'lib.group': 'com.acme' },
    });
    const names = facts.coordinates.map((c) => c.artifactId).sort();
    expect(names).toEqual(['bom', 'core', 'ext', 'from-profile', 'own-plugin', 'plugin-dep', 'testkit']);
  });

  it("a path above the module (a sibling's sources, shared resources) is noted; the parent's relativePath and ../ modules are not", () => {
    const reads = readPomFacts(
      pom(`<parent><groupId>g</groupId><artifactId>p</artifactId><relativePath>../pom.xml</relativePath></parent><artifactId>a</artifactId>
      <build><resources><resource><directory>\${project.basedir}/../shared/resources</directory></resource></resources></build>`),
    );
    expect(reads.readsOutside).toBe(true);
    const plain = readPomFacts(
      pom(`<parent><groupId>g</groupId><artifactId>p</artifactId><relativePath>../pom.xml</relativePath></parent><artifactId>a</artifactId>
      <modules><module>../sibling</module></modules><profiles><profile><modules><module>../other</module></modules></profile></profiles><description>a..b</description>`),
    );
    expect(plain.readsOutside).toBeUndefined();
    expect(toProjects([{ dir: 'a', facts: reads }])[0]?.needsUnknown).toBe(true);
  });

  it('refuses XML without a project', () => {
    expect(() => readPomFacts('<settings/>')).toThrow(/no <project>/);
  });
});

describe('reactor graph', () => {
  let root: string;
  let graph: ReactorGraph;
  const write = async (rel: string, text: string) => {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  };

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'mvnx-reactor-'));
    await write(
      'pom.xml',
      pom(`<groupId>com.acme</groupId><artifactId>parent</artifactId><packaging>pom</packaging>
      <modules><module>util</module><module>core</module><module>app</module><module>report</module><module>tools/cli</module></modules>
      <dependencyManagement><dependencies>${dep('com.acme', 'util')}${dep('com.acme', 'core')}</dependencies></dependencyManagement>`),
    );
    const child = (id: string, deps: string) =>
      pom(
        `<parent><groupId>com.acme</groupId><artifactId>parent</artifactId></parent><artifactId>${id}</artifactId><dependencies>${deps}</dependencies>`,
      );
    await write('util/pom.xml', child('util', ''));
    await write('core/pom.xml', child('core', dep('${project.groupId}', 'util')));
    await write('app/pom.xml', child('app', dep('com.acme', 'core')));
    await write('report/pom.xml', child('report', dep('com.acme', 'util', '<scope>test</scope>')));
    await write('tools/cli/pom.xml', child('cli', dep('${unknown.group}', 'whatever')));
    graph = await readReactor(root);
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('finds every module with its groupId inherited and its needs resolved', () => {
    expect(graph.problems).toEqual([]);
    expect(graph.projects.map((p) => [p.dir, p.groupId, p.artifactId, p.packaging])).toEqual([
      ['', 'com.acme', 'parent', 'pom'],
      ['util', 'com.acme', 'util', 'jar'],
      ['core', 'com.acme', 'core', 'jar'],
      ['app', 'com.acme', 'app', 'jar'],
      ['report', 'com.acme', 'report', 'jar'],
      ['tools/cli', 'com.acme', 'cli', 'jar'],
    ]);
    expect(graph.projects.find((p) => p.dir === 'core')?.needs).toContain('com.acme:util');
    // The parent's dependencyManagement is not a need of the parent, nor of its children.
    expect(graph.projects.find((p) => p.dir === '')?.needs).toEqual([]);
    expect(graph.projects.find((p) => p.dir === 'tools/cli')?.needsUnknown).toBe(true);
  });

  it('dependents: through dependencies of any scope, transitively; an unresolvable coordinate depends on everything', () => {
    expect([...withDependents(graph, ['app'])].sort()).toEqual(['app', 'tools/cli']);
    expect([...withDependents(graph, ['core'])].sort()).toEqual(['app', 'core', 'tools/cli']);
    expect([...withDependents(graph, ['util'])].sort()).toEqual(['app', 'core', 'report', 'tools/cli', 'util']);
    expect([...withDependents(graph, [])]).toEqual([]);
  });

  it('dependencies: what a module needs, transitively, with its parent; an unresolvable coordinate needs everything', () => {
    expect([...withDependencies(graph, 'app')].sort()).toEqual(['', 'core', 'util']);
    expect([...withDependencies(graph, 'report')].sort()).toEqual(['', 'util']);
    expect([...withDependencies(graph, '')]).toEqual([]);
    expect([...withDependencies(graph, 'tools/cli')].sort()).toEqual(['', 'app', 'core', 'report', 'util']);
    expect([...withDependencies(graph, 'nowhere')]).toEqual([]);
  });

  it('a child depends on its parent', () => {
    expect([...withDependents(graph, [''])].sort()).toEqual(['', 'app', 'core', 'report', 'tools/cli', 'util']);
  });

  it('maps a file to the deepest module holding it', () => {
    expect(moduleOfFile(graph, 'core/src/main/java/A.java')?.dir).toBe('core');
    expect(moduleOfFile(graph, 'tools/cli/src/X.java')?.dir).toBe('tools/cli');
    expect(moduleOfFile(graph, 'tools/README.md')?.dir).toBe('');
    expect(moduleOfFile(graph, 'coreutils/x')?.dir).toBe('');
  });

  it('an unreadable module pom is a problem, not a throw', async () => {
    await write('broken/pom.xml', 'this is no pom');
    await write('anonymous/pom.xml', pom('<packaging>jar</packaging>'));
    await write(
      'pom.xml',
      pom(
        `<groupId>com.acme</groupId><artifactId>parent</artifactId><packaging>pom</packaging><modules><module>util</module><module>broken</module><module>missing</module><module>../outside</module><module>anonymous</module></modules>`,
      ),
    );
    const partial = await readReactor(root);
    expect(partial.problems).toEqual([
      'cannot read broken/pom.xml: no <project> element',
      expect.stringMatching(/^cannot read missing\/pom\.xml: ENOENT/),
      'module ../outside of pom.xml is outside the project or named by a property',
      'the pom in anonymous has no artifactId',
    ]);
    expect(partial.projects.map((p) => p.dir)).toEqual(['', 'util', 'anonymous']);
  });

  it("properties inherited from a reactor parent resolve a child's coordinates", () => {
    const projects = toProjects([
      {
        dir: '',
        facts: { groupId: 'g', artifactId: 'p', properties: { 'x.group': 'g' }, modules: ['a'], coordinates: [] },
      },
      {
        dir: 'a',
        facts: {
          parent: { groupId: 'g', artifactId: 'p' },
          artifactId: 'a',
          properties: {},
          modules: [],
          coordinates: [{ groupId: '${x.group}', artifactId: 'b' }],
        },
      },
    ]);
    expect(projects[1]).toMatchObject({ groupId: 'g', needs: ['g:b'], needsUnknown: false, parent: 'g:p' });
  });
});
