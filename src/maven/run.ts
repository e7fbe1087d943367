/**
 * Running Maven: live streaming, a bounded capture for diagnosis, and signals that reach
 * the whole process tree.
 *
 * Colours: Maven colours its output only when its own stdout is a terminal, and ours
 * must be a pipe so that the log can be captured. When our stdout is a terminal and the
 * user neither chose batch mode nor a `style.color`, `-Dstyle.color=always` is put in
 * front of the user's arguments (which stay untouched and in order) so that the terminal
 * still shows Maven's colours. The trade-off: Maven's other terminal checks (terminal
 * width) see a pipe, as they would under `mvn | cat`.
 *
 * Process groups: Maven normally runs in its own process group, so that one signal to
 * the group stops Maven and every JVM it forked. The exception is an interactive
 * terminal with inherited stdin: a background group would be stopped (SIGTTIN) by the
 * first prompt, so Maven stays in our group, where the terminal's Ctrl-C reaches every
 * process directly and forwarded signals go to the tree as /proc lists it.
 *
 * Spawning uses node:child_process rather than execa: importing execa costs ~70 ms on
 * this 2-core machine, 4% of a 1.6 s `mvn -o -q verify` on its own (bench:overhead), and
 * the parts this file needs beyond a plain spawn (group kill, 128+N, capture) execa does
 * not provide anyway.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';
import { MvnxError } from '../shared/errors.js';
import { signalProcessGroup, signalTree } from './process-tree.js';
import { LogSpool } from './spool.js';
import type { MavenRunResult, RunMavenOptions } from './types.js';

/** Time a stopped Maven gets for its shutdown hooks before the tree is killed. */
const KILL_GRACE_MS = 5_000;
const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export async function runMaven(options: RunMavenOptions): Promise<MavenRunResult> {
  const forwardSignals = options.forwardSignals ?? options.echo;
  // isatty(0), not process.stdin.isTTY: the getter builds a stream for fd 0 (and loads
  // fs streams for a file or /dev/null) that nothing reads, since Maven inherits the fd.
  const interactive = options.inheritStdin === true && isatty(0);
  const ownGroup = process.platform !== 'win32' && !interactive;
  const mavenArgs = [...colorArgs(options.args, options.echo && Boolean(process.stdout.isTTY)), ...options.args];
  const [file, args] = options.wrap ? options.wrap(options.executable, mavenArgs) : [options.executable, mavenArgs];

  const spool = await LogSpool.create(options.captureLimitBytes);

  let subprocess: ChildProcess | undefined;
  let interrupted = false;
  let timedOut = false;
  let forwarded: NodeJS.Signals | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  const stopTree = (signal: NodeJS.Signals) => {
    const pid = subprocess?.pid;
    if (pid === undefined) return;
    signalTree(pid, signal, ownGroup);
    killTimer ??= setTimeout(() => signalTree(pid, 'SIGKILL', ownGroup), KILL_GRACE_MS);
  };
  const onProcessSignal = (signal: NodeJS.Signals) => {
    // A second Ctrl-C means "now": skip Maven's shutdown hooks.
    const signalToSend = forwarded ? 'SIGKILL' : signal;
    interrupted = true;
    forwarded ??= signal;
    stopTree(signalToSend);
  };
  // Before the spawn: Maven can start (and start children) before spawn() returns, and a
  // signal in that window would otherwise kill mvnx by default and leave Maven running.
  // Node runs the handler from the event loop, so by then the pid is known.
  if (forwardSignals) for (const signal of FORWARDED_SIGNALS) process.on(signal, onProcessSignal);
  const stopForwarding = () => {
    if (forwardSignals) for (const signal of FORWARDED_SIGNALS) process.off(signal, onProcessSignal);
  };

  const startedAt = new Date();
  try {
    subprocess = spawn(file, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.inheritStdin ? 'inherit' : 'ignore', 'pipe', 'pipe'],
      detached: ownGroup,
      windowsHide: true,
    });
  } catch (error) {
    stopForwarding();
    await spool.abandon();
    throw error;
  }
  const ended = settle(subprocess);
  if (ownGroup && subprocess.pid !== undefined) spool.keepGroup(subprocess.pid);
  if (options.onSpawn) subprocess.once('spawn', options.onSpawn);

  const onAbort = () => {
    interrupted = true;
    stopTree('SIGTERM');
  };
  const timeout =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          stopTree('SIGTERM');
        }, options.timeoutMs);
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  pump(subprocess.stdout, spool, options.echo ? process.stdout : undefined, options.onOutput);
  pump(subprocess.stderr, spool, options.echo ? process.stderr : undefined, options.onOutput);

  // Maven is gone, but a JVM of a stopped build may still hold the pipes open: kill the rest.
  // A verification build's group dies with it even when it ended normally: a candidate's
  // forked background process must not outlive the stage.
  const child = subprocess;
  // Should mvnx itself die while Maven runs (an uncaught error), Maven must not run on alone: Node emits 'exit'
  // on that path too, and a synchronous kill is all an 'exit' handler can do.
  let running = true;
  const killIfOrphaned = () => {
    if (running && child.pid !== undefined) signalTree(child.pid, 'SIGKILL', ownGroup);
  };
  process.once('exit', killIfOrphaned);
  child.once('exit', () => {
    running = false;
    process.off('exit', killIfOrphaned);
    if ((interrupted || timedOut || options.killGroupOnExit) && ownGroup && child.pid !== undefined)
      signalProcessGroup(child.pid, 'SIGKILL');
  });

  let result: Settled;
  try {
    result = await ended;
  } finally {
    if (timeout) clearTimeout(timeout);
    if (killTimer) clearTimeout(killTimer);
    stopForwarding();
    process.off('exit', killIfOrphaned);
    options.signal?.removeEventListener('abort', onAbort);
  }
  const finishedAt = new Date();

  if ('spawnError' in result) {
    await spool.abandon();
    throw spawnError(file, result.spawnError.code);
  }

  const signal = result.signal ?? undefined;
  let exitCode = signal ? 128 + signalNumber(signal) : (result.exitCode ?? 1);
  // Maven may exit 1 from a build its own shutdown cut short; the user's Ctrl-C still is 130.
  if (forwarded && exitCode !== 0) exitCode = 128 + signalNumber(forwarded);

  return {
    exitCode,
    ...(signal ? { signal } : {}),
    interrupted,
    timedOut,
    startedAt,
    finishedAt,
    log: await spool.finish(),
  };
}

