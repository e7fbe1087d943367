import { describe, expect, it } from 'vitest';
import { effectiveDependencies, versionChanges, type PomSource } from '../../src/maven/effective-versions.js';
import { bumpedThrough } from '../../src/repair/dependency-update/detect.js';
import { applyPatterns, patternOfLine, patternsOf } from '../../src/repair/dependency-update/patterns.js';

const pom = (body: string, parent = '') =>
  `<project><modelVersion>4.0.0</modelVersion>${parent}<groupId>g</groupId><artifactId>app</artifactId><version>1</version>${body}</project>`;
const dep = (groupId: string, artifactId: string, version?: string) =>
  `<dependency><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId>${version === undefined ? '' : `<version>${version}</version>`}</dependency>`;

function source(files: Record<string, string>, repository: Record<string, string> = {}): PomSource {
  return {
    relative: async (from, relativePath) => {
      const file = relativePath === '../pom.xml' && from === 'app/pom.xml' ? 'pom.xml' : undefined;
      return file && files[file] ? { path: file, text: files[file]! } : undefined;
    },
    repository: async (groupId, artifactId, version) => repository[`${groupId}:${artifactId}:${version}`],
  };
}

describe('effective dependency versions', () => {
  it('resolves a property, dependencyManagement and an explicit version', async () => {
    const text = pom(
      `<properties><lib.version>2.0</lib.version></properties><dependencyManagement><dependencies>${dep('m', 'managed', '3.1')}</dependencies></dependencyManagement><dependencies>${dep('p', 'prop', '${lib.version}')}${dep('m', 'managed')}${dep('e', 'explicit', '1.5')}</dependencies>`,
    );
    const found = await effectiveDependencies(text, 'pom.xml', source({}));
    expect(found.map((d) => `${d.groupId}:${d.artifactId}:${d.version} (${d.source})`)).toEqual([
      'p:prop:2.0 (property lib.version)',
      'm:managed:3.1 (dependencyManagement)',
      'e:explicit:1.5 (explicit)',
    ]);
  });

  it('inherits properties and managed versions from a parent in the tree, the child overriding', async () => {
    const parent = `<project><groupId>g</groupId><artifactId>parent</artifactId><version>1</version><properties><lib.version>1.0</lib.version><other>9</other></properties><dependencyManagement><dependencies>${dep('x', 'lib', '${lib.version}')}${dep('y', 'other', '${other}')}</dependencies></dependencyManagement></project>`;
    const child = pom(
      `<properties><other>10</other></properties><dependencies>${dep('x', 'lib')}${dep('y', 'other', '${other}')}</dependencies>`,
      '<parent><groupId>g</groupId><artifactId>parent</artifactId><version>1</version></parent>',
    );
    const found = await effectiveDependencies(child, 'app/pom.xml', source({ 'pom.xml': parent }));
    expect(found.map((d) => `${d.artifactId}:${d.version}`)).toEqual(['lib:1.0', 'other:10']);
  });

  it("reads an imported BOM from the local repository; the POM's own entry wins over it", async () => {
    const bom = `<project><groupId>b</groupId><artifactId>bom</artifactId><version>5</version><dependencyManagement><dependencies>${dep('x', 'lib', '5.5')}${dep('x', 'pinned', '5.5')}</dependencies></dependencyManagement></project>`;
    const text = pom(
      `<dependencyManagement><dependencies><dependency><groupId>b</groupId><artifactId>bom</artifactId><version>5</version><type>pom</type><scope>import</scope></dependency>${dep('x', 'pinned', '4.0')}</dependencies></dependencyManagement><dependencies>${dep('x', 'lib')}${dep('x', 'pinned')}</dependencies>`,
    );
    const found = await effectiveDependencies(text, 'pom.xml', source({}, { 'b:bom:5': bom }));
    expect(found.map((d) => `${d.artifactId}:${d.version} (${d.source})`)).toEqual([
      'lib:5.5 (bom b:bom:5)',
      'pinned:4.0 (dependencyManagement)',
    ]);
  });

  it('a version bumped through a BOM shows as a change of the managed dependency', async () => {
    const bom = (v: string) =>
      `<project><groupId>b</groupId><artifactId>bom</artifactId><version>${v}</version><dependencyManagement><dependencies>${dep('x', 'lib', `${v}.0`)}</dependencies></dependencyManagement></project>`;
    const text = (v: string) =>
      pom(
        `<dependencyManagement><dependencies><dependency><groupId>b</groupId><artifactId>bom</artifactId><version>${v}</version><type>pom</type><scope>import</scope></dependency></dependencies></dependencyManagement><dependencies>${dep('x', 'lib')}</dependencies>`,
      );
    const repo = { 'b:bom:1': bom('1'), 'b:bom:2': bom('2') };
    const before = await effectiveDependencies(text('1'), 'pom.xml', source({}, repo));
    const after = await effectiveDependencies(text('2'), 'pom.xml', source({}, repo));
    const changes = versionChanges(before, after);
    expect(changes).toEqual([
      { groupId: 'x', artifactId: 'lib', from: '1.0', to: '2.0', source: 'bom b:bom:2', fromSource: 'bom b:bom:1' },
    ]);
    // The change names the BOM bump that moved it.
    expect(bumpedThrough(changes[0]!)).toBe('bom b:bom 1 -> 2');
  });

  it('a version moved by a POM of its own is no BOM or parent bump', () => {
    const change = { groupId: 'x', artifactId: 'lib', from: '1', to: '2' };
    expect(bumpedThrough({ ...change, source: 'explicit', fromSource: 'explicit' })).toBeUndefined();
    // The BOM was swapped for another, not bumped; or the entry left the BOM for the POM.
    expect(bumpedThrough({ ...change, source: 'bom b:other:2', fromSource: 'bom b:bom:1' })).toBeUndefined();
    expect(bumpedThrough({ ...change, source: 'dependencyManagement', fromSource: 'bom b:bom:1' })).toBeUndefined();
    expect(bumpedThrough({ ...change, source: 'parent p:parent:3', fromSource: 'parent p:parent:2' })).toBe(
      'parent p:parent 2 -> 3',
    );
  });

  it('a POM that is not XML has no dependencies', async () => {
    expect(await effectiveDependencies('not <xml', 'pom.xml', source({}))).toEqual([]);
  });
});

describe('patterns carried from one site to the others', () => {
  it('keeps the arguments both sides share as wildcards', () => {
    const pattern = patternOfLine(
      '    return Formatter.format("%d", count);',
      '    return Formatter.format(count, java.util.Locale.ROOT, "%d");',
    )!;
    expect(applyPatterns('    return "total: " + Formatter.format("%d items", total);', [pattern])?.line).toBe(
      '    return "total: " + Formatter.format(total, java.util.Locale.ROOT, "%d items");',
    );
  });

  it('a constructor replaced by a factory carries to other arguments', () => {
    const pattern = patternOfLine('    Money m = new Money(5, "EUR");', '    Money m = Money.of(5, "EUR");')!;
    expect(pattern.from).toBe('new Money');
    expect(applyPatterns('fee = new Money(a, b);', [pattern])?.line).toBe('fee = Money.of(a, b);');
  });

  it('a line without the old code is left alone', () => {
    const patterns = patternsOf([{ before: 'a\n  clock.nanoTicks();\nb', after: 'a\n  clock.monotonicNanos();\nb' }]);
    expect(patterns.map((p) => `${p.from} -> ${p.to}`)).toEqual(['nanoTicks -> monotonicNanos']);
    expect(applyPatterns('  clock.millis();', patterns)).toBeUndefined();
  });
});
