/** The counters Ollama reports on an answer's last line, in the run record's units. */
import type { ChatResponse } from 'ollama';

/** Ollama reports durations in nanoseconds; the run record keeps whole milliseconds. */
export function nanosToMs(nanos: number | undefined): number | undefined {
  return typeof nanos === 'number' && Number.isFinite(nanos) ? Math.round(nanos / 1e6) : undefined;
}
/** What the answer's last line reported. */
export function serverCounters(final: ChatResponse | undefined) {
  return {
    promptTokens: final?.prompt_eval_count,
    completionTokens: final?.eval_count,
    loadMs: nanosToMs(final?.load_duration),
    promptEvalMs: nanosToMs(final?.prompt_eval_duration),
    evalMs: nanosToMs(final?.eval_duration),
  };
}
