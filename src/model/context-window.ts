/**
 * Sizing Ollama's num_ctx. Ollama silently truncates a prompt longer than the context
 * window, so every call states a window big enough for the prompt and the answer; a
 * window far bigger than needed costs memory and load time, so it is not always the cap.
 */

const MIN_WINDOW = 2048;
export const DEFAULT_ANSWER_TOKENS = 2048;

/**
 * The window a repair prompt is packed for: `model.contextTokens`, never more than
 * `model.numCtx` (what Ollama is allowed to allocate) when that is set.
 */
export function promptWindow(model: { contextTokens: number; numCtx?: number }): number {
  return Math.min(model.contextTokens, model.numCtx ?? model.contextTokens);
}

/**
 * The pre-tokenizer split of Qwen2/Qwen2.5 (and cl100k-style byte-level BPE): contractions,
 * a letter run with one leading symbol, single digits, symbol runs, newlines, spaces.
 */
const PIECE =
  /'(?:[sStTmMdD]|[rR][eE]|[vV][eE]|[lL][lL])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;
const LETTERS_PER_TOKEN = 5;
const SYMBOLS_PER_TOKEN = 2;
const SPACES_PER_TOKEN = 8;
const utf8 = new TextEncoder();

/**
 * Tokens a prompt takes, erring on the safe side: a BPE merges at most this much, so the
 * estimate is at least the real count. Checked against the tokenizer of qwen2.5-coder on
 * Java sources, stack traces, Maven logs, prompts and non-ASCII text
 * (test/fixtures/tokens, scripts/count-qwen-tokens.mjs): never below the real count,
 * about 1.25 times it on prompts (2.4 on text in other scripts). Each digit is a token; every byte of a character
 * outside
 * ASCII is counted as a token unless it is part of a word.
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const match of text.matchAll(PIECE)) {
    const piece = match[0];
    let ascii = 0;
    let otherBytes = 0;
    for (const char of piece) {
      if (char.charCodeAt(0) < 128) ascii++;
      else otherBytes += utf8.encode(char).length;
    }
    if (/^\p{N}$/u.test(piece)) tokens += 1;
    else if (/\p{L}/u.test(piece)) tokens += Math.ceil(ascii / LETTERS_PER_TOKEN) + Math.ceil(otherBytes / 2);
    else if (otherBytes === 0 && /^\s+$/.test(piece)) tokens += Math.ceil(piece.length / SPACES_PER_TOKEN);
    else tokens += Math.ceil(ascii / SYMBOLS_PER_TOKEN) + otherBytes;
  }
  return tokens;
}

/**
 * Characters per token for a rough conversion where no text is at hand to estimate
 * (how much of a tool result to cut to free some tokens; the size of tool schemas sent
 * natively). Named once: the agent's prompt and its proposer use the same figure.
 */
export const CHARS_PER_TOKEN = 3.5;

/** Tokens that `chars` characters take, roughly (CHARS_PER_TOKEN). */
export function tokensForChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Characters that free about `tokens` tokens (CHARS_PER_TOKEN). */
export function charsForTokens(tokens: number): number {
  return Math.ceil(tokens * CHARS_PER_TOKEN);
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
