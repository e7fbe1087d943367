/**
 * An error that mvnx reports as one line and an exit code, never as a stack trace:
 * bad config, bad flag (2), Maven not found (127).
 */
export class MvnxError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 2,
  ) {
    super(message);
    this.name = 'MvnxError';
  }
}
