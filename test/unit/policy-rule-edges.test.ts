/**
 * Edges of the path rules, the changed-line reading behind "low risk", the budget's reasons
 * and the JaCoCo reader: found by mutation testing (mutation/slices/policy-paths.config.mjs), where a
 * flipped quantifier, a dropped filter or an unanchored pattern left every earlier test green.
 */
import { describe, expect, it } from 'vitest';
import { isTrivialLine, lineChangesOf, nonTrivialChanges } from '../../src/policy/changed-lines.js';
import { computeBudget } from '../../src/policy/budget.js';
import { readJacocoLineCoverage } from '../../src/policy/coverage.js';
import {
  effectiveProtectedGlobs,
  normalizePath,
  protectionOf,
  stricterTier,
  tierForPaths,
} from '../../src/policy/paths.js';
import { configSchema, type ParsedConfig } from '../../src/policy/schema.js';

function policy(input: Record<string, unknown> = {}): ParsedConfig {
  return configSchema.parse(input);
}

const MAIN = 'src/main/java/com/acme/core/Order.java';
const TEST = 'src/test/java/com/acme/core/OrderTest.java';

describe('path rules', () => {
  it('orders tiers off < monitor < assist < auto, whichever comes first', () => {
    expect(stricterTier('off', 'auto')).toBe('off');
    expect(stricterTier('auto', 'off')).toBe('off');
    expect(stricterTier('assist', 'monitor')).toBe('monitor');
  });

  it('applies a module-scoped rule when any of its modules is touched', () => {
    const config = policy({ rules: [{ paths: ['**/*.java'], modules: ['core', 'web'], tier: 'monitor' }] });
    expect(tierForPaths([MAIN], ['core'], config).tier).toBe('monitor');
    expect(tierForPaths([MAIN], ['billing'], config).tier).toBe('assist');
  });

  it('applies a rule when any of its globs matches', () => {
    const config = policy({ rules: [{ paths: ['**/*Test.java', 'docs/**'], tier: 'auto' }] });
    expect(tierForPaths([TEST], [], config).tier).toBe('auto');
  });

  it('takes the strictest tier whatever the order of the paths', () => {
    const config = policy({
      rules: [
        { paths: ['**/legacy/**'], tier: 'monitor' },
        { paths: ['**/*Test.java'], tier: 'auto' },
      ],
    });
    expect(tierForPaths(['src/main/java/legacy/Old.java', TEST], [], config).tier).toBe('monitor');
    expect(tierForPaths([TEST, 'src/main/java/legacy/Old.java'], [], config).tier).toBe('monitor');
  });

  it('names a rule by its description, or by all its globs', () => {
    const described = policy({
      rules: [{ paths: ['**/core/**'], tier: 'auto', description: 'the core team trusts mvnx' }],
    });
    expect(tierForPaths([MAIN], [], described).reasons).toEqual([
      `${MAIN}: tier auto from rules[0] (the core team trusts mvnx)`,
    ]);
    const globs = policy({ rules: [{ paths: ['**/core/**', '**/web/**'], tier: 'auto' }] });
    expect(tierForPaths([MAIN], [], globs).reasons).toEqual([
      `${MAIN}: tier auto from rules[0] (paths **/core/**, **/web/**)`,
    ]);
  });

  it('gives no reason when no rule set a tier, and no "strictest" line for one path or for no rule', () => {
    const attemptsOnly = policy({ tier: 'auto', rules: [{ paths: ['**'], maxAttempts: 2 }] });
    expect(tierForPaths([MAIN], [], attemptsOnly)).toEqual({ tier: 'auto', reasons: [], maxAttempts: 2 });
    expect(tierForPaths([MAIN, TEST], [], policy())).toEqual({ tier: 'assist', reasons: [] });
    const oneRule = policy({ rules: [{ paths: ['**/core/**'], tier: 'monitor' }] });
    expect(tierForPaths([MAIN], [], oneRule).reasons).toEqual([
      `${MAIN}: tier monitor from rules[0] (paths **/core/**)`,
    ]);
  });

  it('keeps a path protected when a rule only gives it a tier, and adds what a protected rule names', () => {
    const config = policy({
      rules: [
        { paths: ['pom.xml'], tier: 'auto' },
        { paths: ['src/main/resources/keys/**'], protected: true },
      ],
    });
    const globs = effectiveProtectedGlobs(config);
    expect(globs).toContain('pom.xml');
    expect(globs).toContain('src/main/resources/keys/**');
    expect(protectionOf('pom.xml', [], config).protected).toBe(true);
    expect(effectiveProtectedGlobs(policy({ rules: [{ paths: ['pom.xml'], protected: false }] }))).not.toContain(
      'pom.xml',
    );
  });

  it('reads a path it cannot make canonical with forward slashes and no leading ./', () => {
    expect(normalizePath('../outside/A.java')).toBe('../outside/A.java');
    expect(normalizePath('/abs\\A.java')).toBe('/abs/A.java');
    expect(normalizePath('./../outside/A.java')).toBe('../outside/A.java');
  });
});

