/**
 * The build-configuration check's edges (build-config.ts), through checkTestIntegrity: each
 * setting that makes Maven or JUnit skip tests must be refused with its reason however it is
 * spelled or moved, and the look-alike that changes nothing must pass. Written from the
 * survivors of the mutation run (stryker/integrity-gate.config.mjs).
 */
import { describe, expect, it } from 'vitest';
import type { FileChange } from '../../src/patch/types.js';
import { checkTestIntegrity } from '../../src/repair/integrity/index.js';
import { changesMainJava } from '../../src/repair/integrity/oracle-inputs.js';
import { touchesTests } from '../../src/repair/integrity/scope.js';

const POM =
  '<project><modelVersion>4.0.0</modelVersion><artifactId>calc</artifactId><modules><module>core</module><module>app</module></modules><build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin></plugins></build></project>';

function findings(files: FileChange[]): string[] {
  return checkTestIntegrity({ changeSet: { files }, failingTests: [], policy: { allowFailingTestEdits: false } })
    .blocking.filter((finding) => finding.rule === 'tests-skipped-by-config')
    .map((finding) => finding.message);
}
const pomChange = (before: string | null, after: string | null, path = 'pom.xml') =>
  findings([{ path, before, after }]);

describe('.mvn/maven.config: every way of setting a property', () => {
  const config = (after: string, before = '-B\n') => findings([{ path: '.mvn/maven.config', before, after }]);

  // Found while reading the tokenizer's surviving mutants: Maven takes `--define x` and
  // `--define=x` as `-Dx`, and the check did not, so `--define skipTests=true` in
  // .mvn/maven.config passed the integrity check and the tests were skipped.
  it.each([
    ['--define skipTests=true', '-DskipTests=true'],
    ['--define=skipTests', '-DskipTests'],
    ['--define maven.test.skip', '-Dmaven.test.skip'],
    ['-D\ttest=CalcTest', '-Dtest=CalcTest'],
    ['-DskipTests=', '-DskipTests='],
  ])('%s is refused', (option, shown) => {
    expect(config(`-B\n${option}\n`)).toEqual([
      `.mvn/maven.config: adds \`${shown}\`, which skips, selects or ignores tests`,
    ]);
  });

  it.each([
    ['--define skipTests=false'],
    ['--define=foo=bar'],
    ['--define'],
    ['-B -D'],
    ['-Dfoo.skipTests=true'],
    ['--defined skipTests'],
    ['-XDskipTests'],
  ])('%s is not', (option) => {
    expect(config(`-B\n${option}\n`)).toEqual([]);
  });

  it('a property already set the same way before is not new', () => {
    expect(config('--define skipTests', '-DskipTests')).toEqual([]);
    expect(config('-DskipTests', '--define=skipTests')).toEqual([]);
  });
});

describe('pom.xml: settings told apart by where they are', () => {
  const profiles = (active: string, off: string) =>
    POM.replace(
      '</build>',
      `</build><profiles><profile><id>ci</id><properties>${active}</properties></profile><profile><id>slow</id><properties>${off}</properties></profile></profiles>`,
    );

  it('skipTests moved from one profile to another is a new setting of the second', () => {
    expect(pomChange(profiles('', '<skipTests>true</skipTests>'), profiles('<skipTests>true</skipTests>', ''))).toEqual(
      ['pom.xml: sets the property <skipTests>true</skipTests>, which skips, selects or ignores tests'],
    );
  });

  it('skip moved from one surefire execution to another is a new setting of the second', () => {
    const executions = (a: string, b: string) =>
      POM.replace(
        '<version>3.2.5</version>',
        `<version>3.2.5</version><executions><execution><id>unit</id><configuration>${a}</configuration></execution><execution><id>it</id><configuration>${b}</configuration></execution></executions>`,
      );
    expect(
      pomChange(
        executions('<skip>true</skip>', '<forkCount>1</forkCount>'),
        executions('<forkCount>1</forkCount>', '<skip>true</skip>'),
      ),
    ).toEqual([
      "pom.xml: adds <skip>true</skip> to maven-surefire-plugin's configuration, which skips or excludes tests",
    ]);
  });

  it("the plugin is named by its artifactId wherever it stands among the plugin's elements", () => {
    const late = POM.replace(
      '<plugin><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin>',
      '<plugin><version>3.2.5</version><configuration><skipTests>true</skipTests></configuration><artifactId>maven-surefire-plugin</artifactId></plugin>',
    );
    expect(pomChange(POM, late)).toEqual([
      "pom.xml: adds <skipTests>true</skipTests> to maven-surefire-plugin's configuration, which skips or excludes tests",
    ]);
  });

  it('a plugin without artifactId is no surefire', () => {
    const anonymous = POM.replace(
      '</plugins>',
      '<plugin><configuration><skipTests>true</skipTests></configuration></plugin></plugins>',
    );
    expect(pomChange(POM, anonymous)).toEqual([]);
  });

  it('an XML declaration, comments and attributes change nothing', () => {
    const decorated = `<?xml version="1.0" encoding="UTF-8"?>\n<!-- the build -->\n${POM.replace('<project>', '<project xmlns="http://maven.apache.org/POM/4.0.0">')}`;
    expect(pomChange(POM, decorated)).toEqual([]);
    expect(pomChange(decorated, decorated.replace('<module>app</module>', ''))).toEqual([
      'pom.xml: removes the module app from the build, so its tests would not run',
    ]);
  });

  it('a profile that takes a module out counts too', () => {
    const withProfile = (modules: string) =>
      POM.replace(
        '</build>',
        `</build><profiles><profile><id>fast</id><modules>${modules}</modules></profile></profiles>`,
      );
    expect(
      pomChange(withProfile('<module>core</module><module>app</module>'), withProfile('<module>core</module>')),
    ).toEqual(['pom.xml: removes the module app from the build, so its tests would not run']);
  });

  it('a deleted pom takes its modules out of the build', () => {
    expect(pomChange(POM, null)).toEqual([
      'pom.xml: removes the module core from the build, so its tests would not run',
      'pom.xml: removes the module app from the build, so its tests would not run',
    ]);
  });

  it('mixed text beside the elements of a setting does not hide it', () => {
    const mixed = POM.replace(
      '<version>3.2.5</version>',
      '<version>3.2.5</version><configuration>note<skipTests>true</skipTests></configuration>',
    );
    expect(pomChange(POM, mixed)).toEqual([
      "pom.xml: adds <skipTests>true</skipTests> to maven-surefire-plugin's configuration, which skips or excludes tests",
    ]);
  });

  it('a value spread over text and CDATA is read whole', () => {
    const cdata = POM.replace('<modules>', '<properties><skipTests><![CDATA[tr]]>ue</skipTests></properties><modules>');
    expect(pomChange(POM, cdata)).toEqual([
      'pom.xml: sets the property <skipTests>true</skipTests>, which skips, selects or ignores tests',
    ]);
  });
});

