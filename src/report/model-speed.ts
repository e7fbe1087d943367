/**
 * What the model costs, for `mvnx runs --stats` and the HTML report (issue 42): model time
 * per verified fix, and per model the server's own speed, prompt tokens evaluated per
 * second and tokens written per second, from the counters each run record keeps per
 * request (`modelRequests[]`: promptTokens over promptEvalMs, completionTokens over
 * evalMs; Ollama reports them). Folded a record at a time, like the rest of the numbers. Pure.
 */
import type { ModelRequestRecord } from '../model/traffic.js';

export interface ModelSpeed {
  model: string;
  /** Requests whose server counters were recorded, and those mvnx closed early with its own estimate instead. */
  requests: number;
  /** Of `requests`, those counted by mvnx's estimate (closed at a whole answer): not in the rates. */
  estimatedRequests: number;
  /** Their tokens, by mvnx's estimate: prompt tokens evaluated after what the cache held, and tokens read. */
  estimatedPromptTokens: number;
  estimatedOutputTokens: number;
  /** Prompt tokens the server evaluated (after what its cache held) and the time it took. */
  promptTokens: number;
  promptEvalMs: number;
  /** promptTokens per second of promptEvalMs; null without prompt time. */
  promptTokensPerSecond: number | null;
  outputTokens: number;
  evalMs: number;
  /** outputTokens per second of evalMs; null without output time. */
  outputTokensPerSecond: number | null;
  /** Time the server spent loading the model (Ollama's load_duration), in all. */
  loadMs: number;
}

export interface ModelCost {
  /** timings.modelMs of every run in the window, per run that verified a fix; null without one. */
  modelMsPerVerifiedFix: number | null;
  /** By model name; only models whose requests carry server counters or mvnx's estimate. */
  byModel: ModelSpeed[];
}

type Sums = Omit<ModelSpeed, 'model' | 'promptTokensPerSecond' | 'outputTokensPerSecond'>;

/** The server's counters of the runs' model requests, summed per model. */
export class ModelSpeedFold {
  private readonly byModel = new Map<string, Sums>();

  add(requests: readonly ModelRequestRecord[]): void {
    for (const request of requests) {
      if (!isCounted(request)) continue;
      let sums = this.byModel.get(request.model);
      if (!sums) {
        sums = {
          requests: 0,
          estimatedRequests: 0,
          estimatedPromptTokens: 0,
          estimatedOutputTokens: 0,
          promptTokens: 0,
          promptEvalMs: 0,
          outputTokens: 0,
          evalMs: 0,
          loadMs: 0,
        };
        this.byModel.set(request.model, sums);
      }
      sums.requests += 1;
      if (request.estimatedTokens) {
        // No server time comes with an estimate: it is counted apart, never in a rate.
        sums.estimatedRequests += 1;
        sums.estimatedPromptTokens += request.estimatedTokens.prompt;
        sums.estimatedOutputTokens += request.estimatedTokens.completion;
      }
      // A rate needs both its tokens and its time: a request with only one of them adds to neither.
      if (request.promptTokens !== undefined && request.promptEvalMs !== undefined) {
        sums.promptTokens += request.promptTokens;
        sums.promptEvalMs += request.promptEvalMs;
      }
      if (request.completionTokens !== undefined && request.evalMs !== undefined) {
        sums.outputTokens += request.completionTokens;
        sums.evalMs += request.evalMs;
      }
      sums.loadMs += request.loadMs ?? 0;
    }
  }

  result(): ModelSpeed[] {
    return [...this.byModel]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([model, sums]) => ({
        model,
        requests: sums.requests,
        estimatedRequests: sums.estimatedRequests,
        estimatedPromptTokens: sums.estimatedPromptTokens,
        estimatedOutputTokens: sums.estimatedOutputTokens,
        promptTokens: sums.promptTokens,
        promptEvalMs: sums.promptEvalMs,
        promptTokensPerSecond: perSecond(sums.promptTokens, sums.promptEvalMs),
        outputTokens: sums.outputTokens,
        evalMs: sums.evalMs,
        outputTokensPerSecond: perSecond(sums.outputTokens, sums.evalMs),
        loadMs: sums.loadMs,
      }));
  }
}

/** Whether the server reported its own durations for the request (Ollama does; records before issue 42 do not). */
export function hasServerCounters(request: ModelRequestRecord): boolean {
  return request.promptEvalMs !== undefined || request.evalMs !== undefined;
}

/** Whether a request adds to the model's figures: the server's counters, or mvnx's estimate of one it closed early. */
export function isCounted(request: ModelRequestRecord): boolean {
  return hasServerCounters(request) || request.estimatedTokens !== undefined;
}

/** Model time per verified fix: all the model time of the window over the runs that verified a fix. */
export function modelMsPerVerifiedFix(modelMs: number, fixedRuns: number): number | null {
  return fixedRuns === 0 ? null : modelMs / fixedRuns;
}

function perSecond(tokens: number, ms: number): number | null {
  return ms > 0 ? (tokens * 1000) / ms : null;
}

/**
 * `prompt 62.0 tokens/s, output 8.1 tokens/s (5 requests)`: one model's line; `(5 requests, 2 closed early: ~840
 * tokens estimated)` when some had no server counters.
 */
export function describeModelSpeed(speed: ModelSpeed): string {
  const rate = (value: number | null) => (value === null ? '-' : value.toFixed(1));
  const estimated =
    speed.estimatedRequests === 0
      ? ''
      : `, ${speed.estimatedRequests} closed early: ~${speed.estimatedPromptTokens + speed.estimatedOutputTokens} tokens estimated`;
  return `prompt ${rate(speed.promptTokensPerSecond)} tokens/s, output ${rate(speed.outputTokensPerSecond)} tokens/s (${speed.requests} request${speed.requests === 1 ? '' : 's'}${estimated})`;
}
