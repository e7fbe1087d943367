/**
 * An error that mvnx reports as one line and an exit code, never as a stack trace:
 * bad config, bad flag (2), Maven not found (127).
 *
 * Recognised by a registered symbol rather than by class identity: the bin is a bundle
 * with its own copy of this class, while the config loader, the repair stage and the
 * subcommands are loaded from the unbundled modules, whose MvnxError is another class.
 */
const MVNX_ERROR = Symbol.for('mvnx.error');

export class MvnxError extends Error {
  readonly [MVNX_ERROR] = true;

  constructor(
    message: string,
    readonly exitCode: number = 2,
  ) {
    super(message);
    this.name = 'MvnxError';
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // Subclasses keep the ordinary prototype check: only MvnxError itself is matched by brand.
    if (this !== MvnxError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MVNX_ERROR] === true;
  }
}
