// STUB owned by the repair engine (issue 6). The CLI calls this only after Maven failed
// and the tier is not `off`; it returns the exit code mvnx should end with.
import type { MavenRunResult } from '../maven/types.js';
import type { MvnxFlags } from '../cli/flags.js';

export interface BuildFailureContext {
  cwd: string;
  projectRoot: string;
  mavenExecutable: string;
  /** The user's Maven arguments, mvnx flags removed. */
  mavenArgs: string[];
  flags: MvnxFlags;
  env: NodeJS.ProcessEnv;
  configFile?: string;
  result: MavenRunResult;
}

export async function handleBuildFailure(context: BuildFailureContext): Promise<number> {
  return context.result.exitCode;
}
