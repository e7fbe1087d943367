/**
 * How one verification stage is started under the detected sandbox: the command, the
 * environment it gets and what to clean up after it. Every backend gets the same
 * allowlisted environment; without a sandbox, every process the stage started is killed
 * when it ends (the process group, and any process still carrying the stage's marker).
 */
import { execa } from 'execa';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { killByEnvironmentMarker, STAGE_MARKER } from '../maven/process-tree.js';
import type { MavenRunResult, RunMavenOptions } from '../maven/types.js';
import { bwrapArgs } from './bwrap.js';
import { buildFootprint } from './build-footprint.js';
import { containerCommand } from './container.js';
import { buildEnvironment } from './sandbox-env.js';
import { requireSandbox, type SandboxInfo } from './sandbox.js';

export interface LaunchInput {
  sandbox: SandboxInfo;
  workspaceRoot: string;
  scratchDir: string;
  cwd: string;
  executable: string;
  args: string[];
  /** The host environment the repair runs in. */
  env: NodeJS.ProcessEnv;
  /** sandbox.env.pass */
  pass: readonly string[];
  /** Host files the build reads, bound read-only into a bwrap sandbox (Maven's class-data archive). */
  readOnly?: readonly string[];
}

export interface Launch {
  wrap: NonNullable<RunMavenOptions['wrap']>;
  /** The environment handed to the spawned process (the client's, for a container). */
  env: NodeJS.ProcessEnv;
  /** After the stage: remove a container left by an interrupted stage, kill strays. */
  after(run: MavenRunResult): Promise<void>;
}

export async function prepareLaunch(input: LaunchInput): Promise<Launch> {
  requireSandbox(input.sandbox);
  const { env: allowed } = buildEnvironment(input.env, input.pass);
  const { sandbox } = input;

  if (sandbox.kind === 'none') {
    // The workspace folder first: a later run that removes the workspace of a killed mvnx kills its builds by it.
    const marker = `${input.workspaceRoot}#${randomBytes(8).toString('hex')}`;
    return {
      wrap: (file, args) => [file, args],
      env: { ...allowed, [STAGE_MARKER]: marker },
      after: () => {
        killByEnvironmentMarker(STAGE_MARKER, marker);
        return Promise.resolve();
      },
    };
  }

  const footprint = await buildFootprint({
    workspaceRoot: input.workspaceRoot,
    cwd: input.cwd,
    executable: input.executable,
    args: input.args,
    env: input.env,
    scratchDir: input.scratchDir,
  });
  footprint.readOnly.push(...(input.readOnly ?? []));
  if (sandbox.kind === 'bwrap') {
    const executable = sandbox.executable ?? 'bwrap';
    const profile = bwrapArgs(footprint);
    return {
      wrap: (file, args) => [executable, [...profile, '--', file, ...args]],
      env: allowed,
      after: () => Promise.resolve(),
    };
  }

  const engine = sandbox.kind;
  const name = `mvnx-verify-${randomBytes(6).toString('hex')}`;
  const info = os.userInfo();
  let clientEnv: NodeJS.ProcessEnv = input.env;
  const wrap: Launch['wrap'] = (file, args) => {
    const command = containerCommand({
      engine,
      image: sandbox.image!,
      name,
      footprint,
      env: allowed,
      executable: file,
      args,
      user: `${info.uid}:${info.gid}`,
    });
    clientEnv = { ...input.env, ...command.env };
    return [sandbox.executable ?? engine, command.args];
  };
  // The command (and so the client's environment) is known only once wrap ran: build it now.
  wrap(input.executable, input.args);
  return {
    wrap,
    env: clientEnv,
    after: async (run) => {
      // --rm removes a container that ended; one whose client was killed may still run.
      if (run.interrupted || run.timedOut)
        await execa(sandbox.executable ?? engine, ['rm', '-f', name], {
          reject: false,
          timeout: 30_000,
          env: input.env,
          extendEnv: false,
          stdin: 'ignore',
        });
    },
  };
}