describe('changed lines', () => {
  it('reads no lines of a binary change', () => {
    expect(lineChangesOf({ path: 'lib/a.jar', before: 'one\n', after: 'two\n', binary: true })).toEqual({
      added: [],
      removed: [],
      replaced: [],
    });
  });

  it('reads a new file as added lines only and a deleted one as removed lines only', () => {
    expect(lineChangesOf({ path: MAIN, before: null, after: 'class A {}\n' })).toEqual({
      added: ['class A {}'],
      removed: [],
      replaced: [],
    });
    expect(lineChangesOf({ path: MAIN, before: 'class A {}\n', after: null })).toEqual({
      added: [],
      removed: ['class A {}'],
      replaced: [],
    });
  });

  it('pairs replaced lines in order and keeps the rest apart, without line ends', () => {
    const change = lineChangesOf({ path: MAIN, before: 'a\r\nb\r\nc\r\nkeep\r\n', after: 'x\r\nkeep\r\n' });
    expect(change).toEqual({ added: [], removed: ['b', 'c'], replaced: [{ before: 'a', after: 'x' }] });
    expect(lineChangesOf({ path: MAIN, before: 'a\nb\n', after: 'a\n' })).toEqual({
      added: [],
      removed: ['b'],
      replaced: [],
    });
  });

  it('reads the last line of a file without a final newline, and keeps a carriage return inside a line', () => {
    expect(lineChangesOf({ path: MAIN, before: 'return a;', after: 'return b;' })).toEqual({
      added: [],
      removed: [],
      replaced: [{ before: 'return a;', after: 'return b;' }],
    });
    expect(lineChangesOf({ path: MAIN, before: '', after: 'a\rb\n' }).added).toEqual(['a\rb']);
  });

  it.each([
    ['    return a * b;', false],
    ['   * the end of a comment */', true],
    ['   */', true],
    ['*/', true],
    ['# a properties comment', true],
  ])('%j trivial: %s', (line, expected) => {
    expect(isTrivialLine(line)).toBe(expected);
  });

  it('counts added and removed code lines, and a comment that became code', () => {
    expect(nonTrivialChanges({ added: ['return a;', '// why'], removed: ['int b = 1;'], replaced: [] })).toEqual([
      'return a;',
      'int b = 1;',
    ]);
    expect(nonTrivialChanges({ added: [], removed: [], replaced: [{ before: '// why', after: 'return 1;' }] })).toEqual(
      ['return 1;'],
    );
  });
});

describe('budget reasons', () => {
  const budget = policy().budget;

  it('says it is static, and lists every kind or none', () => {
    expect(
      computeBudget(
        { diagnostics: 1, files: 1, modules: 1, kinds: ['compile'], failedAttemptsWithProgress: 0 },
        { ...budget, dynamic: false },
      ).reasons,
    ).toEqual(['static budget (budget.dynamic is false)']);
    expect(
      computeBudget(
        { diagnostics: 2, files: 1, modules: 1, kinds: ['compile', 'test'], failedAttemptsWithProgress: 0 },
        budget,
      ).reasons[0],
    ).toBe('complexity 1.65 from 2 diagnostic(s), 1 file(s), 1 module(s), kinds compile/test');
    expect(
      computeBudget({ diagnostics: 1, files: 1, modules: 1, kinds: [], failedAttemptsWithProgress: 0 }, budget).reasons,
    ).toEqual(['complexity 1 from 1 diagnostic(s), 1 file(s), 1 module(s), kinds none']);
  });
});

describe('JaCoCo line coverage', () => {
  const line = (missed: string, covered: string) =>
    `<report name="x"><counter type="LINE" missed="${missed}" covered="${covered}"/></report>`;

  it('reads half covered as 50', () => {
    expect(readJacocoLineCoverage(line('3', '3'))).toBe(50);
  });

  it('has no coverage for a document without a report or counters, or with counts that are not numbers', () => {
    expect(readJacocoLineCoverage('<coverage/>')).toBeUndefined();
    expect(readJacocoLineCoverage('<report name="x"/>')).toBeUndefined();
    expect(readJacocoLineCoverage(line('1', 'many'))).toBeUndefined();
    expect(readJacocoLineCoverage(line('many', '1'))).toBeUndefined();
  });
});
