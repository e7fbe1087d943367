/**
 * "Verified" must mean trustworthy (issue 12), end to end: the built CLI, real Maven, the
 * real Ollama-API server with the replies a 7B model gives (editing the test instead of
 * the code, disabling it, skipping it, quarantining it), and the run record it leaves.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startOllamaMock, type OllamaMock } from '../helpers/ollama-mock.js';
import type { RunRecord } from '../../src/report/run-record.js';
import {
  copyProject,
  readRecordFile,
  repairFixtures,
  reply,
  runMvnx,
  type CliRun,
  type ProjectCopy,
} from '../helpers/repair-project.js';

const modelOnly = (extra = '', calls = 4) => `tier: monitor
fixers:
  enabled: false
budget:
  dynamic: false
  maxAttempts: 4
  maxModelCalls: ${calls}
${extra}`;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function project(name: string, config: string): Promise<ProjectCopy> {
  const copy = await copyProject(path.join(repairFixtures, name), config);
  cleanups.push(copy.remove);
  return copy;
}

async function ollama(
  replies: string[],
  extra: Partial<Parameters<typeof startOllamaMock>[0]> = {},
): Promise<OllamaMock> {
  const mock = await startOllamaMock({ replies, ...extra });
  cleanups.push(mock.close);
  return mock;
}

const verify = (host: string) => ['-o', '-B', '-q', 'verify', `--mvnx-host=${host}`, '--mvnx-json'];

/** The contract: every attempt has a fingerprint. */
function record(run: CliRun): RunRecord {
  expect(run.record, run.stderr).toBeDefined();
  for (const attempt of run.record!.attempts)
    expect(attempt.fingerprint, `attempt ${attempt.n}`).toMatch(/^[0-9a-f]{64}$/);
  return run.record!;
}

/** Attempts that cost a verification build. */
const built = (r: RunRecord) =>
  r.attempts.filter((attempt) => (attempt.stages ?? []).length > 0).map((attempt) => attempt.n);

describe('test-weakening patches are rejected before any build', () => {
  it('a reply that changes the expected value of the failing assertion: rejected, the reason goes back to the model, then the real fix', async () => {
    const copy = await project('calc-logic-bug', modelOnly());
    const before = await copy.snapshot();
    const mock = await ollama([await reply('weaken-expected-value'), await reply('logic-bug-fix')]);

    const r = record(await runMvnx(copy.root, verify(mock.url)));

    expect(r.attempts.map((a) => a.outcome)).toEqual(['rejected', 'verified']);
    expect(r.attempts[0]!.reason).toBe(
      'test-weakening: changed the expected value of `assertEquals` in com.acme.calc.CalculatorTest#multipliesTwoNumbers from `6` to `5`',
    );
    expect(r.attempts[0]!.filesChanged).toEqual(['src/test/java/com/acme/calc/CalculatorTest.java']);
    expect(built(r)).toEqual([2]);
    expect(r.status).toBe('fixed');
    expect(r.stopReason).toBe('fixed');
    expect(r.decisions).toContain(
      'flaky check: the failing tests failed again when re-run on the unchanged code; repairing',
    );
    expect(JSON.stringify(mock.chatRequests()[1]!.body)).toContain('test-weakening: changed the expected value');
    expect(await copy.snapshot()).toEqual(before);
  });

  it.each([
    [
      'disable-failing-test',
      'test-weakening: added `@Disabled("fails on CI, to be investigated")` to com.acme.calc.CalculatorTest#multipliesTwoNumbers',
    ],
    [
      'assume-skip',
      'test-weakening: added `Assumptions.assumeTrue(Boolean.getBoolean("calc.multiply.ready"), "multiplication not ready")` to com.acme.calc.CalculatorTest#multipliesTwoNumbers',
    ],
    ['delete-passing-test', 'test-weakening: deleted test com.acme.calc.CalculatorTest#addsTwoNumbers'],
  ])(
    'a reply that weakens the tests (%s): rejected with a test-weakening reason, no build, unfixed',
    async (name, reason) => {
      const copy = await project('calc-logic-bug', modelOnly('', 1));
      const mock = await ollama([await reply(name)]);

      const run = await runMvnx(copy.root, verify(mock.url));
      const r = record(run);

      expect(r.attempts.map((a) => a.outcome)).toEqual(['rejected']);
      expect(r.attempts[0]!.reason).toContain(reason);
      expect(built(r)).toEqual([]);
      expect(r.status).toBe('unfixed');
      expect(r.stopReason).toBe('budget-exhausted');
      expect(run.exitCode).toBe(1);
    },
  );

  it('a reply that sets testFailureIgnore, where the team lets mvnx edit the pom: rejected, no build', async () => {
    const lifted =
      'allowedChanges: [edit-main-source, edit-test-source, edit-build-file]\nrules:\n  - paths: [pom.xml, "**/pom.xml"]\n    protected: false\n';
    const copy = await project('calc-logic-bug', modelOnly(lifted, 1));
    const mock = await ollama([await reply('surefire-ignore-failures')]);

    const r = record(await runMvnx(copy.root, verify(mock.url)));

    expect(r.attempts.map((a) => a.outcome)).toEqual(['rejected']);
    expect(r.attempts[0]!.reason).toBe(
      "test-weakening: pom.xml: adds <testFailureIgnore>true</testFailureIgnore> to maven-surefire-plugin's configuration, which lets failing tests pass the build",
    );
    expect(built(r)).toEqual([]);
    expect(r.status).toBe('unfixed');
  });
});

