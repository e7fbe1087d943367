import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { Diagnosis, Diagnostic } from '../../src/diagnose/types.js';
import type { ChangeSet } from '../../src/patch/types.js';
import { runRepairLoop } from '../../src/repair/loop/repair-loop.js';
import {
  ProviderUnavailable,
  type FailureRecheck,
  type IntegrityOutcome,
  type LoopPorts,
  type Proposal,
  type Verification,
} from '../../src/repair/loop/ports.js';
import { composeChangeSets, overlayRead } from '../../src/repair/loop/compose.js';

function diagnostic(message: string, file = 'src/main/java/com/acme/App.java'): Diagnostic {
  return {
    kind: 'compile',
    category: 'compile',
    fixable: true,
    message,
    file,
    line: 3,
    fingerprint: `fp:${file}:${message}`,
  };
}

function diagnosis(...diagnostics: Diagnostic[]): Diagnosis {
  return {
    diagnostics,
    fingerprint: diagnostics
      .map((d) => d.fingerprint)
      .sort()
      .join('|'),
    fixable: true,
    modules: [],
    warnings: [],
  };
}

const original = 'class App {\n  int x = 1\n}\n';

function edit(after: string, path = 'src/main/java/com/acme/App.java'): ChangeSet {
  return { files: [{ path, before: original, after }] };
}

const semicolon = diagnosis(diagnostic("';' expected"));

interface Script {
  fixers?: Proposal[][];
  model?: (Proposal | 'down')[];
  verify?: Verification[];
  maxAttempts?: number;
  /** What the integrity check says, per candidate fix checked (default: nothing to say). */
  integrity?: IntegrityOutcome[];
  recheck?: FailureRecheck;
}

function ports(
  script: Script,
): LoopPorts & { verified: ChangeSet[]; checked: ChangeSet[]; modelCalls: number; fixerRounds: number } {
  const fixerRounds = [...(script.fixers ?? [])];
  const modelReplies = [...(script.model ?? [])];
  const verifications = [...(script.verify ?? [])];
  const integrity = [...(script.integrity ?? [])];
  const state = {
    verified: [] as ChangeSet[],
    checked: [] as ChangeSet[],
    modelCalls: 0,
    fixerRounds: 0,
    ...(script.recheck ? { recheckFailures: async () => script.recheck } : {}),
    async checkIntegrity(fix: ChangeSet): Promise<IntegrityOutcome> {
      state.checked.push(fix);
      return integrity.shift() ?? { failingTestEdits: [] };
    },
    async fixerProposals() {
      state.fixerRounds++;
      return fixerRounds.shift() ?? [];
    },
    async modelProposal() {
      state.modelCalls++;
      const next = modelReplies.shift();
      if (!next) throw new Error('the script ran out of model replies');
      if (next === 'down')
        throw new ProviderUnavailable('Ollama at http://127.0.0.1:9 did not answer: run `ollama serve`');
      return next;
    },
    fingerprint(changeSet: ChangeSet) {
      return createHash('sha256')
        .update(JSON.stringify(changeSet.files.map((f) => [f.path, f.after])))
        .digest('hex');
    },
    async verify(fix: ChangeSet) {
      state.verified.push(fix);
      const next = verifications.shift();
      if (!next) throw new Error('the script ran out of verifications');
      return next;
    },
    budget() {
      return { maxAttempts: script.maxAttempts ?? 5, maxModelCalls: 4, maxWallSeconds: 600 };
    },
    elapsedSeconds: () => 0,
    interrupted: () => false,
  };
  return state;
}

const stillFailing = (d: Diagnosis): Verification => ({
  outcome: 'build-failed',
  diagnosis: d,
  regressions: [],
  applyMs: 1,
  verifyMs: 1,
  stages: [],
});
const verified: Verification = { outcome: 'verified', regressions: [], applyMs: 1, verifyMs: 1, stages: [] };

