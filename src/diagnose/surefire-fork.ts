/**
 * What Surefire says when a test JVM dies or hangs instead of reporting (captured from
 * Surefire 3.2.5; the timeout text from Surefire's SurefireHelper):
 *
 *   The forked VM terminated without properly saying goodbye. VM crash or System.exit called?
 *   Process Exit Code: 3
 *   Crashed tests:
 *   com.acme.ShutdownTest
 *
 *   There was a timeout in the fork            (forkedProcessTimeoutInSeconds; 2.x: "or other error")
 *   There was an error in the forked process   (then the JVM's own message: "Java heap space")
 *
 * The class that was running comes from "Crashed tests:", else from the last
 * `Running com.acme.X` that printed no result (hidden by -q), else from a dump file
 * (read by diagnoseBuild). Each failure is printed twice; one per module is kept.
 */
import type { ForkFailure, ForkFailureKind } from './types.js';

const RUNNING = /^Running ([\w$.]+)\s*$/;
const FINISHED = /^Tests run: \d+, .* (?:-|--) in ([\w$.]+)\s*$/;
const CLASS_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
const OUT_OF_MEMORY = /java\.lang\.OutOfMemoryError|^Java heap space$|GC overhead limit exceeded|^Metaspace$/;

/** When one failure is reported in several ways, the most specific wins. */
const RANK: Record<ForkFailureKind, number> = { error: 0, exit: 1, crash: 2, 'out-of-memory': 3, timeout: 4 };

export class ForkTracker {
  private readonly failures = new Map<string, ForkFailure>();
  private readonly running = new Map<string, string>();
  private current: ForkFailure | undefined;
  private readingCrashed = false;
  private awaitingDetail = false;

  /** INFO lines: which class is running. */
  info(text: string, module: string | undefined): void {
    const running = RUNNING.exec(text);
    if (running) {
      this.running.set(module ?? '', running[1]!);
      return;
    }
    const finished = FINISHED.exec(text);
    if (finished && this.running.get(module ?? '') === finished[1]) this.running.delete(module ?? '');
  }

  /**
   * ERROR lines (and unprefixed ones inside a failure). Returns true when the line was
   * Surefire's. `inTests`: the running goal is Surefire's or Failsafe's, where a bare
   * `Java heap space` is the test JVM's.
   */
  error(text: string, module: string | undefined, inTests = false): boolean {
    const trimmed = text.trim();
    if (inTests && !this.current && OUT_OF_MEMORY.test(trimmed)) {
      this.start('out-of-memory', module);
      this.current!.detail ??= trimmed;
      return true;
    }
    if (this.readingCrashed) {
      if (CLASS_NAME.test(trimmed)) {
        const failure = this.current!;
        if (!failure.classes.includes(trimmed)) failure.classes.push(trimmed);
        return true;
      }
      this.readingCrashed = false;
    }
    if (this.awaitingDetail) {
      this.awaitingDetail = false;
      if (
        trimmed !== '' &&
        !trimmed.startsWith('org.apache.maven.surefire') &&
        this.current &&
        this.current.detail === undefined
      ) {
        this.current.detail = trimmed;
        if (OUT_OF_MEMORY.test(trimmed)) this.current.kind = 'out-of-memory';
        return true;
      }
    }
    if (trimmed.includes('The forked VM terminated without properly saying goodbye')) {
      this.start('exit', module);
      return true;
    }
    if (/^There was a timeout (?:or other error )?in the fork|The forked VM terminated due to timeout/.test(trimmed)) {
      this.start('timeout', module);
      return true;
    }
    if (trimmed.endsWith('There was an error in the forked process')) {
      this.start('error', module);
      this.awaitingDetail = true;
      return true;
    }
    if (!this.current) return false;
    const exit = /^Process Exit Code: (\d+)/.exec(trimmed);
    if (exit) {
      this.current.exitCode ??= Number(exit[1]);
      return true;
    }
    if (trimmed === 'Crashed tests:') {
      this.readingCrashed = true;
      return true;
    }
    if (
      /hs_err_pid\d*/.test(trimmed) ||
      trimmed.includes('A fatal error has been detected by the Java Runtime Environment')
    ) {
      this.current.fatalErrorFile = true;
      return true;
    }
    if (OUT_OF_MEMORY.test(trimmed)) {
      if (this.current.kind === 'error' || this.current.kind === 'exit') this.current.kind = 'out-of-memory';
      this.current.detail ??= trimmed;
      return true;
    }
    return /^Command was |^Error occurred in starting fork|^Please refer to |^ExecutionException|^org\.apache\.maven\.surefire\.booter\.SurefireBooterForkException/.test(
      trimmed,
    );
  }

  /** An ERROR line that is no part of a fork failure ends the current one. */
  endBlock(): void {
    this.current = undefined;
    this.readingCrashed = false;
    this.awaitingDetail = false;
  }

  result(): ForkFailure[] {
    return [...this.failures.values()].map((failure) => {
      const lastRunning =
        this.running.get(failure.module ?? '') ?? (failure.module !== undefined ? this.running.get('') : undefined);
      return {
        ...failure,
        classes: [...failure.classes],
        ...(lastRunning && !failure.lastRunning ? { lastRunning } : {}),
      };
    });
  }

  private start(kind: ForkFailureKind, module: string | undefined): void {
    const key = module ?? '';
    const seen = this.failures.get(key);
    if (seen) {
      // The second copy (in "Failed to execute goal") repeats the first; the more telling kind stays.
      if (RANK[kind] > RANK[seen.kind]) seen.kind = kind;
      this.current = seen;
      return;
    }
    const failure: ForkFailure = { kind, classes: [], ...(module ? { module } : {}) };
    this.failures.set(key, failure);
    this.current = failure;
  }
}