/** Arguments mvnx puts before the user's so that Maven keeps its colours on our terminal. */
export function colorArgs(userArgs: readonly string[], stdoutIsTerminal: boolean): string[] {
  if (!stdoutIsTerminal) return [];
  const choosesItself = userArgs.some(
    (arg) => arg === '-B' || arg === '--batch-mode' || /^(-D|--define=?)style\.color(=|$)/.test(arg),
  );
  const definesSeparately = userArgs.some(
    (arg, i) => (arg === '-D' || arg === '--define') && userArgs[i + 1]?.startsWith('style.color'),
  );
  return choosesItself || definesSeparately ? [] : ['-Dstyle.color=always'];
}

/**
 * Copy one of Maven's streams to the spool and, when echoing, straight to our own stream.
 * Chunks are written as they come (no line buffering); when our stream pushes back, Maven's
 * pipe is paused instead of queueing output in memory.
 */
function pump(
  source: Readable | null,
  spool: LogSpool,
  echo: Writable | undefined,
  onOutput?: (chunk: Buffer) => void,
): void {
  if (!source) return;
  let echoing = echo !== undefined;
  const stopEchoing = () => {
    // EPIPE (e.g. `mvnx ... | head`): keep capturing, stop echoing.
    echoing = false;
    source.resume();
  };
  echo?.once('error', stopEchoing);
  source.on('data', (chunk: Buffer) => {
    spool.write(chunk);
    onOutput?.(chunk);
    if (echoing && echo && !echo.write(chunk)) {
      source.pause();
      echo.once('drain', () => source.resume());
    }
  });
  source.once('end', () => echo?.off('error', stopEchoing));
}

type Settled = { exitCode: number | null; signal: NodeJS.Signals | null } | { spawnError: NodeJS.ErrnoException };

/** 'close' comes after the exit and after both pipes ended, so the capture is complete. */
function settle(child: ChildProcess): Promise<Settled> {
  return new Promise((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      // 'error' after a successful spawn means a failed kill(), which process-tree.ts avoids.
      if (child.pid === undefined) resolve({ spawnError: error });
    });
    child.once('close', (exitCode, signal) => resolve({ exitCode, signal }));
  });
}

function signalNumber(signal: NodeJS.Signals): number {
  return osConstants.signals[signal] ?? 1;
}

function spawnError(file: string, code: string | undefined): MvnxError {
  if (code === 'ENOENT') return new MvnxError(`cannot run Maven: ${file} does not exist`, 127);
  if (code === 'EACCES') return new MvnxError(`cannot run Maven: ${file} is not executable`, 126);
  return new MvnxError(`cannot run Maven: ${file}: ${code ?? 'spawn failed'}`, 127);
}
