/**
 * One Maven run in the workspace that is not a verification: a plugin goal that rewrites
 * files (a formatter's `spotless:apply`). Same rebasing and sandbox as a verification
 * stage; the caller reads the files it left (and resets the workspace before the next use).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runMaven } from '../maven/run.js';
import { prepareLaunch } from './launch.js';
import { rebasePath } from './maven-args.js';
import { stageArgs, type WorkspaceBuildOptions } from './verify.js';

export interface GoalRunInput extends WorkspaceBuildOptions {
  args: string[];
}

export interface GoalRun {
  exitCode: number;
  timedOut: boolean;
  /** A workspace file after the run (root-relative path), undefined when absent. */
  read(file: string): Promise<string | undefined>;
}

export async function runGoalInWorkspace(input: GoalRunInput): Promise<GoalRun> {
  const { workspace } = input;
  const userCwd = path.resolve(input.userCwd ?? workspace.source);
  const cwd = rebasePath(userCwd, workspace.source, workspace.root);
  const executable = path.isAbsolute(input.executable)
    ? rebasePath(input.executable, workspace.source, workspace.root)
    : input.executable;
  const env = input.env ?? process.env;
  const args = stageArgs({ args: input.args }, workspace, userCwd, input.sandbox);
  const launch = await prepareLaunch({
    sandbox: input.sandbox,
    workspaceRoot: workspace.root,
    scratchDir: workspace.scratchDir,
    cwd,
    executable,
    args,
    env,
    pass: input.envPass ?? [],
  });
  const run = await runMaven({
    executable,
    args,
    cwd,
    env: launch.env,
    echo: false,
    timeoutMs: input.timeoutMs,
    ...(input.signal ? { signal: input.signal } : {}),
    forwardSignals: true,
    killGroupOnExit: true,
    wrap: launch.wrap,
  });
  await launch.after(run);
  await run.log.dispose();
  return {
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    read: async (file) => {
      const resolved = path.resolve(workspace.root, file);
      if (path.relative(workspace.root, resolved).startsWith('..')) return undefined;
      try {
        return await readFile(resolved, 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}
