/**
 * Dependency updates as they really come, end to end with real Maven (offline), real git and the scripted Ollama-API
 * server: several libraries bumped in one commit, a BOM bump that breaks two modules, a parent bump, a behaviour change whose library
 * ships a changelog and @deprecated text, a renamed constant used through a static import, and a bump found against
 * the last build that passed under mvnx (the bench's own cases under bench/dep-updates).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attributionRight,
  loadDepUpdateCases,
  materialiseDepUpdateCase,
  prepareRepository,
  renderClientPom,
  runDepUpdateCase,
  type DepUpdateCase,
} from '../../src/bench/dep-updates.js';
import { parseRunRecordFromStdout } from '../../src/bench/harness.js';

const casesDir = fileURLToPath(new URL('../../bench/dep-updates', import.meta.url));
const mvnxBin = fileURLToPath(new URL('../../dist/cli/mvnx.cjs', import.meta.url));
let scratch: string;
let repository: string;
let cases: Map<string, DepUpdateCase>;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'mvnx-dep-grouped-'));
  repository = await prepareRepository(casesDir, scratch);
  cases = new Map((await loadDepUpdateCases(casesDir)).map((c) => [c.name, c]));
}, 120_000);
afterAll(async () => rm(scratch, { recursive: true, force: true }));

const GUAVA = 'com.google.guava:guava 16.0.1 -> 33.0.0-jre';
const SHAPES = 'mvnxbench:shapes 1.0 -> 2.0';

describe('updates as they really come', () => {
  it('a grouped update (guava and shapes in one commit): each error names its own library; one quick-fix writes both, no model', async () => {
    const benchCase = cases.get('grouped-guava-shapes')!;
    const { record, prompt } = await runDepUpdateCase(benchCase, mvnxBin, repository, []);
    const update = record!.dependencyUpdate!;
    expect(update.updates?.map((u) => `${u.groupId}:${u.artifactId} ${u.from} -> ${u.to}`).sort()).toEqual([
      GUAVA,
      SHAPES,
    ]);
    const bySite = Object.fromEntries(update.differences.map((d) => [d.site, d.dependency]));
    expect(bySite).toEqual({
      'src/main/java/bench/Cleaner.java:7': GUAVA,
      'src/main/java/bench/Cleaner.java:11': GUAVA,
      'src/main/java/bench/Greeting.java:7': SHAPES,
    });
    expect(attributionRight(update, benchCase)).toBe(true);
    expect(prompt).toContain('The build broke after 2 dependencies were updated together');
    expect(record!.status).toBe('fixed');
    expect(record!.modelCalls).toBe(0);
    const verified = record!.attempts.find((a) => a.outcome === 'verified')!;
    expect(verified.fixer).toBe('dependency-update');
    expect([...verified.filesChanged].sort()).toEqual([
      'src/main/java/bench/Cleaner.java',
      'src/main/java/bench/Greeting.java',
    ]);
  }, 600_000);

  it("a parent bump: the managed version moved by the project's <parent>, named through it and fixed with no model", async () => {
    const benchCase = cases.get('parent-bump')!;
    const { record } = await runDepUpdateCase(benchCase, mvnxBin, repository, []);
    const update = record!.dependencyUpdate!;
    expect(update).toMatchObject({ groupId: 'mvnxbench', artifactId: 'shapes', from: '1.0', to: '2.0' });
    expect(update.via).toBe('parent mvnxbench:shapes-parent 1.0 -> 2.0');
    expect(update.differences.map((d) => d.site)).toEqual(['src/main/java/bench/Greeting.java:7']);
    expect(attributionRight(update, benchCase)).toBe(true);
    expect(record!.status).toBe('fixed');
    expect(record!.modelCalls).toBe(0);
    const verified = record!.attempts.find((a) => a.outcome === 'verified')!;
    expect(verified.filesChanged).toEqual(['src/main/java/bench/Greeting.java']);
  }, 600_000);

  it('a BOM bump that breaks two modules: named through the BOM, the second module read once the reactor reaches it, both fixed with no model', async () => {
    const benchCase = cases.get('bom-two-modules')!;
    const { record } = await runDepUpdateCase(benchCase, mvnxBin, repository, []);
    const update = record!.dependencyUpdate!;
    expect(update).toMatchObject({ groupId: 'mvnxbench', artifactId: 'shapes', from: '1.0', to: '2.0' });
    expect(update.via).toBe('bom mvnxbench:shapes-bom 1.0 -> 2.0');
    expect(update.updates?.map((u) => [`${u.groupId}:${u.artifactId} ${u.from} -> ${u.to}`, u.via])).toEqual([
      [SHAPES, 'bom mvnxbench:shapes-bom 1.0 -> 2.0'],
      [GUAVA, 'bom mvnxbench:shapes-bom 1.0 -> 2.0'],
    ]);
    expect(attributionRight(update, benchCase)).toBe(true);
    expect(record!.status).toBe('fixed');
    expect(record!.modelCalls).toBe(0);
    const changed = new Set(
      record!.attempts.filter((a) => a.fixer === 'dependency-update').flatMap((a) => a.filesChanged),
    );
    expect([...changed].sort()).toEqual([
      'core/src/main/java/bench/core/Greeting.java',
      'text/src/main/java/bench/text/Cleaner.java',
    ]);
  }, 900_000);

  it("a behaviour change: the failing test is the update's, and the prompt holds the members' @deprecated and doc text and the changelog in between", async () => {
    const benchCase = cases.get('behaviour-change-changelog')!;
    const { record, prompt } = await runDepUpdateCase(benchCase, mvnxBin, repository, benchCase.replies);
    expect(record?.dependencyUpdate).toMatchObject({
      groupId: 'mvnxbench',
      artifactId: 'shapes',
      from: '1.0',
      to: '2.0',
    });
    expect(record!.dependencyUpdate!.errors[0]).toMatch(/^bench\.ArticleTest#pathIsLowerCase: /);
    expect(prompt).toContain(
      '! deprecated in 2.0: Slugs.slug: "keeps the case since 2.0; use {@link #lowerSlug(String)} for the 1.0 result"',
    );
    expect(prompt).toContain(
      `~ doc of Slugs.slug: 1.0: "A URL slug: lower case, words joined by '-'."; 2.0: "A URL slug: words joined by '-', the letters' case kept."`,
    );
    expect(prompt).toContain('changelog (CHANGELOG.md of shapes 2.0, after 1.0):');
    expect(prompt).toContain("  | - `Slugs.slug` keeps the letters' case; `Slugs.lowerSlug` gives the 1.0 result.");
    // Only the versions after 1.0.
    expect(prompt).not.toContain('First release');
    expect(record!.status).toBe('fixed');
    expect(record!.modelCalls).toBe(1);
  }, 600_000);

  it('CharMatcher.WHITESPACE through `import static`: the import and the bare uses rewritten by the quick-fix, no model', async () => {
    const { record } = await runDepUpdateCase(cases.get('guava-static-import-rename')!, mvnxBin, repository, []);
    expect(record?.dependencyUpdate).toMatchObject({
      groupId: 'com.google.guava',
      artifactId: 'guava',
      from: '16.0.1',
      to: '33.0.0-jre',
    });
    expect(record!.dependencyUpdate!.differences.map((d) => d.quickFix)).toEqual([
      'field became a method: .WHITESPACE -> .whitespace()',
      'field became a method: .WHITESPACE -> .whitespace()',
      'field became a method: .WHITESPACE -> .whitespace()',
    ]);
    expect(record!.status).toBe('fixed');
    expect(record!.modelCalls).toBe(0);
    expect(record!.attempts.find((a) => a.outcome === 'verified')?.fixer).toBe('dependency-update');
  }, 600_000);

  it('a bump two commits back on the main branch: compared with the last build that passed under mvnx', async () => {
    const benchCase = cases.get('guava-case-only-rename')!;
    const root = path.join(scratch, 'previous-run');
    await mkdir(root);
    await materialiseDepUpdateCase(benchCase, root);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CI: 'true',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.invalid',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.invalid',
    };
    delete env.MVNX_HOST;
    delete env.OLLAMA_HOST;
    const git = (...args: string[]) => execa('git', args, { cwd: root, env });
    const mvnx = () =>
      execa(
        'node',
        [
          mvnxBin,
          '-o',
          '-q',
          // clean: the compiler plugin keeps classes built against the old jar when no source changed.
          'clean',
          'verify',
          `-Dmaven.repo.local=${repository}`,
          '--mvnx-sandbox=none',
          '--mvnx-tier=monitor',
          '--mvnx-json',
          '--mvnx-host=http://127.0.0.1:9',
        ],
        { cwd: root, env, reject: false, stdin: 'ignore', timeout: 600_000 },
      );
    // The old version builds; mvnx keeps that build (the project has a .mvnx folder, ignored by git).
    await writeFile(path.join(root, 'pom.xml'), renderClientPom(benchCase, benchCase.dependency.from));
    await writeFile(path.join(root, '.gitignore'), '.mvnx/\ntarget/\n');
    await mkdir(path.join(root, '.mvnx'));
    const passed = (await git('rev-parse', 'HEAD')).stdout.trim();
    expect((await mvnx()).exitCode).toBe(0);
    expect(existsSync(path.join(root, '.mvnx', 'last-passing-build.json'))).toBe(true);
    // The bump is committed, then another commit: HEAD~1 shows no version change.
    await writeFile(path.join(root, 'pom.xml'), renderClientPom(benchCase, benchCase.dependency.to));
    await git('commit', '-q', '-am', 'guava 33');
    await writeFile(path.join(root, 'NOTES.md'), 'notes\n');
    await git('add', '-A');
    await git('commit', '-q', '-m', 'notes');
    const failed = await mvnx();
    const record = parseRunRecordFromStdout(failed.stdout);
    expect(record?.dependencyUpdate).toMatchObject({
      groupId: 'com.google.guava',
      artifactId: 'guava',
      from: '16.0.1',
      to: '33.0.0-jre',
      previousRun: { commit: passed },
    });
    expect(record!.dependencyUpdate!.comparedWith).toMatch(
      new RegExp(`^the last passing build \\(\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z, ${passed.slice(0, 12)}\\)$`),
    );
    expect(record!.status).toBe('fixed');
    expect(record!.modelCalls).toBe(0);
  }, 900_000);
});