describe('the verification build must show the fix', () => {
  it('a fix that quarantines the failing test class passes the build but is regressed: a test went missing', async () => {
    const copy = await project(
      'calc-quarantine',
      modelOnly('allowedChanges: [edit-main-source, edit-test-source, edit-other]\n', 1),
    );
    const mock = await ollama([await reply('quarantine-and-fix')]);

    const r = record(await runMvnx(copy.root, verify(mock.url)));

    expect(r.attempts.map((a) => a.outcome)).toEqual(['regressed']);
    expect(r.attempts[0]!.reason).toMatch(/^test-weakening: /);
    expect(r.attempts[0]!.reason).toContain(
      'com.acme.calc.CalculatorTest#multipliesTwoNumbers, which failed in your build, did not run',
    );
    expect(r.attempts[0]!.reason).toContain('module calc ran 0 tests, fewer than the 2 that ran in your build');
    // The one Maven run passed; the quarantined class never reported, so the failing tests were not reached: only the reports showed what the patch did.
    expect(r.attempts[0]!.stages?.map((stage) => [stage.name, stage.exitCode, stage.failingFirst])).toEqual([
      ['full', 0, 'not-reached'],
    ]);
    expect(r.status).toBe('unfixed');
  });
});

describe('tests.allowFailingTestEdits', () => {
  it('lets a fix that edits the failing test be verified, but as high risk, never applied by auto, and says so', async () => {
    const copy = await project(
      'calc-logic-bug',
      modelOnly('tests:\n  allowFailingTestEdits: true\n', 1).replace('tier: monitor', 'tier: auto'),
    );
    const before = await copy.snapshot();
    const mock = await ollama([await reply('weaken-expected-value')]);

    const run = await runMvnx(copy.root, verify(mock.url));
    const r = record(run);

    expect(r.attempts.map((a) => a.outcome)).toEqual(['verified']);
    expect(r.attempts[0]!.failingTestEdits).toEqual([
      'changed the expected value of `assertEquals` in com.acme.calc.CalculatorTest#multipliesTwoNumbers from `6` to `5`',
    ]);
    expect(r.status).toBe('fixed');
    expect(r.risk).toBe('high');
    expect(r.applied).toBe(false);
    expect(r.tier).toBe('assist');
    expect(r.decisions.join('\n')).toContain('the fix edits the failing test, so it is never applied automatically');
    expect(run.stderr).toContain('this fix edits the test that failed');
    expect(run.exitCode).toBe(1);
    expect(await copy.snapshot()).toEqual(before);
  });
});

