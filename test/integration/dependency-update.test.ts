/**
 * Dependency updates end to end with real Maven, real git and the scripted Ollama-API
 * server: a client committed at the old version of a library, bumped in its POM, and mvnx
 * run on it the way CI runs it (the bench's own cases under bench/dep-updates).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadDepUpdateCases,
  prepareRepository,
  runDepUpdateCase,
  type DepUpdateCase,
} from '../../src/bench/dep-updates.js';

const casesDir = fileURLToPath(new URL('../../bench/dep-updates', import.meta.url));
const mvnxBin = fileURLToPath(new URL('../../dist/cli/mvnx.cjs', import.meta.url));
let scratch: string;
let repository: string;
let cases: Map<string, DepUpdateCase>;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'mvnx-dep-it-'));
  repository = await prepareRepository(casesDir, scratch);
  cases = new Map((await loadDepUpdateCases(casesDir)).map((c) => [c.name, c]));
}, 120_000);
afterAll(async () => rm(scratch, { recursive: true, force: true }));

describe('a dependency update that breaks the build', () => {
  it('a static method moved to another class (a managed version): diagnosed with coordinates, fixed by the quick-fix, no model call', async () => {
    const { record } = await runDepUpdateCase(cases.get('static-member-moved')!, mvnxBin, repository, []);
    expect(record?.dependencyUpdate).toMatchObject({
      groupId: 'mvnxbench',
      artifactId: 'shapes',
      from: '1.0',
      to: '2.0',
      comparedWith: 'HEAD',
      oldVersionLocal: true,
    });
    expect(record!.dependencyUpdate!.errors).toEqual(['src/main/java/bench/Greeting.java:7: cannot find symbol']);
    const difference = record!.dependencyUpdate!.differences[0]!;
    expect(difference.failingLine).toBe('return Strings.firstNonEmpty(preferred, fallback);');
    expect(difference.method).toBe('method Greeting.name(String, String)');
    // The @deprecated text of the 1.0 sources jar is what points to MoreStrings.
    expect(difference.lines[0]).toBe(
      '- removed: static String Strings.firstNonEmpty(String, String) (deprecated in the old version: "use {@link MoreStrings#firstNonEmpty(String, String)} instead")',
    );
    expect(record!.status).toBe('fixed');
    expect(record!.modelCalls).toBe(0);
    expect(record!.attempts.find((a) => a.outcome === 'verified')?.fixer).toBe('dependency-update');
    expect(record!.dependencyUpdate!.patterns).toEqual([
      {
        from: 'Strings.firstNonEmpty',
        to: 'MoreStrings.firstNonEmpty',
        sites: ['src/main/java/bench/Greeting.java:7'],
        attempt: 1,
        outcome: 'verified',
      },
    ]);
  }, 600_000);

  it('a changed parameter list in two files: the prompt holds the new signature, the model fixes one file and its pattern the other', async () => {
    const benchCase = cases.get('changed-parameter-list')!;
    const { record, prompt } = await runDepUpdateCase(benchCase, mvnxBin, repository, benchCase.replies);
    expect(record?.dependencyUpdate).toMatchObject({
      groupId: 'mvnxbench',
      artifactId: 'shapes',
      from: '1.0',
      to: '2.0',
    });
    expect(record!.dependencyUpdate!.errors).toHaveLength(2);
    expect(prompt).toContain('The build broke after the dependency mvnxbench:shapes was updated from 1.0 to 2.0.');
    expect(prompt).toContain('- removed: static String Formatter.format(String, Object)');
    expect(prompt).toContain('+ added: static String Formatter.format(Object, Locale, String)');
    expect(record!.status).toBe('fixed');
    expect(record!.modelCalls).toBe(1);
    expect(record!.attempts.map((a) => `${a.fixer ?? a.source}:${a.outcome}`)).toEqual([
      'model:build-failed',
      'dependency-pattern:verified',
    ]);
    expect(record!.dependencyUpdate!.patterns?.[0]).toMatchObject({
      sites: ['src/main/java/bench/Summary.java:7'],
      outcome: 'verified',
    });
  }, 600_000);

  it('guava CharMatcher.WHITESPACE/ASCII -> whitespace()/ascii() (a rename only in case): fixed with no model call', async () => {
    // Real guava jars from ~/.m2; the quick-fix writes both sites, the build verifies it, no model server is asked.
    const { record } = await runDepUpdateCase(cases.get('guava-case-only-rename')!, mvnxBin, repository, []);
    expect(record?.dependencyUpdate).toMatchObject({
      groupId: 'com.google.guava',
      artifactId: 'guava',
      from: '16.0.1',
      to: '33.0.0-jre',
    });
    expect(record!.status).toBe('fixed');
    expect(record!.modelCalls).toBe(0);
    expect(record!.attempts.find((a) => a.outcome === 'verified')?.fixer).toBe('dependency-update');
    expect(record!.dependencyUpdate!.patterns?.map((p) => [p.from, p.to])).toEqual([
      ['.WHITESPACE; .ASCII', '.whitespace(); .ascii()'],
    ]);
  }, 600_000);

  it('a behaviour change that breaks a test: diagnosed as the update, and the prompt names the dependency', async () => {
    const benchCase = cases.get('behaviour-change-test')!;
    const { record, prompt } = await runDepUpdateCase(benchCase, mvnxBin, repository, benchCase.replies);
    expect(record?.dependencyUpdate).toMatchObject({
      groupId: 'mvnxbench',
      artifactId: 'shapes',
      from: '1.0',
      to: '2.0',
    });
    expect(record!.dependencyUpdate!.errors[0]).toMatch(/^bench\.InvoiceTest#roundsHalfUp: /);
    expect(prompt).toContain('The build broke after the dependency mvnxbench:shapes was updated from 1.0 to 2.0.');
    expect(record!.status).toBe('fixed');
  }, 600_000);
});
