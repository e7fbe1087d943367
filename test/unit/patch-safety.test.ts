/**
 * The patch-safety corpus (test/fixtures/patch/safety): every case goes through the real
 * pipeline (changeSetFromModelText on a real tree, then applyChangeSet), and is judged:
 *
 *   unsafe           a refusal was expected, but something was written or accepted
 *   wrong-placement  accepted, but the tree is not exactly the expected one, or a
 *                    placement refusal was expected and the hunk landed somewhere
 *   wrong-reason     refused, but not with the expected reason code
 *   false-refusal    a benign look-alike was refused
 *   crash            an exception or a hang instead of a patch problem
 *
 * Cases marked `git` are valid git input: `git apply` judges them on the same tree and
 * mvnx must agree with it or be stricter.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { applyChangeSet, changeSetFromModelText, isPlacementProblem, type PatchPolicy } from '../../src/patch/index.js';
import { toPatchPolicy } from '../../src/policy/patch-policy.js';
import { CHANGE_TYPES, configSchema } from '../../src/policy/schema.js';
import { SAFETY_CASES, type SafetyCase } from '../fixtures/patch/safety/cases.js';
import { gitApply, gitRepoOf, materialise, snapshot, unblockFifos, withTimeout } from './patch-safety-support.js';

type Verdict = 'ok' | 'unsafe' | 'wrong-placement' | 'wrong-reason' | 'false-refusal' | 'crash';

const isRoot = process.getuid?.() === 0;
const verdicts = new Map<string, { verdict: Verdict; detail: string }>();

/** Team defaults (protected paths, limits), with every change type allowed unless the case narrows it. */
function policyFor(testCase: SafetyCase): PatchPolicy {
  const base = toPatchPolicy(configSchema.parse({ allowedChanges: [...CHANGE_TYPES] }));
  return { ...base, ...testCase.policy };
}

function replyOf(testCase: SafetyCase, places: { root: string; outside: string }): string {
  return typeof testCase.reply === 'string' ? testCase.reply : testCase.reply(places);
}

function expectedTree(before: Map<string, string>, changes: Record<string, string | null>): Map<string, string> {
  const after = new Map(before);
  for (const [path, content] of Object.entries(changes)) {
    const key = `project/${path}`;
    if (content === null) after.delete(key);
    else {
      const mode = before.get(key)?.split(' ')[1] ?? '644';
      after.set(key, `file ${mode} ${Buffer.from(content, 'utf8').toString('latin1')}`);
      const parts = key.split('/');
      for (let i = 1; i < parts.length; i++)
        if (!after.has(parts.slice(0, i).join('/'))) after.set(parts.slice(0, i).join('/'), 'dir');
    }
  }
  return after;
}

function differences(actual: Map<string, string>, expected: Map<string, string>): string[] {
  const keys = new Set([...actual.keys(), ...expected.keys()]);
  return [...keys]
    .filter((key) => actual.get(key) !== expected.get(key))
    .map(
      (key) =>
        `${key}: ${(actual.get(key) ?? '(absent)').slice(0, 60)} instead of ${(expected.get(key) ?? '(absent)').slice(0, 60)}`,
    );
}

async function judge(testCase: SafetyCase): Promise<{ verdict: Verdict; detail: string }> {
  const dirs = materialise(testCase.tree, testCase.outside);
  try {
    const before = snapshot(dirs.container);
    const reply = replyOf(testCase, dirs);
    let result: Awaited<ReturnType<typeof changeSetFromModelText>> | 'timeout';
    try {
      result = await withTimeout(changeSetFromModelText(reply, dirs.root, policyFor(testCase)), 10_000, () =>
        unblockFifos(dirs.root),
      );
    } catch (error) {
      return { verdict: 'crash', detail: `threw ${(error as Error).message.slice(0, 200)}` };
    }
    if (result === 'timeout') return { verdict: 'crash', detail: 'hung' };
    if (result.changeSet) {
      try {
        await applyChangeSet(dirs.root, result.changeSet);
      } catch (error) {
        return { verdict: 'crash', detail: `accepted, then the apply threw ${(error as Error).message.slice(0, 200)}` };
      }
    }
    const after = snapshot(dirs.container);
    const codes = result.problems.map((p) => p.code);
    if ('refused' in testCase.expect) {
      if (result.changeSet) {
        const expectedPlacement = isPlacementProblem({ code: testCase.expect.refused, message: '' });
        return {
          verdict: expectedPlacement ? 'wrong-placement' : 'unsafe',
          detail: `accepted; wrote ${differences(after, before).join('; ') || 'nothing'}`,
        };
      }
      const changed = differences(after, before);
      if (changed.length > 0) return { verdict: 'unsafe', detail: `refused but wrote ${changed.join('; ')}` };
      if (!codes.includes(testCase.expect.refused))
        return {
          verdict: 'wrong-reason',
          detail: `codes ${codes.join(', ') || '(none)'}: ${result.problems[0]?.message ?? ''}`,
        };
      const message = testCase.expect.message;
      if (message && !result.problems.some((p) => message.test(p.message)))
        return {
          verdict: 'wrong-reason',
          detail: `no message matches ${message}: ${result.problems.map((p) => p.message).join(' | ')}`,
        };
      if (result.problems.some((p) => p.message.length < 15))
        return { verdict: 'wrong-reason', detail: 'a problem without a real message' };
      return { verdict: 'ok', detail: codes.join(', ') };
    }
    if (!result.changeSet)
      return {
        verdict: 'false-refusal',
        detail: result.problems
          .map((p) => `${p.code}: ${p.message}`)
          .join(' | ')
          .slice(0, 300),
      };
    const diff = differences(after, expectedTree(before, testCase.expect.changes));
    if (diff.length > 0) return { verdict: 'wrong-placement', detail: diff.join('; ') };
    return { verdict: 'ok', detail: 'applied as expected' };
  } finally {
    unblockFifos(dirs.container);
    rmSync(dirs.container, { recursive: true, force: true });
  }
}

