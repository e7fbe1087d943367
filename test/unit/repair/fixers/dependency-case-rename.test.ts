/**
 * A static field that became a static method of the same name but for case and underscores, with the same type
 * (guava's `CharMatcher.WHITESPACE` -> `whitespace()`): the API difference of the real jars names it as the one
 * replacement, and the dependency-update quick-fix writes it with no model, through the fixer harness.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../../src/diagnose/types.js';
import type { FixerContext } from '../../../../src/plugins/contracts.js';
import type { BuiltInFixerContext } from '../../../../src/repair/fixers/support/built-in-context.js';
import { artifactJarPath, readArtifactApi } from '../../../../src/maven/jar-api.js';
import type { DependencyUpdateAnalysis } from '../../../../src/repair/dependency-update/analyse.js';
import {
  sameButForCaseAndUnderscores,
  symbolDifference,
  type Replacement,
} from '../../../../src/repair/dependency-update/api-diff.js';
import type { DependencyUpdateFixerData, PatternLog } from '../../../../src/repair/dependency-update/update-repair.js';
import { dependencyUpdateFixer } from '../../../../src/repair/fixers/dependency-update.js';
import { PROJECT_ROOT, testFixer } from '../../../helpers/fixer-tester.js';

const repo = path.join(homedir(), '.m2', 'repository');
const guava = (version: string) => ({ groupId: 'com.google.guava', artifactId: 'guava', version });
const hasGuava =
  existsSync(artifactJarPath(repo, guava('16.0.1'))) && existsSync(artifactJarPath(repo, guava('33.0.0-jre')));
const CHAR_MATCHER = 'com.google.common.base.CharMatcher';

describe('a name written in another case convention', () => {
  it('is the same name but for case and underscores, and not the name itself', () => {
    expect(sameButForCaseAndUnderscores('WHITESPACE', 'whitespace')).toBe(true);
    expect(sameButForCaseAndUnderscores('JAVA_LETTER_OR_DIGIT', 'javaLetterOrDigit')).toBe(true);
    expect(sameButForCaseAndUnderscores('ASCII', 'ascii')).toBe(true);
    expect(sameButForCaseAndUnderscores('ascii', 'ascii')).toBe(false);
    expect(sameButForCaseAndUnderscores('WHITESPACE', 'breakingWhitespace')).toBe(false);
    expect(sameButForCaseAndUnderscores('JAVA_DIGIT', 'javaLetterOrDigit')).toBe(false);
  });
});

describe.skipIf(!hasGuava)('guava 16.0.1 -> 33.0.0-jre, CharMatcher constants (real jars from ~/.m2)', async () => {
  const old = (await readArtifactApi(repo, guava('16.0.1')))!;
  const fresh = (await readArtifactApi(repo, guava('33.0.0-jre')))!;
  const field = (member: string) => symbolDifference({ owner: CHAR_MATCHER, member, kind: 'field' }, old, fresh);

  it('WHITESPACE -> whitespace(): one replacement although five methods of that type are candidates', () => {
    const difference = field('WHITESPACE');
    expect(difference.candidates).toHaveLength(5);
    expect(difference.candidates[0]).toBe('static CharMatcher CharMatcher.whitespace()');
    expect(difference.replacement).toEqual({
      shape: 'field-to-accessor',
      field: 'WHITESPACE',
      accessor: 'whitespace',
      owner: CHAR_MATCHER,
    });
  });

  it('ASCII -> ascii() and JAVA_LETTER_OR_DIGIT -> javaLetterOrDigit() (underscores too)', () => {
    expect(field('ASCII').replacement).toMatchObject({ accessor: 'ascii' });
    expect(field('JAVA_LETTER_OR_DIGIT').replacement).toMatchObject({ accessor: 'javaLetterOrDigit' });
  });

  it('a field that is still there gives no replacement', () => {
    // Ascii.MAX is a field in both versions: nothing was renamed.
    const kept = symbolDifference({ owner: 'com.google.common.base.Ascii', member: 'MAX', kind: 'field' }, old, fresh);
    expect(kept.replacement).toBeUndefined();
  });
});

const TRIM = 'src/main/java/app/Trim.java';
const java = (...lines: string[]) => `${lines.join('\n')}\n`;
const trim = (expression: string) =>
  java(
    'package app;',
    '',
    'import com.google.common.base.CharMatcher;',
    '',
    'public class Trim {',
    '  public String clean(String text) {',
    `    return ${expression};`,
    '  }',
    '}',
  );
const missing = (line: number, column: number, name: string) => [
  `[ERROR] ${PROJECT_ROOT}/${TRIM}:[${line},${column}] cannot find symbol`,
  `  symbol:   variable ${name}`,
  `  location: class ${CHAR_MATCHER}`,
];

/** The run's update as the analysis gives it to the fixers: one error at Trim.java:7 with its replacement. */
function contextFor(replacement: Replacement | undefined): FixerContext {
  const diagnostic: Diagnostic = {
    kind: 'compile',
    category: 'compile',
    fixable: true,
    message: 'cannot find symbol',
    file: TRIM,
    line: 7,
    fingerprint: `${TRIM}:7`,
  };
  const api = { jar: 'guava.jar', classes: new Map(), bySimpleName: new Map(), packages: new Set<string>() };
  const analysis: DependencyUpdateAnalysis = {
    change: {
      groupId: 'com.google.guava',
      artifactId: 'guava',
      from: '16.0.1',
      to: '33.0.0-jre',
      source: 'pom.xml',
      comparedWith: 'HEAD',
    },
    newApi: api,
    errors: [{ diagnostic, site: `${TRIM}:7`, symbols: [], lines: [], ...(replacement ? { replacement } : {}) }],
    tests: [],
  };
  const dependencyUpdate: DependencyUpdateFixerData = {
    analysis: () => analysis,
    log: new Map() as PatternLog,
    readOriginal: async () => '',
  };
  // What the engine hands every fixer: the plugin contract's fields and, for built-in fixers, the run's update.
  const context: BuiltInFixerContext = { dependencyUpdate };
  return context as FixerContext;
}

