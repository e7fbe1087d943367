import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnose/types.js';
import { createDefaultFixerRegistry, FixerRegistry } from '../../src/repair/fixers/index.js';
import type { Fixer, FixCandidate } from '../../src/plugins/contracts.js';
import { createSourceView, resolveDeclaredClasspath, parseDeclaredDependencies } from '../../src/codebase/index.js';
import { classNamesFromEntries, jarClasses } from '../../src/codebase/jar-index.js';
import {
  indexPublicClasses,
  loadJdkIndex,
  parseJimageList,
  parseModuleExports,
  readJavaVersion,
  resolveJavaHome,
} from '../../src/codebase/jdk-index.js';
import { FIXERS_FIXTURES } from './fixers-support.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-fixers-registry-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const diagnostic: Diagnostic = {
  kind: 'compile',
  category: 'compile',
  fixable: true,
  message: 'boom',
  file: 'A.java',
  line: 1,
  fingerprint: 'f',
};
const change = (after: string) => ({ files: [{ path: 'A.java', before: 'x', after }] });
const fixer = (name: string, candidates: unknown, handles = true): Fixer => ({
  name,
  handles: () => handles,
  propose: async () => candidates as FixCandidate[],
});
const view = () => createSourceView(scratch);

describe('FixerRegistry', () => {
  it('sorts by confidence, keeps registration order on ties and drops identical results', async () => {
    const registry = new FixerRegistry();
    registry.register(
      fixer('one', [
        { fixer: 'one', changeSet: change('a'), confidence: 0.5, reason: 'r1' },
        { fixer: 'one', changeSet: change('b'), confidence: 0.9, reason: 'r2' },
      ]),
    );
    registry.register(
      fixer('two', [
        { fixer: 'spoofed', changeSet: change('a'), confidence: 0.5, reason: 'r3' },
        { fixer: 'two', changeSet: change('c'), confidence: 0.5, reason: 'r4' },
      ]),
    );
    const result = await registry.propose([diagnostic], view());
    expect(result.map((c) => `${c.fixer}:${c.reason}`)).toEqual(['one:r2', 'one:r1', 'two:r4']);
  });

  it('asks only fixers that handle some diagnostic', async () => {
    const registry = new FixerRegistry();
    registry.register({
      name: 'never',
      handles: () => false,
      propose: async () => {
        throw new Error('must not be called');
      },
    });
    expect(await registry.propose([diagnostic], view())).toEqual([]);
  });

  it('rejects malformed fixers and duplicate names', () => {
    const registry = new FixerRegistry();
    registry.register(fixer('one', []));
    expect(() => registry.register(fixer('one', []))).toThrow('a fixer named one is already registered');
    expect(() => registry.register(fixer('has space', []))).toThrow(
      'fixer has space: name: found "has space" (string), expected a name of letters, digits and . : / - _ (no spaces)',
    );
    expect(() => registry.register({ name: 'x' } as Fixer)).toThrow(
      'fixer x: handles: found nothing, expected a function (and 1 more problem)',
    );
    expect(() => registry.register(undefined as unknown as Fixer)).toThrow(
      'a fixer: (top level): found nothing, expected a mapping (object)',
    );
    expect(registry.list().map((f) => f.name)).toEqual(['one']);
  });

  it.each([
    [{ changeSet: change('a'), confidence: 2, reason: 'r' }, /confidence must be a number from 0 to 1, got 2/],
    [{ changeSet: change('a'), confidence: 0.5, reason: ' ' }, /reason must be a non-empty string/],
    [{ changeSet: { files: [] }, confidence: 0.5, reason: 'r' }, /at least one file/],
    [
      { changeSet: { files: [{ path: '../etc/passwd', before: 'x', after: 'y' }] }, confidence: 0.5, reason: 'r' },
      /project-relative/,
    ],
    [{ changeSet: change('x'), confidence: 0.5, reason: 'r' }, /after is the same as before/],
  ])('reports a malformed candidate with the fixer name: %j', async (candidate, message) => {
    const registry = new FixerRegistry();
    registry.register(fixer('plugin-x', [candidate]));
    await expect(registry.propose([diagnostic], view())).rejects.toThrow(message);
    await expect(registry.propose([diagnostic], view())).rejects.toThrow(
      /^fixer plugin-x: returned an invalid candidate/,
    );
  });

  it('passes a failing fixer to onFixerError and still runs the others', async () => {
    const registry = new FixerRegistry();
    registry.register({
      name: 'broken',
      handles: () => true,
      propose: async () => {
        throw new Error('kaput');
      },
    });
    registry.register(fixer('fine', [{ fixer: 'fine', changeSet: change('a'), confidence: 0.5, reason: 'r' }]));
    const errors: string[] = [];
    const result = await registry.propose([diagnostic], view(), {
      onFixerError: (name, error) => errors.push(`${name}: ${error.message}`),
    });
    expect(errors).toEqual(['broken: fixer broken: kaput']);
    expect(result.map((c) => c.fixer)).toEqual(['fine']);
    await expect(registry.propose([diagnostic], view())).rejects.toThrow('fixer broken: kaput');
  });

  it('refuses diagnostics that are not an array', async () => {
    await expect(new FixerRegistry().propose(undefined as unknown as Diagnostic[], view())).rejects.toThrow(
      'propose() needs an array of diagnostics',
    );
  });

  it('registers the eleven built-in fixers by default', () => {
    expect(
      createDefaultFixerRegistry()
        .list()
        .map((f) => f.name),
    ).toEqual([
      'missing-import',
      'missing-semicolon',
      'bad-import',
      'missing-throws',
      'wrong-package',
      'literal-return',
      'renamed-member',
      'stale-override',
      'formatter-goal',
      'dependency-update',
      'dependency-pattern',
    ]);
  });
});

