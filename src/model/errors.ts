/**
 * The two ways a model call can fail. The repair loop stops with `provider-unavailable`
 * on the first and feeds the second back as a failed attempt, so the split matters.
 */

/** The server cannot serve at all: not running, not answering, model not pulled, busy. */
export class ProviderUnavailableError extends Error {
  override readonly name = 'ProviderUnavailableError';
  /** The command or step that would make the provider available, for the user. */
  readonly hint: string;
  /** No answer within the deadline: the only case where the client (a busy event loop) may be the slow one. */
  readonly timedOut: boolean;

  constructor(reason: string, hint: string, options?: { cause?: unknown; timedOut?: boolean }) {
    super(`${reason}. ${hint}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.hint = hint;
    this.timedOut = options?.timedOut ?? false;
  }
}

export type ModelCallErrorCode =
  | 'timeout'
  | 'aborted'
  | 'bad-request'
  | 'http-error'
  | 'stream-error'
  | 'bad-response'
  | 'prompt-too-large'
  /** The server refused a request that offered native tools (HTTP 400): ask again without them. */
  | 'tools-unsupported';

/** The server answered but the call failed: bad request, an error mid-stream, a timeout. */
export class ModelCallError extends Error {
  override readonly name = 'ModelCallError';
  readonly code: ModelCallErrorCode;
  /** HTTP status when the server sent one. */
  readonly status?: number;

  constructor(code: ModelCallErrorCode, message: string, options?: { cause?: unknown; status?: number }) {
    super(message, options);
    this.code = code;
    this.status = options?.status;
  }
}

/** The reason beside it names the host; no parentheses, so the console's closing sentence stays one plain sentence. */
export function ollamaServeHint(): string {
  return 'Start it with `ollama serve`, or point mvnx at another server with --mvnx-host or MVNX_HOST';
}

export function ollamaPullHint(model: string): string {
  return `Pull the model with \`ollama pull ${model}\``;
}

export function abortedError(cause: unknown): ModelCallError {
  return new ModelCallError('aborted', 'The model call was aborted', { cause });
}

export function chatTimeoutError(model: string, timeoutSeconds: number, cause: unknown): ModelCallError {
  return new ModelCallError('timeout', `${model} timed out after ${timeoutSeconds} s without a complete answer`, {
    cause,
  });
}

/** A server that runs but fails (HTTP 5xx): `ollama serve` is not the advice then. */
export function serverFailsHint(host: string): string {
  return `The server at ${host} is running but failing: see its log`;
}

/**
 * What a failing server sent, fit for one console line: an HTML error page is reduced to its title (or first
 * heading), any other text to its first line, at most 160 characters.
 */
export function briefServerText(text: string): string {
  const html = /<(!doctype|html|head|body)\b/i.test(text);
  const title = html ? /<(title|h1)[^>]*>([^<]*)</i.exec(text)?.[2]?.trim() : undefined;
  const line = html ? (title ?? 'an HTML page') : (text.split('\n').find((part) => part.trim()) ?? '').trim();
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

/** How a chat call that threw ended, for its traffic record. */
export function callOutcome(failure: Error): 'unavailable' | 'cancelled' | 'failed' {
  if (failure instanceof ProviderUnavailableError) return 'unavailable';
  return failure instanceof ModelCallError && failure.code === 'aborted' ? 'cancelled' : 'failed';
}