const caseRename: Replacement = {
  shape: 'field-to-accessor',
  field: 'WHITESPACE',
  accessor: 'whitespace',
  owner: CHAR_MATCHER,
};

testFixer(dependencyUpdateFixer, [
  {
    name: 'CharMatcher.WHITESPACE.trimFrom(text) -> CharMatcher.whitespace().trimFrom(text)',
    files: { [TRIM]: trim('CharMatcher.WHITESPACE.trimFrom(text)') },
    log: missing(7, 23, 'WHITESPACE'),
    edit: { [TRIM]: trim('CharMatcher.whitespace().trimFrom(text)') },
    reason: 'com.google.guava:guava 16.0.1 -> 33.0.0-jre',
    context: contextFor(caseRename),
  },
  {
    name: 'leaves the name alone inside a string on the same line',
    files: { [TRIM]: trim('"WHITESPACE" + CharMatcher.WHITESPACE.trimFrom(text)') },
    log: missing(7, 36, 'WHITESPACE'),
    edit: { [TRIM]: trim('"WHITESPACE" + CharMatcher.whitespace().trimFrom(text)') },
    context: contextFor(caseRename),
  },
  {
    name: 'proposes nothing when the difference named no single replacement (the model decides)',
    files: { [TRIM]: trim('CharMatcher.WHITESPACE.trimFrom(text)') },
    log: missing(7, 23, 'WHITESPACE'),
    edit: 'none',
    context: contextFor(undefined),
  },
]);

// Through `import static ...CharMatcher.WHITESPACE;`: javac reports the import line (symbol `static WHITESPACE`) and
// each bare use (symbol `variable WHITESPACE` in the client's own class).
const SQUEEZE = 'src/main/java/app/Squeeze.java';
const squeeze = (member: string, imported = `CharMatcher.${member}`) =>
  java(
    'package app;',
    '',
    `import static com.google.common.base.${imported};`,
    '',
    'public class Squeeze {',
    '  public String squeeze(String text) {',
    `    return ${member}.trimAndCollapseFrom(text, ' ');`,
    '  }',
    '',
    '  public boolean blank(String text) {',
    `    return "WHITESPACE".isEmpty() || ${member}.matchesAllOf(text);`,
    '  }',
    '}',
  );
const staticErrors = [
  `[ERROR] ${PROJECT_ROOT}/${SQUEEZE}:[3,1] cannot find symbol`,
  '  symbol:   static WHITESPACE',
  '  location: class CharMatcher',
  `[ERROR] ${PROJECT_ROOT}/${SQUEEZE}:[7,12] cannot find symbol`,
  '  symbol:   variable WHITESPACE',
  '  location: class app.Squeeze',
  `[ERROR] ${PROJECT_ROOT}/${SQUEEZE}:[11,37] cannot find symbol`,
  '  symbol:   variable WHITESPACE',
  '  location: class app.Squeeze',
];

