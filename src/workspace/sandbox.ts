/**
 * Which isolation verification builds get, and the probe that decides it. A temp copy
 * alone is not a sandbox: a candidate patch (or the tests it changes) runs arbitrary
 * code. Backends, in the order `auto` tries them:
 *
 *   bwrap    bubblewrap namespaces (bwrap.ts): Linux with user namespaces
 *   podman   a container (container.ts) of `sandbox.image`
 *   docker   the same with Docker
 *   none     no isolation: said on the console every run, and `auto` does not trust it
 *
 * The probe runs each backend exactly as a build would (the same namespace or container
 * flags), so `mvnx doctor` and the build agree on what works.
 */
import { execa } from 'execa';
import { randomBytes } from 'node:crypto';
import { BWRAP_ISOLATION, systemBinds } from './bwrap.js';
import { containerIsolation, type ContainerEngine } from './container.js';

export { suggestedImage } from './container.js';

export const SANDBOX_MODES = ['auto', 'bwrap', 'podman', 'docker', 'none'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];
export type SandboxKind = Exclude<SandboxMode, 'auto'>;

export interface SandboxInfo {
  kind: SandboxKind;
  /** True when verification builds run isolated (network off, writes confined, allowlisted environment). */
  isolated: boolean;
  /** False only when a backend was required by name and cannot run here. */
  available: boolean;
  /** Why the build is not isolated, or why a required backend is unavailable. */
  reason?: string;
  /** The backend's executable that passed the probe. */
  executable?: string;
  /** The container image (docker, podman). */
  image?: string;
  /** Every backend tried, in order, with why it was passed over: for doctor. */
  tried: { kind: SandboxKind; problem?: string }[];
}

export interface DetectOptions {
  /** The bwrap binary to try; default `bwrap` on PATH. */
  bwrapExecutable?: string;
  /** The container image (`sandbox.image`, else the one suggested for the project's JDK). */
  image?: string;
  /** The environment the probes run in (PATH finds the executables); default process.env. */
  env?: NodeJS.ProcessEnv;
}

export class SandboxError extends Error {
  override name = 'SandboxError';

  constructor(
    message: string,
    /** What the probe found, when the error is about an unavailable backend. */
    readonly info?: SandboxInfo,
  ) {
    super(message);
  }
}

const PROBE_TIMEOUT_MS = 20_000;
const AUTO_ORDER: SandboxKind[] = ['bwrap', 'podman', 'docker'];

export async function detectSandbox(mode: SandboxMode, options: DetectOptions = {}): Promise<SandboxInfo> {
  if (!(SANDBOX_MODES as readonly string[]).includes(mode)) {
    throw new SandboxError(`unknown sandbox mode ${JSON.stringify(mode)}; expected ${SANDBOX_MODES.join(', ')}`);
  }
  if (mode === 'none') {
    return {
      kind: 'none',
      isolated: false,
      available: true,
      reason: 'sandbox.mode is none: verification builds run with your rights, network and files',
      tried: [],
    };
  }
  const tried: SandboxInfo['tried'] = [];
  for (const kind of mode === 'auto' ? AUTO_ORDER : [mode]) {
    const outcome = await probe(kind, options);
    tried.push({ kind, ...(outcome.problem ? { problem: outcome.problem } : {}) });
    if (!outcome.problem) {
      return {
        kind,
        isolated: true,
        available: true,
        executable: outcome.executable,
        ...(kind !== 'bwrap' && options.image ? { image: options.image } : {}),
        tried,
      };
    }
    if (mode !== 'auto') return { kind, isolated: false, available: false, reason: outcome.problem, tried };
  }
  const reason = `no sandbox available (${tried.map((t) => `${t.kind}: ${t.problem}`).join('; ')})`;
  return { kind: 'none', isolated: false, available: true, reason, tried };
}

/** Throws when the build must not run as detected: a backend required by name is unavailable. */
export function requireSandbox(info: SandboxInfo): void {
  if (!info.available)
    throw new SandboxError(
      `sandbox.mode ${info.kind} is required but unavailable: ${info.reason ?? 'unknown reason'}`,
      info,
    );
}

async function probe(kind: SandboxKind, options: DetectOptions): Promise<{ problem?: string; executable: string }> {
  const env = options.env ?? process.env;
  if (kind === 'bwrap') {
    const executable = options.bwrapExecutable ?? 'bwrap';
    return { executable, ...(await probeBwrap(executable, env)) };
  }
  const engine = kind as ContainerEngine;
  if (!options.image)
    return {
      executable: engine,
      problem: `no container image: set sandbox.image (a JDK and Maven image, e.g. maven:3.9-eclipse-temurin-17)`,
    };
  return { executable: engine, ...(await probeContainer(engine, options.image, env)) };
}

async function probeBwrap(executable: string, env: NodeJS.ProcessEnv): Promise<{ problem?: string }> {
  const version = await execa(executable, ['--version'], {
    reject: false,
    timeout: PROBE_TIMEOUT_MS,
    stdin: 'ignore',
    env,
    extendEnv: false,
  });
  if (version.exitCode !== 0) {
    return {
      problem:
        version.code === 'ENOENT'
          ? `bubblewrap (${executable}) is not installed`
          : `${executable} --version failed: ${oneLine(version.stderr) || version.code || `exit ${version.exitCode}`}`,
    };
  }
  // The build's namespaces and system binds, running `true` from /usr.
  const trial = await execa(
    executable,
    [...BWRAP_ISOLATION, ...systemBinds(), '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--', 'true'],
    {
      reject: false,
      timeout: PROBE_TIMEOUT_MS,
      stdin: 'ignore',
      env,
      extendEnv: false,
    },
  );
  if (trial.exitCode !== 0)
    return {
      problem: `bubblewrap is installed but cannot isolate a process here (${oneLine(trial.stderr) || `exit ${trial.exitCode}`})`,
    };
  return {};
}

async function probeContainer(
  engine: ContainerEngine,
  image: string,
  env: NodeJS.ProcessEnv,
): Promise<{ problem?: string }> {
  // The build's container flags, running the image's java: a daemon, the image and a JDK in it, at once.
  const name = `mvnx-probe-${randomBytes(4).toString('hex')}`;
  const trial = await execa(engine, ['run', ...containerIsolation(engine), '--name', name, image, 'java', '-version'], {
    reject: false,
    timeout: PROBE_TIMEOUT_MS,
    stdin: 'ignore',
    env,
    extendEnv: false,
  });
  if (trial.code === 'ENOENT') return { problem: `${engine} is not installed` };
  if (trial.exitCode !== 0) {
    if (trial.timedOut)
      await execa(engine, ['rm', '-f', name], { reject: false, timeout: PROBE_TIMEOUT_MS, env, extendEnv: false });
    return {
      problem: `${engine} cannot run ${image} with --network none (${oneLine(trial.stderr) || `exit ${trial.exitCode}`})`,
    };
  }
  return {};
}

/** One line for the console and the run record: what isolated the verification, or that nothing did. */
export function describeSandbox(info: SandboxInfo): string {
  if (info.isolated)
    return `verification builds run isolated (${info.kind}${info.image ? ` ${info.image}` : ''}: network off, writes confined to the workspace, allowlisted environment)`;
  return `verification builds run WITHOUT isolation: ${info.reason ?? 'no sandbox'}`;
}

function oneLine(text: string | undefined): string {
  return (text ?? '').trim().split('\n')[0] ?? '';
}
