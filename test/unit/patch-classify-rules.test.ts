import { describe, expect, it } from 'vitest';
import {
  changedLineTexts,
  classify,
  classifyFile,
  countChangedLines,
  isPlacementProblem,
  pathKind,
  PATCH_PROBLEM_CODES,
} from '../../src/patch/index.js';
import { addedBuildTimeCode, addsDependency, changesPlugins, isPom, readPom } from '../../src/patch/classify-pom.js';
import { problem } from '../../src/patch/problems.js';

// classify.ts, classify-pom.ts and problems.ts: change types by path and content, POM facts
// read as XML, and the reason codes.

const pom = (body = '', head = '<modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>app</artifactId>') =>
  `<project>${head}${body}</project>\n`;
const dep = (artifactId: string, extra = '') =>
  `<dependency><groupId>org.acme</groupId><artifactId>${artifactId}</artifactId>${extra}</dependency>`;
const deps = (...items: string[]) => `<dependencies>${items.join('')}</dependencies>`;

describe('pathKind', () => {
  it.each([
    ['pom.xml', 'edit-build-file'],
    ['a/b/pom.xml', 'edit-build-file'],
    ['src/main/java/A.java', 'edit-main-source'],
    ['x/src/main/java/A.java', 'edit-main-source'],
    ['src/main/kotlin/A.kt', 'edit-other'],
    ['src/test/java/ATest.java', 'edit-test-source'],
    ['src/test/kotlin/ATest.kt', 'edit-test-source'],
    ['src/main/resources/a.properties', 'edit-resource'],
    ['src/test/resources/a/b.json', 'edit-resource'],
    ['src/main/resources', 'edit-other'],
    ['src/test/resources', 'edit-test-source'],
    ['src/main', 'edit-other'],
    ['src/test', 'edit-other'],
    ['main/java/A.java', 'edit-other'],
    ['lib/main/java/A.java', 'edit-other'],
    ['src/it/java/A.java', 'edit-other'],
    ['srcs/main/java/A.java', 'edit-other'],
    ['docs/src/main/java/A.java', 'edit-main-source'],
    ['README.md', 'edit-other'],
    ['pom.xml.bak', 'edit-other'],
  ])('%s is %s', (path, kind) => {
    expect(pathKind(path)).toBe(kind);
  });
});

describe('classifyFile', () => {
  it("adds the old path's kind to a rename", () => {
    expect(classifyFile({ path: 'docs/A.java', oldPath: 'src/test/java/A.java', before: 'a\n', after: 'a\n' })).toEqual(
      ['edit-other', 'rename', 'edit-test-source'],
    );
  });

  it('sees binary content by its NUL byte on either side', () => {
    expect(classifyFile({ path: 'a.bin', before: 'a\0', after: 'b' })).toContain('binary');
    expect(classifyFile({ path: 'a.bin', before: 'a', after: 'b\0' })).toContain('binary');
    expect(classifyFile({ path: 'a.bin', before: null, after: 'b' })).not.toContain('binary');
    expect(classifyFile({ path: 'a.bin', before: 'a', after: null })).not.toContain('binary');
  });

  it('calls a mode change one only when both sides exist and the mode differs, or a new file is not 100644', () => {
    expect(classifyFile({ path: 'r.sh', before: 'a', after: 'a', oldMode: '100644', newMode: '100755' })).toEqual([
      'edit-other',
      'mode-change',
    ]);
    expect(classifyFile({ path: 'r.sh', before: 'a', after: 'a', newMode: '100755' })).toEqual([
      'edit-other',
      'mode-change',
    ]);
    expect(classifyFile({ path: 'r.sh', before: 'a', after: 'b', oldMode: '100755', newMode: '100755' })).toEqual([
      'edit-other',
    ]);
    expect(classifyFile({ path: 'r.sh', before: 'a', after: null, oldMode: '100755', newMode: '100644' })).toEqual([
      'edit-other',
      'delete-file',
    ]);
    expect(classifyFile({ path: 'r.sh', before: null, after: 'a', newMode: '100755' })).toEqual([
      'edit-other',
      'add-file',
      'mode-change',
    ]);
    expect(classifyFile({ path: 'r.sh', before: null, after: 'a', newMode: '100644' })).toEqual([
      'edit-other',
      'add-file',
    ]);
    expect(classifyFile({ path: 'r.sh', before: null, after: 'a' })).toEqual(['edit-other', 'add-file']);
    expect(classifyFile({ path: 'r.sh', before: 'a', after: 'b', oldMode: '100755' })).toEqual(['edit-other']);
  });

  it('calls any XML or .pom file whose content is a POM a build file, and reads its dependencies', () => {
    expect(classifyFile({ path: 'ci/release.xml', before: pom(), after: pom(deps(dep('new'))) })).toEqual([
      'edit-other',
      'edit-build-file',
      'add-dependency',
    ]);
    expect(classifyFile({ path: 'dist/app.POM', before: null, after: pom() })).toEqual([
      'edit-other',
      'add-file',
      'edit-build-file',
    ]);
    expect(classifyFile({ path: 'ci/gone.xml', before: pom(), after: null })).toEqual([
      'edit-other',
      'delete-file',
      'edit-build-file',
    ]);
    expect(classifyFile({ path: 'ci/other.xml', before: '<config/>', after: '<config><a/></config>' })).toEqual([
      'edit-other',
    ]);
    expect(classifyFile({ path: 'ci/release.txt', before: pom(), after: pom(deps(dep('new'))) })).toEqual([
      'edit-other',
    ]);
    expect(classifyFile({ path: 'ci/release.xml.bak', before: pom(), after: pom(deps(dep('new'))) })).toEqual([
      'edit-other',
    ]);
  });

  it('never reads a binary change as a POM, and a pom.xml is a build file whatever it holds', () => {
    expect(classifyFile({ path: 'ci/release.xml', before: pom(), after: pom(deps(dep('new'))), binary: true })).toEqual(
      ['edit-other', 'binary'],
    );
    expect(classifyFile({ path: 'pom.xml', before: pom(), after: pom(deps(dep('new'))), binary: true })).toEqual([
      'edit-build-file',
      'binary',
    ]);
  });
});

