/**
 * The test-integrity gate and the build-configuration check, setting by setting, through
 * the entries the engine uses: touchesTests (does the check run at all) and
 * checkTestIntegrity (what it finds). Mutation testing (stryker.integrity-gate.config.mjs)
 * found single settings, paths and spellings that no test named. The pom properties and
 * the Surefire parameters one by one are a table in
 * test/unit/repair/integrity/rules/tests-skipped-by-config.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { FileChange } from '../../src/patch/types.js';
import { checkTestIntegrity } from '../../src/repair/integrity/index.js';
import { touchesTests } from '../../src/repair/integrity/scope.js';

const POM =
  '<project><modelVersion>4.0.0</modelVersion><artifactId>calc</artifactId><modules><module>core</module><module>app</module></modules><properties><java.version>17</java.version></properties><build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin><plugin><artifactId>maven-jar-plugin</artifactId><version>3.4.1</version></plugin></plugins></build></project>';

function findings(files: FileChange[]): string[] {
  return checkTestIntegrity({ changeSet: { files }, failingTests: [], policy: { allowFailingTestEdits: false } })
    .blocking.filter((finding) => finding.rule === 'tests-skipped-by-config')
    .map((finding) => finding.message);
}
const pomWith = (after: string, before = POM, path = 'pom.xml') => findings([{ path, before, after }]);
const property = (name: string, value: string) =>
  POM.replace('<java.version>17</java.version>', `<java.version>17</java.version><${name}>${value}</${name}>`);
const surefire = (configuration: string, plugin = 'maven-surefire-plugin') =>
  POM.replace(
    `<artifactId>${plugin}</artifactId>`,
    `<artifactId>${plugin}</artifactId><configuration>${configuration}</configuration>`,
  );

describe("pom.xml: Surefire's and Failsafe's parameters", () => {
  it('excludes: the leaf is shown, the parameter decides; testFailureIgnore lets failing tests pass', () => {
    expect(pomWith(surefire('<excludes><exclude>**/Slow*</exclude></excludes>'))).toEqual([
      "pom.xml: adds <exclude>**/Slow*</exclude> to maven-surefire-plugin's configuration, which skips or excludes tests",
    ]);
    expect(
      pomWith(
        surefire('<testFailureIgnore>true</testFailureIgnore>', 'maven-jar-plugin')
          .replace('maven-surefire-plugin', 'maven-failsafe-plugin')
          .replace('maven-jar-plugin', 'maven-failsafe-plugin'),
      ),
    ).toEqual([
      "pom.xml: adds <testFailureIgnore>true</testFailureIgnore> to maven-failsafe-plugin's configuration, which lets failing tests pass the build",
    ]);
  });

  it('counts a setting as added only as many times as it is new', () => {
    const one = surefire('<excludes><exclude>**/A*</exclude></excludes>');
    expect(pomWith(surefire('<excludes><exclude>**/A*</exclude><exclude>**/A*</exclude></excludes>'), one)).toEqual([
      "pom.xml: adds <exclude>**/A*</exclude> to maven-surefire-plugin's configuration, which skips or excludes tests",
    ]);
    expect(pomWith(one, one)).toEqual([]);
  });

  it('an execution of the plugin counts too; other plugins and other parameters do not', () => {
    const execution = POM.replace(
      '<version>3.2.5</version>',
      '<version>3.2.5</version><executions><execution><id>it</id><configuration><skip>true</skip></configuration></execution></executions>',
    );
    expect(pomWith(execution)).toEqual([
      "pom.xml: adds <skip>true</skip> to maven-surefire-plugin's configuration, which skips or excludes tests",
    ]);
    expect(pomWith(surefire('<skip>true</skip>', 'maven-jar-plugin'))).toEqual([]);
    expect(pomWith(surefire('<forkCount>2</forkCount>'))).toEqual([]);
    expect(pomWith(surefire('<skipTests>false</skipTests>'))).toEqual([]);
    expect(pomWith(POM.replace('<version>3.2.5</version>', '<version>3.2.5</version><skip>true</skip>'))).toEqual([]);
  });
});

