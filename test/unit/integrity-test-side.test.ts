/**
 * Where the test side is (test-side.ts, test-side-read.ts), through the same entry the engine
 * uses: the test side read from the poms goes into checkTestIntegrity, and an edit of a file on
 * it while tests fail must be refused, its reason naming the file and what part of the test
 * side it is; a file of main code must not be. Written from the survivors of the mutation run
 * (stryker/integrity-test-side.config.mjs).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkTestIntegrity, testWeakeningReason } from '../../src/repair/integrity/index.js';
import { readTestSide } from '../../src/repair/integrity/test-side-read.js';
import { testSideOf, testSideRootOf, type ModulePom, type TestSide } from '../../src/repair/integrity/test-side.js';

const pom = (body: string, artifactId?: string, groupId = '<groupId>com.acme</groupId>') =>
  `<project><modelVersion>4.0.0</modelVersion>${groupId}${artifactId === undefined ? '' : `<artifactId>${artifactId}</artifactId>`}<version>1</version>${body}</project>`;
const dependency = (artifactId: string, extra = '', groupId = 'com.acme') =>
  `<dependency><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId><version>1</version>${extra}</dependency>`;
const FAILING = [{ className: 'com.acme.AppTest', method: 'works' }];

/** The reason an edit of `file` gets while tests fail, or undefined when it is not refused. */
function refusal(side: TestSide, file: string): string | undefined {
  const verdict = checkTestIntegrity({
    changeSet: { files: [{ path: file, before: 'expected = 1\n', after: 'expected = 2\n' }] },
    failingTests: FAILING,
    policy: { allowFailingTestEdits: false },
    testSide: side,
  });
  return verdict.blocking.length === 0 ? undefined : testWeakeningReason(verdict.blocking);
}
const refused = (file: string, what: string) =>
  `test-weakening: changed ${file} (${what}): line 1: \`expected = 1\` became \`expected = 2\`; the test side is read-only while tests fail: fix the code under test instead`;

describe('the conventional test folders, whatever the poms say', () => {
  const none: TestSide = { roots: [] };
  it.each([
    ['src/test/resources/app.properties', 'test sources and resources'],
    ['core/src/it/resources/expected.json', 'test sources and resources'],
    ['core/src/integration-test/resources/data.csv', 'test sources and resources'],
    ['lib/src/testFixtures/java/Fake.java', 'test fixtures'],
    ['lib/src/test-fixtures/java/Fake.java', 'test fixtures'],
    ['lib/src/testfixtures/java/Fake.java', 'test fixtures'],
  ])('%s is %s', (file, what) => {
    expect(refusal(none, file)).toBe(refused(file, what));
  });

  it.each([
    'src/main/java/com/acme/App.java',
    'src/testing/App.java',
    'mysrc/test/App.java',
    'src/test',
    'docs/src/tests/x.md',
  ])('%s is not', (file) => {
    expect(refusal(none, file)).toBeUndefined();
  });

  it('names the folder up to the conventional root', () => {
    expect(testSideRootOf(none, 'a/b/src/integration-test/java/X.java')).toEqual({
      dir: 'a/b/src/integration-test',
      what: 'test sources and resources',
    });
    expect(testSideRootOf(none, 'src/test-fixtures/X.java')).toEqual({
      dir: 'src/test-fixtures',
      what: 'test fixtures',
    });
  });
});