describe('classify and changed lines', () => {
  it('sorts every type once', () => {
    expect(
      classify({
        files: [
          { path: 'b.txt', before: 'a', after: 'b' },
          { path: 'a.txt', before: null, after: 'b' },
        ],
      }),
    ).toEqual(['add-file', 'edit-other']);
    expect(classify({ files: [] })).toEqual([]);
  });

  it('lists added and removed lines without CR, none for a binary change, across files', () => {
    const cs = {
      files: [
        { path: 'a', before: 'x\r\ny\r\n', after: 'x\r\nY\r\n' },
        { path: 'b', before: 'p\n', after: null },
        { path: 'i.png', before: 'a', after: 'b', binary: true },
      ],
    };
    expect(changedLineTexts(cs)).toEqual({ added: ['Y'], removed: ['y', 'p'] });
    expect(countChangedLines(cs)).toEqual({ added: 1, removed: 2, files: 3 });
  });

  it('keeps a CR inside a line, and never counts a "\\ No newline at end of file" marker as a line', () => {
    expect(changedLineTexts({ files: [{ path: 'a', before: 'x\n', after: 'x\na\rb\n' }] })).toEqual({
      added: ['a\rb'],
      removed: [],
    });
    expect(changedLineTexts({ files: [{ path: 'a', before: 'p\rq\n', after: '' }] })).toEqual({
      added: [],
      removed: ['p\rq'],
    });
    expect(changedLineTexts({ files: [{ path: 'a', before: 'a', after: 'b' }] })).toEqual({
      added: ['b'],
      removed: ['a'],
    });
  });
});

describe('readPom and isPom', () => {
  it('reads a POM only with a <project> root that has a modelVersion or an artifactId', () => {
    expect(isPom(pom())).toBe(true);
    expect(isPom('<project><modelVersion>4.0.0</modelVersion></project>')).toBe(true);
    expect(isPom('<project><artifactId>a</artifactId></project>')).toBe(true);
    expect(isPom('<project><name>x</name></project>')).toBe(false);
    expect(isPom('<settings><artifactId>a</artifactId></settings>')).toBe(false);
    expect(isPom('<project><artifactId>a</artifactId>')).toBe(false);
    expect(isPom(null)).toBe(false);
  });

  it('resolves properties in coordinates, and keys dependencies, parents and plugin dependencies by kind', () => {
    const text = pom(
      `<properties><v>1.2</v></properties><parent><groupId>p</groupId><artifactId>parent</artifactId><version>3</version></parent>${deps(dep('lib', '<version>${v}</version><scope>test</scope>'))}<build><plugins><plugin><groupId>org.x</groupId><artifactId>x-plugin</artifactId><version>\${v}</version><dependencies>${dep('inner')}</dependencies></plugin></plugins><extensions><extension><groupId>e</groupId><artifactId>ext</artifactId><version>1</version></extension></extensions></build>`,
    );
    const facts = readPom(text)!;
    expect([...facts.dependencies].sort()).toEqual([
      'dependency:org.acme:inner:::::::',
      'dependency:org.acme:lib:1.2:::test:::',
      'parent:p:parent:3::::::',
    ]);
    expect([...facts.plugins].sort()).toEqual(['e:ext:1', 'org.x:x-plugin:1.2']);
  });

  it("makes the exclusions part of a dependency's identity", () => {
    const facts = readPom(
      pom(
        deps(
          dep('lib', '<exclusions><exclusion><groupId>x</groupId><artifactId>y</artifactId></exclusion></exclusions>'),
        ),
      ),
    )!;
    expect([...facts.dependencies]).toEqual([
      'dependency:org.acme:lib:::::::{"exclusion":[{"groupId":"x","artifactId":"y"}]}',
    ]);
  });

  it('reads every dependency of a list, nested anywhere in the project', () => {
    const facts = readPom(
      pom(`<profiles><profile><dependencies>${dep('a')}${dep('b')}</dependencies></profile></profiles>`),
    )!;
    expect(facts.dependencies.size).toBe(2);
  });
});

