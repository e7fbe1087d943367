/**
 * Token counts for a chat request mvnx closed as soon as its answer was whole (`stoppedEarly`). The server's own
 * counters come with the answer's last line, which such a request never reads, so rollout token figures would drop
 * every request the early stop saved. mvnx estimates them instead, marked as an estimate, the way the server's prompt
 * cache charges: only the prompt after the longest common prefix with what the same model on the same host last held
 * (the previous prompt and the answer read after it) is counted as evaluated. Pure.
 */
import type { ChatMessage, ToolSpec } from './types.js';
import { estimateTokens } from './context-window.js';

export interface TokenEstimate {
  /** Prompt tokens the server evaluated, by mvnx's estimate: those after what its cache held. */
  prompt: number;
  /** Tokens of the answer mvnx read before it closed the stream. */
  completion: number;
}

/**
 * The prompt as one text, in the order the model reads it: the tool definitions offered, each message, and the opening
 * of the answer's turn, which the answer continues (so a later prompt that repeats the answer as an assistant message
 * shares it as prefix, as the server's cache does).
 */
export function promptAsSent(messages: readonly ChatMessage[], tools: readonly ToolSpec[] = []): string {
  const turns = messages
    .map((message) => {
      const calls = message.toolCalls?.length ? `${JSON.stringify(message.toolCalls)}\n` : '';
      return `${message.role}\n${message.content}\n${calls}`;
    })
    .join('');
  return `${tools.length === 0 ? '' : `${JSON.stringify(tools)}\n`}${turns}assistant\n`;
}

/** Length of the longest common prefix of two texts, in characters. */
export function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}

/** `held` is what the server's cache held for this model (undefined: nothing known, the whole prompt is evaluated). */
export function estimateClosedRequest(held: string | undefined, prompt: string, answer: string): TokenEstimate {
  const shared = held === undefined ? 0 : commonPrefixLength(held, prompt);
  return {
    // The server evaluates at least the prompt's last token, even of a prompt its cache holds whole.
    prompt: prompt === '' ? 0 : Math.max(1, estimateTokens(prompt.slice(shared))),
    completion: answer === '' ? 0 : estimateTokens(answer),
  };
}
