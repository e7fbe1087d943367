/**
 * tests-skipped-by-config, as a table: a pom property or a Surefire/Failsafe parameter that
 * skips, selects or ignores tests is found with the setting named; false-like values and
 * look-alike names are not. The rest of its cases (counting, executions, JUnit settings,
 * modules, .mvn/maven.config, junit-platform.properties) are in
 * test/unit/integrity-gate-config.test.ts and integrity-gate-edges.test.ts.
 */
import { describe } from 'vitest';
import { testsSkippedByConfig } from '../../../../../src/repair/integrity/rules/tests-skipped-by-config.js';
import { testIntegrityRule, type IntegrityRuleRow } from '../../../../helpers/integrity-rule-tester.js';

const POM =
  '<project><modelVersion>4.0.0</modelVersion><artifactId>calc</artifactId><modules><module>core</module><module>app</module></modules><properties><java.version>17</java.version></properties><build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin><plugin><artifactId>maven-jar-plugin</artifactId><version>3.4.1</version></plugin></plugins></build></project>';
const property = (name: string, value: string) =>
  POM.replace('<java.version>17</java.version>', `<java.version>17</java.version><${name}>${value}</${name}>`);
const surefire = (configuration: string) =>
  POM.replace(
    '<artifactId>maven-surefire-plugin</artifactId>',
    `<artifactId>maven-surefire-plugin</artifactId><configuration>${configuration}</configuration>`,
  );
const pom = (name: string, after: string): Omit<IntegrityRuleRow, 'findings'> => ({
  name,
  files: [{ path: 'pom.xml', before: POM, after }],
});

describe('tests-skipped-by-config: pom properties', () => {
  testIntegrityRule(testsSkippedByConfig, [
    ...[
      'skipTests',
      'skipITs',
      'maven.test.skip',
      'maven.test.skip.exec',
      'maven.test.failure.ignore',
      'test',
      'it.test',
      'groups',
      'excludedGroups',
      'surefire.skipAfterFailureCount',
      'failsafe.rerunFailingTestsCount',
      'junit.jupiter.conditions.deactivate',
      'junit.platform.x',
    ].map((name) => ({
      ...pom(name, property(name, 'true')),
      findings: [
        {
          file: 'pom.xml',
          failingTestEdit: false,
          message: `pom.xml: sets the property <${name}>true</${name}>, which skips, selects or ignores tests`,
        },
      ],
    })),
    ...[
      ['skipTests', 'false'],
      ['skipTests', 'No'],
      ['skipTests', 'OFF'],
      ['maven.test.skipper', 'true'],
      ['mytest', 'true'],
      ['surefire', 'true'],
      ['java.release', '17'],
    ].map(([name, value]) => ({ ...pom(`${name}=${value} changes no test`, property(name!, value!)), findings: [] })),
    {
      ...pom('a value that only starts like false still skips', property('skipTests', 'falsely')),
      findings: [
        {
          file: 'pom.xml',
          message: 'pom.xml: sets the property <skipTests>falsely</skipTests>, which skips, selects or ignores tests',
        },
      ],
    },
  ]);
});

describe("tests-skipped-by-config: Surefire's and Failsafe's parameters", () => {
  testIntegrityRule(
    testsSkippedByConfig,
    [
      'skip',
      'skipTests',
      'skipExec',
      'skipITs',
      'test',
      'includes',
      'include',
      'excludedGroups',
      'groups',
      'excludesFile',
      'includesFile',
      'skipAfterFailureCount',
      'excludeJUnit5Engines',
      'includeJUnit5Engines',
    ].map((name) => ({
      ...pom(name, surefire(`<${name}>x1</${name}>`)),
      findings: [
        {
          file: 'pom.xml',
          message: `pom.xml: adds <${name}>x1</${name}> to maven-surefire-plugin's configuration, which skips or excludes tests`,
        },
      ],
    })),
  );
});
