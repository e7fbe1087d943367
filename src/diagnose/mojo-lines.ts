/**
 * Maven's lines about goals: the header printed when a goal starts
 * (`--- maven-compiler-plugin:3.13.0:compile (default-compile) @ core ---`) and the
 * `Failed to execute goal ...` line of a goal that failed. Anchored patterns, one pass.
 */

/** The goal that is running, and the module it runs in. */
export interface MojoContext {
  groupId?: string;
  plugin: string;
  goal: string;
  artifactId: string;
}

/** `Failed to execute goal g:a:v:goal (execution) on project module: message`; the goal part is optional. */
export interface FailedGoal {
  groupId?: string;
  plugin?: string;
  version?: string;
  goal?: string;
  /** The module (artifactId) that failed. */
  artifactId: string;
  /** The text after the colon ('' when there is none). */
  message: string;
}

const MOJO_HEADER = /^--- ([\w.-]+):([^:\s]+):([\w-]+) \(([^)]*)\) @ (\S+) ---/;
// groupId:artifactId:version:goal (execution) on project artifactId: message
const FAILED_GOAL =
  /^Failed to execute goal (?:([\w.-]+):([\w.-]+):([^:\s]+):([\w-]+) \([^)]*\) )?on project ([^\s:]+): ?(.*)$/;

export function mojoHeader(text: string): MojoContext | undefined {
  const m = MOJO_HEADER.exec(text);
  return m ? { plugin: m[1] ?? '', goal: m[3] ?? '', artifactId: m[5] ?? '' } : undefined;
}

export function failedGoalLine(text: string): FailedGoal | undefined {
  const m = FAILED_GOAL.exec(text);
  if (!m) return undefined;
  const [, groupId, plugin, version, goal, artifactId, message] = m;
  return {
    ...(groupId ? { groupId } : {}),
    ...(plugin ? { plugin } : {}),
    ...(version ? { version } : {}),
    ...(goal ? { goal } : {}),
    artifactId: artifactId!,
    message: message ?? '',
  };
}
