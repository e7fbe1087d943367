/**
 * The model servers of `model.host`, in the order the team listed them, and which of them
 * is cooling down. Failover, not load balancing: every request goes to the first host that
 * is not cooling down, so a dead host costs one failed connect per cool-down, not one per
 * call. A gateway in front of several servers is one host here (docs/company.md).
 */

export interface HostState {
  host: string;
  /** Epoch ms until which the host is skipped; 0 when it is not cooling down. */
  coolingUntil: number;
  /** Why it cools down, for the console and the record. */
  reason?: string;
}

export class HostRoster {
  private readonly states: HostState[];

  constructor(
    hosts: readonly string[],
    private readonly coolDownMs: number,
    private readonly now: () => number = Date.now,
  ) {
    if (hosts.length === 0) throw new Error('model.host lists no host');
    this.states = hosts.map((host) => ({ host, coolingUntil: 0 }));
  }

  get hosts(): string[] {
    return this.states.map((state) => state.host);
  }

  /**
   * The hosts to try for one request, best first: those not cooling down in the listed
   * order, then, only when every host is cooling down, all of them by the end of their
   * cool-down (a request is never refused without asking anyone).
   */
  order(): string[] {
    const now = this.now();
    const ready = this.states.filter((state) => state.coolingUntil <= now);
    if (ready.length > 0) return ready.map((state) => state.host);
    return [...this.states].sort((a, b) => a.coolingUntil - b.coolingUntil).map((state) => state.host);
  }

  /** The host did not take the request (refused, unreachable, lost): skip it for the cool-down. */
  failed(host: string, reason: string): void {
    this.coolFor(host, this.coolDownMs, reason);
  }

  /** The host said it is busy and for how long: skip it until then (at least as long as it asked). */
  busy(host: string, forMs: number, reason: string): void {
    this.coolFor(host, forMs, reason);
  }

  /** The host answered: it is good again at once. */
  succeeded(host: string): void {
    const state = this.find(host);
    if (state) {
      state.coolingUntil = 0;
      delete state.reason;
    }
  }

  /** Whether another host than this one is ready now. */
  otherReady(host: string): boolean {
    const now = this.now();
    return this.states.some((state) => state.host !== host && state.coolingUntil <= now);
  }

  /** The host this request URL is addressed to, when it is one of ours (longest match wins). */
  hostOf(url: string): string | undefined {
    return this.states
      .map((state) => state.host)
      .filter((host) => url === host || url.startsWith(`${host}/`))
      .sort((a, b) => b.length - a.length)[0];
  }

  private coolFor(host: string, ms: number, reason: string): void {
    const state = this.find(host);
    if (!state) return;
    state.coolingUntil = Math.max(state.coolingUntil, this.now() + ms);
    state.reason = reason;
  }

  private find(host: string): HostState | undefined {
    return this.states.find((state) => state.host === host);
  }
}
