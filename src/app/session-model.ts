/**
 * The session's model: the provider its config names, behind the run's redaction, and the
 * log of every request it makes (busy servers are waited for within the run's wall-time
 * budget; each wait and skipped host is one console line).
 */
import {
  createProvider,
  ModelTraffic,
  withRedaction,
  type ChatMessage,
  type ModelProvider,
  type Redactor,
} from '../model/index.js';
import type { EffectiveConfig } from '../policy/index.js';
import { lastPromptRate, tokensToEvaluate } from '../report/prompt-wait.js';
import { modelSettings } from './model-settings.js';

export function wireModel(input: {
  config: EffectiveConfig;
  env: NodeJS.ProcessEnv;
  redactor: Redactor;
  note: (line: string) => void;
  /** What is left of the run's wall-time budget, in milliseconds. */
  runRemainingMs: () => number;
  /** A request went out: the tokens the server reads first, and its prompt rate as last measured. */
  promptSent?: (tokens: number, lastRate: number | undefined) => void;
  /** A request nobody streamed (the agent's) was answered: nothing replaces the prompt's line but this. */
  promptAnswered?: () => void;
}) {
  const settings = modelSettings(input.config, input.env);
  const traffic = new ModelTraffic(input.note);
  const provider = withRedaction(
    createProvider(settings, {
      traffic,
      runRemainingMs: input.runRemainingMs,
      coolDownMs: input.config.model.coolDownSeconds * 1000,
    }),
    input.redactor,
  );
  return {
    settings,
    traffic,
    provider: input.promptSent ? saysPrompt(provider, traffic, input.promptSent, input.promptAnswered) : provider,
  };
}

/**
 * The provider, telling `promptSent` of each request before it goes out: how many tokens the server reads (what is new
 * since the run's previous request, the rest being in its prompt cache) and the prompt rate the newest request
 * measured. The native tool definitions count too: they travel with every request (the same each time, so read once).
 * A streamed answer's first token replaces the prompt's line; an answer nobody streams (the agent's) says
 * `promptAnswered` when it is in.
 */
function saysPrompt(
  provider: ModelProvider,
  traffic: ModelTraffic,
  promptSent: (tokens: number, lastRate: number | undefined) => void,
  promptAnswered: (() => void) | undefined,
): ModelProvider {
  let previous: string | undefined;
  const chat: ModelProvider['chat'] = (request) => {
    const text = `${request.tools ? JSON.stringify(request.tools) : ''}${promptText(request.messages)}`;
    promptSent(tokensToEvaluate(previous, text), lastPromptRate(traffic.requests));
    previous = text;
    const answer = provider.chat(request);
    return request.onToken || !promptAnswered ? answer : answer.finally(promptAnswered);
  };
  // Every other method called on the provider itself: its state (the largest window sent) stays one.
  return {
    kind: provider.kind,
    model: provider.model,
    host: provider.host,
    healthCheck: (signal) => provider.healthCheck(signal),
    chat,
    ...(provider.preload ? { preload: (signal?: AbortSignal) => provider.preload!(signal) } : {}),
    ...(provider.toolCalling ? { toolCalling: (signal?: AbortSignal) => provider.toolCalling!(signal) } : {}),
    ...(provider.modelContextTokens ? { modelContextTokens: () => provider.modelContextTokens!() } : {}),
  };
}

/** The messages as one text, in order: what a prompt cache compares. */
function promptText(messages: readonly ChatMessage[]): string {
  return messages
    .map(
      (message) => `${message.role}\n${message.content}${message.toolCalls ? JSON.stringify(message.toolCalls) : ''}`,
    )
    .join('\n');
}
