/**
 * The OpenAI-compatible provider (llama.cpp server, vLLM, LM Studio), on plain fetch:
 * GET /v1/models for the health check, POST /v1/chat/completions streamed as SSE.
 */
import { promptAsSent } from './closed-request-estimate.js';
import { createDeadline, describeError, isConnectionFailure, type Deadline } from './deadline.js';
import { abortedError, callOutcome, chatTimeoutError, ModelCallError, ProviderUnavailableError } from './errors.js';
import { DEFAULT_HEALTH_TIMEOUT_MS } from './ollama-provider.js';
import {
  bearerHeaders,
  ending,
  HealthGate,
  parseToolArguments,
  StreamedAnswer,
  ToolCallingMemory,
} from './provider-support.js';
import { readSseData } from './sse.js';
import { splitHosts } from '../shared/host.js';
import { Transport, type TransportOptions } from './transport.js';
import type {
  ChatMessage,
  ChatRequest,
  ChatResult,
  ModelProvider,
  ModelSettings,
  ToolCall,
  ToolCallingSupport,
} from './types.js';

export interface OpenAiProviderOptions extends TransportOptions {
  healthTimeoutMs?: number;
}

interface CompletionChunk {
  model?: string;
  choices?: { delta?: { content?: string | null; tool_calls?: ToolCallDelta[] }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string } | string;
}

/** A streamed piece of a tool call: the first carries id and name, the rest pieces of the arguments' JSON text. */
interface ToolCallDelta {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

export class OpenAiCompatibleProvider implements ModelProvider {
  readonly kind = 'openai-compatible' as const;
  readonly model: string;
  readonly host: string;
  private readonly settings: ModelSettings;
  private readonly healthTimeoutMs: number;
  private readonly health = new HealthGate((signal) => this.healthCheck(signal));
  /** The OpenAI API has no capability listing: the first request with tools tells. */
  private readonly tools = new ToolCallingMemory();
  private readonly transport: Transport;

  constructor(settings: ModelSettings, options: OpenAiProviderOptions = {}) {
    this.settings = settings;
    this.model = settings.name;
    // Users paste either the server root or the /v1 base URL their tool shows; model.host may list several.
    this.transport = new Transport(
      splitHosts(settings.host, 'openai-compatible').map((host) => host.replace(/\/v1$/, '')),
      options,
    );
    this.host = this.transport.primary;
    this.healthTimeoutMs = options.healthTimeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS;
  }

  async healthCheck(signal?: AbortSignal): Promise<void> {
    const deadline = createDeadline(this.healthTimeoutMs, signal);
    let response: Response;
    let listing: { data?: { id?: unknown }[] };
    try {
      response = await this.transport.fetchFor(deadline)(`${this.host}/v1/models`, { headers: this.headers() });
      if (!response.ok) throw this.statusFailure(response.status, await errorText(response), '/v1/models');
      listing = (await response.json()) as typeof listing;
    } catch (error) {
      throw this.failure(error, deadline, 'health');
    }
    const ids = (listing.data ?? []).map((entry) => entry.id).filter((id): id is string => typeof id === 'string');
    if (!ids.some((id) => sameServedModel(id, this.model))) {
      throw new ProviderUnavailableError(
        `The server at ${this.host} does not serve model ${this.model} (it lists: ${ids.join(', ') || 'nothing'})`,
        'Load the model in the server, or set model.name to one of the listed ids',
      );
    }
    this.health.passed();
  }

  async toolCalling(signal?: AbortSignal): Promise<ToolCallingSupport | undefined> {
    await this.health.ensure(signal);
    return this.tools.support('the server');
  }

