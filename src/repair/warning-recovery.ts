/**
 * -Werror under -q: the log says `warnings found and -Werror specified` and hides the
 * warnings. Rather than give up (or send a model a file without a line), compile the
 * failing modules again in the workspace without -q (verification stages never are
 * quiet) and read the warnings from that log.
 */
import { diagnoseBuild, mergeRecoveredWarnings, needsWarningRecovery, type DiagnosticParser } from '../diagnose/index.js';
import type { Diagnosis } from '../diagnose/types.js';
import { planVerification, verifyInWorkspace, type SandboxInfo, type Workspace } from '../workspace/index.js';

export interface WarningRecoveryOptions {
  workspace: Workspace;
  executable: string;
  mavenArgs: string[];
  env: NodeJS.ProcessEnv;
  sandbox: SandboxInfo;
  envPass?: readonly string[];
  timeoutMs: number;
  signal: AbortSignal;
  userCwd: string;
  parsers?: readonly DiagnosticParser[];
}

export interface WarningRecovery {
  diagnosis: Diagnosis;
  /** What happened, for the run record's decisions. */
  note: string;
}

export async function recoverHiddenWarnings(diagnosis: Diagnosis, options: WarningRecoveryOptions): Promise<WarningRecovery> {
  if (!needsWarningRecovery(diagnosis)) return { diagnosis, note: 'no -Werror failure without its warnings' };
  const hiddenModules = new Set(diagnosis.diagnostics.filter((d) => d.message === 'warnings found and -Werror specified').map((d) => d.module));
  const failingModules = diagnosis.modules.filter((m) => m.dir !== undefined && (hiddenModules.has(m.artifactId) || hiddenModules.has(m.name))).map((m) => m.dir!);
  const [stage] = planVerification({ mavenArgs: options.mavenArgs, failingModules, failingTests: [], kinds: ['compile'] });
  await options.workspace.reset();
  const result = await verifyInWorkspace({
    workspace: options.workspace,
    stages: [stage!],
    executable: options.executable,
    env: options.env,
    sandbox: options.sandbox,
    ...(options.envPass ? { envPass: options.envPass } : {}),
    baselineTests: [],
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    userCwd: options.userCwd,
  });
  if (!result.diagnosisInput) return { diagnosis, note: `compiling again without -q (${stage!.args.join(' ')}) did not fail, so the warnings stay unknown` };
  const recompiled = await diagnoseBuild({ ...result.diagnosisInput, ...(options.parsers ? { parsers: options.parsers } : {}) });
  const merged = mergeRecoveredWarnings(diagnosis, recompiled);
  return merged === diagnosis
    ? { diagnosis, note: `compiling again without -q (${stage!.args.join(' ')}) named no warnings` }
    : { diagnosis: merged, note: `-Werror under -q: compiled again without -q (${stage!.args.join(' ')}) to read the ${merged.diagnostics.length} warning(s) that failed the build` };
}
