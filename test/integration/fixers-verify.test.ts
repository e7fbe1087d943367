import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSourceView } from '../../src/codebase/index.js';
import { createDefaultFixerRegistry } from '../../src/repair/fixers/index.js';
import { FIXERS_FIXTURES, loadFixture, MECHANICAL_FIXTURES } from '../unit/fixers-support.js';

const MAVEN_OPTS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

let workspace: string;
beforeAll(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'mvnx-fixers-verify-'));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

function aggregatorPom(modules: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>fixers-verify</artifactId>
  <version>1.0.0</version>
  <packaging>pom</packaging>
  <modules>
${modules.map((m) => `    <module>${m}</module>`).join('\n')}
  </modules>
</project>
`;
}

describe('the best fixer candidate of every mechanical fixture builds with real Maven', () => {
  it('compiles main and test sources of all patched copies in one offline reactor build', async () => {
    const cacheDir = path.join(workspace, 'cache');
    const registry = createDefaultFixerRegistry();
    for (const { name } of MECHANICAL_FIXTURES) {
      const copy = path.join(workspace, name);
      await cp(path.join(FIXERS_FIXTURES, name, 'project'), copy, { recursive: true });
      // Diagnose as if the build had run in the copy, so paths in the log point at it.
      const fixture = await loadFixture(name, copy);
      const [best] = await registry.propose(fixture.diagnostics, createSourceView(copy), { cacheDir });
      expect(best, `${name} has a candidate`).toBeDefined();
      for (const change of best!.changeSet.files) await writeFile(path.join(copy, change.path), change.after!);
    }
    await writeFile(path.join(workspace, 'pom.xml'), aggregatorPom(MECHANICAL_FIXTURES.map((f) => f.name)));
    const build = await execa('mvn', ['-o', '-B', '-q', '-fae', 'test-compile'], {
      cwd: workspace,
      env: { MAVEN_OPTS },
      reject: false,
      all: true,
    });
    expect(build.exitCode, build.all).toBe(0);
    expect(
      existsSync(path.join(workspace, 'import-test-dependency/target/test-classes/com/acme/calc/AdderTest.class')),
    ).toBe(true);
    expect(existsSync(path.join(workspace, 'wrong-package/target/classes/com/acme/util/Slugs.class'))).toBe(true);
  });

  it('the unpatched copies really fail to build (the fixtures are broken)', async () => {
    const broken = path.join(workspace, 'broken');
    const names = ['semicolon-declaration', 'import-project-class'];
    for (const name of names)
      await cp(path.join(FIXERS_FIXTURES, name, 'project'), path.join(broken, name), { recursive: true });
    await writeFile(path.join(broken, 'pom.xml'), aggregatorPom(names));
    const build = await execa('mvn', ['-o', '-B', '-q', '-fae', 'test-compile'], {
      cwd: broken,
      env: { MAVEN_OPTS },
      reject: false,
      all: true,
    });
    expect(build.exitCode).toBe(1);
    expect(build.all).toContain("';' expected");
    expect(build.all).toContain('cannot find symbol');
  });
});