describe('addsDependency', () => {
  it('is true for a new dependency, a changed coordinate or a dropped exclusion; false for a removal or other edits', () => {
    const before = pom(
      deps(dep('a', '<version>1</version><exclusions><exclusion><artifactId>z</artifactId></exclusion></exclusions>')),
    );
    expect(
      addsDependency(
        before,
        pom(
          deps(
            dep('a', '<version>1</version><exclusions><exclusion><artifactId>z</artifactId></exclusion></exclusions>'),
            dep('b'),
          ),
        ),
      ),
    ).toBe(true);
    expect(
      addsDependency(
        before,
        pom(
          deps(
            dep('a', '<version>2</version><exclusions><exclusion><artifactId>z</artifactId></exclusion></exclusions>'),
          ),
        ),
      ),
    ).toBe(true);
    expect(addsDependency(before, pom(deps(dep('a', '<version>1</version>'))))).toBe(true);
    expect(addsDependency(before, pom())).toBe(false);
    expect(addsDependency(before, before.replace('<project>', '<project><name>renamed</name>'))).toBe(false);
    expect(addsDependency(before, null)).toBe(false);
  });

  it('counts every dependency of a new POM, or of one replacing a text that was not a POM', () => {
    expect(addsDependency(null, pom(deps(dep('a'))))).toBe(true);
    expect(addsDependency(null, pom())).toBe(false);
    expect(addsDependency('not xml', pom(deps(dep('a'))))).toBe(true);
  });

  it('counts a POM that does not parse as adding one when it mentions a dependency or parent outside comments', () => {
    expect(addsDependency(pom(), '<project><dependency>')).toBe(true);
    expect(addsDependency(pom(), '<project><parent >')).toBe(true);
    expect(addsDependency(pom(), '<project><!-- <dependency> -->\n<dependencies-note>')).toBe(false);
    expect(addsDependency(pom(), '<project><dependencyManagement-ish>')).toBe(false);
  });
});

describe('changesPlugins', () => {
  it('is true for a plugin or extension added or re-versioned, false otherwise', () => {
    const plugin = (version: string) =>
      pom(
        `<build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId><version>${version}</version></plugin></plugins></build>`,
      );
    expect(changesPlugins(plugin('3.2.5'), plugin('3.2.5'))).toBe(false);
    expect(changesPlugins(plugin('3.2.5'), plugin('3.5.0'))).toBe(true);
    expect(changesPlugins(pom(), plugin('3.2.5'))).toBe(true);
    expect(changesPlugins(null, plugin('3.2.5'))).toBe(true);
    expect(changesPlugins(plugin('3.2.5'), pom())).toBe(false);
    expect(changesPlugins(plugin('3.2.5'), null)).toBe(false);
    expect(changesPlugins(plugin('3.2.5'), 'not xml')).toBe(false);
  });
});

