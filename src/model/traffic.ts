/**
 * The run's log of model requests (issue 28): which host answered each chat call, how long
 * it took, what it waited for and why. The run record keeps it as `modelRequests`, the
 * console gets one line per wait and per skipped host, and telemetry reads its times.
 */
import { seconds, type BusyWait, type TrafficEvents } from './busy-retry.js';
import { estimateClosedRequest, type TokenEstimate } from './closed-request-estimate.js';

export interface ModelRequestRecord {
  /** The loop's attempt this call belongs to, when the engine said. */
  attempt?: number;
  /** The host that answered, or the last one asked. */
  host: string;
  model: string;
  startedAt: string;
  durationMs: number;
  /**
   * answered; failed (the server answered with an error, or the call timed out); unavailable (no server could serve
   * it); cancelled (mvnx stopped waiting for it: its reply was not needed any more).
   */
  outcome: 'answered' | 'failed' | 'unavailable' | 'cancelled';
  /**
   * Set when the request was made but its reply, if any, was never used, with why (the flaky re-check beside it
   * passed first, or a quick-fix was tried first). Counted in the record's `discardedModelCalls`.
   */
  discarded?: string;
  /** Time spent waiting for a busy service, in all. */
  waitedMs?: number;
  waits?: BusyWait[];
  /** Hosts skipped during this call, with why. */
  failedHosts?: { host: string; reason: string }[];
  /** The server's own counters (Ollama): prompt tokens it evaluated (after what its cache held), tokens written. */
  promptTokens?: number;
  completionTokens?: number;
  /** The server's own durations (Ollama): loading the model, evaluating the prompt, writing the answer. */
  loadMs?: number;
  promptEvalMs?: number;
  evalMs?: number;
  /**
   * mvnx closed the stream as soon as the answer was whole (a diff's closing fence), so the server stopped writing
   * what would not be read; its counters are then absent (they come with the answer's last line).
   */
  stoppedEarly?: true;
  /** Why the server ended the answer itself: Ollama's `done_reason`, an OpenAI server's `finish_reason`. */
  doneReason?: string;
  /**
   * A request mvnx closed early has no server counters: mvnx's own estimate of the prompt tokens the server evaluated
   * (after what its cache held from this run's previous request to the model) and of the tokens it read.
   */
  estimatedTokens?: TokenEstimate;
}

/**
 * The model loaded ahead of the first chat (Ollama: an empty chat with keep_alive, sent when the policy attempts), so
 * that its load overlaps the flaky re-check and the rest of the build's reading. `loading`: still under way when the
 * record was written (durationMs is then the time until then).
 */
export interface ModelLoadRecord {
  host: string;
  model: string;
  startedAt: string;
  durationMs: number;
  outcome: 'loaded' | 'failed' | 'loading';
  /** The server's own load time (Ollama's load_duration); 0 when the model was loaded already. */
  loadMs?: number;
}

/** What the server reported about one answered call. */
export type ServerCounters = Pick<
  ModelRequestRecord,
  'promptTokens' | 'completionTokens' | 'loadMs' | 'promptEvalMs' | 'evalMs'
>;

export class ModelTraffic {
  readonly requests: ModelRequestRecord[] = [];
  /** Set by the engine before each attempt's model call. */
  attempt?: number;
  /** Attempts whose requests were made and then thrown away, with why (see `discard`). */
  private readonly discards = new Map<number, string>();

  /** Per host and model, what the server's prompt cache holds by mvnx's account: the last prompt and its answer. */
  private readonly held = new Map<string, string>();

  private load: { host: string; model: string; started: number; ended?: ModelLoadRecord } | undefined;

  constructor(private readonly notify: (line: string) => void = () => undefined) {}

  /** The model's load ahead of the first chat begins; the returned function ends it. */
  beginLoad(host: string, model: string): (outcome: 'loaded' | 'failed', loadMs?: number) => void {
    const load: NonNullable<ModelTraffic['load']> = { host, model, started: Date.now() };
    this.load = load;
    return (outcome, loadMs) => {
      load.ended = { ...this.loadAt(load, Date.now()), outcome, ...(loadMs !== undefined ? { loadMs } : {}) };
    };
  }

  /** The load ahead, as the record keeps it: ended, or still `loading` at `now`. */
  loadRecord(now = Date.now()): ModelLoadRecord | undefined {
    if (!this.load) return undefined;
    return this.load.ended ?? { ...this.loadAt(this.load, now), outcome: 'loading' };
  }

  private loadAt(load: { host: string; model: string; started: number }, now: number) {
    return {
      host: load.host,
      model: load.model,
      startedAt: new Date(load.started).toISOString(),
      durationMs: now - load.started,
    };
  }

  begin(host: string, model: string): ModelCall {
    return new ModelCall(this, host, model, this.notify);
  }

