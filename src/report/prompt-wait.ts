/**
 * What the live line says before the model's first token (issue 42): a long prompt is read
 * for many seconds on a laptop's CPU, and nothing streams meanwhile. The line says how
 * many tokens the server has to read (what is new since the run's previous request: the
 * rest is in its prompt cache) and, once a request of this run has measured the server's
 * prompt rate, about how long that takes. Pure.
 */
import { estimateTokens } from '../model/context-window.js';
import type { ModelRequestRecord } from '../model/traffic.js';

/** In CI the estimate gets its own line only when the wait is at least this long: shorter ones pass unsaid. */
export const PLAIN_PROMPT_LINE_SECONDS = 10;

/**
 * Tokens the server evaluates for `current` when it holds `previous` (the same model's last request): those after
 * the longest common prefix, as llama.cpp's prompt cache does; all of them without a previous request.
 */
export function tokensToEvaluate(previous: string | undefined, current: string): number {
  if (previous === undefined) return estimateTokens(current);
  const limit = Math.min(previous.length, current.length);
  let shared = 0;
  while (shared < limit && previous.charCodeAt(shared) === current.charCodeAt(shared)) shared++;
  return estimateTokens(current.slice(shared));
}

/** The server's prompt rate (tokens per second) in the newest request that measured one; undefined before any. */
export function lastPromptRate(requests: readonly ModelRequestRecord[]): number | undefined {
  for (let index = requests.length - 1; index >= 0; index--) {
    const { promptTokens, promptEvalMs } = requests[index]!;
    if (promptTokens !== undefined && promptEvalMs !== undefined && promptTokens > 0 && promptEvalMs > 0)
      return (promptTokens * 1000) / promptEvalMs;
  }
  return undefined;
}

/** Seconds to read `tokens` at `rate`; undefined without a rate. */
export function promptSeconds(tokens: number, rate: number | undefined): number | undefined {
  return rate === undefined || rate <= 0 ? undefined : tokens / rate;
}

/** `reading the prompt: ~1,800 tokens, about 30 s at the last measured 60 tokens/s` (no estimate without a rate). */
export function promptWaitLine(tokens: number, rate: number | undefined): string {
  const seconds = promptSeconds(tokens, rate);
  const count = `reading the prompt: ~${tokens.toLocaleString('en-US')} tokens`;
  if (seconds === undefined) return count;
  const about = seconds < 1 ? 'under a second' : `about ${Math.round(seconds).toLocaleString('en-US')} s`;
  return `${count}, ${about} at the last measured ${formatRate(rate!)} tokens/s`;
}

function formatRate(rate: number): string {
  return rate >= 10 ? Math.round(rate).toLocaleString('en-US') : rate.toFixed(1);
}
