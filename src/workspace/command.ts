/**
 * Running a team's command (a static analyser the agent may call) in the workspace, under
 * exactly the isolation of a verification stage (prepareLaunch: the same backend, the
 * same allowlisted environment, writes confined to the workspace, strays killed after),
 * in its own process group so that a timeout stops every process it started. stdout and
 * stderr are kept apart (a report on stdout must not be mixed with warnings) and bounded.
 * Never a shell: the arguments are passed as they are.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { signalProcessGroup } from '../maven/process-tree.js';
import { isExecutable, searchPath } from '../shared/path-search.js';
import type { MavenRunResult } from '../maven/types.js';
import { prepareLaunch } from './launch.js';
import type { SandboxInfo } from './sandbox.js';

export interface CommandRun {
  /** null when it did not start (see `notFound`) or was killed. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The program is not installed: not on PATH, or no such file. */
  notFound?: string;
  /** Bytes dropped from either stream beyond the limit. */
  truncated: boolean;
}

export interface CommandInput {
  argv: string[];
  /** The workspace root: the command runs there and may write only there. */
  cwd: string;
  /** A private folder outside the workspace (the sandbox writes its settings copy there). */
  scratchDir: string;
  /** The host environment; the command gets the allowlisted part, as a build does. */
  env: NodeJS.ProcessEnv;
  /** sandbox.env.pass */
  pass: readonly string[];
  sandbox: SandboxInfo;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Per stream; default 2 MiB. */
  maxOutputBytes?: number;
}

const KILL_GRACE_MS = 2_000;

export async function runCommandInWorkspace(input: CommandInput): Promise<CommandRun> {
  const [program, ...args] = input.argv;
  if (!program) throw new TypeError('runCommandInWorkspace needs a program to run');
  // A container has its own programs; bwrap and no sandbox run the host's.
  const inContainer = input.sandbox.kind === 'docker' || input.sandbox.kind === 'podman';
  const resolved = inContainer ? program : findProgram(program, input.cwd, input.env.PATH ?? '');
  if (!resolved)
    return { exitCode: null, stdout: '', stderr: '', timedOut: false, truncated: false, notFound: program };
  const launch = await prepareLaunch({
    sandbox: input.sandbox,
    workspaceRoot: input.cwd,
    scratchDir: input.scratchDir,
    cwd: input.cwd,
    executable: resolved,
    args,
    env: input.env,
    pass: input.pass,
  });
  const [file, fileArgs] = launch.wrap(resolved, args);
  const limit = input.maxOutputBytes ?? 2 * 1024 * 1024;
  const startedAt = new Date();

  const run = await new Promise<CommandRun>((resolve) => {
    const child = spawn(file, fileArgs, {
      cwd: input.cwd,
      env: launch.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const out = collector(limit);
    const err = collector(limit);
    child.stdout.on('data', out.push);
    child.stderr.on('data', err.push);
    let timedOut = false;
    let killer: NodeJS.Timeout | undefined;
    const stop = () => {
      if (child.pid === undefined) return;
      signalProcessGroup(child.pid, 'SIGTERM');
      killer ??= setTimeout(() => child.pid !== undefined && signalProcessGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, input.timeoutMs);
    const onAbort = () => stop();
    if (input.signal?.aborted) stop();
    else input.signal?.addEventListener('abort', onAbort, { once: true });
    let done = false;
    const finish = (exitCode: number | null, notFound?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (killer) clearTimeout(killer);
      input.signal?.removeEventListener('abort', onAbort);
      // A stopped command's children may still hold on: end the whole group.
      if ((timedOut || input.signal?.aborted) && child.pid !== undefined) signalProcessGroup(child.pid, 'SIGKILL');
      resolve({
        exitCode,
        stdout: out.text(),
        stderr: err.text(),
        timedOut,
        truncated: out.truncated() || err.truncated(),
        ...(notFound ? { notFound } : {}),
      });
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined) finish(null, error.code === 'ENOENT' ? program : undefined);
    });
    child.once('close', (code) => finish(timedOut ? null : code));
  });
  // The stage's clean-up: strays of an unsandboxed run, a container left by a stopped one.
  await launch.after({
    exitCode: run.exitCode ?? 1,
    interrupted: Boolean(input.signal?.aborted),
    timedOut: run.timedOut,
    startedAt,
    finishedAt: new Date(),
  } as MavenRunResult);
  return run;
}

/** The program's path: one with a slash is relative to the workspace; a bare name is looked up on PATH. */
export function findProgram(program: string, cwd: string, pathValue: string): string | undefined {
  // The one PATH search (shared/path-search.ts); a name with a slash is a path from cwd.
  if (program.includes('/')) {
    const file = path.resolve(cwd, program);
    return isExecutable(file) ? file : undefined;
  }
  return searchPath(program, { PATH: pathValue });
}

function collector(limit: number) {
  const parts: Buffer[] = [];
  let size = 0;
  let dropped = 0;
  return {
    push: (chunk: Buffer) => {
      if (size >= limit) {
        dropped += chunk.length;
        return;
      }
      const kept = chunk.subarray(0, limit - size);
      parts.push(kept);
      size += kept.length;
      dropped += chunk.length - kept.length;
    },
    text: () => Buffer.concat(parts).toString('utf8'),
    truncated: () => dropped > 0,
  };
}