  async chat(request: ChatRequest): Promise<ChatResult> {
    await this.health.ensure(request.signal);
    const offersTools = (request.tools?.length ?? 0) > 0;
    if (offersTools && this.tools.refused())
      throw new ModelCallError('tools-unsupported', `${this.model} takes no native tool calls on ${this.host}`);
    request.onSend?.(request.messages);
    const answer = new StreamedAnswer(request.onToken, request.isComplete);
    const deadline = createDeadline(this.settings.timeoutSeconds * 1000, request.signal);
    const calls = new Map<number, { id?: string; name: string; arguments: string }>();
    const body = {
      model: this.model,
      messages: request.messages.map(toOpenAiMessage),
      ...(offersTools
        ? {
            tools: request.tools!.map((tool) => ({
              type: 'function',
              function: { name: tool.name, description: tool.description, parameters: tool.parameters },
            })),
          }
        : {}),
      stream: true,
      stream_options: { include_usage: true },
      temperature: this.settings.temperature,
      seed: this.settings.seed,
      ...(request.format
        ? {
            response_format: {
              type: 'json_schema',
              json_schema: { name: 'edits', strict: true, schema: request.format },
            },
          }
        : {}),
    };
    let model = this.model;
    let usage: CompletionChunk['usage'];
    const logged = this.transport.begin(this.model);
    logged?.sent(promptAsSent(request.messages, request.tools));
    let complete = false;
    let finishReason: string | undefined;
    let closeEarly = false;
    try {
      const response = await this.transport.fetchFor(deadline, logged)(`${this.host}/v1/chat/completions`, {
        method: 'POST',
        headers: { ...this.headers(), 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify(body),
      });
      if (!response.ok) {
        const message = await errorText(response);
        if (offersTools && response.status === 400) {
          this.tools.refuse(`the server refused tools for ${this.model} (HTTP 400)`);
          throw new ModelCallError(
            'tools-unsupported',
            `The server refused native tools for ${this.model} (HTTP 400): ${message}`,
            { status: 400 },
          );
        }
        throw this.statusFailure(response.status, message, '/v1/chat/completions');
      }
      if (!response.body) throw new ModelCallError('bad-response', 'The server sent no response body');
      for await (const data of readSseData(response.body)) {
        if (data.trim() === '[DONE]') {
          complete = true;
          break;
        }
        const chunk = parseChunk(data);
        if (chunk.error)
          throw new ModelCallError(
            'stream-error',
            `The server reported an error while answering: ${errorMessageOf(chunk.error)}`,
          );
        if (chunk.model) model = chunk.model;
        if (chunk.usage) usage = chunk.usage;
        for (const delta of chunk.choices?.[0]?.delta?.tool_calls ?? []) {
          const index = delta.index ?? calls.size;
          const call = calls.get(index) ?? { name: '', arguments: '' };
          if (delta.id) call.id = delta.id;
          if (delta.function?.name) call.name += delta.function.name;
          if (delta.function?.arguments) call.arguments += delta.function.arguments;
          calls.set(index, call);
        }
        const finish = chunk.choices?.[0]?.finish_reason;
        if (finish) {
          complete = true;
          finishReason = finish;
        }
        if (!answer.push(chunk.choices?.[0]?.delta?.content ?? '')) {
          complete = true;
          closeEarly = !finishReason;
          break;
        }
      }
      // The answer is whole (or the display failed): closing the connection makes the server stop generating.
      if (closeEarly) await response.body.cancel().catch(() => undefined);
      // No [DONE] and no finish_reason: the stream was cut (a server or gateway died mid-answer); the half answer is
      // dropped.
      if (!complete)
        throw new ProviderUnavailableError(
          `The answer from ${logged?.host ?? this.host} broke off before it was complete; the partial answer was dropped`,
          startServerHint(this.host),
        );
      logged?.end(
        'answered',
        { promptTokens: usage?.prompt_tokens, completionTokens: usage?.completion_tokens },
        ending(answer, finishReason),
        answer.text,
      );
    } catch (error) {
      const failure = this.failure(error, deadline, 'chat');
      logged?.end(callOutcome(failure));
      throw failure;
    }
    answer.rethrowCallbackError();
    const toolCalls: ToolCall[] = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({
        ...(call.id ? { id: call.id } : {}),
        name: call.name,
        ...parseToolArguments(call.arguments),
      }));
    return {
      text: answer.text,
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
      promptTokens: usage?.prompt_tokens,
      completionTokens: usage?.completion_tokens,
      durationMs: answer.durationMs(),
      ...ending(answer, finishReason),
      model,
    };
  }

