/**
 * How mvnx behaves as a client of a busy model service (issue 28): the fetch every
 * provider request goes through.
 *
 * - A host that answers 429 or 503 did not run the request (RFC 9110 15.6.4, RFC 6585 4),
 *   so it is asked again: after its Retry-After (seconds or an HTTP date, plus up to 10 %
 *   jitter so a fleet does not come back at the same instant), else after an exponential
 *   backoff with jitter; meanwhile another listed host that is ready is asked at once.
 *   A wait that would run past the call's deadline or the run's time budget is not
 *   started: the call ends as provider-unavailable, saying how long it waited.
 * - A host that cannot be reached before the request left (refused, no route, no name)
 *   is skipped for the cool-down and the next host is asked.
 * - A request the server may have run in part is never sent again: a POST whose
 *   connection broke after it was sent fails (the host cools down for the next call);
 *   only GET and HEAD, which HTTP lets a client repeat, are.
 */
import { ProviderUnavailableError } from './errors.js';
import { describeError, isConnectionFailure } from './deadline.js';
import type { HostRoster } from './host-roster.js';

/** One wait before asking a busy service again: what the record and the console line say. */
export interface BusyWait {
  host: string;
  status: number;
  ms: number;
  /** `retry-after`: the server said how long; `backoff`: it did not, so mvnx chose. */
  reason: 'retry-after' | 'backoff';
}

export interface TrafficEvents {
  /** A wait is about to start. */
  onWait?(wait: BusyWait): void;
  /** A host was skipped: unreachable, or lost mid-request. */
  onHostFailed?(host: string, reason: string, next: string | undefined): void;
  /** The host that answered (status < 400 or a final error). */
  onHost?(host: string): void;
}

export interface BusyRetryOptions {
  roster: HostRoster;
  /** The deadline's fetch (the call's timeout and the caller's abort). */
  fetch: typeof fetch;
  signal: AbortSignal;
  /** Epoch ms at which the call's own deadline ends. */
  callEndsAt: number;
  /** Ms left in the run's time budget; unbounded when absent. */
  runRemainingMs?: () => number;
  events?: TrafficEvents;
  /** Injected in tests; Math.random otherwise. */
  random?: () => number;
  /** Retries of busy answers per request at most (time is the real bound). */
  maxBusyRetries?: number;
}

const BUSY_STATUSES = new Set([429, 503]);
const BACKOFF_BASE_MS = 1000;
const BACKOFF_CAP_MS = 30_000;
/** Errors raised before the request reached the server: nothing ran, asking elsewhere is safe. */
const NOT_SENT = /^(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|UND_ERR_CONNECT_TIMEOUT)$/;

/** Retry-After in ms: delay-seconds or an HTTP date (RFC 9110 10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its day and month; Date.parse would read "-3" as a year.
  const at = /[a-z]{3}/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Exponential backoff with jitter: round 1 waits 0.5-1 s, doubling up to 15-30 s. */
export function backoffMs(round: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, round - 1));
  return Math.round(ceiling * (0.5 + random() * 0.5));
}

/** Whether the request cannot have reached the server (or HTTP lets it be repeated). */
export function safeToResend(error: unknown, method: string | undefined): boolean {
  const code = ((error as Error | undefined)?.cause as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && NOT_SENT.test(code)) return true;
  const idempotent = !method || /^(GET|HEAD)$/i.test(method);
  return idempotent && isConnectionFailure(error);
}

export function createBusyRetryFetch(options: BusyRetryOptions): typeof fetch {
  const { roster, events } = options;
  const random = options.random ?? Math.random;
  const maxBusyRetries = options.maxBusyRetries ?? 8;

  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const addressed = roster.hostOf(url);
    if (!addressed) return options.fetch(input, init);
    const path = url.slice(addressed.length);
    const waits: BusyWait[] = [];
    let lastFailure: unknown;
    for (let round = 1; ; round++) {
      let busy: { host: string; status: number; afterMs?: number } | undefined;
      const order = roster.order();
      for (const [index, host] of order.entries()) {
        let response: Response;
        try {
          response = await options.fetch(`${host}${path}`, init);
        } catch (error) {
          if (options.signal.aborted) throw error;
          const reason = describeError(error);
          roster.failed(host, reason);
          const next = order[index + 1];
          events?.onHostFailed?.(host, reason, safeToResend(error, init?.method) ? next : undefined);
          if (!safeToResend(error, init?.method)) throw error;
          lastFailure = error;
          continue;
        }
        if (!BUSY_STATUSES.has(response.status)) {
          roster.succeeded(host);
          events?.onHost?.(host);
          return response;
        }
        const afterMs = retryAfterMs(response.headers.get('retry-after'));
        // The body of a refusal is not read: drop it so the connection goes back to the pool.
        await response.body?.cancel().catch(() => undefined);
        roster.busy(host, afterMs ?? backoffMs(round, random), `HTTP ${response.status}`);
        busy = { host, status: response.status, ...(afterMs !== undefined ? { afterMs } : {}) };
      }
      if (!busy)
        throw lastFailure instanceof Error
          ? lastFailure
          : new Error(`no model host could be asked (${roster.hosts.join(', ')})`);

      const ms =
        busy.afterMs !== undefined ? Math.round(busy.afterMs * (1 + random() * 0.1)) : backoffMs(round, random);
      const left = Math.min(options.callEndsAt - Date.now(), options.runRemainingMs?.() ?? Number.POSITIVE_INFINITY);
      if (round > maxBusyRetries || ms > left) throw busyError(busy, waits, ms, left);
      const wait: BusyWait = {
        host: busy.host,
        status: busy.status,
        ms,
        reason: busy.afterMs !== undefined ? 'retry-after' : 'backoff',
      };
      waits.push(wait);
      events?.onWait?.(wait);
      await sleep(ms, options.signal);
    }
  };
}

function busyError(
  busy: { host: string; status: number },
  waits: BusyWait[],
  nextMs: number,
  leftMs: number,
): ProviderUnavailableError {
  const waited = waits.reduce((sum, wait) => sum + wait.ms, 0);
  const history =
    waits.length > 0 ? `; waited ${seconds(waited)} in ${waits.length} ${waits.length === 1 ? 'wait' : 'waits'}` : '';
  const why =
    nextMs > leftMs
      ? `the next wait (${seconds(nextMs)}) would run past the ${seconds(Math.max(0, leftMs))} left`
      : 'it stayed busy';
  return new ProviderUnavailableError(
    `The model server at ${busy.host} is busy (HTTP ${busy.status})${history}, and ${why}`,
    'Add model servers behind the gateway, raise OLLAMA_NUM_PARALLEL / OLLAMA_MAX_QUEUE, or give the run more budget.maxWallSeconds',
  );
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
