import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactJarPath, readArtifactApi } from '../../src/maven/jar-api.js';
import { pointersIn, symbolDifference } from '../../src/repair/dependency-update/api-diff.js';
import { applyReplacement } from '../../src/repair/fixers/dependency-update.js';

const repo = path.join(homedir(), '.m2', 'repository');
const guava = (version: string) => ({ groupId: 'com.google.guava', artifactId: 'guava', version });
const hasGuava =
  existsSync(artifactJarPath(repo, guava('16.0.1'))) && existsSync(artifactJarPath(repo, guava('25.1-jre')));

describe.skipIf(!hasGuava)('API difference of guava 16.0.1 -> 25.1-jre (real jars from ~/.m2)', async () => {
  const old = (await readArtifactApi(repo, guava('16.0.1')))!;
  const fresh = (await readArtifactApi(repo, guava('25.1-jre')))!;

  it('a static method that moved to another class: removed, candidate in MoreObjects, quick-fix shape', () => {
    const difference = symbolDifference(
      { owner: 'com.google.common.base.Objects', member: 'firstNonNull', kind: 'method' },
      old,
      fresh,
    );
    expect(difference.lines).toContain('- removed: static Object Objects.firstNonNull(Object, Object)');
    expect(difference.lines[1]).toMatch(
      /^\? candidate: static Object MoreObjects\.firstNonNull\(Object, Object\) \(same parameters; in MoreObjects\)$/,
    );
    expect(difference.replacement).toEqual({
      shape: 'moved-static-member',
      member: 'firstNonNull',
      fromClass: 'com.google.common.base.Objects',
      toClass: 'com.google.common.base.MoreObjects',
    });
  });

  it('a constructor that is no longer public: two same-parameter factories are candidates, not a quick-fix', () => {
    // Without guava 16's sources jar nothing says createUnstarted() rather than createStarted(): the model chooses.
    const difference = symbolDifference(
      { owner: 'com.google.common.base.Stopwatch', kind: 'constructor', argumentTypes: [] },
      old,
      fresh,
    );
    expect(difference.lines).toContain('- removed: Stopwatch() (deprecated in the old version)');
    expect(difference.candidates).toEqual([
      'static Stopwatch Stopwatch.createStarted()',
      'static Stopwatch Stopwatch.createUnstarted()',
    ]);
    expect(difference.replacement).toBeUndefined();
  });

  it('a static method removed with a new one of the same descriptor: a rename', () => {
    const difference = symbolDifference(
      { owner: 'com.google.common.util.concurrent.MoreExecutors', member: 'sameThreadExecutor', kind: 'method' },
      old,
      fresh,
    );
    expect(difference.replacement).toEqual({
      shape: 'renamed-method',
      from: 'sameThreadExecutor',
      to: 'newDirectExecutorService',
      owner: 'com.google.common.util.concurrent.MoreExecutors',
    });
  });

  it('a member that is still there gives no replacement', () => {
    const difference = symbolDifference(
      { owner: 'com.google.common.base.Preconditions', member: 'checkNotNull', kind: 'method' },
      old,
      fresh,
    );
    expect(difference.replacement).toBeUndefined();
    expect(
      difference.lines.some((line) => line.startsWith('  kept: static Object Preconditions.checkNotNull(Object)')),
    ).toBe(true);
  });

  it("without the old jar: says so and lists the new version's members, no quick-fix", () => {
    const difference = symbolDifference(
      { owner: 'com.google.common.base.Objects', member: 'firstNonNull', kind: 'method' },
      undefined,
      fresh,
    );
    expect(difference.lines[0]).toBe(
      "(the old version is not in the local repository: showing the new version's Objects)",
    );
    expect(difference.replacement).toBeUndefined();
  });

  it('a class that moved package (same simple name, one other package)', () => {
    // Guava has no moved class in this range; an old name that 25.1 lacks shows as removed with near names.
    const difference = symbolDifference(
      { owner: 'com.google.common.base.Objects$ToStringHelper', kind: 'class' },
      old,
      fresh,
    );
    expect(difference.lines[0]).toBe(
      '- removed class: Objects.ToStringHelper (was com.google.common.base.Objects$ToStringHelper)',
    );
    expect(difference.lines).toContain(
      '~ moved: com.google.common.base.Objects$ToStringHelper -> com.google.common.base.MoreObjects$ToStringHelper',
    );
    // A nested class that moved to another outer class is not a plain import fix: the model decides.
    expect(difference.replacement).toBeUndefined();
  });
});

describe('deprecation pointers', () => {
  it('reads {@link} targets and "use x() instead"', () => {
    expect(pointersIn('use {@link MoreStrings#firstNonEmpty(String, String)} instead')).toEqual([
      { owner: 'MoreStrings', member: 'firstNonEmpty' },
    ]);
    expect(pointersIn('use {@link #find(String)}')).toEqual([{ member: 'find' }]);
    expect(pointersIn('Use millis() instead.')).toEqual([{ member: 'millis' }]);
    expect(pointersIn(undefined)).toEqual([]);
  });
});

