/**
 * Sizing Ollama's num_ctx. Ollama silently truncates a prompt longer than the context
 * window, so every call states a window big enough for the prompt and the answer; a
 * window far bigger than needed costs memory and load time, so it is not always the cap.
 */

/** Code and diagnostics average a little over 3.5 characters per token for Qwen-class tokenizers. */
const CHARS_PER_TOKEN = 3.5;
const MIN_WINDOW = 2048;
export const DEFAULT_ANSWER_TOKENS = 2048;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export interface WindowLimits {
  /** The smallest of the model's own context length and the configured numCtx. */
  cap?: number;
  answerTokens?: number;
}

/**
 * The window for a prompt of `promptTokens`: the next power of two that holds the prompt
 * plus room for the answer, never above the cap. Returns undefined when the prompt alone
 * does not fit, so the caller can shrink the prompt instead of having it truncated.
 */
export function sizeContextWindow(promptTokens: number, limits: WindowLimits = {}): number | undefined {
  if (!Number.isFinite(promptTokens) || promptTokens < 0) {
    throw new RangeError(`promptTokens must be a non-negative number, got ${promptTokens}`);
  }
  const answer = limits.answerTokens ?? DEFAULT_ANSWER_TOKENS;
  const cap = limits.cap;
  if (cap !== undefined && promptTokens >= cap) return undefined;
  let window = MIN_WINDOW;
  while (window < promptTokens + answer) window *= 2;
  return cap === undefined ? window : Math.min(window, cap);
}
