/**
 * Deadlines for HTTP calls. ollama-js takes no abort signal on non-streamed calls, so
 * every request goes through a fetch that joins the request's own signal with a timeout
 * and the caller's signal; afterwards we can tell which of them fired.
 */

export interface Deadline {
  readonly fetch: typeof fetch;
  readonly signal: AbortSignal;
  /** Epoch ms at which the timeout fires. */
  readonly endsAt: number;
  /** Why the deadline's signal fired, or undefined when it has not. */
  cause(): 'timeout' | 'aborted' | undefined;
}

export function createDeadline(timeoutMs: number, callerSignal?: AbortSignal): Deadline {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = callerSignal ? AbortSignal.any([timeout, callerSignal]) : timeout;
  const deadlineFetch: typeof fetch = (input, init) => {
    const ownSignal = init?.signal;
    const joined = ownSignal ? AbortSignal.any([signal, ownSignal]) : signal;
    return fetch(input, { ...init, signal: joined });
  };
  return {
    fetch: deadlineFetch,
    signal,
    endsAt: Date.now() + timeoutMs,
    cause() {
      if (callerSignal?.aborted) return 'aborted';
      if (timeout.aborted) return 'timeout';
      return undefined;
    },
  };
}

/** Connection refused, reset, DNS failure: the server is not there (undici's "fetch failed"). */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TypeError' && /fetch failed/i.test(error.message)) return true;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return (
    typeof code === 'string' &&
    /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|UND_ERR_SOCKET)$/.test(code)
  );
}

export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  // "fetch failed: ECONNREFUSED": callers put it in parentheses, which must not nest.
  return typeof code === 'string' ? `${error.message}: ${code}` : error.message;
}
