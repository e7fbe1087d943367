import { describe, expect, it } from 'vitest';
import type { ChangeSet } from '../../src/patch/types.js';
import { verifyCandidates, type CandidateOrder } from '../../src/repair/verification/candidate-race.js';
import type { Verification } from '../../src/repair/loop/ports.js';

/** A candidate per name; `run` verifies after `ms`, or reports interrupted as soon as its signal is aborted. */
const fixes = (...names: string[]): ChangeSet[] =>
  names.map((name) => ({ files: [{ path: `src/main/java/${name}.java`, before: 'a', after: name }] }));
const nameOf = (fix: ChangeSet) => fix.files[0]!.after!;

function runner(plan: Record<string, { ms: number; outcome: Verification['outcome'] }>) {
  const started: string[] = [];
  const aborted: string[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const run = (fix: ChangeSet, signal: AbortSignal): Promise<Verification> => {
    const name = nameOf(fix);
    started.push(name);
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    const result = (outcome: Verification['outcome']): Verification => ({
      outcome,
      regressions: [],
      applyMs: 0,
      verifyMs: 0,
      stages: [],
    });
    return new Promise((resolve) => {
      const onAbort = () => {
        clearTimeout(timer);
        aborted.push(name);
        running -= 1;
        resolve(result('interrupted'));
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        running -= 1;
        resolve(result(plan[name]!.outcome));
      }, plan[name]!.ms);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  };
  return { run, started, aborted, mostAtOnce: () => mostAtOnce };
}

const verify = (
  names: string[],
  parallel: number,
  order: CandidateOrder,
  plan: Parameters<typeof runner>[0],
  signal = new AbortController().signal,
) => {
  const r = runner(plan);
  return { r, result: verifyCandidates({ fixes: fixes(...names), parallel, order, signal, run: r.run }) };
};

describe('verifyCandidates', () => {
  it('one at a time: stops at the first verified candidate, later ones never start', async () => {
    const { r, result } = verify(['a', 'b', 'c'], 1, 'in-order', {
      a: { ms: 5, outcome: 'build-failed' },
      b: { ms: 5, outcome: 'verified' },
      c: { ms: 5, outcome: 'verified' },
    });
    const done = await result;
    expect(done.verified?.index).toBe(1);
    expect(r.started).toEqual(['a', 'b']);
    expect(done.outcomes.map((o) => [o.verification?.outcome, o.stopped ?? false])).toEqual([
      ['build-failed', false],
      ['verified', false],
      [undefined, true],
    ]);
  });

  it('in-order, two at a time: a later candidate that verifies first stops the ones after it, but an earlier one that verifies wins', async () => {
    const { r, result } = verify(['a', 'b', 'c'], 2, 'in-order', {
      a: { ms: 80, outcome: 'verified' },
      b: { ms: 5, outcome: 'verified' },
      c: { ms: 5, outcome: 'verified' },
    });
    const done = await result;
    expect(done.verified?.index).toBe(0);
    expect(r.mostAtOnce()).toBe(2);
    // b's verdict kept c from starting; a ran on and, verifying, took precedence over b.
    expect(r.started).toEqual(['a', 'b']);
    expect(r.aborted).toEqual([]);
    expect(done.outcomes.map((o) => [o.verification?.outcome, o.stopped ?? false])).toEqual([
      ['verified', false],
      ['verified', false],
      [undefined, true],
    ]);
  });

  it('in-order: an earlier candidate that verifies stops a later one still running', async () => {
    const { r, result } = verify(['a', 'b'], 2, 'in-order', {
      a: { ms: 5, outcome: 'verified' },
      b: { ms: 1000, outcome: 'verified' },
    });
    const done = await result;
    expect(done.verified?.index).toBe(0);
    expect(r.aborted).toEqual(['b']);
    expect(done.outcomes[1]).toMatchObject({ stopped: true, verification: { outcome: 'interrupted' } });
  });

  it('fastest: the first to verify wins and stops the others', async () => {
    const { r, result } = verify(['a', 'b'], 2, 'fastest', {
      a: { ms: 500, outcome: 'verified' },
      b: { ms: 5, outcome: 'verified' },
    });
    const done = await result;
    expect(done.verified?.index).toBe(1);
    expect(r.aborted).toEqual(['a']);
    expect(done.outcomes[0]).toMatchObject({ stopped: true, verification: { outcome: 'interrupted' } });
  });

  it('none verifies: every candidate ran, nothing is stopped', async () => {
    const { r, result } = verify(['a', 'b', 'c'], 2, 'in-order', {
      a: { ms: 5, outcome: 'build-failed' },
      b: { ms: 5, outcome: 'regressed' },
      c: { ms: 5, outcome: 'build-failed' },
    });
    const done = await result;
    expect(done.verified).toBeUndefined();
    expect(r.started).toEqual(['a', 'b', 'c']);
    expect(done.outcomes.every((o) => !o.stopped)).toBe(true);
  });

  it('an interrupted repair stops every running candidate and starts no other', async () => {
    const controller = new AbortController();
    const { r, result } = verify(
      ['a', 'b', 'c'],
      2,
      'in-order',
      { a: { ms: 1000, outcome: 'verified' }, b: { ms: 1000, outcome: 'verified' }, c: { ms: 5, outcome: 'verified' } },
      controller.signal,
    );
    setTimeout(() => controller.abort(), 10);
    const done = await result;
    expect(done.verified).toBeUndefined();
    expect(r.started).toEqual(['a', 'b']);
    expect(done.outcomes.map((o) => o.stopped)).toEqual([true, true, true]);
  });

  it('refuses a parallelism that is not a whole number >= 1', async () => {
    await expect(
      verifyCandidates({
        fixes: fixes('a'),
        parallel: 0,
        order: 'in-order',
        signal: new AbortController().signal,
        run: async () => ({ outcome: 'verified', regressions: [], applyMs: 0, verifyMs: 0, stages: [] }),
      }),
    ).rejects.toThrow('parallel must be a whole number >= 1, got 0');
  });
});