describe('the flaky check', () => {
  it('a test that fails every other run: stop flaky, the model request made beside the re-check thrown away, the tests recorded, Maven exit code kept', async () => {
    const copy = await project('calc-flaky', modelOnly());
    const mock = await ollama([await reply('logic-bug-fix')]);

    const run = await runMvnx(copy.root, verify(mock.url));
    const r = record(run);

    expect(r.stopReason).toBe('flaky');
    expect(r.status).toBe('unfixed');
    expect(r.flakyTests).toEqual(['com.acme.calc.ExchangeRateTest#convertsAtTheCurrentRate']);
    expect(r.timings.recheckMs).toBeGreaterThan(0);
    expect(r.attempts).toEqual([]);
    // Asked at once, beside the re-check (prompt building and the HTTP wait need no Maven); nothing of it was used,
    // and the record says a request was made and thrown away, not that none was made.
    expect(mock.chatRequests()).toHaveLength(1);
    expect(r.modelCalls).toBe(1);
    expect(r.discardedModelCalls).toBe(1);
    expect(r.modelRequests).toHaveLength(1);
    expect(r.modelRequests![0]!.discarded).toBe('the failing tests passed when re-run (flaky)');
    expect(['answered', 'cancelled']).toContain(r.modelRequests![0]!.outcome);
    const decision = r.decisions.find((line) => line.startsWith('flaky: '));
    expect(decision).toContain('the model request made beside the re-check was cancelled and its reply not used');
    expect(decision).not.toContain('no model was asked');
    expect(run.stderr).not.toContain('attempt 1 (model)');
    expect(run.stderr).not.toContain('no model was asked');
    expect(run.stderr).toContain("attempt 1's model request, made beside the re-check, was discarded unused");
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('re-running the failing tests on the unchanged code (tests.flakyCheck)');
    expect(run.stderr).toContain('passed when re-run on the unchanged code');
    const stats = await runMvnx(copy.root, ['runs', '--stats']);
    expect(stats.stdout).toMatch(/model calls\s+1 \(1 discarded unused beside a flaky re-check\)/);
  });

  it('tests.flakyCheck alone: no model request at all while the re-check runs, and the record says none was asked', async () => {
    const copy = await project('calc-flaky', modelOnly('tests:\n  flakyCheck: alone\n'));
    const mock = await ollama([], { failIfCalled: true });

    const run = await runMvnx(copy.root, verify(mock.url));
    const r = record(run);

    expect(r.stopReason).toBe('flaky');
    expect(mock.chatRequests()).toHaveLength(0);
    // Not even the model's load ahead (an empty chat): the server hears nothing of a failure that may be flaky.
    expect(mock.requests.filter((request) => request.path === '/api/chat')).toEqual([]);
    expect(r.modelLoad).toBeUndefined();
    expect(r.modelCalls).toBe(0);
    expect(r.discardedModelCalls).toBeUndefined();
    expect(r.modelRequests ?? []).toEqual([]);
    expect(r.decisions.find((line) => line.startsWith('flaky: '))).toContain('no model was asked');
    expect(run.stderr).toContain('no model was asked');
    expect(run.exitCode).toBe(1);
  });

  it('four tests that fail every other run: the first three re-run first pass, so the fourth is re-run too, and all four are flaky', async () => {
    const copy = await project('calc-flaky', modelOnly());
    const file = path.join(copy.root, 'src/test/java/com/acme/calc/ExchangeRateTest.java');
    const method = (await readFile(file, 'utf8')).match(
      / {4}@Test\n {4}void convertsAtTheCurrentRate[\s\S]*?\n {4}}\n/,
    )![0];
    const more = [2, 3, 4].map((n) =>
      method
        .replace('convertsAtTheCurrentRate', `convertsAtTheCurrentRate${n}`)
        .replace('"flaky-runs.txt"', `"flaky-runs-${n}.txt"`),
    );
    await writeFile(file, (await readFile(file, 'utf8')).replace(/}\s*$/, `${more.join('\n')}}\n`));
    const mock = await ollama([await reply('logic-bug-fix')]);

    const r = record(await runMvnx(copy.root, verify(mock.url)));

    expect(r.stopReason).toBe('flaky');
    expect(r.flakyTests).toEqual(
      ['', '2', '3', '4'].map((n) => `com.acme.calc.ExchangeRateTest#convertsAtTheCurrentRate${n}`),
    );
    expect(r.attempts).toEqual([]);
  });

  it('five failing tests that fail again: only three (of the class with the most failures) are re-run, and the record says so', async () => {
    const copy = await project('calc-logic-bug', modelOnly('', 1));
    const always = (n: number) =>
      `    @Test\n    void failsAlways${n}() {\n        fail("the rate table is missing (${n})");\n    }\n`;
    await writeFile(
      path.join(copy.root, 'src/test/java/com/acme/calc/RateTableTest.java'),
      `package com.acme.calc;\n\nimport static org.junit.jupiter.api.Assertions.fail;\n\nimport org.junit.jupiter.api.Test;\n\nclass RateTableTest {\n${[1, 2, 3, 4].map(always).join('\n')}}\n`,
    );
    const mock = await ollama([], { exhaustedReply: 'The rate table seems to be missing from the test resources.' });

    const r = record(await runMvnx(copy.root, verify(mock.url)));

    // Counted from the re-run's reports: had all five been re-run, the decision would name them all.
    expect(r.decisions).toContain(
      'flaky check: 3 of 5 failing tests (re-run first; the rest were not needed) failed again when re-run on the unchanged code; repairing',
    );
    expect(r.flakyTests).toBeUndefined();
    expect(r.timings.recheckMs).toBeGreaterThan(0);
  });

  it('with tests.flakyCheck false the model is asked', async () => {
    const copy = await project('calc-flaky', modelOnly('tests:\n  flakyCheck: false\n', 1));
    const mock = await ollama([], {
      exhaustedReply: 'The exchange rate service is probably down; retry the build later.',
    });

    const r = record(await runMvnx(copy.root, verify(mock.url)));

    expect(r.stopReason).toBe('budget-exhausted');
    expect(r.flakyTests).toBeUndefined();
    expect(mock.chatRequests()).toHaveLength(1);
  });
});