describe('JUnit services and junit-platform.properties, at any depth', () => {
  it.each([
    'META-INF/services/org.junit.platform.launcher.PostDiscoveryFilter',
    'core/src/test/resources/META-INF/services/org.junit.jupiter.api.extension.Extension',
  ])('%s registered', (path) => {
    expect(findings([{ path, before: null, after: 'com.acme.Skip\n' }])).toEqual([
      `${path}: registers a JUnit service that can filter or skip tests`,
    ]);
  });

  it('not a look-alike folder', () => {
    expect(
      findings([
        {
          path: 'XMETA-INF/services/org.junit.platform.launcher.PostDiscoveryFilter',
          before: null,
          after: 'com.acme.Skip\n',
        },
      ]),
    ).toEqual([]);
  });

  it('junit-platform.properties anywhere, read line by line', () => {
    expect(
      findings([
        {
          path: 'junit-platform.properties',
          before: 'a=1\r\n',
          after: 'a=1\r\njunit.jupiter.conditions.deactivate = *\r\nb=2',
        },
      ]),
    ).toEqual([
      'junit-platform.properties: sets `junit.jupiter.conditions.deactivate=*`, which changes which tests run',
    ]);
    expect(
      findings([
        { path: 'core/src/test/resources/junit-platform.properties', before: null, after: 'junit.platform.tags=fast' },
      ]),
    ).toEqual([
      'core/src/test/resources/junit-platform.properties: sets `junit.platform.tags=fast`, which changes which tests run',
    ]);
  });
});

// Written from the survivors of the gate's second run.
describe('the gate: names and positions', () => {
  it('a helper class under a top-level src/test is test code, never main code, markers or not', () => {
    expect(
      changesMainJava({
        files: [
          { path: 'src/test/java/com/acme/Helper.java', before: 'class Helper {}', after: 'class Helper { int x; }' },
        ],
      }),
    ).toBe(false);
  });

  it('a change set with one test-side file among main files is read', () => {
    expect(
      touchesTests({
        files: [
          { path: 'src/main/java/A.java', before: 'class A {}', after: 'class A { }' },
          { path: 'src/test/resources/a.txt', before: 'a', after: 'b' },
        ],
      }),
    ).toBe(true);
  });

  it('a copy of .mvn/maven.config under another name is no Maven setting', () => {
    const copy = { path: '.mvn/maven.config.bak', before: '', after: '-DskipTests' };
    expect(touchesTests({ files: [copy] })).toBe(false);
    expect(findings([copy])).toEqual([]);
  });

  it('--define first in the file, and a token that only contains -D', () => {
    expect(findings([{ path: '.mvn/maven.config', before: '', after: '--define skipTests' }])).toEqual([
      '.mvn/maven.config: adds `-DskipTests`, which skips, selects or ignores tests',
    ]);
    expect(findings([{ path: '.mvn/maven.config', before: '', after: 'x-DskipTests' }])).toEqual([]);
  });

  it('a key without a value in junit-platform.properties is no setting and breaks nothing', () => {
    expect(
      findings([
        {
          path: 'junit-platform.properties',
          before: '',
          after: 'junit.jupiter.conditions.deactivate\njunit.platform.tags=fast\n',
        },
      ]),
    ).toEqual(['junit-platform.properties: sets `junit.platform.tags=fast`, which changes which tests run']);
  });

  it('a plugin with an empty artifactId is read without failing', () => {
    const empty = POM.replace(
      '</plugins>',
      '<plugin><artifactId/><configuration><skipTests>true</skipTests></configuration></plugin></plugins>',
    );
    expect(pomChange(POM, empty)).toEqual([]);
  });
});