  /** Events of requests outside a chat call (the health check): only the console hears of them. */
  background(): TrafficEvents {
    return {
      onHostFailed: (host, reason, next) => this.notify(hostFailedLine(host, reason, next)),
      onWait: (wait) => this.notify(waitLine(wait)),
    };
  }

  /**
   * The requests of attempt `n` were made but their replies are not used (cancelled when still under way): those
   * already ended, and those that end later, say so.
   */
  discard(n: number, why: string): void {
    this.discards.set(n, why);
    for (const request of this.requests) if (request.attempt === n) request.discarded = why;
  }

  discardedWhy(n: number | undefined): string | undefined {
    return n === undefined ? undefined : this.discards.get(n);
  }

  /** What the prompt cache of `model` on `host` holds, as far as this run knows (undefined: nothing known). */
  heldBy(host: string, model: string): string | undefined {
    return this.held.get(`${host} ${model}`);
  }

  hold(host: string, model: string, text: string): void {
    this.held.set(`${host} ${model}`, text);
  }

  /** Waits of every call, for the record's summary. */
  waitedMs(): number {
    return this.requests.reduce((sum, request) => sum + (request.waitedMs ?? 0), 0);
  }
}

/** One chat call in the making: the busy-retry fetch reports to it, the provider ends it. */
export class ModelCall implements TrafficEvents {
  private readonly started = Date.now();
  private readonly waits: BusyWait[] = [];
  private readonly failedHosts: { host: string; reason: string }[] = [];
  /** The attempt when the call began: a call that ends after the next attempt began still belongs to its own. */
  private readonly attempt: number | undefined;
  /** The prompt as sent (promptAsSent), for the estimate of a request closed early. */
  private prompt?: string;

  constructor(
    private readonly traffic: ModelTraffic,
    public host: string,
    private readonly model: string,
    private readonly notify: (line: string) => void,
  ) {
    this.attempt = traffic.attempt;
  }

  onWait(wait: BusyWait): void {
    this.waits.push(wait);
    this.host = wait.host;
    this.notify(waitLine(wait));
  }

  onHostFailed(host: string, reason: string, next: string | undefined): void {
    this.failedHosts.push({ host, reason });
    this.host = host;
    this.notify(hostFailedLine(host, reason, next));
  }

  onHost(host: string): void {
    this.host = host;
  }

  sent(prompt: string): void {
    this.prompt = prompt;
  }

  /** `answer`: the text read (an answered call), which the server's cache now holds after the prompt. */
  end(
    outcome: ModelRequestRecord['outcome'],
    counters: { [K in keyof ServerCounters]?: number | undefined } = {},
    ending: Pick<ModelRequestRecord, 'stoppedEarly' | 'doneReason'> = {},
    answer = '',
  ): void {
    const waitedMs = this.waits.reduce((sum, wait) => sum + wait.ms, 0);
    const discarded = this.traffic.discardedWhy(this.attempt);
    const reported = Object.fromEntries(
      Object.entries(counters).filter((entry): entry is [string, number] => typeof entry[1] === 'number'),
    ) as ServerCounters;
    let estimatedTokens: TokenEstimate | undefined;
    if (outcome === 'answered' && this.prompt !== undefined) {
      const counted = reported.promptTokens !== undefined || reported.completionTokens !== undefined;
      if (ending.stoppedEarly && !counted)
        estimatedTokens = estimateClosedRequest(this.traffic.heldBy(this.host, this.model), this.prompt, answer);
      this.traffic.hold(this.host, this.model, `${this.prompt}${answer}`);
    }
    this.traffic.requests.push({
      ...(this.attempt !== undefined ? { attempt: this.attempt } : {}),
      host: this.host,
      model: this.model,
      startedAt: new Date(this.started).toISOString(),
      durationMs: Date.now() - this.started,
      outcome,
      ...(this.waits.length > 0 ? { waitedMs, waits: this.waits } : {}),
      ...(this.failedHosts.length > 0 ? { failedHosts: this.failedHosts } : {}),
      ...reported,
      ...(ending.stoppedEarly ? { stoppedEarly: true as const } : {}),
      ...(ending.doneReason ? { doneReason: ending.doneReason } : {}),
      ...(estimatedTokens ? { estimatedTokens } : {}),
      ...(discarded !== undefined ? { discarded } : {}),
    });
  }
}

function waitLine(wait: BusyWait): string {
  const why = wait.reason === 'retry-after' ? 'as its Retry-After asks' : 'backing off (it sent no Retry-After)';
  return `model server ${wait.host} is busy (HTTP ${wait.status}): waiting ${seconds(wait.ms)} ${why}, then asking again`;
}

function hostFailedLine(host: string, reason: string, next: string | undefined): string {
  return `model server ${host} failed (${reason}): skipped for its cool-down${next ? `, asking ${next}` : ''}`;
}
