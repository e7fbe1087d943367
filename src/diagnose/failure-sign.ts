/**
 * The first sign, while Maven still runs, that a build is failing: Surefire or Failsafe
 * reporting a failed or broken test, the compiler plugin's `COMPILATION ERROR`, a goal
 * that failed, `BUILD FAILURE`. Read from the raw output as it streams (ANSI colours do
 * not split these markers), so that the repair can start loading before the build ends.
 * Only a hint: the diagnosis is read from the finished log and reports as before. Pure.
 */
const SIGNS = ['<<< FAILURE!', '<<< ERROR!', 'COMPILATION ERROR', 'Failed to execute goal', 'BUILD FAILURE'] as const;
/** Enough of the previous chunk to find a sign that a chunk boundary cut in two. */
const CARRY = Math.max(...SIGNS.map((sign) => sign.length)) - 1;

/** A watch over a stream of output chunks: true from the chunk that completes a sign on. */
export function failureSignWatch(): (chunk: string) => boolean {
  let seen = false;
  let carried = '';
  return (chunk) => {
    if (seen) return true;
    const text = carried + chunk;
    seen = SIGNS.some((sign) => text.includes(sign));
    carried = text.slice(-CARRY);
    return seen;
  };
}

/**
 * A handler for Maven's output chunks that calls `start` once, on the chunk that shows the
 * first failure sign, after that chunk was passed on (`setImmediate`). A failing `start`
 * is ignored here: whoever needs what it started meets the failure again.
 */
export function onFirstFailureSign(start: () => Promise<unknown>): (chunk: Buffer) => void {
  const watch = failureSignWatch();
  let started = false;
  return (chunk) => {
    if (started || !watch(chunk.toString('latin1'))) return;
    started = true;
    setImmediate(() => {
      start().catch(() => undefined);
    });
  };
}
