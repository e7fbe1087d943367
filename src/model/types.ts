/**
 * The model layer's interface: one chat call against a local code model, with the
 * settings that make it reproducible. Providers differ only in the wire protocol.
 */
export { ModelCallError, ProviderUnavailableError } from './errors.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** JSON schema for structured output (the JSON edit list). */
  format?: object;
  /** Receives each piece of the answer as it streams in, for progress display. */
  onToken?: (text: string) => void;
  signal?: AbortSignal;
  /** Called with the messages exactly as they go out (after redaction), just before the request. */
  onSend?: (messages: ChatMessage[]) => void;
}

export interface ChatResult {
  /** The answer, with redaction placeholders mapped back to the text they stand for. */
  text: string;
  /** The answer exactly as the model wrote it (placeholders and all), when it differs from `text`. */
  shown?: string;
  promptTokens?: number;
  completionTokens?: number;
  durationMs: number;
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