  private headers(): Record<string, string> {
    return bearerHeaders(this.settings.apiKey);
  }

  private statusFailure(status: number, message: string, endpoint: string): Error {
    if (status === 401 || status === 403) {
      return new ProviderUnavailableError(
        `The server at ${this.host} refused the API key (HTTP ${status})`,
        'Set the key in the environment variable named by model.apiKeyEnv',
      );
    }
    if (status === 404) {
      return new ProviderUnavailableError(
        `The server at ${this.host} has no ${endpoint} or no model ${this.model} (HTTP 404): ${message}`,
        'Check model.host and model.name against the server',
      );
    }
    if (status === 503)
      return new ProviderUnavailableError(
        `The server at ${this.host} is busy or still loading (HTTP 503)`,
        'Wait until the model is loaded and try again',
      );
    if (status === 400)
      return new ModelCallError('bad-request', `The server refused the request (HTTP 400): ${message}`, { status });
    return new ModelCallError('http-error', `The server answered HTTP ${status}: ${message}`, { status });
  }

  private failure(error: unknown, deadline: Deadline, phase: 'health' | 'chat'): Error {
    const cause = deadline.cause();
    if (cause === 'aborted') return abortedError(error);
    if (cause === 'timeout') {
      return phase === 'health'
        ? new ProviderUnavailableError(
            `The server at ${this.host} did not answer within ${this.healthTimeoutMs} ms`,
            startServerHint(this.host),
            { cause: error, timedOut: true },
          )
        : chatTimeoutError(this.model, this.settings.timeoutSeconds, error);
    }
    if (error instanceof ProviderUnavailableError || error instanceof ModelCallError) return error;
    if (isConnectionFailure(error)) {
      return new ProviderUnavailableError(
        `Cannot reach the model server at ${this.host} (${describeError(error)})`,
        startServerHint(this.host),
        { cause: error },
      );
    }
    if (phase === 'health') {
      return new ProviderUnavailableError(
        `The server at ${this.host} does not answer /v1/models like an OpenAI-compatible server (${describeError(error)})`,
        startServerHint(this.host),
        { cause: error },
      );
    }
    return new ModelCallError('bad-response', `Could not read the answer: ${describeError(error)}`, { cause: error });
  }
}

/** Tool calls and results in the OpenAI wire shape: arguments as a JSON string, results tied to the call's id. */
function toOpenAiMessage(message: ChatMessage): Record<string, unknown> {
  if (message.role === 'tool')
    return { role: 'tool', tool_call_id: message.toolCallId ?? message.toolName ?? 'call_0', content: message.content };
  if (message.role === 'assistant' && message.toolCalls) {
    return {
      role: 'assistant',
      content: message.content === '' ? null : message.content,
      tool_calls: message.toolCalls.map((call, index) => ({
        id: call.id ?? `call_${index}`,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      })),
    };
  }
  return { role: message.role, content: message.content };
}

function startServerHint(host: string): string {
  return `Start the model server (e.g. \`llama-server -m model.gguf --port ...\`) so that it answers at ${host}, or change model.host`;
}

/** llama.cpp lists the model file; LM Studio and vLLM list ids like `org/name`. */
export function sameServedModel(id: string, wanted: string): boolean {
  const normalise = (name: string) =>
    name
      .trim()
      .toLowerCase()
      .replace(/\.gguf$/, '');
  const a = normalise(id);
  const b = normalise(wanted);
  return a === b || a.endsWith(`/${b}`);
}

function parseChunk(data: string): CompletionChunk {
  try {
    return JSON.parse(data) as CompletionChunk;
  } catch (error) {
    throw new ModelCallError('bad-response', `The server streamed something that is not JSON: ${data.slice(0, 120)}`, {
      cause: error,
    });
  }
}

function errorMessageOf(error: NonNullable<CompletionChunk['error']>): string {
  return typeof error === 'string' ? error : (error.message ?? JSON.stringify(error));
}

async function errorText(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string } | string };
    if (parsed.error) return errorMessageOf(parsed.error);
  } catch {
    // Not JSON: the text itself is the message.
  }
  return text.slice(0, 300) || response.statusText;
}
