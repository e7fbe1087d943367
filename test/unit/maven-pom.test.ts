import { describe, expect, it } from 'vitest';
import { parsePomProject, pomDependencies, pomPlugins } from '../../src/maven/pom.js';
import { pinnedPlugins } from '../../src/cli/commands/doctor/doctor-facts.js';
import { parseDeclaredDependencies } from '../../src/codebase/index.js';
import { projectJavaRelease } from '../../src/maven/settings.js';
import { addsDependency, isPom } from '../../src/patch/classify-pom.js';
import { summarisePom } from '../../src/diagnose/modules.js';

// POMs written the way real projects write them, each with something a regex misreads.
const TRICKY = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>org.acme</groupId><artifactId>parent</artifactId><version>7.1</version></parent>
  <artifactId>app</artifactId>
  <!-- <plugin><artifactId>commented-out-plugin</artifactId><version>9.9</version></plugin> -->
  <!-- <properties><junit.version>0.0</junit.version></properties> -->
  <properties>
    <junit.version>5.10.2</junit.version>
    <surefire.version><![CDATA[3.2.5]]></surefire.version>
    <release>17</release>
    <maven.compiler.release>\${release}</maven.compiler.release>
  </properties>
  <dependencies>
    <!-- <dependency><groupId>old</groupId><artifactId>gone</artifactId><version>1</version></dependency> -->
    <dependency>
      <exclusions><exclusion><groupId>commons-logging</groupId><artifactId>commons-logging</artifactId></exclusion></exclusions>
      <groupId>org.springframework</groupId>
      <artifactId>spring-core</artifactId>
      <version>6.1.0</version>
    </dependency>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter-api</artifactId>
      <version>\${junit.version}</version>
      <scope>test</scope>
    </dependency>
    <dependency>
      <groupId>org.acme</groupId>
      <artifactId>sibling</artifactId>
      <version>\${project.version}</version>
    </dependency>
  </dependencies>
  <build>
    <pluginManagement>
      <plugins>
        <plugin>
          <artifactId>maven-surefire-plugin</artifactId>
          <version>\${surefire.version}</version>
          <dependencies><dependency><groupId>x</groupId><artifactId>plugin-dep</artifactId><version>4.0</version></dependency></dependencies>
        </plugin>
      </plugins>
    </pluginManagement>
    <plugins>
      <plugin >
        <groupId>org.codehaus.mojo</groupId>
        <artifactId>exec-maven-plugin</artifactId>
        <version>3.1.0</version>
      </plugin>
      <plugin><artifactId>maven-surefire-plugin</artifactId></plugin>
    </plugins>
  </build>
</project>
`;

describe('the one POM reader (maven/pom.ts)', () => {
  it('reads plugins from pluginManagement and build, not from comments, with CDATA and properties resolved', () => {
    const project = parsePomProject(TRICKY)!;
    expect(pomPlugins(project)).toEqual([
      { groupId: 'org.apache.maven.plugins', artifactId: 'maven-surefire-plugin', version: '3.2.5' },
      { groupId: 'org.codehaus.mojo', artifactId: 'exec-maven-plugin', version: '3.1.0' },
      { groupId: 'org.apache.maven.plugins', artifactId: 'maven-surefire-plugin' },
    ]);
    // doctor keeps the pinned ones; a plugin's own dependency is not a plugin.
    expect(pinnedPlugins(TRICKY)).toEqual([
      { groupId: 'org.apache.maven.plugins', artifactId: 'maven-surefire-plugin', version: '3.2.5' },
      { groupId: 'org.codehaus.mojo', artifactId: 'exec-maven-plugin', version: '3.1.0' },
    ]);
  });

  it('reads a dependency by its own coordinates, not its exclusion, and the version a parent gives ${project.version}', () => {
    expect(pomDependencies(parsePomProject(TRICKY)!)).toEqual([
      {
        groupId: 'org.springframework',
        artifactId: 'spring-core',
        version: '6.1.0',
        scope: 'compile',
        optional: false,
        type: 'jar',
      },
      {
        groupId: 'org.junit.jupiter',
        artifactId: 'junit-jupiter-api',
        version: '5.10.2',
        scope: 'test',
        optional: false,
        type: 'jar',
      },
      { groupId: 'org.acme', artifactId: 'sibling', version: '7.1', scope: 'compile', optional: false, type: 'jar' },
    ]);
    expect(parseDeclaredDependencies(TRICKY).map((d) => d.artifactId)).not.toContain('gone');
  });

  it('reads the Java release through a property reference, ignoring commented-out properties', () => {
    expect(projectJavaRelease(TRICKY)).toBe('17');
    expect(projectJavaRelease('<project><properties><java.version>1.8</java.version></properties></project>')).toBe(
      '8',
    );
    expect(
      projectJavaRelease(
        '<project><!-- <properties><maven.compiler.release>21</maven.compiler.release></properties> --></project>',
      ),
    ).toBeUndefined();
  });

  it('plugins of a profile build count; reporting plugins do not', () => {
    const pom = `<project><modelVersion>4.0.0</modelVersion><artifactId>a</artifactId>
      <profiles><profile><id>ci</id><build><plugins><plugin><artifactId>maven-jar-plugin</artifactId><version>3.4.1</version></plugin></plugins></build></profile></profiles>
      <reporting><plugins><plugin><artifactId>maven-site-report</artifactId><version>1.0</version></plugin></plugins></reporting></project>`;
    expect(pinnedPlugins(pom)).toEqual([
      { groupId: 'org.apache.maven.plugins', artifactId: 'maven-jar-plugin', version: '3.4.1' },
    ]);
  });

  it('reads nothing from text that is not a well-formed POM', () => {
    expect(parsePomProject('<project><artifactId>a</artifactId>')).toBeUndefined();
    expect(parsePomProject('<settings><localRepository>/x</localRepository></settings>')).toBeUndefined();
    expect(pinnedPlugins('not xml <plugin><artifactId>p</artifactId><version>1</version></plugin>')).toEqual([]);
    expect(parseDeclaredDependencies('<project><dependencies><dependency><groupId>g</groupId>')).toEqual([]);
  });

  it('the patch classifier reads POMs through the same reader: a dependency added only in a comment adds none', () => {
    const before = TRICKY;
    const commented = TRICKY.replace(
      '</dependencies>\n  <build>',
      '<!-- <dependency><groupId>n</groupId><artifactId>new</artifactId><version>1</version></dependency> -->\n  </dependencies>\n  <build>',
    );
    expect(isPom(commented)).toBe(true);
    expect(addsDependency(before, commented)).toBe(false);
    const bumped = TRICKY.replace('<junit.version>5.10.2</junit.version>', '<junit.version>5.11.0</junit.version>');
    expect(addsDependency(before, bumped)).toBe(true);
  });

  it('decodes the predefined entities but never expands a DOCTYPE entity; module discovery reads through it too', () => {
    const pom =
      '<project><artifactId>a</artifactId><name>Tom &amp; Jerry &#x263A;</name><modules><module>core</module></modules></project>';
    expect(summarisePom(pom)).toEqual({ artifactId: 'a', name: 'Tom & Jerry \u263A', modules: ['core'] });
    const bomb =
      '<!DOCTYPE project [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]><project><artifactId>x</artifactId><name>&b;</name></project>';
    expect(summarisePom(bomb).name).toBe('&b;');
  });
});