describe('repair loop stop rules', () => {
  it('stops with fixed when the first model patch verifies, and takes filesChanged from the change set', async () => {
    const p = ports({
      model: [
        {
          source: 'model',
          changeSet: edit('class App {\n  int x = 1;\n}\n'),
          problems: [],
          summary: 'I also updated pom.xml and README.md',
        },
      ],
      verify: [verified],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.stopReason).toBe('fixed');
    expect(result.attempts).toHaveLength(1);
    expect(result.attempts[0]!.filesChanged).toEqual(['src/main/java/com/acme/App.java']);
    expect(result.attempts[0]!.summary).toContain('pom.xml');
    expect(result.fix?.files[0]!.after).toContain('int x = 1;');
  });

  it('stops with duplicate-patch when the model repeats a patch, after 2 calls', async () => {
    const wrong = edit('class App {\n  int x = 2\n}\n');
    const p = ports({
      model: [
        { source: 'model', changeSet: wrong, problems: [] },
        { source: 'model', changeSet: wrong, problems: [] },
      ],
      verify: [stillFailing(semicolon)],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.stopReason).toBe('duplicate-patch');
    expect(p.modelCalls).toBe(2);
    expect(p.verified).toHaveLength(1);
  });

  it('stops with no-progress after two built attempts leave the diagnosis unchanged', async () => {
    const p = ports({
      model: [
        { source: 'model', changeSet: edit('class App {\n  int x = 2\n}\n'), problems: [] },
        { source: 'model', changeSet: edit('class App {\n  int x = 3\n}\n'), problems: [] },
        { source: 'model', changeSet: edit('class App {\n  int x = 4\n}\n'), problems: [] },
      ],
      verify: [stillFailing(semicolon), stillFailing(semicolon)],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.stopReason).toBe('no-progress');
    expect(result.attempts.map((a) => a.outcome)).toEqual(['build-failed', 'build-failed']);
  });

  it('records an attempt whose build was interrupted as interrupted, not build-failed, and stops', async () => {
    const p = ports({
      model: [{ source: 'model', changeSet: edit('class App {\n  int x = 1;\n}\n'), problems: [] }],
      verify: [{ outcome: 'interrupted', regressions: [], applyMs: 1, verifyMs: 1, stages: [] }],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.stopReason).toBe('interrupted');
    expect(result.attempts.map((a) => [a.outcome, a.reason])).toEqual([
      ['interrupted', 'interrupted during verification'],
    ]);
  });

  it('records a fix the workspace refused to write as not-applicable, and goes on', async () => {
    const p = ports({
      model: [
        { source: 'model', changeSet: edit('class App {\n  int x = 2;\n}\n'), problems: [] },
        { source: 'model', changeSet: edit('class App {\n  int x = 1;\n}\n'), problems: [] },
      ],
      verify: [
        {
          outcome: 'not-applied',
          message: 'unsafe-path: lib/App.java is beyond a symbolic link (lib)',
          regressions: [],
          applyMs: 1,
          verifyMs: 0,
          stages: [],
        },
        verified,
      ],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.stopReason).toBe('fixed');
    expect(result.attempts.map((a) => a.outcome)).toEqual(['not-applicable', 'verified']);
    expect(result.attempts[0]!.reason).toBe(
      'the fix could not be applied in the workspace: unsafe-path: lib/App.java is beyond a symbolic link (lib)',
    );
  });

  it('records a fix the behavioural probe refused after its build as rejected with the reason, and goes on', async () => {
    const refused = 'test-special-casing: behaviour changes only at x = 2 (App.f(2): 1 before, 4 after; ...)';
    const p = ports({
      model: [
        { source: 'model', changeSet: edit('class App {\n  int x = 2;\n}\n'), problems: [] },
        { source: 'model', changeSet: edit('class App {\n  int x = 1;\n}\n'), problems: [] },
      ],
      verify: [
        {
          outcome: 'refused',
          refused,
          regressions: [],
          applyMs: 1,
          verifyMs: 5,
          stages: [
            { name: 'full', exitCode: 0, durationMs: 4 },
            { name: 'behaviour-probe', exitCode: 0, durationMs: 1 },
          ],
        },
        verified,
      ],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.stopReason).toBe('fixed');
    expect(result.attempts.map((a) => [a.outcome, a.reason ?? ''])).toEqual([
      ['rejected', refused],
      ['verified', ''],
    ]);
    expect(result.attempts[0]!.stages?.map((stage) => stage.name)).toEqual(['full', 'behaviour-probe']);
  });

  it('sends a rejected patch back without a build', async () => {
    const p = ports({
      model: [
        {
          source: 'model',
          problems: [{ code: 'path-traversal', message: 'path ../../etc/passwd leaves the project' }],
        },
        { source: 'model', changeSet: edit('class App {\n  int x = 1;\n}\n'), problems: [] },
      ],
      verify: [verified],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.stopReason).toBe('fixed');
    expect(result.attempts[0]!.outcome).toBe('rejected');
    expect(result.attempts[0]!.reason).toContain('path-traversal');
    expect(p.verified).toHaveLength(1);
  });

  it('marks a hunk that does not apply as not-applicable', async () => {
    const p = ports({
      model: [
        { source: 'model', problems: [{ code: 'hunk-not-found', message: 'hunk 1: line "int y" is not in the file' }] },
        'down',
      ],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.attempts[0]!.outcome).toBe('not-applicable');
    expect(result.stopReason).toBe('provider-unavailable');
  });

  it('stops with provider-unavailable and does not count the failed call', async () => {
    const result = await runRepairLoop(semicolon, ports({ model: ['down'] }));
    expect(result.stopReason).toBe('provider-unavailable');
    expect(result.modelCalls).toBe(0);
    expect(result.message).toContain('ollama serve');
  });

  it('stops with budget-exhausted when the wall-time budget passes during a model call that never answers', async () => {
    let told: AbortSignal | undefined;
    const held = {
      ...ports({}),
      modelProposal: (request: { signal?: AbortSignal }) => {
        told = request.signal;
        return new Promise<Proposal>(() => undefined);
      },
      wallTimeLeft: () => AbortSignal.timeout(50),
    };
    const result = await runRepairLoop(semicolon, held);
    expect(result.stopReason).toBe('budget-exhausted');
    expect(result.message).toBe('stopped at the 600s wall-time budget while waiting for the model');
    expect(result.attempts).toEqual([]);
    // The model call itself is told, so that its request is cancelled too.
    expect(told?.aborted).toBe(true);
  });

  it('tries fixers before the model and never calls the model when a fixer verifies', async () => {
    const p = ports({
      fixers: [
        [
          {
            source: 'fixer',
            fixer: 'missing-semicolon',
            changeSet: edit('class App {\n  int x = 1;\n}\n'),
            problems: [],
          },
        ],
      ],
      verify: [verified],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.stopReason).toBe('fixed');
    expect(result.attempts[0]!.source).toBe('fixer');
    expect(p.modelCalls).toBe(0);
  });

  it('keeps a patch that made progress and builds the next attempt on it', async () => {
    const symbol = diagnosis(diagnostic('cannot find symbol'));
    const first = edit('class App {\n  int x = 1;\n}\n');
    const second: ChangeSet = {
      files: [
        {
          path: 'src/main/java/com/acme/App.java',
          before: first.files[0]!.after,
          after: 'import java.util.List;\nclass App {\n  int x = 1;\n}\n',
        },
      ],
    };
    const p = ports({
      fixers: [
        [{ source: 'fixer', changeSet: first, problems: [] }],
        [{ source: 'fixer', changeSet: second, problems: [] }],
      ],
      verify: [stillFailing(symbol), verified],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.stopReason).toBe('fixed');
    expect(result.fix?.files).toHaveLength(1);
    expect(result.fix?.files[0]!.before).toBe(original);
    expect(result.fix?.files[0]!.after).toContain('import java.util.List;');
  });

  it('marks a regression and keeps going', async () => {
    const p = ports({
      model: [
        { source: 'model', changeSet: edit('class App {\n  int x = 0;\n}\n'), problems: [] },
        { source: 'model', changeSet: edit('class App {\n  int x = 1;\n}\n'), problems: [] },
      ],
      verify: [
        { outcome: 'regressed', regressions: ['com.acme.AppTest#one'], applyMs: 1, verifyMs: 1, stages: [] },
        verified,
      ],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.attempts[0]!.outcome).toBe('regressed');
    expect(result.attempts[0]!.reason).toContain('com.acme.AppTest#one');
    expect(result.stopReason).toBe('fixed');
  });

  it('stops with budget-exhausted at the attempt limit', async () => {
    const symbol = diagnosis(diagnostic('cannot find symbol'));
    const p = ports({
      maxAttempts: 1,
      model: [{ source: 'model', changeSet: edit('class App {\n  int x = 1;\n}\n'), problems: [] }],
      verify: [stillFailing(symbol)],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.stopReason).toBe('budget-exhausted');
    expect(result.message).toContain('1 attempts');
  });
});

describe('change-set composition', () => {
  it('drops a file edited back to its original', () => {
    const there = edit('changed\n');
    const back: ChangeSet = { files: [{ path: there.files[0]!.path, before: 'changed\n', after: original }] };
    expect(composeChangeSets(there, back).files).toEqual([]);
  });

  it('reads the patched content through an overlay', async () => {
    const read = overlayRead(edit('patched\n'), async (p) => (p === 'other.txt' ? 'other\n' : undefined));
    expect(await read('src/main/java/com/acme/App.java')).toBe('patched\n');
    expect(await read('other.txt')).toBe('other\n');
    expect(await read('missing.txt')).toBeUndefined();
  });
});

describe('progress on test failures', () => {
  const failing = (was: number): Diagnosis =>
    diagnosis({
      kind: 'test',
      category: 'test',
      fixable: true,
      message: `expected: <50> but was: <${was}>`,
      test: 'com.acme.PriceTest#discount',
      fingerprint: `fp:discount:${was}`,
    });

  it('does not adopt a patch after which the same test fails with another value', async () => {
    const wrong = edit('class App {\n  int x = 0;\n}\n');
    const right: ChangeSet = {
      files: [{ path: 'src/main/java/com/acme/App.java', before: original, after: 'class App {\n  int x = 50;\n}\n' }],
    };
    const p = ports({
      model: [
        { source: 'model', changeSet: wrong, problems: [] },
        { source: 'model', changeSet: right, problems: [] },
      ],
      verify: [stillFailing(failing(0)), verified],
    });
    const result = await runRepairLoop(failing(40), p);
    expect(result.stopReason).toBe('fixed');
    // Adopting progress asks the fixers again; the wrong patch must not become the base.
    expect(p.fixerRounds).toBe(1);
    expect(result.fix?.files[0]!.after).toContain('x = 50');
  });
});

describe('agent attempts that built their candidates themselves', () => {
  it('takes the verification the proposer already did instead of building again, and keeps the session stats', async () => {
    const agent = {
      stop: 'fix-verified',
      steps: 5,
      modelCalls: 5,
      toolCalls: { read_range: 2, write_fix: 1 },
      corrections: 1,
      toolCalling: 'native' as const,
    };
    const p = ports({
      model: [
        {
          source: 'agent',
          changeSet: edit('class App {\n  int x = 1;\n}\n'),
          problems: [],
          verification: verified,
          extraBuilds: 1,
          modelCalls: 5,
          agent,
        },
      ],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.stopReason).toBe('fixed');
    expect(p.verified).toHaveLength(0);
    expect(result.attempts[0]).toMatchObject({ source: 'agent', outcome: 'verified', agent });
    expect(result.modelCalls).toBe(5);
  });

  it('counts the extra candidate builds against maxAttempts', async () => {
    const built = (x: number, extraBuilds: number): Proposal => ({
      source: 'agent',
      changeSet: edit(`class App {\n  int x = ${x}\n}\n`),
      problems: [],
      verification: stillFailing(diagnosis(diagnostic(`other ${x}`))),
      extraBuilds,
    });
    const p = ports({ model: [built(2, 2), built(3, 0)], maxAttempts: 4 });
    const result = await runRepairLoop(semicolon, p);
    // Attempt 1 built three candidates (1 + 2 extra), attempt 2 the fourth: no room for a third attempt.
    expect(result.attempts).toHaveLength(2);
    expect(result.stopReason).toBe('budget-exhausted');
    expect(result.message).toBe('used all 4 attempts');
    expect(p.verified).toHaveLength(0);
  });
});

describe('every attempt has a fingerprint; a repeated proposal stops the loop', () => {
  const notApplicable = (proposalFingerprint: string): Proposal => ({
    source: 'model',
    proposalFingerprint,
    problems: [{ code: 'hunk-not-found', message: 'hunk 1: line "int product = x * y" is not in the file' }],
  });

  it('fingerprints a proposal that never became a change set, and stops when the same one comes again', async () => {
    const p = ports({
      model: [notApplicable('a'.repeat(64)), notApplicable('a'.repeat(64)), notApplicable('b'.repeat(64))],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.attempts.map((a) => a.outcome)).toEqual(['not-applicable', 'not-applicable']);
    expect(result.attempts.map((a) => a.fingerprint)).toEqual(['a'.repeat(64), 'a'.repeat(64)]);
    expect(result.attempts[1]!.reason).toBe('the same change was already tried');
    expect(result.stopReason).toBe('duplicate-patch');
    expect(p.modelCalls).toBe(2);
  });

  it('gives a failed model call a fingerprint of its own, which never counts as a repeat', async () => {
    const failed: Proposal = {
      source: 'model',
      problems: [{ code: 'model-error', message: 'the model call failed: timeout' }],
    };
    const p = ports({
      model: [
        failed,
        { ...failed },
        { source: 'model', changeSet: edit('class App {\n  int x = 1;\n}\n'), problems: [] },
      ],
      verify: [verified],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.stopReason).toBe('fixed');
    const fingerprints = result.attempts.map((a) => a.fingerprint);
    expect(fingerprints.every((f) => /^[0-9a-f]{64}$/.test(f))).toBe(true);
    expect(new Set(fingerprints).size).toBe(3);
  });

  it('stops when a reply that was built once comes again and no longer applies', async () => {
    const symbol = diagnosis(diagnostic('cannot find symbol', 'src/main/java/com/acme/Other.java'));
    const first: Proposal = {
      source: 'model',
      changeSet: edit('class App {\n  int x = 1;\n}\n'),
      proposalFingerprint: 'c'.repeat(64),
      problems: [],
    };
    const p = ports({ model: [first, notApplicable('c'.repeat(64))], verify: [stillFailing(symbol)] });
    const result = await runRepairLoop(semicolon, p);
    expect(result.stopReason).toBe('duplicate-patch');
    expect(p.verified).toHaveLength(1);
  });
});

describe('test integrity in the loop', () => {
  it('rejects a weakening patch without a build and tells the model why', async () => {
    const weakened = edit('class App {\n  int x = 2;\n}\n');
    const p = ports({
      model: [
        { source: 'model', changeSet: weakened, problems: [] },
        { source: 'model', changeSet: edit('class App {\n  int x = 1;\n}\n'), problems: [] },
      ],
      integrity: [{ refused: 'test-weakening: added `@Disabled` to com.acme.AppTest#one', failingTestEdits: [] }],
      verify: [verified],
    });
    const history: string[] = [];
    const modelProposal = p.modelProposal.bind(p);
    p.modelProposal = async (input) => {
      history.push(...input.history.map((a) => `${a.outcome}: ${a.reason ?? ''}`));
      return modelProposal(input);
    };
    const result = await runRepairLoop(semicolon, p);
    expect(result.attempts.map((a) => a.outcome)).toEqual(['rejected', 'verified']);
    expect(result.attempts[0]!.reason).toBe('test-weakening: added `@Disabled` to com.acme.AppTest#one');
    expect(result.attempts[0]!.stages).toBeUndefined();
    expect(p.verified).toHaveLength(1);
    expect(history).toEqual(['rejected: test-weakening: added `@Disabled` to com.acme.AppTest#one']);
  });

  it('checks the whole candidate fix, base included, and records allowed edits of the failing test', async () => {
    const p = ports({
      model: [{ source: 'model', changeSet: edit('class App {\n  int x = 1;\n}\n'), problems: [] }],
      integrity: [
        { failingTestEdits: ['changed the expected value of `assertEquals` in com.acme.AppTest#one from `6` to `5`'] },
      ],
      verify: [verified],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.attempts[0]!.failingTestEdits).toEqual([
      'changed the expected value of `assertEquals` in com.acme.AppTest#one from `6` to `5`',
    ]);
    expect(p.checked[0]!.files[0]!.before).toBe(original);
  });

  it('names the missing or skipped tests of a build that passed without showing the fix', async () => {
    const p = ports({
      model: [{ source: 'model', changeSet: edit('class App {\n  int x = 1;\n}\n'), problems: [] }, 'down'],
      verify: [
        {
          outcome: 'regressed',
          regressions: [],
          testProblems: ['com.acme.AppTest#one, which failed in your build, was skipped'],
          applyMs: 1,
          verifyMs: 1,
          stages: [],
        },
      ],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.attempts[0]).toMatchObject({
      outcome: 'regressed',
      reason: 'test-weakening: com.acme.AppTest#one, which failed in your build, was skipped',
    });
  });
});

describe('the flaky check', () => {
  it('stops with flaky before any proposal when the failing tests pass on the unchanged code', async () => {
    const p = ports({ recheck: { passed: ['com.acme.PriceTest#discount'], failed: [], durationMs: 3 } });
    const result = await runRepairLoop(semicolon, p);
    expect(result.stopReason).toBe('flaky');
    expect(result.flakyTests).toEqual(['com.acme.PriceTest#discount']);
    expect(result.message).toBe(
      'the failing test passed when re-run on the unchanged code: com.acme.PriceTest#discount',
    );
    expect(p.modelCalls).toBe(0);
    expect(p.fixerRounds).toBe(0);
  });

  it('repairs as usual when a failing test fails again', async () => {
    const p = ports({
      recheck: { passed: ['com.acme.PriceTest#discount'], failed: ['com.acme.PriceTest#total'], durationMs: 3 },
      model: [{ source: 'model', changeSet: edit('class App {\n  int x = 1;\n}\n'), problems: [] }],
      verify: [verified],
    });
    const result = await runRepairLoop(semicolon, p);
    expect(result.stopReason).toBe('fixed');
    expect(result.recheck).toEqual({
      passed: ['com.acme.PriceTest#discount'],
      failed: ['com.acme.PriceTest#total'],
      durationMs: 3,
    });
  });
});

describe('the flaky check beside the first model request', () => {
  const failing = {
    ...diagnosis({ ...diagnostic('expected 3 but was 2'), kind: 'test', test: 'com.acme.PriceTest#discount' }),
  };
  const deferred = <T>() => {
    let resolve!: (value: T) => void;
    const promise = new Promise<T>((r) => (resolve = r));
    return { promise, resolve };
  };
  /** A re-check whose Maven starts at once and whose result is `recheck`'s. */
  const startedAtOnce =
    (recheck: { promise: Promise<FailureRecheck> }): NonNullable<LoopPorts['recheckFailures']> =>
    (_, started) => {
      started?.launched?.();
      return recheck.promise;
    };

  it('asks the model while the tests re-run, and cancels the request when they pass: flaky, nothing built, no call counted', async () => {
    const recheck = deferred<FailureRecheck>();
    const events: string[] = [];
    let seen: AbortSignal | undefined;
    const p = ports({ verify: [] });
    const result = runRepairLoop(failing, {
      ...p,
      recheckFailures: startedAtOnce(recheck),
      proposesBesideRecheck: () => true,
      modelProposal: (request) => {
        events.push('model asked');
        seen = request.signal;
        return new Promise<Proposal>((_, reject) =>
          request.signal?.addEventListener('abort', () => reject(new Error('cancelled'))),
        );
      },
    });
    await new Promise((r) => setTimeout(r, 0));
    events.push('recheck done');
    recheck.resolve({ passed: ['com.acme.PriceTest#discount'], failed: [], durationMs: 3 });
    const done = await result;
    expect(events).toEqual(['model asked', 'recheck done']);
    expect(done.stopReason).toBe('flaky');
    expect(seen?.aborted).toBe(true);
    expect(done.modelCalls).toBe(0);
    expect(done.attempts).toEqual([]);
    expect(p.verified).toEqual([]);
  });

  it('takes the request made beside the re-check as attempt 1 when a test fails again, and builds only after the re-check', async () => {
    const recheck = deferred<FailureRecheck>();
    const events: string[] = [];
    let calls = 0;
    const p = ports({ verify: [verified] });
    const result = runRepairLoop(failing, {
      ...p,
      recheckFailures: startedAtOnce(recheck),
      proposesBesideRecheck: () => true,
      modelProposal: async (request) => {
        calls++;
        events.push(`model asked for attempt ${request.n}`);
        return {
          source: 'model',
          changeSet: edit('class App {\n  int x = 1;\n}\n'),
          problems: [],
          modelMs: 5,
          promptMs: 7,
        };
      },
      verify: async (fix, d, n, upcoming) => {
        events.push('verify');
        return p.verify(fix, d, n, upcoming);
      },
    });
    await new Promise((r) => setTimeout(r, 0));
    events.push('recheck done');
    recheck.resolve({ passed: [], failed: ['com.acme.PriceTest#discount'], durationMs: 3 });
    const done = await result;
    expect(events).toEqual(['model asked for attempt 1', 'recheck done', 'verify']);
    expect(calls).toBe(1);
    expect(done.stopReason).toBe('fixed');
    expect(done.modelCalls).toBe(1);
    expect(done.timings).toMatchObject({ modelMs: 5, promptMs: 7 });
    expect(done.attempts[0]!.timings).toMatchObject({ modelMs: 5, promptMs: 7 });
  });

  it("asks the model only once the re-check's Maven has started (its workspace reset and sandbox set-up run on this thread first), and not at all when the tests passed before that", async () => {
    const recheck = deferred<FailureRecheck>();
    let launched: (() => void) | undefined;
    const events: string[] = [];
    const p = ports({ verify: [verified] });
    const result = runRepairLoop(failing, {
      ...p,
      recheckFailures: (_, started) => {
        launched = started?.launched;
        return recheck.promise;
      },
      proposesBesideRecheck: () => true,
      modelProposal: async () => {
        events.push('model asked');
        return { source: 'model', changeSet: edit('class App {\n  int x = 1;\n}\n'), problems: [] };
      },
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(events).toEqual([]);
    events.push('maven started');
    launched!();
    await new Promise((r) => setTimeout(r, 0));
    events.push('recheck done');
    recheck.resolve({ passed: [], failed: ['com.acme.PriceTest#discount'], durationMs: 3 });
    expect((await result).stopReason).toBe('fixed');
    expect(events).toEqual(['maven started', 'model asked', 'recheck done']);

    const flaky = deferred<FailureRecheck>();
    let asked = 0;
    const stopped = runRepairLoop(failing, {
      ...ports({ verify: [] }),
      recheckFailures: () => flaky.promise,
      proposesBesideRecheck: () => true,
      modelProposal: async () => {
        asked++;
        return { source: 'model', changeSet: edit('class App {\n  int x = 1;\n}\n'), problems: [] };
      },
    });
    flaky.resolve({ passed: ['com.acme.PriceTest#discount'], failed: [], durationMs: 3 });
    expect((await stopped).stopReason).toBe('flaky');
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toBe(0);
  });

  it("checks the early reply's test integrity while the tests still re-run, and the loop takes that check instead of making it again", async () => {
    const recheck = deferred<FailureRecheck>();
    const events: string[] = [];
    const p = ports({ verify: [verified], integrity: [{ failingTestEdits: ['com.acme.PriceTest#discount'] }] });
    const result = runRepairLoop(failing, {
      ...p,
      recheckFailures: startedAtOnce(recheck),
      proposesBesideRecheck: () => true,
      modelProposal: async () => ({ source: 'model', changeSet: edit('class App {\n  int x = 1;\n}\n'), problems: [] }),
      checkIntegrity: async (fix, d) => {
        events.push(d === failing ? 'integrity checked' : 'integrity on another diagnosis');
        return p.checkIntegrity(fix, d);
      },
    });
    await new Promise((r) => setTimeout(r, 10));
    events.push('recheck done');
    recheck.resolve({ passed: [], failed: ['com.acme.PriceTest#discount'], durationMs: 3 });
    const done = await result;
    expect(events).toEqual(['integrity checked', 'recheck done']);
    expect(p.checked).toHaveLength(1);
    expect(done.stopReason).toBe('fixed');
    // The result checked ahead is the one the attempt records.
    expect(done.attempts[0]!.failingTestEdits).toEqual(['com.acme.PriceTest#discount']);
  });

  it('asks nothing early when the engine says the first proposal would build (an agent session)', async () => {
    const recheck = deferred<FailureRecheck>();
    const events: string[] = [];
    const p = ports({ verify: [verified] });
    const result = runRepairLoop(failing, {
      ...p,
      recheckFailures: async () => {
        events.push('recheck');
        return recheck.promise;
      },
      proposesBesideRecheck: () => false,
      modelProposal: async () => {
        events.push('model asked');
        return { source: 'model', changeSet: edit('class App {\n  int x = 1;\n}\n'), problems: [] };
      },
    });
    await new Promise((r) => setTimeout(r, 0));
    events.push('recheck done');
    recheck.resolve({ passed: [], failed: ['com.acme.PriceTest#discount'], durationMs: 3 });
    expect((await result).stopReason).toBe('fixed');
    expect(events).toEqual(['recheck', 'recheck done', 'model asked']);
  });
});

describe('progress: only a build that got better becomes the next base', () => {
  it('does not keep a patch that only changed the message at the same place, and counts it toward no-progress', async () => {
    const before = diagnosis({
      ...diagnostic('cannot find symbol'),
      details: ['symbol: variable lenght'],
      line: 8,
      fingerprint: 'fp:variable',
    });
    const moved = diagnosis({
      ...diagnostic('cannot find symbol'),
      details: ['symbol: method length()'],
      line: 8,
      fingerprint: 'fp:method',
    });
    const p = ports({
      model: [
        { source: 'model', changeSet: edit('class App {\n  int x = 2;\n}\n'), problems: [] },
        { source: 'model', changeSet: edit('class App {\n  int x = 3;\n}\n'), problems: [] },
      ],
      verify: [stillFailing(moved), stillFailing(moved)],
    });
    const result = await runRepairLoop(before, p);
    expect(result.stopReason).toBe('no-progress');
    expect(result.attempts[0]!.reason).toContain(
      'not kept: the failure at src/main/java/com/acme/App.java:8 only changed its message',
    );
    // Both attempts were built on the original tree.
    expect(p.verified.map((fix) => fix.files[0]!.before)).toEqual([original, original]);
    expect(p.fixerRounds).toBe(1);
  });
});
