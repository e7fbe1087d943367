/**
 * The Ollama-API server as `mvnx bench` uses it: the same scripted replies every run, so
 * that the benchmark measures mvnx (extraction, validation, verification, stop rules)
 * and not a model's mood; once the script has run out, the model has nothing to add.
 */
import { PromptCacheCost, type CallCharge, type ModelCostRates } from './model-cost.js';
import { ReplyQueue, startOllamaApiServer, type ScriptedReply } from './ollama-api-server.js';

export interface ScriptedOllamaOptions {
  /** Default qwen2.5-coder:7b. */
  model?: string;
  /** Reported by /api/show as `<family>.context_length`. Default 32768. */
  contextLength?: number;
  /** What /api/chat answers once the script has run out. */
  exhaustedReply?: string;
  /** Pieces a streamed reply is cut into (default 8), as a real model streams tokens. */
  streamPieces?: number;
  /** Charge calls as llama.cpp's prompt cache does (model-cost.ts). */
  cost?: ModelCostRates;
}

export interface ScriptedOllama {
  url: string;
  /** Chat calls answered so far. */
  calls(): number;
  /** The chat requests' bodies, for checking what mvnx sent. */
  requests(): unknown[];
  /** What each model call (loads included) was charged; empty without a cost model. */
  charges(): CallCharge[];
  close(): Promise<void>;
}

export const SCRIPTED_MODEL = 'qwen2.5-coder:7b';
export const DEFAULT_EXHAUSTED_REPLY = 'I could not find another way to fix this build from the information given.';

export async function startScriptedOllama(
  replies: ScriptedReply[],
  options: ScriptedOllamaOptions = {},
): Promise<ScriptedOllama> {
  const queue = new ReplyQueue([...replies]);
  const exhausted = { text: options.exhaustedReply ?? DEFAULT_EXHAUSTED_REPLY };
  const settings = {
    models: [options.model ?? SCRIPTED_MODEL],
    contextLength: options.contextLength ?? 32768,
    chunks: options.streamPieces ?? 8,
    version: '0.6.4-scripted',
    cost: options.cost ? new PromptCacheCost(options.cost) : undefined,
  };
  const server = await startOllamaApiServer(settings, { reply: (request) => queue.take(request) ?? exhausted });
  return {
    url: server.url,
    calls: () => server.answered(),
    requests: () => server.chatRequests().map((request) => request.body),
    charges: () => [...(settings.cost?.charges ?? [])],
    close: () => server.close(),
  };
}