describe('addedBuildTimeCode', () => {
  const build = (plugins: string) => pom(`<build><plugins>${plugins}</plugins></build>`);
  const plugin = (artifactId: string, inner = '') => `<plugin><artifactId>${artifactId}</artifactId>${inner}</plugin>`;

  it.each([
    ['exec-maven-plugin'],
    ['maven-antrun-plugin'],
    ['antrun-plugin'],
    ['groovy-maven-plugin'],
    ['gmaven-plugin'],
    ['gmavenplus-plugin'],
    ['maven-scripting-plugin'],
    ['frontend-maven-plugin'],
    ['maven-invoker-plugin'],
    ['jruby-maven-plugin'],
    ['rhino-maven-plugin'],
    ['beanshell-maven-plugin'],
    ['maven-shell-plugin'],
    ['my-exec-plugin'],
    ['exec'],
    ['custom-jython'],
    ['nashorn-runner'],
    ['gmavenplus'],
  ])('names the code-running plugin %s', (artifactId) => {
    expect(addedBuildTimeCode(pom(), build(plugin(artifactId)))).toEqual([artifactId]);
  });

  it.each([
    ['maven-surefire-plugin'],
    ['executor-plugin'],
    ['maven-exec'.replace('exec', 'execution')],
    ['groovyx-plugin'],
    ['prefix-frontend-maven-plugin-x'],
  ])('leaves %s alone', (artifactId) => {
    expect(addedBuildTimeCode(pom(), build(plugin(artifactId)))).toEqual([]);
  });

  it('counts a changed execution or configuration of a declared one, not an unchanged one or a removal', () => {
    const before = build(plugin('exec-maven-plugin', '<configuration><executable>true</executable></configuration>'));
    expect(addedBuildTimeCode(before, before.replace('<name>', '<name>'))).toEqual([]);
    expect(addedBuildTimeCode(before, before.replace('<executable>true', '<executable>rm'))).toEqual([
      'exec-maven-plugin',
    ]);
    expect(addedBuildTimeCode(before, pom())).toEqual([]);
    expect(addedBuildTimeCode(before, null)).toEqual([]);
    expect(addedBuildTimeCode(null, before)).toEqual(['exec-maven-plugin']);
  });

  it('finds a declaration in pluginManagement and profiles, trims the artifactId, and names each plugin once', () => {
    const text = pom(
      `<build><pluginManagement><plugins>${plugin(' exec-maven-plugin ')}</plugins></pluginManagement></build><profiles><profile><build><plugins>${plugin('exec-maven-plugin', '<version>3</version>')}${plugin('maven-antrun-plugin')}</plugins></build></profile></profiles>`,
    );
    expect(addedBuildTimeCode(pom(), text)).toEqual(['exec-maven-plugin', 'maven-antrun-plugin']);
  });

  it('counts a new declaration of a plugin already declared elsewhere, and only the plugin that was added', () => {
    const managed = pom(
      `<build><pluginManagement><plugins>${plugin('exec-maven-plugin')}</plugins></pluginManagement></build>`,
    );
    const alsoInProfile = managed.replace(
      '</project>',
      `<profiles><profile><build><plugins>${plugin('exec-maven-plugin', '<version>3</version>')}</plugins></build></profile></profiles></project>`,
    );
    expect(addedBuildTimeCode(managed, alsoInProfile)).toEqual(['exec-maven-plugin']);
    const broken = (names: string[]) => `<project><build>${names.map((n) => `<artifactId>${n}</artifactId>`).join('')}`;
    expect(
      addedBuildTimeCode(broken(['exec-maven-plugin']), broken(['exec-maven-plugin', 'maven-antrun-plugin'])),
    ).toEqual(['maven-antrun-plugin']);
  });

  it('ignores a code-running artifactId that is a dependency, not a plugin', () => {
    expect(addedBuildTimeCode(pom(), pom(deps(dep('exec-maven-plugin'))))).toEqual([]);
  });

  it('counts names in a POM that does not parse, outside comments, when there are more than before', () => {
    const broken = (names: string[]) =>
      `<project><build>${names.map((n) => `<artifactId> ${n} </artifactId>`).join('')}`;
    expect(addedBuildTimeCode(broken(['exec-maven-plugin']), broken(['exec-maven-plugin']))).toEqual([]);
    expect(
      addedBuildTimeCode(
        broken(['exec-maven-plugin']),
        broken(['exec-maven-plugin', 'exec-maven-plugin', 'maven-antrun-plugin']),
      ),
    ).toEqual(['exec-maven-plugin', 'maven-antrun-plugin']);
    expect(addedBuildTimeCode(null, broken(['maven-surefire-plugin']))).toEqual([]);
    expect(addedBuildTimeCode(null, '<project><!-- <artifactId>exec-maven-plugin</artifactId> -->')).toEqual([]);
  });
});

describe('problems', () => {
  it('tells placement codes from refusals', () => {
    const placement = [
      'parse-error',
      'no-edits',
      'file-not-found',
      'file-exists',
      'hunk-not-found',
      'hunk-ambiguous',
      'hunk-overlap',
      'line-out-of-range',
    ];
    for (const code of PATCH_PROBLEM_CODES)
      expect(isPlacementProblem({ code, message: 'm' })).toBe(placement.includes(code));
  });

  it('keeps file and hunk only when given, hunk 0 included', () => {
    expect(problem('io-error', 'm')).toEqual({ code: 'io-error', message: 'm' });
    expect(problem('io-error', 'm', { file: 'f', hunk: 0 })).toEqual({
      code: 'io-error',
      message: 'm',
      file: 'f',
      hunk: 0,
    });
    expect(Object.keys(problem('io-error', 'm', { file: undefined }))).toEqual(['code', 'message']);
  });
});
