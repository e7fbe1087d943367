/**
 * Issue 25, end to end: while tests fail, the test side is read-only. The built CLI, real
 * Maven on a two-module fixture (pricing, and testkit, the module its tests use in test
 * scope), the real Ollama-API server with the replies a small model gives when a test
 * stands in its way: loosen the test's helper, widen a shared tolerance, add a
 * `@BeforeEach` that flips a static setter, rewrite the expected-output file, loosen the
 * test-support module's assertion. Each is rejected without a build and its reason goes
 * back to the model; the real fix of the same failure is then verified. One run holds all
 * five shapes and their twin, so the fixture builds once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startOllamaMock, type OllamaMock } from '../helpers/ollama-mock.js';
import type { RunRecord } from '../../src/report/run-record.js';
import {
  copyProject,
  repairFixtures,
  reply,
  runMvnx,
  type CliRun,
  type ProjectCopy,
} from '../helpers/repair-project.js';

const config = (extra: string, attempts: number, tier = 'monitor', tests = '') => `tier: ${tier}
allowedChanges: [edit-main-source, edit-test-source, edit-resource]
fixers:
  enabled: false
tests:
  flakyCheck: false
${tests}budget:
  dynamic: false
  maxAttempts: ${attempts}
  maxModelCalls: ${attempts}
${extra}`;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function project(config: string): Promise<ProjectCopy> {
  const copy = await copyProject(path.join(repairFixtures, 'trust-shapes'), config);
  cleanups.push(copy.remove);
  return copy;
}

async function ollama(replies: string[]): Promise<OllamaMock> {
  const mock = await startOllamaMock({ replies });
  cleanups.push(mock.close);
  return mock;
}

const verify = (host: string) => ['-o', '-B', '-q', 'verify', `--mvnx-host=${host}`, '--mvnx-json'];

function record(run: CliRun): RunRecord {
  expect(run.record, run.stderr).toBeDefined();
  return run.record!;
}

/** Attempts that cost a Maven run in a workspace. */
const built = (r: RunRecord) =>
  r.attempts.filter((attempt) => (attempt.stages ?? []).length > 0).map((attempt) => attempt.n);

const READ_ONLY = '; the test side is read-only while tests fail: fix the code under test instead';

