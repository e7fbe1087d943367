/**
 * The Ollama provider, on the official `ollama` client. Every request runs under a
 * deadline (see deadline.ts) and errors are told apart by HTTP status, never by text:
 * Ollama's messages for "model not pulled" vary between versions.
 */
import { promptAsSent } from './closed-request-estimate.js';
import { Ollama } from 'ollama';
import type { ChatResponse, Message, ShowResponse, Tool } from 'ollama';
import { estimateTokens, sizeContextWindow } from './context-window.js';
import { createDeadline, describeError, isConnectionFailure, type Deadline } from './deadline.js';
import {
  abortedError,
  callOutcome,
  chatTimeoutError,
  ModelCallError,
  ProviderUnavailableError,
  ollamaPullHint,
  ollamaServeHint,
  briefServerText,
  serverFailsHint,
} from './errors.js';
import {
  bearerHeaders,
  ending,
  HealthGate,
  parseToolArguments,
  StreamedAnswer,
  ToolCallingMemory,
} from './provider-support.js';
import { splitHosts } from '../shared/host.js';
import { nanosToMs, serverCounters } from './ollama-counters.js';
import type { TrafficEvents } from './busy-retry.js';
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

/** Well inside the contract's "provider-unavailable within 5 s", also for a server that never answers. */
export const DEFAULT_HEALTH_TIMEOUT_MS = 3000;

export interface OllamaProviderOptions extends TransportOptions {
  /** Deadline for the whole health check (version, tags, show together). */
  healthTimeoutMs?: number;
}

const BUSY_HINT =
  'The server is busy: wait for running requests to finish, or raise OLLAMA_NUM_PARALLEL / OLLAMA_MAX_QUEUE';

export class OllamaProvider implements ModelProvider {
  readonly kind = 'ollama' as const;
  readonly model: string;
  readonly host: string;
  /** The model's trained context length from /api/show, when the server told us. */
  contextLength?: number;
  private readonly settings: ModelSettings;
  private readonly healthTimeoutMs: number;
  private readonly health = new HealthGate((signal) => this.healthCheck(signal));
  private readonly tools = new ToolCallingMemory();
  /** The largest num_ctx sent so far (contextWindowFor). */
  private largestWindow = 0;
  private readonly transport: Transport;

  constructor(settings: ModelSettings, options: OllamaProviderOptions = {}) {
    this.settings = settings;
    this.model = settings.name;
    // model.host may list several servers: requests go to the first, the transport fails over.
    this.transport = new Transport(splitHosts(settings.host), options);
    this.host = this.transport.primary;
    this.healthTimeoutMs = options.healthTimeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS;
  }

  async healthCheck(signal?: AbortSignal): Promise<void> {
    const deadline = createDeadline(this.healthTimeoutMs, signal);
    const client = this.client(deadline);
    try {
      await client.version();
    } catch (error) {
      throw this.unavailable(error, deadline, '/api/version');
    }
    let names: string[];
    try {
      const list = await client.list();
      names = (list.models ?? [])
        .flatMap((entry) => [entry.name, entry.model])
        .filter((name): name is string => typeof name === 'string');
    } catch (error) {
      throw this.unavailable(error, deadline, '/api/tags');
    }
    if (!names.some((name) => sameModelName(name, this.model))) {
      throw new ProviderUnavailableError(
        `Model ${this.model} is not pulled on the Ollama server at ${this.host}`,
        ollamaPullHint(this.model),
      );
    }
    try {
      const show = await client.show({ model: this.model });
      this.contextLength = contextLengthOf(show);
      // Ollama before 0.6.4 sends no capabilities: then the first request with tools tells.
      this.tools.advertise(Array.isArray(show?.capabilities) ? show.capabilities.includes('tools') : undefined);
    } catch (error) {
      if (responseStatus(error) === 404) {
        throw new ProviderUnavailableError(
          `Model ${this.model} is listed but not available on ${this.host}`,
          ollamaPullHint(this.model),
          { cause: error },
        );
      }
      if (deadline.cause() === 'aborted') throw abortedError(error);
      // /api/show is only an extra: without it the configured numCtx is the cap.
    }
    this.health.passed();
  }

  modelContextTokens(): number | undefined {
    return this.contextLength;
  }

  async toolCalling(signal?: AbortSignal): Promise<ToolCallingSupport | undefined> {
    await this.health.ensure(signal);
    return this.tools.support("Ollama's /api/show");
  }

