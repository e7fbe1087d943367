/**
 * mvnx's one error type and its exit codes. A leaf module: every stage may import it, and
 * it imports nothing of mvnx's, so an error thrown deep in policy/ or maven/ reaches the
 * CLI as one line and an exit code, never as a stack trace.
 *
 * Recognised by a registered symbol rather than by class identity: the bin is a bundle
 * with its own copy of this class, while the config loader, the repair stage and the
 * subcommands are loaded from the unbundled modules, whose MvnxError is another class.
 */
import { constants as osConstants } from 'node:os';

/** The exit codes mvnx gives itself (Maven's own pass through untouched). */
export const EXIT = {
  /** A refusal that is not a usage error: `mvnx apply` on a changed tree, a fix that does not apply. */
  refused: 1,
  /** mvnx cannot run: bad flag, bad config, bad subcommand argument. */
  usage: 2,
  /** Maven exists but cannot be executed. */
  notExecutable: 126,
  /** Maven was not found. */
  mavenNotFound: 127,
} as const;

/** 128+N, as a shell reports a process that died from signal N (SIGINT 130, SIGTERM 143). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (osConstants.signals[signal] ?? 1);
}

const MVNX_ERROR = Symbol.for('mvnx.error');

export class MvnxError extends Error {
  readonly [MVNX_ERROR] = true;

  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
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

/** The first line of an error's message: what a one-line report shows. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

/** `ENOSPC (no space left on device)`: the code a user can search for, and what it means; else the message. */
export function errnoPhrase(error: unknown): string {
  const { code, message } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof code !== 'string') return firstLine(error);
  const meaning = /^[A-Z]+: ([^,]+)/.exec(message ?? '')?.[1];
  return meaning ? `${code} (${meaning})` : code;
}
