/**
 * The verification benchmark's POMs: a parent with its modules, each module with its
 * inter-module dependencies, or one single-module POM; JUnit 5 and every plugin pinned to a
 * version that is in `~/.m2`, so the projects build offline.
 */

import type { ModuleSpec, ProjectSpec } from './verify-projects-types.js';

const PLUGINS = [
  ['maven-clean-plugin', '3.3.2'],
  ['maven-resources-plugin', '3.3.1'],
  ['maven-compiler-plugin', '3.13.0'],
  ['maven-surefire-plugin', '3.2.5'],
  ['maven-jar-plugin', '3.4.1'],
  ['maven-install-plugin', '3.1.2'],
];

function pluginManagement(): string {
  return `  <build>
    <pluginManagement>
      <plugins>
${PLUGINS.map(([id, version]) => `        <plugin><artifactId>${id}</artifactId><version>${version}</version></plugin>`).join('\n')}
      </plugins>
    </pluginManagement>
  </build>`;
}

const POM_HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>`;

const PROPERTIES = `  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>`;

const JUNIT = `    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>5.10.2</version>
      <scope>test</scope>
    </dependency>`;

export function parentPom(spec: ProjectSpec): string {
  return `${POM_HEAD}
  <groupId>${spec.groupId}</groupId>
  <artifactId>${spec.name}-parent</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <packaging>pom</packaging>
  <modules>
${spec.modules.map((m) => `    <module>${m.dir}</module>`).join('\n')}
  </modules>
${PROPERTIES}
  <dependencies>
${JUNIT}
  </dependencies>
${pluginManagement()}
</project>
`;
}

export function modulePom(spec: ProjectSpec, module: ModuleSpec): string {
  const deps = module.dependsOn.map(
    (dir) => `    <dependency>
      <groupId>${spec.groupId}</groupId>
      <artifactId>${dir}</artifactId>
      <version>\${project.version}</version>
    </dependency>`,
  );
  return `${POM_HEAD}
  <parent>
    <groupId>${spec.groupId}</groupId>
    <artifactId>${spec.name}-parent</artifactId>
    <version>1.0.0-SNAPSHOT</version>
  </parent>
  <artifactId>${module.dir}</artifactId>
  <packaging>jar</packaging>
${deps.length > 0 ? `  <dependencies>\n${deps.join('\n')}\n  </dependencies>\n` : ''}</project>
`;
}

export function singlePom(spec: ProjectSpec): string {
  return `${POM_HEAD}
  <groupId>${spec.groupId}</groupId>
  <artifactId>${spec.name}</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <packaging>jar</packaging>
${PROPERTIES}
  <dependencies>
${JUNIT}
  </dependencies>
${pluginManagement()}
</project>
`;
}