describe('writing a replacement at a site', () => {
  const file = (body: string, imports = 'import com.google.common.base.Objects;\n') =>
    `package bench;\n\n${imports}\npublic class A {\n${body}\n}\n`;
  it('moves a static call to its new class and imports it', () => {
    const before = file('  String s = Objects.firstNonNull(a, "Objects.firstNonNull(");');
    const after = applyReplacement(before, 6, {
      shape: 'moved-static-member',
      member: 'firstNonNull',
      fromClass: 'com.google.common.base.Objects',
      toClass: 'com.google.common.base.MoreObjects',
    });
    expect(after).toContain('  String s = MoreObjects.firstNonNull(a, "Objects.firstNonNull(");');
    expect(after).toContain('import com.google.common.base.MoreObjects;');
  });
  it('turns a field read into the accessor call, not a method call of the same name', () => {
    const after = applyReplacement(file('  int s = p.x + p.x() + p.xx;', 'import m.Point;\n'), 6, {
      shape: 'field-to-accessor',
      field: 'x',
      accessor: 'x',
      owner: 'm.Point',
    });
    expect(after).toContain('  int s = p.x() + p.x() + p.xx;');
  });
  it('writes a factory for a constructor call, generic diamond included', () => {
    const after = applyReplacement(
      file('  Money m = new Money(1, "EUR"); Box<String> b = new Box<>(m);', 'import m.Money;\n'),
      6,
      { shape: 'constructor-to-factory', owner: 'm.Money', factory: 'of' },
    );
    expect(after).toContain('  Money m = Money.of(1, "EUR"); Box<String> b = new Box<>(m);');
  });
  it('fixes the import of a class that moved package', () => {
    const before = file('  String s = TextUtils.shout("x");', 'import a.util.TextUtils;\n');
    const after = applyReplacement(before, 3, {
      shape: 'moved-class',
      from: 'a.util.TextUtils',
      to: 'a.text.TextUtils',
    });
    expect(after).toContain('import a.text.TextUtils;\n');
    expect(after).not.toContain('a.util');
  });
  it('renames a method call and leaves a same-named text alone', () => {
    const after = applyReplacement(
      file('  long t = clock.currentMillis() + 1; // currentMillis()', 'import m.Clock;\n'),
      6,
      { shape: 'renamed-method', from: 'currentMillis', to: 'millis', owner: 'm.Clock' },
    );
    expect(after).toContain('  long t = clock.millis() + 1; // currentMillis()');
  });
});

describe('the symbols a compile error names', async () => {
  const { touchedSymbols } = await import('../../src/repair/dependency-update/analyse.js');
  const api = {
    jar: 'lib.jar',
    classes: new Map([['m.Point', { name: 'm.Point', access: 1, interfaces: [], deprecated: false, members: [] }]]),
    bySimpleName: new Map([['Point', ['m.Point']]]),
    packages: new Set(['m']),
  };
  const imports = [{ line: 3, endLine: 3, isStatic: false, name: 'm.Point', simpleName: 'Point' }];
  const error = (message: string, details: string[] = []) => ({
    kind: 'compile' as const,
    category: 'compile' as const,
    fixable: true,
    message,
    details,
    file: 'A.java',
    line: 7,
    fingerprint: 'f',
  });
  it('reads private field access, a constructor that is not public, and a missing method through the imports', () => {
    expect(touchedSymbols(error('x has private access in m.Point'), '  return p.x;', imports, [api])).toEqual([
      { owner: 'm.Point', member: 'x', kind: 'field' },
    ]);
    expect(
      touchedSymbols(
        error('Point(int,int) is not public in m.Point; cannot be accessed from outside package'),
        '  new Point(1, 2);',
        imports,
        [api],
      ),
    ).toEqual([{ owner: 'm.Point', kind: 'constructor', argumentTypes: ['int', 'int'] }]);
    expect(
      touchedSymbols(
        error('cannot find symbol', ['symbol:   method norm()', 'location: variable p of type m.Point']),
        '  p.norm();',
        imports,
        [api],
      ),
    ).toEqual([{ owner: 'm.Point', member: 'norm', kind: 'method', argumentTypes: [] }]);
    expect(touchedSymbols(error('package m.old does not exist'), 'import m.old.Shape;', [], [api])).toEqual([
      { owner: 'm.old.Shape', kind: 'class' },
    ]);
  });
  it("an error on a line that names none of the dependency's classes touches nothing", () => {
    expect(
      touchedSymbols(error('incompatible types: String cannot be converted to int'), '  int n = "x";', imports, [api]),
    ).toEqual([]);
  });
});