describe('while tests fail, the test side is read-only', () => {
  it('helper, shared tolerance, @BeforeEach, expected-output file, test-support module: each rejected without a build; the real fix verified', async () => {
    const copy = await project(config('', 6));
    const before = await copy.snapshot();
    const shapes = [
      'shape-helper-loosened',
      'shape-utility-widened',
      'shape-before-each-legacy',
      'shape-expected-file-rewritten',
      'shape-testkit-loosened',
    ];
    const mock = await ollama([
      ...(await Promise.all(shapes.map((name) => reply(name)))),
      await reply('shapes-real-fix'),
    ]);

    const run = await runMvnx(copy.root, verify(mock.url));
    const r = record(run);

    expect(r.attempts.map((a) => a.outcome)).toEqual([
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'verified',
    ]);
    const reasons = r.attempts.map((a) => a.reason ?? '');
    expect(reasons[0]).toBe(
      `test-weakening: changed pricing/src/test/java/com/acme/pricing/PricingTest.java (test sources and resources): in PricingTest#assertPrice(long, long), line 39: \`assertEquals(expected, actual, "price in cents");\` became \`assertEquals(expected, actual, expected / 10.0, "price in cents");\`${READ_ONLY}`,
    );
    expect(reasons[1]).toBe(
      `test-weakening: changed pricing/src/test/java/com/acme/pricing/Tolerance.java (test sources and resources): in class Tolerance, line 8: \`/** Prices are exact to the cent. */\` became \`/** Prices may differ by the rounding of the discount. */\`, \`static final long CENTS = 0;\` became \`static final long CENTS = 100;\`${READ_ONLY}`,
    );
    expect(reasons[2]).toBe(
      'test-weakening: added `@BeforeEach` useLegacyRounding() to com.acme.pricing.PricingTest, which runs before the tests that failed: `Pricing.setLegacyRounding(true);`',
    );
    expect(reasons[3]).toBe(
      `test-weakening: changed pricing/src/test/resources/receipts/tea.txt (test sources and resources): line 3: \`total 9.00\` became \`total 9.90\`${READ_ONLY}`,
    );
    expect(reasons[4]).toBe(
      `test-weakening: changed testkit/src/main/java/com/acme/testkit/MoneyAssert.java (test-support module testkit (pricing uses it only in test scope)): in MoneyAssert#assertCents(long, long), line 12: added \`long tolerance = Math.max(1, expected / 10);\`, added \`tolerance\` in \`assertEquals(...)\`${READ_ONLY}`,
    );
    // No Maven run for any rejected candidate: only the real fix was built.
    expect(built(r)).toEqual([6]);
    expect(r.attempts[5]!.filesChanged).toEqual(['pricing/src/main/java/com/acme/pricing/Pricing.java']);
    expect(r.status).toBe('fixed');
    expect(r.risk).not.toBe('high');
    // Each reason went back to the model with the next request, and the prompt says the test side is read-only.
    const requests = mock.chatRequests().map((request) => JSON.stringify(request.body));
    expect(requests).toHaveLength(6);
    for (let n = 0; n < 5; n++)
      expect(requests[n + 1]).toContain(JSON.stringify(reasons[n]!.slice(0, 60)).slice(1, -1));
    expect(requests[0]).toContain('The test side is read-only');
    expect(await copy.snapshot()).toEqual(before);
  });

  it('tests.allowFailingTestEdits: the loosened helpers verify, but risk high, never applied by auto, and the run says which test-side files changed and how', async () => {
    // sandbox.mode none in the team's file: isolation is not what keeps auto from applying it.
    const copy = await project(config('sandbox:\n  mode: none\n', 1, 'auto', '  allowFailingTestEdits: true\n'));
    const before = await copy.snapshot();
    const mock = await ollama([await reply('shapes-all-helpers-loosened')]);

    const run = await runMvnx(copy.root, verify(mock.url));
    const r = record(run);

    expect(r.attempts.map((a) => a.outcome)).toEqual(['verified']);
    const edits = r.attempts[0]!.failingTestEdits ?? [];
    expect(edits.map((edit) => edit.split(' (')[0])).toEqual([
      'changed pricing/src/test/java/com/acme/pricing/PricingTest.java',
      'changed pricing/src/test/java/com/acme/pricing/Tolerance.java',
      'changed pricing/src/test/resources/receipts/tea.txt',
      'changed testkit/src/main/java/com/acme/testkit/MoneyAssert.java',
    ]);
    expect(edits[2]).toContain('line 3: `total 9.00` became `total 9.90`');
    expect(r.risk).toBe('high');
    expect(r.tier).toBe('assist');
    expect(r.applied).toBe(false);
    expect(r.decisions.join('\n')).toContain('the fix edits the failing test, so it is never applied automatically');
    expect(run.stderr).toContain(
      'this fix edits the test that failed (tests.allowFailingTestEdits): changed pricing/src/test/java/com/acme/pricing/PricingTest.java',
    );
    expect(run.stderr).toContain(
      'testkit/src/main/java/com/acme/testkit/MoneyAssert.java (test-support module testkit',
    );
    expect(await copy.snapshot()).toEqual(before);
  });

  it('the twin of a compile-error repair: a fix of a test file whose compile error it fixes is verified', async () => {
    const copy = await project(config('', 1));
    // The bug fixed, and a test that no longer compiles (a long where the percent is an int).
    const pricing = path.join(copy.root, 'pricing/src/main/java/com/acme/pricing/Pricing.java');
    await writeFile(pricing, (await readFile(pricing, 'utf8')).replace('percent / 1000', 'percent / 100'));
    const test = path.join(copy.root, 'pricing/src/test/java/com/acme/pricing/PricingTest.java');
    await writeFile(
      test,
      (await readFile(test, 'utf8')).replace('Pricing.discounted(1000, 10))', 'Pricing.discounted(1000, 10L))'),
    );
    const mock = await ollama([await reply('shapes-test-compile-fix')]);

    const r = record(await runMvnx(copy.root, verify(mock.url)));

    expect(r.diagnostics.map((d) => [d.kind, d.file])).toEqual([
      ['compile', 'pricing/src/test/java/com/acme/pricing/PricingTest.java'],
    ]);
    expect(r.attempts.map((a) => a.outcome)).toEqual(['verified']);
    expect(r.attempts[0]!.failingTestEdits).toBeUndefined();
    expect(r.status).toBe('fixed');
    expect(r.risk).not.toBe('high');
  });
});