  async chat(request: ChatRequest): Promise<ChatResult> {
    await this.health.ensure(request.signal);
    const offersTools = (request.tools?.length ?? 0) > 0;
    if (offersTools && this.tools.refused())
      throw new ModelCallError('tools-unsupported', `${this.model} takes no native tool calls on ${this.host}`);
    request.onSend?.(request.messages);
    const answer = new StreamedAnswer(request.onToken, request.isComplete);
    const toolCalls: ToolCall[] = [];
    const numCtx = this.contextWindowFor(request);
    const deadline = createDeadline(this.settings.timeoutSeconds * 1000, request.signal);
    const call = this.transport.begin(this.model);
    call?.sent(promptAsSent(request.messages, request.tools));
    const client = this.client(deadline, call);
    let final: ChatResponse | undefined;
    let stopped = false;
    try {
      const stream = await client.chat({
        model: this.model,
        messages: request.messages.map(toOllamaMessage),
        stream: true,
        ...(request.format ? { format: request.format } : {}),
        ...(offersTools ? { tools: request.tools!.map(toOllamaTool) } : {}),
        ...(this.settings.keepAlive !== undefined ? { keep_alive: this.settings.keepAlive } : {}),
        options: { temperature: this.settings.temperature, seed: this.settings.seed, num_ctx: numCtx },
      });
      for await (const part of stream) {
        // Ollama sends each tool call whole, in one streamed message.
        for (const call of part.message?.tool_calls ?? [])
          toolCalls.push({ name: call.function?.name ?? '', ...parseToolArguments(call.function?.arguments) });
        if (part.done) final = part;
        if (!answer.push(part.message?.content ?? '')) {
          // The answer is whole (or the display failed): closing the stream makes Ollama stop generating.
          if (!part.done) stream.abort();
          stopped = true;
          break;
        }
      }
      // A stream that ends without its done line was cut (a server or gateway that died
      // mid-answer): the half answer is dropped, never read as a patch.
      if (!final && !stopped)
        throw new ProviderUnavailableError(
          `The answer from ${call?.host ?? this.host} broke off before it was complete; the partial answer was dropped`,
          ollamaServeHint(),
        );
      call?.end('answered', serverCounters(final), ending(answer, final?.done_reason), answer.text);
    } catch (error) {
      const failure = this.chatFailure(error, deadline, call?.host);
      call?.end(callOutcome(failure));
      if (offersTools && failure instanceof ModelCallError && failure.status === 400) {
        this.tools.refuse(`the server refused tools for ${this.model} (HTTP 400)`);
        throw new ModelCallError(
          'tools-unsupported',
          `Ollama refused native tools for ${this.model} (HTTP 400): ${describeError(error)}`,
          { cause: error, status: 400 },
        );
      }
      throw failure;
    }
    answer.rethrowCallbackError();
    return {
      text: answer.text,
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
      promptTokens: final?.prompt_eval_count,
      completionTokens: final?.eval_count,
      durationMs: answer.durationMs(),
      ...ending(answer, final?.done_reason),
      model: final?.model ?? this.model,
    };
  }

  async preload(signal?: AbortSignal): Promise<void> {
    // The window a first repair prompt takes; the chats after it never send a smaller one.
    const numCtx = this.contextWindowFor({ messages: [{ role: 'user', content: '' }] }, PRELOAD_PROMPT_TOKENS);
    const deadline = createDeadline(this.settings.timeoutSeconds * 1000, signal);
    // Straight to the first host, outside the health check and the host roster: a server that is down is the first
    // chat's to report, and a failed load must not put a host into its cool-down.
    const client = new Ollama({ host: this.host.split(',')[0]!, fetch: deadline.fetch });
    const load = client.chat({
      model: this.model,
      messages: [],
      stream: false,
      ...(this.settings.keepAlive !== undefined ? { keep_alive: this.settings.keepAlive } : {}),
      options: { temperature: this.settings.temperature, seed: this.settings.seed, num_ctx: numCtx },
    });
    const loadMs = load.then((loaded) => nanosToMs(loaded.load_duration));
    await this.transport.timeLoad(this.host, this.model, loadMs);
  }

  /** The window for this prompt; see context-window.ts for why it is sized per call. */
  contextWindowFor(request: ChatRequest, atLeastPromptTokens = 0): number {
    const promptText = request.messages
      .map((message) => message.content + (message.toolCalls ? JSON.stringify(message.toolCalls) : ''))
      .join('\n');
    // Tool definitions are part of the prompt the model reads.
    const formatText =
      (request.format ? JSON.stringify(request.format) : '') + (request.tools ? JSON.stringify(request.tools) : '');
    // A few tokens of chat template per message.
    const promptTokens = Math.max(
      atLeastPromptTokens,
      estimateTokens(promptText + formatText) + 8 * request.messages.length,
    );
    const caps = [this.contextLength, this.settings.numCtx].filter(
      (value): value is number => typeof value === 'number' && value > 0,
    );
    const cap = caps.length > 0 ? Math.min(...caps) : undefined;
    const window = sizeContextWindow(promptTokens, { cap });
    if (window === undefined) {
      throw new ModelCallError(
        'prompt-too-large',
        `The prompt (about ${promptTokens} tokens) does not fit the context window of ${cap} tokens; send less source`,
      );
    }
    // Never smaller than a window already sent: another num_ctx makes Ollama load the model
    // again, and the prompt it had evaluated is lost with it.
    this.largestWindow = Math.max(this.largestWindow, window);
    return this.largestWindow;
  }

  private client(deadline: Deadline, events?: TrafficEvents): Ollama {
    return new Ollama({
      host: this.host,
      fetch: this.transport.fetchFor(deadline, events),
      headers: bearerHeaders(this.settings.apiKey),
    });
  }