describe('fingerprints and repeated proposals', () => {
  it('the same wrong reply repeated while it does not apply: duplicate-patch after 2 calls, both attempts fingerprinted alike', async () => {
    const copy = await project('calc-semicolon', modelOnly());
    const wrong = await reply('semicolon-hallucinated');
    const mock = await ollama([wrong, wrong, wrong]);

    const run = await runMvnx(copy.root, verify(mock.url));
    const r = record(run);

    expect(r.attempts.map((a) => a.outcome)).toEqual(['not-applicable', 'not-applicable']);
    expect(r.attempts[1]!.fingerprint).toBe(r.attempts[0]!.fingerprint);
    expect(r.attempts[1]!.reason).toBe('the same change was already tried');
    expect(r.stopReason).toBe('duplicate-patch');
    expect(r.status).toBe('unfixed');
    expect(mock.chatRequests()).toHaveLength(2);
    expect(run.exitCode).toBe(1);
    // A compile error has no failing test: the console does not claim to re-run one (tests.flakyCheck is on).
    expect(run.stderr).not.toContain('re-running the failing tests');
    expect(r.timings.recheckMs).toBeUndefined();
  });
});

describe('progress is adopted only when the build got better', () => {
  it('a patch that only changes the error message at the same place is not kept; the next reply applies to the tree the model was shown', async () => {
    const copy = await project('calc-symbol', modelOnly());
    const mock = await ollama([await reply('symbol-message-only'), await reply('symbol-fix')]);

    const r = record(await runMvnx(copy.root, verify(mock.url)));

    expect(r.attempts.map((a) => a.outcome)).toEqual(['build-failed', 'verified']);
    expect(r.attempts[0]!.reason).toContain(
      'not kept: the failure at src/main/java/com/acme/calc/Statistics.java:8 only changed its message',
    );
    expect(r.status).toBe('fixed');
    // The second prompt shows the original line, the one the second reply's diff is written against.
    const secondPrompt = await readRecordFile(copy.root, 'attempt-2.prompt.txt');
    expect(secondPrompt).toContain('i < values.lenght; i++');
    expect(secondPrompt).not.toContain('values.length()');
    const patch = await readRecordFile(copy.root, 'fix.patch');
    expect(patch).toContain('+        for (int i = 0; i < values.length; i++) {');
  });

  it('a patch that removed one of two errors is kept, and the next prompt shows the code with it', async () => {
    const copy = await project('calc-two-symbols', modelOnly());
    const mock = await ollama([await reply('two-symbols-first'), await reply('two-symbols-second')]);

    const r = record(await runMvnx(copy.root, verify(mock.url)));

    expect(r.attempts.map((a) => a.outcome)).toEqual(['build-failed', 'verified']);
    expect(r.attempts[0]!.reason).not.toContain('not kept');
    expect(r.status).toBe('fixed');
    const secondPrompt = await readRecordFile(copy.root, 'attempt-2.prompt.txt');
    expect(secondPrompt).toContain('i < values.length; i++');
    expect(secondPrompt).not.toContain('values.lenght');
    expect(await readRecordFile(copy.root, 'fix.patch')).toContain('+            sum += values[i];');
  });

  it('two message-only changes in a row stop with no-progress', async () => {
    const copy = await project('calc-symbol', modelOnly());
    const other = (await reply('symbol-message-only')).replace('values.length()', 'values.size()');
    const mock = await ollama([await reply('symbol-message-only'), other, await reply('symbol-fix')]);

    const r = record(await runMvnx(copy.root, verify(mock.url)));

    expect(r.attempts.map((a) => a.outcome)).toEqual(['build-failed', 'build-failed']);
    expect(r.stopReason).toBe('no-progress');
    expect(r.status).toBe('unfixed');
    expect(mock.chatRequests()).toHaveLength(2);
  });
});