describe('pom.xml: JUnit settings and modules', () => {
  it('a JUnit setting named by its element, or written in a value', () => {
    expect(
      pomWith(
        surefire(
          '<systemPropertyVariables><junit.jupiter.extensions.autodetection.enabled>true</junit.jupiter.extensions.autodetection.enabled></systemPropertyVariables>',
        ),
      ),
    ).toEqual([
      'pom.xml: sets <junit.jupiter.extensions.autodetection.enabled>true</junit.jupiter.extensions.autodetection.enabled>, a JUnit setting that changes which tests run',
    ]);
    expect(
      pomWith(
        surefire(
          '<properties><configurationParameters>junit.jupiter.conditions.deactivate = *</configurationParameters></properties>',
        ),
      ),
    ).toEqual([
      'pom.xml: sets <configurationParameters>junit.jupiter.conditions.deactivate = *</configurationParameters>, a JUnit setting that changes which tests run',
    ]);
    expect(
      pomWith(
        surefire(
          '<properties><configurationParameters>junit.jupiter.execution.parallel.enabled = true</configurationParameters></properties>',
        ),
      ),
    ).toEqual([]);
  });

  it('a module taken out of the build; a pom that no longer parses is left to Maven; a new pom is all additions', () => {
    expect(pomWith(POM.replace('<module>app</module>', ''))).toEqual([
      'pom.xml: removes the module app from the build, so its tests would not run',
    ]);
    expect(pomWith('<project><artifactId>calc</')).toEqual([]);
    expect(findings([{ path: 'core/pom.xml', before: null, after: property('skipTests', 'true') }])).toEqual([
      'core/pom.xml: sets the property <skipTests>true</skipTests>, which skips, selects or ignores tests',
    ]);
    expect(pomWith(property('skipTests', 'true'), '<project><unclosed>')).toEqual([
      'pom.xml: sets the property <skipTests>true</skipTests>, which skips, selects or ignores tests',
    ]);
    expect(findings([{ path: 'pom.xml', before: POM, after: property('skipTests', 'true'), binary: true }])).toEqual(
      [],
    );
  });
});

describe('.mvn/maven.config and .mvn/jvm.config', () => {
  const config = (after: string, before = '-B\n', path = '.mvn/maven.config') => findings([{ path, before, after }]);
  it.each([
    ['-DskipTests', 'adds `-DskipTests`, which skips, selects or ignores tests'],
    ['-D skipTests=true', 'adds `-DskipTests=true`, which skips, selects or ignores tests'],
    [
      '-Dmaven.test.failure.ignore=yes',
      'adds `-Dmaven.test.failure.ignore=yes`, which skips, selects or ignores tests',
    ],
    ['-fn', 'adds `-fn`, which makes a failing build pass'],
    ['--fail-never', 'adds `--fail-never`, which makes a failing build pass'],
    ['-pl', 'adds `-pl`, which leaves modules (and their tests) out of the build'],
    ['--projects', 'adds `--projects`, which leaves modules (and their tests) out of the build'],
    ['--projects=core', 'adds `--projects=core`, which leaves modules (and their tests) out of the build'],
  ])('%s', (option, says) => {
    expect(config(`-B\n${option} core\n`)).toEqual([`.mvn/maven.config: ${says}`]);
  });

  it('not: false values, other properties and options, what was there before; .mvn/jvm.config is read the same way', () => {
    expect(config('-B -DskipTests=false -Dfoo=bar -T 2 -D')).toEqual([]);
    expect(config('-B\n-DskipTests\n', '-DskipTests -B')).toEqual([]);
    expect(config('-DskipTests', '', 'core/.mvn/jvm.config')).toEqual([
      'core/.mvn/jvm.config: adds `-DskipTests`, which skips, selects or ignores tests',
    ]);
    expect(config('-DskipTests', '', 'x.mvn/maven.config')).toEqual([]);
  });
});

describe('junit-platform.properties and JUnit services', () => {
  const properties = (after: string, before = '') =>
    findings([{ path: 'src/test/resources/junit-platform.properties', before, after }]);
  it.each([
    ['junit.jupiter.conditions.deactivate=*', 'junit.jupiter.conditions.deactivate=*'],
    ['junit.platform.execution.listeners.deactivate: *', 'junit.platform.execution.listeners.deactivate=*'],
    ['  junit.jupiter.extensions.autodetection.enabled true  ', 'junit.jupiter.extensions.autodetection.enabled=true'],
    ['JUNIT.PLATFORM.TAGS=fast', 'JUNIT.PLATFORM.TAGS=fast'],
  ])('%s', (line, shown) => {
    expect(properties(`# settings\n${line}\r\n`)).toEqual([
      `src/test/resources/junit-platform.properties: sets \`${shown}\`, which changes which tests run`,
    ]);
  });

  it('not: comments, parallelism, unchanged values; a changed value is', () => {
    expect(
      properties(
        '#junit.jupiter.conditions.deactivate=*\n!junit.jupiter.conditions.deactivate=*\n\njunit.jupiter.execution.parallel.enabled=true\n',
      ),
    ).toEqual([]);
    expect(properties('junit.jupiter.conditions.deactivate=a', 'junit.jupiter.conditions.deactivate = a')).toEqual([]);
    expect(properties('junit.jupiter.conditions.deactivate=*', 'junit.jupiter.conditions.deactivate=a')).toEqual([
      'src/test/resources/junit-platform.properties: sets `junit.jupiter.conditions.deactivate=*`, which changes which tests run',
    ]);
  });

  it('a JUnit service registered or changed is found; one removed or untouched is not', () => {
    const service = 'src/test/resources/META-INF/services/org.junit.platform.launcher.PostDiscoveryFilter';
    expect(findings([{ path: service, before: 'a.A\n', after: 'a.A\nb.B\n' }])).toEqual([
      `${service}: registers a JUnit service that can filter or skip tests`,
    ]);
    expect(findings([{ path: service, before: 'a.A\n', after: null }])).toEqual([]);
    expect(findings([{ path: service, before: 'a.A\n', after: 'a.A\n' }])).toEqual([]);
    expect(findings([{ path: 'META-INF/services/com.acme.Plugin', before: null, after: 'b.B\n' }])).toEqual([]);
  });
});

