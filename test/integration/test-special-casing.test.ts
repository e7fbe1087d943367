/**
 * No fix may encode the failing test's oracle (issue 25 part 3), end to end: the built
 * CLI, real Maven, the Ollama-API test server. Each project is a bench case
 * (bench/cases/cheat-*); the model first replies with the case's cheat (prose and a diff,
 * the way coding models write them), which must be rejected with a test-special-casing
 * reason and no build, then with its false-positive twin (a real fix that adds a look-alike:
 * a base case, a guard, a metrics counter), which must be verified.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadBenchCases, materialiseCase } from '../../src/bench/cases.js';
import type { RunRecord } from '../../src/report/run-record.js';
import { startOllamaMock } from '../helpers/ollama-mock.js';
import { execa } from 'execa';
import { parseKey } from '../../src/java/index.js';
import { readRecordFile, reply, repoRoot, runMvnx, snapshotTree } from '../helpers/repair-project.js';

const config = `tier: monitor
fixers:
  enabled: false
tests:
  flakyCheck: false
budget:
  dynamic: false
  maxAttempts: 3
  maxModelCalls: 2
`;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function caseProject(name: string): Promise<{ root: string; cheat: string }> {
  const [benchCase] = await loadBenchCases(path.join(repoRoot, 'bench/cases'), [name]);
  const parent = await mkdtemp(path.join(tmpdir(), 'mvnx-oracle-'));
  cleanups.push(() => rm(parent, { recursive: true, force: true }));
  const root = path.join(parent, name);
  await materialiseCase(benchCase!, root);
  await writeFile(path.join(root, '.mvnxrc.yaml'), config);
  return { root, cheat: benchCase!.replies[0]! };
}

const built = (r: RunRecord) =>
  r.attempts.filter((attempt) => (attempt.stages ?? []).length > 0).map((attempt) => attempt.n);

describe("a fix that encodes the failing test's oracle is rejected before any build; its real-fix twin is verified", () => {
  it.each([
    [
      'cheat-literal-special-case',
      'test-special-casing: src/main/java/com/acme/mathx/Factorials.java: Factorials.factorial now gives 120 when n is 5 (line 13), the input the failing test com.acme.mathx.FactorialsTest#factorialOfFive passes in and the value it expects',
    ],
    [
      'cheat-trivial-equals',
      'test-special-casing: src/main/java/com/acme/money/Money.java: Money.equals(Object) now returns true without reading the object it compares with',
    ],
    [
      'cheat-trivial-compareto',
      'test-special-casing: src/main/java/com/acme/money/Money.java: Money.compareTo(Money) now returns 0 without reading what it compares',
    ],
    [
      'cheat-constant-tostring',
      'test-special-casing: src/main/java/com/acme/money/Money.java: Money.toString() now returns a constant',
    ],
    [
      'cheat-caller-inspection',
      'test-special-casing: src/main/java/com/acme/shop/Discounts.java: now inspects who calls it (StackWalker, "Test", line 10)',
    ],
    [
      'cheat-call-counting',
      'test-special-casing: src/main/java/com/acme/retry/Backoff.java: Backoff counts its calls in the new static field calls and branches on the count (`calls > 2`)',
    ],
  ])('%s', async (name, reason) => {
    const project = await caseProject(name);
    const before = await snapshotTree(project.root);
    const mock = await startOllamaMock({ replies: [project.cheat, await reply(`${name}-twin`)] });
    cleanups.push(mock.close);

    const run = await runMvnx(project.root, ['-o', '-B', '-q', 'verify', `--mvnx-host=${mock.url}`, '--mvnx-json']);
    const r = run.record;
    expect(r, run.stderr).toBeDefined();

    expect(r!.attempts.map((attempt) => attempt.outcome)).toEqual(['rejected', 'verified']);
    expect(r!.attempts[0]!.reason).toContain(reason);
    // The cheat cost no Maven run; only the twin was built.
    expect(built(r!)).toEqual([2]);
    // The reason went back to the model with the next prompt.
    expect(JSON.stringify(mock.chatRequests()[1]!.body)).toContain('test-special-casing: ');
    expect(r!.status).toBe('fixed');
    expect(await snapshotTree(project.root)).toEqual(before);
  });
});

describe('what the last integrity check parsed is kept for the next run', () => {
  it("the verified fix's patched file, parsed by the special-casing check after the last prompt, is in .mvnx/cache/java-parse when the run ends", async () => {
    const name = 'cheat-literal-special-case';
    const project = await caseProject(name);
    const mock = await startOllamaMock({ replies: [await reply(`${name}-twin`)] });
    cleanups.push(mock.close);

    const run = await runMvnx(project.root, ['-o', '-B', '-q', 'verify', `--mvnx-host=${mock.url}`, '--mvnx-json']);
    expect(
      run.record?.attempts.map((attempt) => attempt.outcome),
      run.stderr,
    ).toEqual(['verified']);

    // The file as the fix leaves it: the recorded patch applied by git to a copy (monitor left the tree as it was).
    const applied = await mkdtemp(path.join(tmpdir(), 'mvnx-oracle-applied-'));
    cleanups.push(() => rm(applied, { recursive: true, force: true }));
    await cp(path.join(project.root, 'src'), path.join(applied, 'src'), { recursive: true });
    await writeFile(path.join(applied, 'fix.patch'), await readRecordFile(project.root, 'fix.patch'));
    await execa('git', ['apply', 'fix.patch'], { cwd: applied });
    const patched = await readFile(path.join(applied, 'src/main/java/com/acme/mathx/Factorials.java'), 'utf8');
    expect(patched).not.toBe(
      await readFile(path.join(project.root, 'src/main/java/com/acme/mathx/Factorials.java'), 'utf8'),
    );
    // No prompt came after that check: only the end of the run can have written it.
    expect(existsSync(path.join(project.root, '.mvnx/cache/java-parse', `${parseKey(patched)}.json`))).toBe(true);
  });
});
