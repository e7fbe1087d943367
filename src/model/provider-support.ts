/** What the Ollama and OpenAI-compatible providers do alike around their wire protocols. */

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
 * stops and `rethrowCallbackError()` hands the error back as is.
 */
export class StreamedAnswer {
  text = '';
  private readonly started = performance.now();
  private callbackError: unknown;

  constructor(private readonly onToken?: (piece: string) => void) {}

  /** Adds a piece (empty ones are skipped); false when the callback threw and reading must stop. */
  push(piece: string): boolean {
    if (!piece) return true;
    this.text += piece;
    try {
      this.onToken?.(piece);
      return true;
    } catch (error) {
      this.callbackError = error;
      return false;
    }
  }

  rethrowCallbackError(): void {
    if (this.callbackError !== undefined) throw this.callbackError as Error;
  }

  durationMs(): number {
    return Math.round(performance.now() - this.started);
  }
}

/** The Authorization header for an API key, or none. */
export function bearerHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { Authorization: `Bearer ${apiKey}` } : {};
}