describe('touchesTests: the gate that decides whether the check runs', () => {
  const touches = (file: FileChange) => touchesTests({ files: [file] });
  it.each([
    'pom.xml',
    'core/pom.xml',
    'src/test/resources/junit-platform.properties',
    'src/main/resources/junit-platform.properties',
    '.mvn/maven.config',
    '.mvn/jvm.config',
    'core/.mvn/maven.config',
    'src/test/resources/META-INF/services/org.junit.platform.launcher.PostDiscoveryFilter',
    'META-INF/services/org.junit.jupiter.api.extension.Extension',
    'src/test/java/A.java',
    'src/it/java/A.java',
    'core/src/integration-test/java/A.java',
    'src/test/resources/data.csv',
  ])('%s', (path) => {
    expect(touches({ path, before: 'x', after: 'y' })).toBe(true);
  });

  it.each([
    'pom.xml.bak',
    'src/main/resources/app.properties',
    '.mvn/extensions.xml',
    'x.mvn/maven.config',
    'mvn/jvm.config',
    'META-INF/services/com.acme.Plugin',
    'src/main/java/A.java',
    'README.md',
    'src/testing/A.java',
  ])('not %s', (path) => {
    expect(touches({ path, before: 'class A {}', after: 'class A { }' })).toBe(false);
  });

  it.each([
    '@Test void f() {}',
    '@ParameterizedTest',
    '@RepeatedTest(3)',
    '@TestFactory',
    '@TestTemplate',
    '@Nested class B {}',
    'class A extends  TestCase {}',
    'import org.junit.Assert;',
    'import org.testng.Assert;',
  ])('a main-folder Java file whose original holds tests: %s', (marker) => {
    expect(touches({ path: 'src/main/java/A.java', before: `class A { ${marker} }`, after: 'class A {}' })).toBe(true);
  });

  it('not: markers only in the new text, look-alike words, a file that is not Java', () => {
    expect(touches({ path: 'src/main/java/A.java', before: null, after: '@Test void f() {}' })).toBe(false);
    expect(
      touches({
        path: 'src/main/java/A.java',
        before: '@Tested @Testing class A extends TestCaseBase { org.junitx }',
        after: '',
      }),
    ).toBe(false);
    expect(touches({ path: 'src/main/kotlin/A.kt', before: '@Test fun f() {}', after: '' })).toBe(false);
  });

  it('a rename counts by its old path as well as its new one; a declared test-side root counts', () => {
    expect(touches({ path: 'pom.xml.bak', oldPath: 'pom.xml', before: POM, after: POM })).toBe(true);
    expect(
      touches({
        path: 'src/main/java/A.java',
        oldPath: 'src/test/java/A.java',
        before: 'class A {}',
        after: 'class A {}',
      }),
    ).toBe(true);
    expect(touches({ path: 'docs/junit-platform.properties', oldPath: 'src/x.txt', before: '', after: '' })).toBe(true);
    const side = { roots: [{ dir: 'testkit', what: 'test-support module testkit' }] };
    expect(
      touchesTests(
        { files: [{ path: 'testkit/src/main/java/Fake.java', before: 'class Fake {}', after: 'class Fake { }' }] },
        side,
      ),
    ).toBe(true);
    expect(
      touchesTests({
        files: [{ path: 'testkit/src/main/java/Fake.java', before: 'class Fake {}', after: 'class Fake { }' }],
      }),
    ).toBe(false);
    expect(
      touchesTests(
        {
          files: [
            { path: 'src/main/java/A.java', oldPath: 'testkit/A.java', before: 'class A {}', after: 'class A {}' },
          ],
        },
        side,
      ),
    ).toBe(true);
  });
});