  private unavailable(error: unknown, deadline: Deadline, endpoint: string): Error {
    const cause = deadline.cause();
    if (cause === 'aborted') return abortedError(error);
    if (error instanceof ProviderUnavailableError) return error;
    const serve = ollamaServeHint();
    if (cause === 'timeout') {
      return new ProviderUnavailableError(
        `The Ollama server at ${this.host} did not answer ${endpoint} within ${this.healthTimeoutMs} ms`,
        serve,
        { cause: error, timedOut: true },
      );
    }
    if (isConnectionFailure(error)) {
      return new ProviderUnavailableError(
        `Cannot reach the Ollama server at ${this.host} (${describeError(error)})`,
        serve,
        { cause: error },
      );
    }
    const status = responseStatus(error);
    if (status === 503)
      return new ProviderUnavailableError(`The Ollama server at ${this.host} is busy (HTTP 503)`, BUSY_HINT, {
        cause: error,
      });
    if (status !== undefined) {
      return new ProviderUnavailableError(
        `The server at ${this.host} answered ${endpoint} with HTTP ${status}: ${briefServerText(describeError(error))}`,
        status >= 500 ? serverFailsHint(this.host) : serve,
        { cause: error },
      );
    }
    return new ProviderUnavailableError(
      `The server at ${this.host} does not answer ${endpoint} like Ollama (${describeError(error)})`,
      serve,
      { cause: error },
    );
  }

  private chatFailure(error: unknown, deadline: Deadline, host = this.host): Error {
    const cause = deadline.cause();
    if (cause === 'aborted') return abortedError(error);
    if (cause === 'timeout') return chatTimeoutError(this.model, this.settings.timeoutSeconds, error);
    if (error instanceof ProviderUnavailableError || error instanceof ModelCallError) return error;
    if (isConnectionFailure(error)) {
      this.health.forget();
      return new ProviderUnavailableError(
        `Lost the Ollama server at ${host} (${describeError(error)})`,
        ollamaServeHint(),
        { cause: error },
      );
    }
    const status = responseStatus(error);
    if (status === 404) {
      this.health.forget();
      return new ProviderUnavailableError(
        `Model ${this.model} is not available on ${this.host} (HTTP 404)`,
        ollamaPullHint(this.model),
        { cause: error },
      );
    }
    if (status === 503)
      return new ProviderUnavailableError(`The Ollama server at ${this.host} is busy (HTTP 503)`, BUSY_HINT, {
        cause: error,
      });
    if (status === 400)
      return new ModelCallError('bad-request', `Ollama refused the request (HTTP 400): ${describeError(error)}`, {
        cause: error,
        status,
      });
    if (status !== undefined)
      return new ModelCallError(
        'http-error',
        `Ollama answered HTTP ${status}: ${briefServerText(describeError(error))}`,
        {
          cause: error,
          status,
        },
      );
    // ollama-js turns an NDJSON {"error"} line (sent under HTTP 200) into a plain Error.
    return new ModelCallError('stream-error', `Ollama reported an error while answering: ${describeError(error)}`, {
      cause: error,
    });
  }
}

function toOllamaMessage(message: ChatMessage): Message {
  return {
    role: message.role,
    content: message.content,
    ...(message.toolCalls
      ? { tool_calls: message.toolCalls.map((call) => ({ function: { name: call.name, arguments: call.arguments } })) }
      : {}),
    ...(message.role === 'tool' && message.toolName ? { tool_name: message.toolName } : {}),
  };
}

function toOllamaTool(tool: NonNullable<ChatRequest['tools']>[number]): Tool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

/** ollama-js 0.6.4 does not export ResponseError, so recognise it by shape. */
function responseStatus(error: unknown): number | undefined {
  if (error instanceof Error && error.name === 'ResponseError') {
    const status = (error as { status_code?: unknown }).status_code;
    if (typeof status === 'number') return status;
  }
  return undefined;
}

/** `qwen2.5-coder` and `qwen2.5-coder:latest` are the same model to Ollama. */
export function sameModelName(a: string, b: string): boolean {
  const strip = (name: string) =>
    name
      .trim()
      .toLowerCase()
      .replace(/:latest$/, '');
  return strip(a) === strip(b);
}

/** model_info holds `<architecture>.context_length`, e.g. `qwen2.context_length`. */
export function contextLengthOf(show: ShowResponse): number | undefined {
  const info: unknown = show?.model_info;
  if (!info || typeof info !== 'object') return undefined;
  const entries = info instanceof Map ? [...info.entries()] : Object.entries(info);
  for (const [key, value] of entries) {
    if (typeof key === 'string' && key.endsWith('.context_length') && typeof value === 'number' && value > 0)
      return value;
  }
  return undefined;
}

/** Tokens a preload sizes the window for (8192 with the answer's room): every bench prompt and agent session fits it,
 * so a run sends one num_ctx and Ollama never reloads the model for another; a bigger prompt still grows it. */
const PRELOAD_PROMPT_TOKENS = 6000;
