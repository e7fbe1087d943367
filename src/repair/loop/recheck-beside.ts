/**
 * The flaky check runs beside the first model request, not before it. The re-check is a
 * Maven run (one core), the model request an HTTP wait (prompt building is the other
 * core's): nothing in either needs the other. So, when the re-check applies:
 *
 *   - the first model request (attempt 1, on the user's diagnosis, nothing adopted yet)
 *     starts beside the re-check, once the re-check's Maven has started: the workspace
 *     reset and the sandbox set-up before it are IO on this thread, which the prompt's
 *     parsing would hold up (jsoup: the reset took 0.43 s beside the prompt, 0.05 s alone,
 *     and the re-check is the longer of the two);
 *   - whatever builds in the workspace (quick-fix goals, verification) waits for the
 *     re-check, which runs in that workspace;
 *   - when the failing tests pass on the re-check, the model request is cancelled and the
 *     loop stops `flaky` as before (its `await recheckFailures` is where it learns so);
 *   - the reply's test-integrity check runs as soon as the reply is in, still beside the
 *     re-check (jsoup, 155 failing tests: 0.35 s that came after it); the loop's check of
 *     the same change on the same diagnosis gets that result;
 *   - when the loop asks the model for attempt 1, it gets the request already under way;
 *     a first request it does not use (a quick-fix was tried first, so the history
 *     differs, or one was verified) is cancelled;
 *   - a request made and not used is told to the ports (`modelRequestDiscarded`) and
 *     counted (`settle`): the record and the console say a request was made and its reply
 *     thrown away, never that no model was asked.
 *
 * Agent sessions build candidates themselves, so the engine only lets a plain model
 * request start early (`proposesBesideRecheck`).
 */
import type { Diagnosis } from '../../diagnose/types.js';
import type { FailureRecheck, IntegrityOutcome, LoopPorts, Proposal } from './ports.js';

type ModelRequest = Parameters<LoopPorts['modelProposal']>[0];

export interface BesideRecheck {
  ports: LoopPorts;
  /** At the loop's end: cancels the early request if nobody took it, waits for it to end; how many were discarded. */
  settle(): Promise<number>;
}

export function startBesideRecheck(initial: Diagnosis, ports: LoopPorts): BesideRecheck {
  if (!ports.recheckFailures || !ports.proposesBesideRecheck?.(initial))
    return { ports, settle: () => Promise.resolve(0) };
  let launched = () => {};
  const started = new Promise<void>((resolve) => (launched = resolve));
  const recheck = ports.recheckFailures(initial, { launched });
  recheck.then(launched, launched);
  const controller = new AbortController();
  const flaky = (result: FailureRecheck | undefined) =>
    result !== undefined && result.passed.length > 0 && result.failed.length === 0;
  const budget = ports.budget(initial, 0);
  let early: Promise<Proposal> | undefined;
  /** The early request was sent on its way (the model proposer was called), and what became of it. */
  let asked = false;
  let discarded = false;
  let ended: Promise<unknown> = Promise.resolve();
  const discard = (why: string) => {
    if (discarded) return;
    discarded = true;
    controller.abort();
    if (asked) ports.modelRequestDiscarded?.(1, why);
  };
  let integrityAhead: { fingerprint: string; result: Promise<IntegrityOutcome> } | undefined;
  if (budget.maxModelCalls >= 1 && budget.maxAttempts >= 1) {
    const request = {
      diagnosis: initial,
      base: { files: [] },
      history: [],
      n: 1,
      modelCallsLeft: budget.maxModelCalls,
      attemptsLeft: budget.maxAttempts,
      signal: controller.signal,
      besideRecheck: true,
    };
    early = started.then(() => {
      // Flaky before the request began: nothing to ask (the loop stops without taking it).
      if (controller.signal.aborted) throw controller.signal.reason;
      asked = true;
      return ports.modelProposal({
        ...request,
        secondsLeft: Math.max(0, budget.maxWallSeconds - ports.elapsedSeconds()),
      });
    });
    // Not asked for (flaky, interrupted, a quick-fix first): its failure is nobody's.
    early.catch(() => undefined);
    ended = early.catch(() => undefined);
    early.then(
      (proposal) => {
        if (!proposal.changeSet || controller.signal.aborted) return;
        integrityAhead = {
          fingerprint: ports.fingerprint(proposal.changeSet),
          result: ports.checkIntegrity(proposal.changeSet, initial),
        };
        integrityAhead.result.catch(() => undefined);
      },
      () => undefined,
    );
    recheck.then(
      (result) => (flaky(result) ? discard('the failing tests passed when re-run (flaky)') : undefined),
      () => discard('the re-check failed'),
    );
  }
  const afterRecheck = async <T>(work: () => Promise<T>): Promise<T> => {
    await recheck.catch(() => undefined);
    return work();
  };
  const takeEarly = (request: ModelRequest): Promise<Proposal> | undefined => {
    const pending = early;
    early = undefined;
    if (!pending) return undefined;
    if (
      request.n === 1 &&
      request.history.length === 0 &&
      request.base.files.length === 0 &&
      request.diagnosis === initial
    ) {
      ports.tookRequestBesideRecheck?.(request.n);
      // The loop's own signal (its wall-time budget) reaches the request that started early too.
      request.signal?.addEventListener('abort', () => controller.abort(), { once: true });
      return pending;
    }
    discard('the loop asked the model on another history (a quick-fix was tried first)');
    return undefined;
  };
  const checkIntegrity: LoopPorts['checkIntegrity'] = (fix, diagnosis) => {
    const ahead = integrityAhead;
    integrityAhead = undefined;
    return ahead && diagnosis === initial && ahead.fingerprint === ports.fingerprint(fix)
      ? ahead.result
      : ports.checkIntegrity(fix, diagnosis);
  };
  const settle = async () => {
    if (early) discard('the run ended without using it');
    await ended;
    return discarded && asked ? 1 : 0;
  };
  return {
    settle,
    ports: {
      ...ports,
      checkIntegrity,
      recheckFailures: () => recheck,
      fixerProposals: (diagnosis, base) => afterRecheck(() => ports.fixerProposals(diagnosis, base)),
      modelProposal: (request) => takeEarly(request) ?? ports.modelProposal(request),
      verify: (fix, diagnosis, n, upcoming, signal) =>
        afterRecheck(() => ports.verify(fix, diagnosis, n, upcoming, signal)),
    },
  };
}
