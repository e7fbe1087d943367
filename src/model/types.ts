/**
 * The model layer's interface: one chat call against a local code model, with the
 * settings that make it reproducible. Providers differ only in the wire protocol.
 */
export { ModelCallError, ProviderUnavailableError } from './errors.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** An assistant message's native tool calls (agent mode). */
  toolCalls?: ToolCall[];
  /** A `tool` message answers this call (OpenAI-compatible servers need its id, Ollama its name). */
  toolCallId?: string;
  toolName?: string;
}

/** A tool the model may call natively (Ollama and OpenAI-compatible `tools`). */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments: `{type: 'object', properties, required}`. */
  parameters: object;
}

/** A native tool call from the model. */
export interface ToolCall {
  /** The server's id for the call (OpenAI-compatible); absent from Ollama. */
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
  /** The arguments as sent, when they were not a JSON object (`arguments` is then `{}`). */
  rawArguments?: string;
}

/** Whether the server takes native tool calls for this model, and how that was learned. */
export interface ToolCallingSupport {
  native: boolean;
  reason: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** JSON schema for structured output (the JSON edit list). */
  format?: object;
  /** Receives each piece of the answer as it streams in, for progress display. */
  onToken?: (text: string) => void;
  signal?: AbortSignal;
  /** Native tool calling: the tools the model may call in this answer. */
  tools?: ToolSpec[];
  /** Called with the messages exactly as they go out (after redaction), just before the request. */
  onSend?: (messages: ChatMessage[]) => void;
  /**
   * Whether the answer streamed so far is whole (e.g. its diff's fence has closed): the provider then closes the
   * stream, so the server stops writing what would not be read, and the result says `stoppedEarly`.
   */
  isComplete?: (text: string) => boolean;
}

export interface ChatResult {
  /** The answer, with redaction placeholders mapped back to the text they stand for. */
  text: string;
  /** The model's native tool calls, when the request offered tools and it called some. */
  toolCalls?: ToolCall[];
  /** The answer exactly as the model wrote it (placeholders and all), when it differs from `text`. */
  shown?: string;
  promptTokens?: number;
  completionTokens?: number;
  durationMs: number;
  /** The provider closed the stream once `isComplete` said the answer was whole (no server counters then). */
  stoppedEarly?: boolean;
  /** Why the server ended the answer itself (Ollama `done_reason`, OpenAI `finish_reason`: `stop`, `length`…). */
  doneReason?: string;
  /** The model that answered, as the server names it. */
  model: string;
}

export interface ModelProvider {
  readonly kind: 'ollama' | 'openai-compatible';
  readonly model: string;
  readonly host: string;
  /** Resolves when the server answers and has the model; throws ProviderUnavailableError otherwise. */
  healthCheck(signal?: AbortSignal): Promise<void>;
  /**
   * Throws ProviderUnavailableError when the server is unreachable, lacks the model or is
   * busy (503); ModelCallError for any other failure, including timeout and abort.
   */
  chat(request: ChatRequest): Promise<ChatResult>;
  /**
   * What the server says about native tool calls for the model, once per provider:
   * undefined while unknown (the first request with tools tells). A request with tools
   * that the server refuses (HTTP 400) fails with ModelCallError code `tools-unsupported`,
   * and later calls report `native: false`.
   */
  toolCalling?(signal?: AbortSignal): Promise<ToolCallingSupport | undefined>;
  /**
   * The model's own context length in tokens when the server told it (Ollama's /api/show,
   * read by the health check); undefined when unknown. Prompts that are trimmed to fit
   * (agent mode) take the smaller of this and the configured window.
   */
  modelContextTokens?(): number | undefined;
  /**
   * Asks the server to load the model now (Ollama: a chat with no messages, keep_alive and
   * the num_ctx the first call will send), so the load overlaps other work; resolves when
   * it is loaded. A failure is the caller's to ignore: the first chat says it again.
   */
  preload?(signal?: AbortSignal): Promise<void>;
}

export interface ModelSettings {
  provider: 'ollama' | 'openai-compatible';
  name: string;
  host: string;
  temperature: number;
  seed: number;
  /** Upper bound for the context window; the provider sizes each call below it. */
  numCtx?: number;
  timeoutSeconds: number;
  /** Ollama keep_alive: a duration such as "10m", or seconds. */
  keepAlive?: string | number;
  apiKey?: string;
}
