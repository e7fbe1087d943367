import { describe, expect, it } from 'vitest';
import { fileArgument, mavenGoals, parseMavenArgs, MavenArgsError } from '../../src/maven/args.js';
import { DEFAULT_LIFECYCLE, LIFECYCLE_PHASES, MAVEN_OPTIONS, defaultPhaseIndex } from '../../src/maven/facts.js';
import { mavenGoals as policyGoals } from '../../src/policy/decide-attempt.js';
import { parseMavenArgs as workspaceParse } from '../../src/workspace/maven-args.js';
import { nearestPhase } from '../../src/diagnose/categories.js';

describe('one table of Maven facts (maven/facts.ts)', () => {
  it('the policy, the workspace and the start folder read the command line with the same reader', () => {
    expect(policyGoals).toBe(mavenGoals);
    expect(workspaceParse).toBe(parseMavenArgs);
  });

  it('the policy knows every value-taking option, including --color and joined forms', () => {
    // --color takes a value: `always` is not a goal (the policy's own list missed it).
    expect(mavenGoals(['--color', 'always', 'verify'])).toEqual(['verify']);
    expect(mavenGoals(['-plcore', '-Pci', '-T1C', 'test'])).toEqual(['test']);
    expect(mavenGoals(['--projects=a,b', '-l', 'build.log', 'install'])).toEqual(['install']);
  });

  it('a value-taking option at the end is kept, not a crash, for readers that only look; the strict reader refuses it', () => {
    expect(mavenGoals(['verify', '-pl'])).toEqual(['verify']);
    expect(fileArgument(['-f'])).toBeUndefined();
    expect(() => parseMavenArgs(['verify', '-pl'])).toThrow(MavenArgsError);
    expect(() => parseMavenArgs(['verify', '-pl'])).toThrow(
      'Maven option -pl needs a value, but it is the last argument',
    );
  });

  it('-f is read from the table: -fae/-ff/-fn are flags, -fX and --file=X are files', () => {
    expect(fileArgument(['-fae', '-fsub/pom.xml', 'verify'])).toBe('sub/pom.xml');
    expect(fileArgument(['--file', 'a.xml', '--file=b.xml'])).toBe('b.xml');
    expect(fileArgument(['-D', '-fnot-a-file', 'verify'])).toBeUndefined();
  });

  it('declares each option once and the lifecycles in order', () => {
    const shorts = MAVEN_OPTIONS.flatMap((o) => (o.short ? [o.short] : []));
    expect(new Set(shorts).size).toBe(shorts.length);
    expect(new Set(MAVEN_OPTIONS.map((o) => o.long)).size).toBe(MAVEN_OPTIONS.length);
    expect(DEFAULT_LIFECYCLE.at(-1)).toBe('deploy');
    expect(defaultPhaseIndex('test-compile')).toBeLessThan(defaultPhaseIndex('test'));
    expect(defaultPhaseIndex('clean')).toBe(-1);
    expect(LIFECYCLE_PHASES).toContain('site-deploy');
    expect(nearestPhase('pre-clen')).toBe('pre-clean');
    expect(nearestPhase('verfy')).toBe('verify');
  });
});
