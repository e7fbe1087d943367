/** What the Ollama and OpenAI-compatible providers do alike around their wire protocols. */
import type { ToolCallingSupport } from './types.js';

/**
 * The health check that runs once before the first chat. A failed check is forgotten, so
 * a later call tries again (the user may have started the server meanwhile).
 */
export class HealthGate {
  private checked?: Promise<void>;

  constructor(private readonly check: (signal?: AbortSignal) => Promise<void>) {}

  ensure(signal?: AbortSignal): Promise<void> {
    if (!this.checked) {
      this.checked = this.check(signal).catch((error: unknown) => {
        this.checked = undefined;
        throw error;
      });
    }
    return this.checked;
  }

  /** The check passed: a caller that checked health first does not pay for a second check in chat(). */
  passed(): void {
    this.checked ??= Promise.resolve();
  }

  /** The server went away: check again before the next chat. */
  forget(): void {
    this.checked = undefined;
  }
}

/**
 * The text of a streamed answer and how long it took. Each piece goes to the request's
 * `onToken`; a failing progress display is the caller's bug, not the model's, so reading
 * stops and `rethrowCallbackError()` hands the error back as is. Reading also stops once
 * `isComplete` says the text holds a whole answer (`stoppedEarly`): the provider closes the
 * stream, and a server that sees its client go stops generating.
 */
export class StreamedAnswer {
  text = '';
  /** The answer was complete before the server ended it (isComplete said so). */
  stoppedEarly = false;
  private readonly started = performance.now();
  private callbackError: unknown;

  constructor(
    private readonly onToken?: (piece: string) => void,
    private readonly isComplete?: (text: string) => boolean,
  ) {}

  /** Adds a piece (empty ones are skipped); false when reading must stop (the callback threw, the answer is whole). */
  push(piece: string): boolean {
    if (!piece) return true;
    this.text += piece;
    try {
      this.onToken?.(piece);
    } catch (error) {
      this.callbackError = error;
      return false;
    }
    if (this.isComplete?.(this.text)) {
      this.stoppedEarly = true;
      return false;
    }
    return true;
  }

  rethrowCallbackError(): void {
    if (this.callbackError !== undefined) throw this.callbackError as Error;
  }

  durationMs(): number {
    return Math.round(performance.now() - this.started);
  }
}

/**
 * How an answer ended, for the result and the record: stopped early by mvnx (the answer was whole), or the server's
 * own reason when it finished (a stream closed on a failing display is neither).
 */
export function ending(
  answer: StreamedAnswer,
  doneReason: string | null | undefined,
): { stoppedEarly?: true; doneReason?: string } {
  if (answer.stoppedEarly && !doneReason) return { stoppedEarly: true };
  return typeof doneReason === 'string' && doneReason !== '' ? { doneReason } : {};
}

/** The Authorization header for an API key, or none. */
export function bearerHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { Authorization: `Bearer ${apiKey}` } : {};
}

/**
 * What a provider knows about native tool calls for its model: what the server said
 * (Ollama's /api/show capabilities), and whether it refused a request with tools. Both
 * Ollama and OpenAI-compatible servers answer HTTP 400 to tools a model cannot take;
 * after one such refusal no request offers tools again.
 */
export class ToolCallingMemory {
  private advertised?: boolean;
  private refusal?: string;

  /** From the server's own description of the model; undefined when it says nothing. */
  advertise(native: boolean | undefined): void {
    this.advertised = native;
  }

  refuse(reason: string): void {
    this.refusal = reason;
  }

  refused(): boolean {
    return this.refusal !== undefined;
  }

  support(source: string): ToolCallingSupport | undefined {
    if (this.refusal !== undefined) return { native: false, reason: this.refusal };
    if (this.advertised === undefined) return undefined;
    return this.advertised
      ? { native: true, reason: `${source} lists tools among the model's capabilities` }
      : { native: false, reason: `${source} does not list tools among the model's capabilities` };
  }
}

/**
 * Tool-call arguments as a JSON object: servers send an object (Ollama) or a JSON string (OpenAI), models sometimes
 * neither.
 */
export function parseToolArguments(raw: unknown): { arguments: Record<string, unknown>; rawArguments?: string } {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return { arguments: raw as Record<string, unknown> };
  if (typeof raw !== 'string' || raw.trim() === '') return { arguments: {} };
  for (const candidate of [raw, raw.replace(/,\s*([}\]])/g, '$1')]) {
    try {
      const parsed: unknown = JSON.parse(candidate);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        return { arguments: parsed as Record<string, unknown> };
    } catch {
      // Not JSON: kept as written below.
    }
  }
  return { arguments: {}, rawArguments: raw };
}
