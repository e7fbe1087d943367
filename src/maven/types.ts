/** The bounded copy of Maven's output kept for diagnosis. */
export interface CapturedLog {
  /** A spooled temp file holding (at most the last `limitBytes` of) the output. */
  file: string;
  /** Bytes Maven wrote in total. */
  bytes: number;
  /** True when the spool dropped the head of the output to stay within its limit. */
  truncated: boolean;
  /**
   * Set when mvnx could not keep its copy (TMPDIR full, missing or read-only): what it could
   * not do and why, as a phrase. `file` then holds what was kept before, or does not exist.
   */
  lost?: string;
  /** Remove the spool file. Safe to call twice. */
  dispose(): Promise<void>;
}

export interface MavenRunResult {
  exitCode: number;
  /** Set when Maven died from a signal; exitCode is then 128+N. */
  signal?: NodeJS.Signals;
  interrupted: boolean;
  timedOut: boolean;
  startedAt: Date;
  finishedAt: Date;
  log: CapturedLog;
}

export interface RunMavenOptions {
  executable: string;
  args: string[];
  cwd: string;
  /** The complete environment Maven gets (not merged with ours); default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Stream to our own stdout/stderr live (the wrapper) or capture quietly (verification). */
  echo: boolean;
  /** Inherit stdin (the wrapper) so interactive prompts work. */
  inheritStdin?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Spool limit; default 64 MiB. */
  captureLimitBytes?: number;
  /** Wrap the command, e.g. a sandbox: returns [file, ...args]. */
  wrap?: (file: string, args: string[]) => [string, string[]];
  /**
   * Forward SIGINT/SIGTERM/SIGHUP that mvnx receives to Maven's process tree; default:
   * `echo` (the foreground run). Background runs are stopped through `signal` instead.
   */
  forwardSignals?: boolean;
  /** Kill Maven's whole process group when Maven exits, however it ended (verification builds). */
  killGroupOnExit?: boolean;
  /** Called once Maven's process has started (never when it could not be started). */
  onSpawn?: () => void;
  /** Called with each chunk of Maven's output (stdout and stderr) as it arrives, after it was captured. */
  onOutput?: (chunk: Buffer) => void;
}