describe('patch-safety corpus', () => {
  it('covers git t4139, t4122, t4115 and t4127, the issue shapes in every format, and benign look-alikes', () => {
    const origins = new Set(SAFETY_CASES.map((c) => c.origin));
    expect([...origins].sort()).toEqual(['benign', 'git t4115', 'git t4122', 'git t4127', 'git t4139', 'issue']);
    for (const format of ['diff', 'search-replace', 'json'] as const)
      expect(SAFETY_CASES.filter((c) => c.format === format).length).toBeGreaterThan(30);
    expect(new Set(SAFETY_CASES.map((c) => c.name)).size).toBe(SAFETY_CASES.length);
  });

  it.each(SAFETY_CASES.map((c) => [c.name, c] as const))('%s', async (name, testCase) => {
    if (testCase.needsRoot && !isRoot) return;
    const judged = await judge(testCase);
    verdicts.set(name, judged);
    expect(judged.verdict, judged.detail).toBe('ok');
  });

  afterAll(() => {
    const tally: Record<Verdict, number> = {
      ok: 0,
      unsafe: 0,
      'wrong-placement': 0,
      'wrong-reason': 0,
      'false-refusal': 0,
      crash: 0,
    };
    for (const { verdict } of verdicts.values()) tally[verdict]++;
    const lines = [...verdicts]
      .filter(([, v]) => v.verdict !== 'ok')
      .map(([name, v]) => `  ${v.verdict.padEnd(16)} ${name}: ${v.detail.slice(0, process.env.FULL ? 5000 : 160)}`);
    console.log(`patch-safety corpus: ${verdicts.size} cases ${JSON.stringify(tally)}\n${lines.join('\n')}`);
  });
});

// Left out of mutation runs (MVNX_MUTATION, mutation/vitest/patch.config.ts): 54 git processes per
// mutant; the mvnx side of every case is judged by the corpus above.
describe.skipIf(process.env.MVNX_MUTATION === '1')('patch-safety corpus against git apply', () => {
  const gitCases = SAFETY_CASES.filter((c) => c.git && c.format === 'diff' && !c.needsRoot);

  it('has a git verdict for every git scenario', () => {
    expect(gitCases.length).toBeGreaterThan(25);
  });

  it.each(gitCases.map((c) => [c.name, c] as const))(
    '%s: mvnx agrees with git apply or is stricter',
    async (_name, testCase) => {
      const ours = materialise(testCase.tree, testCase.outside);
      const theirs = gitRepoOf(testCase.tree, testCase.outside);
      try {
        const result = await changeSetFromModelText(replyOf(testCase, ours), ours.root, policyFor(testCase));
        if (result.changeSet) await applyChangeSet(ours.root, result.changeSet);
        const verdict = gitApply(theirs.root, replyOf(testCase, theirs));
        if (!verdict.applied) {
          // git refuses: so must mvnx.
          expect(result.changeSet, `git refused (${verdict.stderr.trim()}), mvnx accepted`).toBeUndefined();
          return;
        }
        if (result.changeSet) {
          // Both apply: to the same tree (the project folder; symlinks compared by text).
          const mine = snapshot(ours.container);
          const gits = snapshot(theirs.container);
          expect(differences(mine, gits)).toEqual([]);
        }
        // git applies and mvnx refuses: stricter, allowed.
      } finally {
        rmSync(ours.container, { recursive: true, force: true });
        rmSync(theirs.container, { recursive: true, force: true });
      }
    },
  );
});
