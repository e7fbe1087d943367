/**
 * Isolation for verification builds. A temp copy alone is not a sandbox: a candidate
 * patch (or the tests it changes) runs arbitrary code, so the build runs with the network
 * off and with writes confined to the workspace, using bubblewrap:
 *
 *   --ro-bind / /            everything readable (JDK, Maven, ~/.m2), nothing writable
 *   --dev /dev, --proc /proc fresh device and process filesystems for the JVM
 *   --tmpfs /tmp             a private /tmp (Surefire puts its booter jars there)
 *   --bind WS WS             the workspace, writable
 *   --bind P P               only the extra paths the caller names (the local repository
 *                            for `install`), writable
 *   --unshare-net            only a loopback interface of its own: no network at all
 *   --unshare-pid            and --die-with-parent: when mvnx dies, every process of the
 *                            build dies with it, forked JVMs included
 *
 * `mvn -o verify` needs nothing writable in ~/.m2 when every artifact is already there
 * (checked by the integration tests); `install` writes into the local repository, so
 * the caller passes it in `writablePaths` then.
 */
import { execa } from 'execa';
import path from 'node:path';
import type { RunMavenOptions } from '../maven/types.js';

export type SandboxMode = 'auto' | 'bwrap' | 'none';

export interface SandboxInfo {
  kind: 'bwrap' | 'none';
  /** False only when bwrap was asked for explicitly and cannot run here. */
  available: boolean;
  /** Why the build is not (or cannot be) sandboxed; recorded in the run record. */
  reason?: string;
  /** The bwrap binary that passed the probe. */
  executable?: string;
}

export interface SandboxOptions {
  workspaceRoot: string;
  /** Absolute paths outside the workspace that the build may write. */
  writablePaths: string[];
  network: false;
  /** Where the build starts inside the sandbox; default the workspace root. */
  cwd?: string;
}

export interface DetectOptions {
  /** The bwrap binary to try; default `bwrap` on PATH. */
  bwrapExecutable?: string;
}

export class SandboxError extends Error {
  override name = 'SandboxError';
}

const PROBE_TIMEOUT_MS = 10_000;

export async function detectSandbox(mode: SandboxMode, options: DetectOptions = {}): Promise<SandboxInfo> {
  if (mode !== 'auto' && mode !== 'bwrap' && mode !== 'none') {
    throw new SandboxError(`unknown sandbox mode ${JSON.stringify(mode)}; expected auto, bwrap or none`);
  }
  if (mode === 'none') return { kind: 'none', available: true, reason: 'sandbox turned off (sandbox mode none)' };

  const executable = options.bwrapExecutable ?? 'bwrap';
  const problem = await probe(executable);
  if (problem === undefined) return { kind: 'bwrap', available: true, executable };
  if (mode === 'bwrap') return { kind: 'bwrap', available: false, reason: problem };
  return { kind: 'none', available: true, reason: `${problem}; verification builds run without a sandbox` };
}

/** Runs `true` under exactly the isolation a build gets; undefined when that works. */
async function probe(executable: string): Promise<string | undefined> {
  const version = await execa(executable, ['--version'], { reject: false, timeout: PROBE_TIMEOUT_MS, stdin: 'ignore' });
  if (version.exitCode !== 0) {
    return version.code === 'ENOENT' ? `bubblewrap (${executable}) is not installed` : `${executable} --version failed: ${oneLine(version.stderr) || version.code || `exit ${version.exitCode}`}`;
  }
  const trial = await execa(executable, [...isolationArgs(), '--', 'true'], { reject: false, timeout: PROBE_TIMEOUT_MS, stdin: 'ignore' });
  if (trial.exitCode !== 0) {
    return `bubblewrap is installed but cannot isolate a process here (${oneLine(trial.stderr) || `exit ${trial.exitCode}`})`;
  }
  return undefined;
}

function isolationArgs(): string[] {
  return ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--unshare-net', '--unshare-pid', '--die-with-parent'];
}

/**
 * The `wrap` hook for runMaven: undefined when no sandbox is in use (Maven runs as is).
 * Throws when bwrap was demanded but is unavailable: running unsandboxed then would
 * silently break the promise the user asked for.
 */
export function sandboxWrap(info: SandboxInfo, options: SandboxOptions): RunMavenOptions['wrap'] {
  if (info.kind === 'none') return undefined;
  if (!info.available) throw new SandboxError(`the bwrap sandbox is required but unavailable: ${info.reason ?? 'unknown reason'}`);
  if (options.network !== false) throw new SandboxError('verification builds run with the network off; network: true is not supported');
  const workspaceRoot = requireAbsolute(options.workspaceRoot, 'workspaceRoot');
  const writable = options.writablePaths.map((p) => requireAbsolute(p, 'writablePaths'));
  const cwd = requireAbsolute(options.cwd ?? workspaceRoot, 'cwd');
  const executable = info.executable ?? 'bwrap';

  // Binds come after --tmpfs /tmp so a workspace under /tmp is mounted on top of it.
  const binds = [workspaceRoot, ...writable].flatMap((p) => ['--bind', p, p]);
  return (file, args) => [executable, [...isolationArgs(), ...binds, '--chdir', cwd, '--', file, ...args]];
}

function requireAbsolute(value: string, field: string): string {
  if (typeof value !== 'string' || !path.isAbsolute(value)) throw new SandboxError(`sandbox ${field} must be absolute paths, got ${JSON.stringify(value)}`);
  return path.resolve(value);
}

function oneLine(text: string | undefined): string {
  return (text ?? '').trim().split('\n')[0] ?? '';
}
