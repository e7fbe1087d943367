/**
 * A fetch that waits out a forge's rate limit: GitHub answers 429, or 403 with
 * `Retry-After` or `x-ratelimit-remaining: 0` and `x-ratelimit-reset`; GitLab answers 429
 * with `Retry-After`. The request is sent again after the wait the server asked for, a
 * few times at most, and never after a wait longer than `maxWaitMs` (then the answer stands
 * and the caller says "rate limited").
 */
export interface RateLimitOptions {
  maxWaitMs?: number;
  retries?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** How long the server asks us to wait, or undefined when the answer is not a rate limit. */
export function rateLimitWaitMs(response: Pick<Response, 'status' | 'headers'>, now: number): number | undefined {
  if (response.status !== 429 && response.status !== 403) return undefined;
  const retryAfter = response.headers.get('retry-after');
  if (retryAfter !== null) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  if (response.headers.get('x-ratelimit-remaining') === '0') {
    const reset = Number(response.headers.get('x-ratelimit-reset'));
    if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now);
  }
  return response.status === 429 ? 1000 : undefined;
}

export function rateLimitedFetch(base: typeof fetch, options: RateLimitOptions = {}): typeof fetch {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  return async (input, init) => {
    for (let attempt = 0; ; attempt += 1) {
      const response = await base(input, init);
      const wait = rateLimitWaitMs(response, now());
      if (wait === undefined || attempt >= (options.retries ?? 3) || wait > (options.maxWaitMs ?? 60_000))
        return response;
      await response.arrayBuffer().catch(() => undefined);
      await sleep(wait);
    }
  };
}