describe('the roots the poms declare', () => {
  it('the most specific root names a file, whatever order the roots come in', () => {
    const side: TestSide = {
      roots: [
        { dir: 'fixtures', what: 'test-support module fixtures (app uses it only in test scope)' },
        { dir: 'fixtures/spec', what: 'test sources of module fixtures' },
        { dir: 'fixtures/spec/data', what: 'test resources of module fixtures' },
      ],
    };
    expect(refusal(side, 'fixtures/spec/data/a.txt')).toBe(
      refused('fixtures/spec/data/a.txt', 'test resources of module fixtures'),
    );
    expect(refusal(side, 'fixtures/spec/A.java')).toBe(
      refused('fixtures/spec/A.java', 'test sources of module fixtures'),
    );
    expect(refusal(side, 'fixtures/src/main/java/Fake.java')).toBe(
      refused('fixtures/src/main/java/Fake.java', 'test-support module fixtures (app uses it only in test scope)'),
    );
    // A declared root is a folder: a sibling whose name starts the same is not in it.
    expect(refusal(side, 'fixtures-extra/Fake.java')).toBeUndefined();
    expect(testSideRootOf(side, 'fixtures')?.dir).toBe('fixtures');
  });

  it('a declared root comes before the conventional name of the same file', () => {
    const side: TestSide = { roots: [{ dir: 'core/src/test', what: 'test sources of module core' }] };
    expect(testSideRootOf(side, 'core/src/test/java/A.java')).toEqual({
      dir: 'core/src/test',
      what: 'test sources of module core',
    });
  });

  it('each declaration, in the root pom and a profile, with the module named by its artifactId, its folder, or as the root project', () => {
    const poms: ModulePom[] = [
      {
        dir: '',
        text: pom(
          `<build><testSourceDirectory>checks</testSourceDirectory></build>
           <profiles><profile><id>a</id><build><testResources><testResource><directory>  golden  </directory></testResource><testResource><directory>   </directory></testResource></testResources></build></profile></profiles>`,
          undefined,
        ),
      },
      {
        dir: 'core',
        text: pom('<build><testSourceDirectory>${project.basedir}/spec</testSourceDirectory></build>', undefined, ''),
      },
      {
        dir: 'web',
        text: pom(
          `<build><plugins><plugin><artifactId>build-helper-maven-plugin</artifactId><executions>
             <execution><goals><goal>add-test-source</goal></goals><configuration><sources><source>\${basedir}/src/contract</source><source>  </source></sources></configuration></execution>
             <execution><goals><goal>add-source</goal></goals><configuration><sources><source>src/generated</source></sources></configuration></execution>
             <execution><goals><goal>add-test-resource</goal></goals></execution>
             <execution><goals><goal>add-resource</goal></goals><configuration><resources><resource><directory>static</directory></resource></resources></configuration></execution>
           </executions></plugin>
           <plugin><artifactId>maven-compiler-plugin</artifactId><executions>
             <execution><goals><goal>compile</goal></goals><configuration><compileSourceRoots><compileSourceRoot>src/extra</compileSourceRoot></compileSourceRoots></configuration></execution>
           </executions></plugin></plugins></build>`,
          'web',
        ),
      },
    ];
    expect(testSideOf(poms).roots).toEqual([
      { dir: 'checks', what: 'test sources of module the root project' },
      { dir: 'golden', what: 'test resources of module the root project' },
      { dir: 'core/spec', what: 'test sources of module core' },
      { dir: 'web/src/contract', what: 'test sources of module web' },
    ]);
  });

  it('executions without goals, without sources or without roots add nothing and break nothing', () => {
    const executions = [
      '<execution><id>a</id><configuration><sources><source>src/a</source></sources></configuration></execution>',
      '<execution><id>b</id><goals><goal>add-test-source</goal></goals><configuration><skip>true</skip></configuration></execution>',
      '<execution><id>c</id><goals><goal>add-test-resource</goal></goals><configuration><skip>true</skip></configuration></execution>',
      '<execution><id>d</id><goals><goal>testCompile</goal></goals><configuration><release>17</release></configuration></execution>',
      '<execution><id>e</id><goals><goal>add-test-source</goal></goals><configuration><sources><source>src/e</source></sources></configuration></execution>',
    ].join('');
    const poms: ModulePom[] = [
      {
        dir: 'web',
        text: pom(
          `<build><plugins><plugin><artifactId>build-helper-maven-plugin</artifactId><executions>${executions}</executions></plugin></plugins></build>`,
          'web',
        ),
      },
    ];
    expect(testSideOf(poms).roots).toEqual([{ dir: 'web/src/e', what: 'test sources of module web' }]);
  });

  it('${project.basedir} alone makes the whole module test side', () => {
    expect(
      testSideOf([
        {
          dir: 'core',
          text: pom('<build><testSourceDirectory>${project.basedir}</testSourceDirectory></build>', 'core'),
        },
      ]).roots,
    ).toEqual([{ dir: 'core', what: 'test sources of module core' }]);
  });

  it('a folder named twice is one root, named by the first declaration', () => {
    const poms: ModulePom[] = [
      {
        dir: 'core',
        text: pom(
          '<build><testSourceDirectory>spec</testSourceDirectory><testResources><testResource><directory>spec</directory></testResource></testResources></build>',
          'core',
        ),
      },
    ];
    expect(testSideOf(poms).roots).toEqual([{ dir: 'core/spec', what: 'test sources of module core' }]);
  });

  it.each([
    ['an absolute folder', '/opt/tests'],
    ['a Windows drive', 'C:/tests'],
    ['a folder outside the project', '../../shared-tests'],
    ['the project root itself', '.'],
    ['a property it cannot resolve', '${tests.dir}/java'],
  ])('%s is left out', (_name, folder) => {
    expect(
      testSideOf([{ dir: '', text: pom(`<build><testSourceDirectory>${folder}</testSourceDirectory></build>`, 'app') }])
        .roots,
    ).toEqual([]);
  });

  it('back slashes, a resolvable property, trailing slashes and a module folder are read as one project folder', () => {
    const poms: ModulePom[] = [
      {
        dir: 'core',
        text: pom(
          '<properties><tests>spec</tests></properties><build><testSourceDirectory>${project.basedir}\\${tests}\\java//</testSourceDirectory></build>',
          'core',
        ),
      },
      { dir: '', text: pom('<build><testSourceDirectory>./core/../checks/</testSourceDirectory></build>', 'root') },
    ];
    expect(testSideOf(poms).roots.map((root) => root.dir)).toEqual(['core/spec/java', 'checks']);
  });
});

