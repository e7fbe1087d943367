/**
 * What both providers share below their wire protocols: the listed hosts and their
 * cool-downs (host-roster.ts), the busy-retry fetch (busy-retry.ts) and the run's log of
 * model requests (traffic.ts). Node's fetch keeps HTTP/1.1 connections alive between
 * calls by itself; Ollama's `keep_alive` (model.keepAlive) keeps the model loaded.
 */
import { createBusyRetryFetch, type TrafficEvents } from './busy-retry.js';
import type { Deadline } from './deadline.js';
import { HostRoster } from './host-roster.js';
import type { ModelCall, ModelTraffic } from './traffic.js';

/** How long a host that refused or failed is skipped (model.coolDownSeconds's default). */
export const DEFAULT_COOL_DOWN_MS = 60_000;

export interface TransportOptions {
  /** How long a failed host is skipped. */
  coolDownMs?: number;
  /** Ms left in the run's time budget: no busy wait runs past it. */
  runRemainingMs?: () => number;
  /** The run's log of model requests and its console lines. */
  traffic?: ModelTraffic;
}

export class Transport {
  readonly roster: HostRoster;

  constructor(
    hosts: readonly string[],
    private readonly options: TransportOptions = {},
  ) {
    this.roster = new HostRoster(hosts, options.coolDownMs ?? DEFAULT_COOL_DOWN_MS);
  }

  /** The host requests are addressed to; the fetch swaps in the one that is asked. */
  get primary(): string {
    return this.roster.hosts[0]!;
  }

  fetchFor(deadline: Deadline, events?: TrafficEvents): typeof fetch {
    return createBusyRetryFetch({
      roster: this.roster,
      fetch: deadline.fetch,
      signal: deadline.signal,
      callEndsAt: deadline.endsAt,
      ...(this.options.runRemainingMs ? { runRemainingMs: this.options.runRemainingMs } : {}),
      ...(events ? { events } : this.options.traffic ? { events: this.options.traffic.background() } : {}),
    });
  }

  /**
   * The model's load ahead of the first chat, timed in the run's log (the record's `modelLoad`, so that its overlap
   * with the flaky re-check can be read there); `load` resolves to the server's own load time.
   */
  async timeLoad(host: string, model: string, load: Promise<number | undefined>): Promise<void> {
    const ended = this.options.traffic?.beginLoad(host, model);
    try {
      ended?.('loaded', await load);
    } catch (error) {
      ended?.('failed');
      throw error;
    }
  }

  /** A chat call to log; a stand-in that logs nowhere when the run keeps no log. */
  begin(model: string): ModelCall | undefined {
    return this.options.traffic?.begin(this.roster.order()[0] ?? this.primary, model);
  }
}
