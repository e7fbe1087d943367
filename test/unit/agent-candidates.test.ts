/**
 * write_fix's candidates: checked with the real patch checks on a real project folder,
 * built through a build port that takes real time (the integration tests build with
 * Maven), so that parallel builds, the winner stopping the others and the budget can be
 * observed.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PATCH_POLICY, fingerprintChangeSet } from '../../src/patch/index.js';
import type { ChangeSet } from '../../src/patch/types.js';
import { checkProposedChange } from '../../src/repair/loop/change-check.js';
import { checkTestIntegrity, failingTestRef, testWeakeningReason } from '../../src/repair/integrity/index.js';
import { toFixTrial, tryCandidates, type CandidatePorts } from '../../src/repair/agent/fix-candidates.js';
import type { Verification } from '../../src/repair/loop/ports.js';

const FILE = 'src/main/java/com/acme/D.java';
const SOURCE = [
  'package com.acme;',
  '',
  'class D {',
  '    int apply(int p) {',
  '        return p / 10;',
  '    }',
  '}',
  '',
].join('\n');
const TEST = 'src/test/java/com/acme/DTest.java';
const TEST_SOURCE = [
  'package com.acme;',
  '',
  'import org.junit.jupiter.api.Test;',
  '',
  'import static org.junit.jupiter.api.Assertions.assertEquals;',
  '',
  'class DTest {',
  '    @Test',
  '    void tenth() {',
  '        assertEquals(5, new D().apply(500));',
  '    }',
  '}',
  '',
].join('\n');
const diff = (to: string) =>
  `\`\`\`diff\n--- a/${FILE}\n+++ b/${FILE}\n@@ -3,5 +3,5 @@\n class D {\n     int apply(int p) {\n-        return p / 10;\n+        return ${to};\n     }\n }\n\`\`\``;

let base: string;
let root: string;
beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'mvnx-candidates-'));
  root = path.join(base, 'project');
  await mkdir(path.dirname(path.join(root, FILE)), { recursive: true });
  await writeFile(path.join(root, FILE), SOURCE);
  await mkdir(path.dirname(path.join(root, TEST)), { recursive: true });
  await writeFile(path.join(root, TEST), TEST_SOURCE);
  await writeFile(path.join(root, 'pom.xml'), '<a/>\n');
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const POLICY = { ...DEFAULT_PATCH_POLICY, protectedPaths: [...DEFAULT_PATCH_POLICY.protectedPaths, 'pom.xml'] };
const passes = (after: string | null | undefined) => Boolean(after?.includes('return p / 100;'));
const verdict = (outcome: Verification['outcome']): Verification => ({
  outcome,
  regressions: [],
  applyMs: 1,
  verifyMs: 1,
  stages: [],
});

function ports(overrides: Partial<CandidatePorts> & { log?: string[]; buildMs?: number } = {}): CandidatePorts {
  const log = overrides.log ?? [];
  return {
    check: (text) => checkProposedChange(text, { files: [] }, { root, policy: POLICY }),
    fingerprint: fingerprintChangeSet,
    tried: new Map(),
    parallel: 1,
    budget: { left: 5 },
    label: (index) => `fix ${index + 1}`,
    verify: (changeSet: ChangeSet, signal: AbortSignal) =>
      new Promise<Verification>((resolve) => {
        const after = changeSet.files[0]?.after;
        log.push(`start ${after?.match(/return (.*);/)?.[1]}`);
        const timer = setTimeout(
          () => resolve(verdict(passes(after) ? 'verified' : 'build-failed')),
          overrides.buildMs ?? 20,
        );
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          log.push(`stopped ${after?.match(/return (.*);/)?.[1]}`);
          resolve(verdict('interrupted'));
        });
      }),
    ...overrides,
  };
}

describe('tryCandidates', () => {
  it('builds the candidates in order and keeps the first that passes; the rest are not built', async () => {
    const log: string[] = [];
    const budget = { left: 5 };
    const trial = await tryCandidates([diff('p / 1000'), diff('p / 100'), diff('p / 10000')], ports({ log, budget }));
    expect(log).toEqual(['start p / 1000', 'start p / 100']);
    expect(trial.verified?.index).toBe(1);
    expect(trial.results.map((result) => `${result.outcome}: ${result.detail}`)).toEqual([
      'build-failed: built, still fails: no diagnostics were read from the log',
      'verified: passed: the build and the tests pass with it',
      'not-built: not built: fix 2 passed',
    ]);
    expect(budget.left).toBe(3);
    expect(toFixTrial(trial, budget.left)).toEqual({
      outcomes: [
        { outcome: 'build-failed', detail: 'built, still fails: no diagnostics were read from the log', files: [FILE] },
        { outcome: 'verified', detail: 'passed: the build and the tests pass with it', files: [FILE] },
        { outcome: 'not-built', detail: 'not built: fix 2 passed', files: [FILE] },
      ],
      verified: 1,
      buildsLeft: 3,
    });
  });

  it('a candidate the behavioural probe refused after its build is rejected with the reason, and the next one is built', async () => {
    const refusal = 'test-special-casing: behaviour changes only at p = 500 (D.apply(500): 50 before, 5 after; ...)';
    const trial = await tryCandidates(
      [diff('p == 500 ? 5 : p / 10'), diff('p / 100')],
      ports({
        verify: (changeSet) =>
          Promise.resolve(
            changeSet.files[0]?.after?.includes('p == 500')
              ? { ...verdict('refused'), refused: refusal }
              : verdict(passes(changeSet.files[0]?.after) ? 'verified' : 'build-failed'),
          ),
      }),
    );
    expect(trial.verified?.index).toBe(1);
    expect(trial.results.map((result) => `${result.outcome}: ${result.detail}`)).toEqual([
      `rejected: built and passed, but refused: ${refusal}`,
      'verified: passed: the build and the tests pass with it',
    ]);
  });

  it('builds two at a time when allowed, and the first to pass stops the build still running', async () => {
    const log: string[] = [];
    let slow = true;
    const trial = await tryCandidates(
      [diff('p / 1000'), diff('p / 100')],
      ports({
        log,
        parallel: 2,
        verify: (changeSet, signal) => {
          // The first candidate builds slowly, the second fast.
          const ms = slow ? 5_000 : 20;
          slow = false;
          return ports({ log, buildMs: ms }).verify(changeSet, signal);
        },
      }),
    );
    expect(log).toEqual(['start p / 1000', 'start p / 100', 'stopped p / 1000']);
    expect(trial.verified?.index).toBe(1);
    expect(trial.results[0]).toMatchObject({ outcome: 'stopped', detail: 'stopped: fix 2 passed first' });
  });

  it('does not build what does not apply, what the policy refuses, what was tried before, or beyond the budget', async () => {
    const tried = new Map<string, string>();
    const first = await checkProposedChange(diff('p / 3'), { files: [] }, { root, policy: DEFAULT_PATCH_POLICY });
    tried.set(fingerprintChangeSet(first.changeSet!), 'attempt 1');
    const log: string[] = [];
    const budget = { left: 1 };
    const trial = await tryCandidates(
      [
        diff('p / 3'),
        diff('p / 4').replace('return p / 10;', 'return p / 11;'),
        '```diff\n--- a/pom.xml\n+++ b/pom.xml\n@@ -1 +1 @@\n-<a/>\n+<b/>\n```',
        diff('p / 5'),
        diff('p / 5'),
        diff('p / 6'),
      ],
      ports({ log, tried, budget }),
    );
    expect(trial.results.map((result) => result.outcome)).toEqual([
      'duplicate',
      'not-applicable',
      'rejected',
      'build-failed',
      'duplicate',
      'not-built',
    ]);
    expect(trial.results[0]!.detail).toBe('the same change as attempt 1, which did not pass');
    expect(trial.results[1]!.detail).toMatch(/^does not fit the code: /);
    expect(trial.results[2]!.detail).toMatch(/^refused: /);
    expect(trial.results[4]!.detail).toBe('the same change as fix 4');
    expect(trial.results[5]!.detail).toBe('not built: the budget allows no more builds');
    expect(log).toEqual(['start p / 5']);
    expect(tried.get(trial.results[3]!.fingerprint!)).toBe('fix 4');
  });

  it("refuses a candidate that weakens the failing test before any build, with the integrity check's reason, and builds the next", async () => {
    const log: string[] = [];
    const budget = { left: 5 };
    const weakened = `\`\`\`diff\n--- a/${TEST}\n+++ b/${TEST}\n@@ -9,3 +9,3 @@\n     void tenth() {\n-        assertEquals(5, new D().apply(500));\n+        assertEquals(50, new D().apply(500));\n     }\n\`\`\``;
    const trial = await tryCandidates(
      [weakened, diff('p / 100')],
      ports({
        log,
        budget,
        // The engine's port: the real integrity check on the whole fix, with the test that failed.
        integrity: async (changeSet) => {
          const verdict = checkTestIntegrity({
            changeSet,
            failingTests: [failingTestRef('com.acme.DTest#tenth')],
            policy: { allowFailingTestEdits: false },
          });
          return verdict.blocking.length > 0 ? testWeakeningReason(verdict.blocking) : undefined;
        },
      }),
    );
    expect(trial.results.map((result) => result.outcome)).toEqual(['rejected', 'verified']);
    expect(trial.results[0]!.detail).toMatch(/^refused: test-weakening: .*com\.acme\.DTest#tenth/);
    expect(trial.results[0]!.problems).toEqual([
      { code: 'test-weakening', message: trial.results[0]!.detail.replace(/^refused: test-weakening: /, '') },
    ]);
    // No build was spent on the weakened test.
    expect(log).toEqual(['start p / 100']);
    expect(budget.left).toBe(4);
  });
});