describe('test-support modules', () => {
  const module = (dir: string, artifactId: string, dependencies = '', groupId = '<groupId>com.acme</groupId>') => ({
    dir,
    text: pom(dependencies ? `<dependencies>${dependencies}</dependencies>` : '', artifactId, groupId),
  });

  it('one user: "uses"; two: "use", each named once', () => {
    expect(
      testSideOf([module('kit', 'kit'), module('a', 'a', dependency('kit', '<scope>test</scope>'))]).roots,
    ).toEqual([{ dir: 'kit', what: 'test-support module kit (a uses it only in test scope)' }]);
    expect(
      testSideOf([
        module('kit', 'kit'),
        module(
          'a',
          'a',
          dependency('kit', '<scope>test</scope>') + dependency('kit', '<scope>test</scope><classifier>x</classifier>'),
        ),
        module('b', 'b', dependency('kit', '<scope>test</scope>')),
      ]).roots,
    ).toEqual([{ dir: 'kit', what: 'test-support module kit (a, b use it only in test scope)' }]);
  });

  it('its groupId from its parent when it has none', () => {
    const kit = {
      dir: 'kit',
      text: pom(
        '<parent><groupId>com.acme</groupId><artifactId>parent</artifactId><version>1</version></parent>',
        'kit',
        '',
      ),
    };
    expect(testSideOf([kit, module('a', 'a', dependency('kit', '<scope>test</scope>'))]).roots).toEqual([
      { dir: 'kit', what: 'test-support module kit (a uses it only in test scope)' },
    ]);
    // The parent's groupId is the module's: a compile-scope use of org.other:kit is another artifact.
    expect(
      testSideOf([
        kit,
        module('a', 'a', dependency('kit', '<scope>test</scope>')),
        module('b', 'b', dependency('kit', '', 'org.other')),
      ]).roots,
    ).toEqual([{ dir: 'kit', what: 'test-support module kit (a uses it only in test scope)' }]);
  });

  it('a dependency with the same artifactId from another groupId is not a use of the module', () => {
    expect(
      testSideOf([module('kit', 'kit'), module('a', 'a', dependency('kit', '<scope>test</scope>', 'org.other'))]).roots,
    ).toEqual([]);
    // Nor does a compile-scope use from another groupId stop the module from being test-support.
    expect(
      testSideOf([
        module('kit', 'kit'),
        module('a', 'a', dependency('kit', '<scope>test</scope>')),
        module('b', 'b', dependency('kit', '', 'org.other')),
      ]).roots,
    ).toEqual([{ dir: 'kit', what: 'test-support module kit (a uses it only in test scope)' }]);
  });

  it('a module without groupId anywhere is matched by artifactId alone', () => {
    const side = testSideOf([
      module('kit', 'kit', '', ''),
      module('a', 'a', dependency('kit', '<scope>test</scope>', 'org.any')),
    ]);
    expect(side.roots).toEqual([{ dir: 'kit', what: 'test-support module kit (a uses it only in test scope)' }]);
  });

  it('not: a module nobody uses, the root project, a module without artifactId, one whose only use is its own', () => {
    expect(testSideOf([module('kit', 'kit')]).roots).toEqual([]);
    expect(testSideOf([module('', 'root'), module('a', 'a', dependency('root', '<scope>test</scope>'))]).roots).toEqual(
      [],
    );
    expect(
      testSideOf([{ dir: 'kit', text: pom('') }, module('a', 'a', dependency('kit', '<scope>test</scope>'))]).roots,
    ).toEqual([]);
    expect(testSideOf([module('kit', 'kit', dependency('kit', '<scope>test</scope>'))]).roots).toEqual([]);
  });

  it('refused while tests fail: an edit of its main code, named as a test-support module', () => {
    const side = testSideOf([module('kit', 'kit'), module('a', 'a', dependency('kit', '<scope>test</scope>'))]);
    expect(refusal(side, 'kit/src/main/java/com/acme/kit/Tolerance.java')).toBe(
      refused(
        'kit/src/main/java/com/acme/kit/Tolerance.java',
        'test-support module kit (a uses it only in test scope)',
      ),
    );
  });
});

