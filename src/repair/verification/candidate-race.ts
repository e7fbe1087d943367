/**
 * Several candidate fixes verified at once, each in its own workspace, `parallel` at a
 * time. When one verifies, the others stop:
 *
 *   in-order  the candidates keep their order of preference: a verified candidate stops
 *             every later one, while earlier ones run on (one of them verifying wins).
 *             The winner is the one a one-by-one verification would have picked.
 *   fastest   the first to verify wins and stops all the others.
 *
 * `run` verifies one fix (verifier.ts) under the signal it is given; a stopped candidate
 * reports `stopped`, with whatever its interrupted verification said.
 */
import type { ChangeSet } from '../../patch/types.js';
import type { Verification } from '../loop/ports.js';

export type CandidateOrder = 'in-order' | 'fastest';

export interface CandidateOutcome {
  index: number;
  /** Absent when the candidate never started. */
  verification?: Verification;
  /** Stopped (or never started) because another candidate verified, or the repair was interrupted. */
  stopped?: boolean;
}

export interface CandidatesResult {
  verified?: { index: number; verification: Verification };
  /** One per candidate, in the order given. */
  outcomes: CandidateOutcome[];
}

export interface CandidatesInput {
  fixes: ChangeSet[];
  parallel: number;
  order: CandidateOrder;
  signal: AbortSignal;
  run(fix: ChangeSet, signal: AbortSignal): Promise<Verification>;
}

export async function verifyCandidates(input: CandidatesInput): Promise<CandidatesResult> {
  if (!Number.isInteger(input.parallel) || input.parallel < 1)
    throw new TypeError(`parallel must be a whole number >= 1, got ${input.parallel}`);
  const outcomes: CandidateOutcome[] = input.fixes.map((_, index) => ({ index }));
  const controllers = input.fixes.map(() => new AbortController());
  const stopAll = () => controllers.forEach((controller) => controller.abort());
  input.signal.addEventListener('abort', stopAll, { once: true });
  let winner: number | undefined;
  let next = 0;

  // Which candidates a verified one makes pointless: later ones (in-order) or all others (fastest).
  const stopAfter = (index: number) => {
    for (const [other, controller] of controllers.entries())
      if (other !== index && (input.order === 'fastest' || other > index)) controller.abort();
  };
  const worker = async (): Promise<void> => {
    while (next < input.fixes.length) {
      const index = next++;
      const controller = controllers[index]!;
      if (controller.signal.aborted || input.signal.aborted) {
        outcomes[index]!.stopped = true;
        continue;
      }
      const verification = await input.run(input.fixes[index]!, controller.signal);
      outcomes[index]!.verification = verification;
      if (controller.signal.aborted && verification.outcome !== 'verified') outcomes[index]!.stopped = true;
      if (verification.outcome === 'verified' && !outcomes[index]!.stopped) {
        const better = winner === undefined || (input.order === 'in-order' && index < winner);
        if (better) {
          winner = index;
          stopAfter(index);
        }
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(input.parallel, Math.max(1, input.fixes.length)) }, worker));
  } finally {
    input.signal.removeEventListener('abort', stopAll);
  }
  return {
    ...(winner !== undefined ? { verified: { index: winner, verification: outcomes[winner]!.verification! } } : {}),
    outcomes,
  };
}