function staticContext(replacement: Replacement): FixerContext {
  const site = (line: number): Diagnostic => ({
    kind: 'compile',
    category: 'compile',
    fixable: true,
    message: 'cannot find symbol',
    file: SQUEEZE,
    line,
    fingerprint: `${SQUEEZE}:${line}`,
  });
  const api = { jar: 'guava.jar', classes: new Map(), bySimpleName: new Map(), packages: new Set<string>() };
  const analysis: DependencyUpdateAnalysis = {
    change: {
      groupId: 'com.google.guava',
      artifactId: 'guava',
      from: '16.0.1',
      to: '33.0.0-jre',
      source: 'pom.xml',
      comparedWith: 'HEAD',
    },
    newApi: api,
    errors: [3, 7, 11].map((line) => ({
      diagnostic: site(line),
      site: `${SQUEEZE}:${line}`,
      symbols: [],
      lines: [],
      replacement,
    })),
    tests: [],
  };
  const context: BuiltInFixerContext = {
    dependencyUpdate: { analysis: () => analysis, log: new Map() as PatternLog, readOriginal: async () => '' },
  };
  return context as FixerContext;
}

testFixer(dependencyUpdateFixer, [
  {
    name: 'import static CharMatcher.WHITESPACE: the import and the bare uses become whitespace / whitespace()',
    files: { [SQUEEZE]: squeeze('WHITESPACE') },
    log: staticErrors,
    // The string "WHITESPACE" on line 11 stays.
    edit: { [SQUEEZE]: squeeze('whitespace()', 'CharMatcher.whitespace') },
    context: staticContext(caseRename),
  },
  {
    name: 'import static CharMatcher.*: the bare uses become whitespace(), the import stays',
    files: { [SQUEEZE]: squeeze('WHITESPACE', 'CharMatcher.*') },
    log: staticErrors.slice(3),
    edit: { [SQUEEZE]: squeeze('whitespace()', 'CharMatcher.*') },
    context: staticContext(caseRename),
  },
]);

describe.skipIf(!hasGuava)('a renamed constant used through a static import names its owner (real jars)', async () => {
  const { touchedSymbols } = await import('../../../../src/repair/dependency-update/analyse.js');
  const old = (await readArtifactApi(repo, guava('16.0.1')))!;
  const fresh = (await readArtifactApi(repo, guava('33.0.0-jre')))!;
  const single = [
    {
      line: 3,
      endLine: 3,
      isStatic: true,
      name: 'com.google.common.base.CharMatcher.WHITESPACE',
      simpleName: 'WHITESPACE',
    },
  ];
  const error = (details: string[]): Diagnostic => ({
    kind: 'compile',
    category: 'compile',
    fixable: true,
    message: 'cannot find symbol',
    details,
    file: SQUEEZE,
    line: 7,
    fingerprint: 'f',
  });
  const whitespace = { owner: CHAR_MATCHER, member: 'WHITESPACE', kind: 'field' };

  it('the import line (symbol: static WHITESPACE, location: class CharMatcher) and a bare use', () => {
    const onImport = error(['symbol:   static WHITESPACE', 'location: class CharMatcher']);
    expect(
      touchedSymbols(onImport, 'import static com.google.common.base.CharMatcher.WHITESPACE;', single, [old, fresh]),
    ).toEqual([whitespace]);
    const bare = error(['symbol:   variable WHITESPACE', 'location: class app.Squeeze']);
    expect(touchedSymbols(bare, "    return WHITESPACE.trimAndCollapseFrom(text, ' ');", single, [old, fresh])).toEqual(
      [whitespace],
    );
    // Through `CharMatcher.*`: the old CharMatcher had such a member.
    const wildcard = [{ ...single[0]!, name: 'com.google.common.base.CharMatcher.*', simpleName: '*' }];
    expect(touchedSymbols(bare, '    return WHITESPACE.matchesAllOf(text);', wildcard, [old, fresh])).toEqual([
      whitespace,
    ]);
    // The difference of that symbol is the case-only rename.
    expect(symbolDifference({ ...whitespace, kind: 'field' }, old, fresh).replacement).toEqual(caseRename);
  });

  it("a bare name no static import brings in is the client's own (not the dependency's)", () => {
    const bare = error(['symbol:   variable WHITESPACE', 'location: class app.Squeeze']);
    const own = [{ owner: 'app.Squeeze', member: 'WHITESPACE', kind: 'field' }];
    expect(touchedSymbols(bare, '    return WHITESPACE.matchesAllOf(text);', [], [old, fresh])).toEqual(own);
    const other = [{ ...single[0]!, name: 'com.google.common.base.CharMatcher.ASCII', simpleName: 'ASCII' }];
    expect(touchedSymbols(bare, '    return WHITESPACE.matchesAllOf(text);', other, [old, fresh])).toEqual(own);
  });
});