describe('the poms read from disk', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  /** The project is `proj/` of a private folder, so a module path may point outside it (`../outside`). */
  async function project(files: Record<string, string>): Promise<string> {
    const parent = await mkdtemp(path.join(tmpdir(), 'mvnx-test-side-'));
    dirs.push(parent);
    const root = path.join(parent, 'proj');
    await mkdir(root);
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), text);
    }
    return root;
  }

  it('follows <modules> (back slashes, a trailing pom.xml or slash, a nested module, profiles), each pom once, and skips what is outside or unresolvable', async () => {
    const root = await project({
      'pom.xml': pom(
        '<packaging>pom</packaging><modules><module>tools\\deep</module><module>core\\</module><module>web/pom.xml</module><module>../outside</module><module>${gen}</module><module>alt.xml</module><module>core</module></modules><profiles><profile><id>x</id><modules><module>./tools</module></modules></profile></profiles>',
        'parent',
      ),
      'core/pom.xml': pom(
        '<build><testSourceDirectory>spec</testSourceDirectory></build><modules><module>inner</module><module>sub\\leaf</module></modules>',
        'core',
      ),
      'core/sub/leaf/pom.xml': pom('<build><testSourceDirectory>leaf-tests</testSourceDirectory></build>', 'leaf'),
      'tools/deep/pom.xml': pom('<build><testSourceDirectory>deep-tests</testSourceDirectory></build>', 'deep'),
      'core/inner/pom.xml': pom('<build><testSourceDirectory>checks</testSourceDirectory></build>', 'inner'),
      'web/pom.xml': pom('<build><testSourceDirectory>web-tests</testSourceDirectory></build>', 'web'),
      'tools/pom.xml': pom('<build><testSourceDirectory>tool-tests</testSourceDirectory></build>', 'tools'),
      'alt.xml/pom.xml': pom('<build><testSourceDirectory>never</testSourceDirectory></build>', 'alt'),
      '../outside/pom.xml': pom('<build><testSourceDirectory>never</testSourceDirectory></build>', 'outside'),
      '${gen}/pom.xml': pom('<build><testSourceDirectory>never</testSourceDirectory></build>', 'gen'),
    });
    const side = await readTestSide(root);
    expect(side.roots.map((r) => `${r.dir}: ${r.what}`)).toEqual([
      'tools/deep/deep-tests: test sources of module deep',
      'core/spec: test sources of module core',
      'core/inner/checks: test sources of module inner',
      'core/sub/leaf/leaf-tests: test sources of module leaf',
      'web/web-tests: test sources of module web',
      'tools/tool-tests: test sources of module tools',
    ]);
  });

  it('a module whose pom is missing or does not parse adds nothing and stops nothing', async () => {
    const root = await project({
      'pom.xml': pom('<modules><module>gone</module><module>broken</module><module>ok</module></modules>', 'parent'),
      'broken/pom.xml': '<project><artifactId>broken',
      'ok/pom.xml': pom('<build><testSourceDirectory>t</testSourceDirectory></build>', 'ok'),
    });
    expect((await readTestSide(root)).roots).toEqual([{ dir: 'ok/t', what: 'test sources of module ok' }]);
  });

  it('a folder without a pom: the conventional folders only', async () => {
    const root = await project({ 'README.md': 'no pom' });
    expect(await readTestSide(root)).toEqual({ roots: [] });
  });

  it('the root named again as a module is read once: its uses are counted once', async () => {
    const root = await project({
      'pom.xml': pom(
        `<modules><module>.</module><module>./</module><module>kit</module></modules><dependencies>${dependency('kit', '<scope>test</scope>')}</dependencies>`,
        'parent',
      ),
      'kit/pom.xml': pom('', 'kit'),
    });
    expect((await readTestSide(root)).roots).toEqual([
      { dir: 'kit', what: 'test-support module kit (parent uses it only in test scope)' },
    ]);
  });

  it('follows modules 32 levels down and no further', async () => {
    const files: Record<string, string> = { 'pom.xml': pom('<modules><module>m1</module></modules>', 'root') };
    let dir = '';
    for (let level = 1; level <= 35; level++) {
      dir = `${dir}m${level}/`;
      files[`${dir}pom.xml`] = pom(
        `<build><testSourceDirectory>t</testSourceDirectory></build><modules><module>m${level + 1}</module></modules>`,
        `m${level}`,
      );
    }
    const roots = (await readTestSide(await project(files))).roots;
    expect(roots).toHaveLength(32);
    expect(roots.at(-1)!.what).toBe('test sources of module m32');
  });

  it('a reactor that names itself stops after one visit', async () => {
    const root = await project({
      'pom.xml': pom('<modules><module>.</module><module>a</module></modules>', 'self'),
      'a/pom.xml': pom('<modules><module>..</module><module>../a</module></modules>', 'a'),
    });
    const side = await readTestSide(root);
    expect(side).toEqual({ roots: [] });
  });
});
