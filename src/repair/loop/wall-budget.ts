/**
 * The wall-time budget as the loop applies it to every wait (the model call, a verification
 * build, the flaky re-check): the seconds left, whether the budget (not the user) ended a
 * wait, and a wait raced against the budget's signal.
 */
import type { LoopPorts } from './ports.js';

export function secondsLeft(ports: LoopPorts, budget: { maxWallSeconds: number }): number {
  return Math.max(0, budget.maxWallSeconds - ports.elapsedSeconds());
}

/** A wait the wall-time budget ended (not the user's interrupt). */
export function wallEnded(wall: AbortSignal | undefined, ports: LoopPorts): boolean {
  return wall?.aborted === true && !ports.interrupted();
}

/** The work's result, or a rejection as soon as `signal` fires (the work itself is told through the same signal). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