describe('createSourceView', () => {
  it('lists files by glob, skipping build output and tool folders, and reads them', async () => {
    const root = path.join(scratch, 'view');
    for (const file of [
      'src/A.java',
      'target/B.java',
      '.mvnx/C.java',
      '.git/D.java',
      'node_modules/E.java',
      'mod/src/F.java',
      'README.md',
    ]) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), file);
    }
    const sources = createSourceView(root);
    expect(await sources.list('**/*.java')).toEqual(['mod/src/F.java', 'src/A.java']);
    expect(await sources.read('src/A.java')).toBe('src/A.java');
    expect(await sources.read('src/Missing.java')).toBeUndefined();
    await expect(sources.read('../outside.txt')).rejects.toThrow(/outside the project root/);
    expect(() => createSourceView('relative/root')).toThrow(
      'source view root must be an absolute path, got relative/root',
    );
  });
});

describe('class indexes', () => {
  it('indexes the real JDK: public API only, cached on disk', async () => {
    const javaHome = await resolveJavaHome(undefined);
    const cacheDir = path.join(scratch, 'jdk-cache');
    const index = await loadJdkIndex(javaHome, cacheDir);
    expect(index.classes.List).toEqual(['java.awt.List', 'java.util.List']);
    expect(index.classes.Duration).toEqual(['java.time.Duration', 'javax.xml.datatype.Duration']);
    expect(
      Object.values(index.classes)
        .flat()
        .some((name) => /\.internal\.|^sun\.|\$/.test(name)),
    ).toBe(false);
    const cached = JSON.parse(
      await readFile(path.join(cacheDir, `jdk-index-${await readJavaVersion(javaHome)}.json`), 'utf8'),
    );
    expect(cached.classes.HashMap).toEqual(['java.util.HashMap']);
  });

  it('reads an existing cache instead of the JDK', async () => {
    const javaHome = await resolveJavaHome(undefined);
    const cacheDir = path.join(scratch, 'planted-cache');
    const javaVersion = await readJavaVersion(javaHome);
    await mkdir(cacheDir, { recursive: true });
    await writeFile(
      path.join(cacheDir, `jdk-index-${javaVersion}.json`),
      JSON.stringify({ javaHome, javaVersion, classes: { Planted: ['x.Planted'] } }),
    );
    expect((await loadJdkIndex(javaHome, cacheDir)).classes).toEqual({ Planted: ['x.Planted'] });
  });

  it('keeps only unqualified exports and top-level classes', () => {
    const exports = parseModuleExports(
      'module java.base@17 {\n  exports java.util;\n  exports jdk.internal.misc to jdk.unsupported;\n}\nmodule jdk.net@17 {\n  exports jdk.net;\n}\n',
    );
    expect(exports).toEqual(
      new Map([
        ['java.base', new Set(['java.util'])],
        ['jdk.net', new Set(['jdk.net'])],
      ]),
    );
    const modules = parseJimageList(
      'jimage: x\n\nModule: java.base\n    java/util/List.class\n    java/util/Map$Entry.class\n    jdk/internal/misc/Unsafe.class\n    java/util/package-info.class\n',
    );
    expect(indexPublicClasses(modules, exports)).toEqual({ List: ['java.util.List'] });
  });

  it('fails clearly for a folder that is not a JDK', async () => {
    await expect(resolveJavaHome(scratch)).rejects.toThrow(`${scratch} is not a JDK home: lib/modules is missing`);
    await expect(readJavaVersion(scratch)).rejects.toThrow(/cannot tell the Java version/);
  });

  it("lists real jar classes and resolves a pom's test classpath from the local repository", async () => {
    const pom = await readFile(path.join(FIXERS_FIXTURES, 'import-test-dependency/project/pom.xml'), 'utf8');
    const classpath = await resolveDeclaredClasspath(pom);
    expect(classpath.main).toEqual([]);
    const api = classpath.test.find((jar) => jar.endsWith('junit-jupiter-api-5.10.2.jar'));
    expect(api && existsSync(api)).toBe(true);
    expect(classpath.test.some((jar) => jar.includes('junit-jupiter-engine'))).toBe(false);
    expect(await jarClasses(api!, path.join(scratch, 'jar-cache'))).toContain('org.junit.jupiter.api.Assertions');
    await expect(jarClasses(path.join(scratch, 'missing.jar'), scratch)).rejects.toThrow(/ENOENT/);
  });

  it('parses declared dependencies outside dependencyManagement, with properties', () => {
    const pom = `<project><version>2.0</version><properties><lib.version>1.2</lib.version></properties>
      <dependencyManagement><dependencies><dependency><groupId>m</groupId><artifactId>managed</artifactId><version>9</version></dependency></dependencies></dependencyManagement>
      <dependencies><dependency><groupId>g</groupId><artifactId>lib</artifactId><version>\${lib.version}</version></dependency>
      <dependency><groupId>g</groupId><artifactId>sib</artifactId><version>\${project.version}</version><scope>test</scope><optional>true</optional></dependency></dependencies></project>`;
    expect(parseDeclaredDependencies(pom)).toEqual([
      { groupId: 'g', artifactId: 'lib', version: '1.2', scope: 'compile', optional: false, type: 'jar' },
      { groupId: 'g', artifactId: 'sib', version: '2.0', scope: 'test', optional: true, type: 'jar' },
    ]);
    expect(
      classNamesFromEntries([
        'META-INF/MANIFEST.MF',
        'a/B.class',
        'a/B$1.class',
        'module-info.class',
        'META-INF/versions/9/a/C.class',
      ]),
    ).toEqual(['a.B']);
  });
});

describe('missing-import preference', () => {
  it('prefers the class the project already imports elsewhere over the package preference order', async () => {
    const root = path.join(scratch, 'awt-project');
    const files: Record<string, string> = {
      'src/main/java/a/Ui.java': 'package a;\n\nimport java.awt.List;\n\nclass Ui { List box; }\n',
      'src/main/java/a/Panel.java': 'package a;\n\nclass Panel { List box; }\n',
    };
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), text);
    }
    const missing: Diagnostic = {
      ...diagnostic,
      message: 'cannot find symbol',
      file: 'src/main/java/a/Panel.java',
      line: 3,
      column: 15,
      details: ['symbol:   class List', 'location: class a.Panel'],
    };
    const [best, second] = await createDefaultFixerRegistry().propose([missing], createSourceView(root), {
      cacheDir: path.join(scratch, 'jdk-cache'),
    });
    expect(best!.changeSet.files[0]!.after).toBe('package a;\n\nimport java.awt.List;\n\nclass Panel { List box; }\n');
    expect(best!.reason).toContain('imported elsewhere in the project');
    expect(second!.changeSet.files[0]!.after).toContain('import java.util.List;');
  });
});
