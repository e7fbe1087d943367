/**
 * -Werror under -q: the log says `warnings found and -Werror specified` and hides the
 * warnings. Rather than give up (or send a model a file without a line), compile the
 * failing modules again in the workspace without -q (verification stages never are
 * quiet) and read the warnings from that log.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import {
  diagnoseBuild,
  mergeRecoveredWarnings,
  needsWarningRecovery,
  type DiagnosticParser,
} from '../../diagnose/index.js';
import type { Diagnosis } from '../../diagnose/types.js';
import { planVerification, verifyInWorkspace, type WorkspaceBuildOptions } from '../../workspace/index.js';

export interface WarningRecoveryOptions extends WorkspaceBuildOptions {
  mavenArgs: string[];
  parsers?: readonly DiagnosticParser[];
}

export interface WarningRecovery {
  diagnosis: Diagnosis;
  /** What happened, for the run record's decisions. */
  note: string;
}

export async function recoverHiddenWarnings(
  diagnosis: Diagnosis,
  options: WarningRecoveryOptions,
): Promise<WarningRecovery> {
  const { mavenArgs, parsers, ...build } = options;
  if (!needsWarningRecovery(diagnosis)) return { diagnosis, note: 'no -Werror failure without its warnings' };
  const hiddenModules = new Set(
    diagnosis.diagnostics.filter((d) => d.message === 'warnings found and -Werror specified').map((d) => d.module),
  );
  const failingModules = diagnosis.modules
    .filter((m) => m.dir !== undefined && (hiddenModules.has(m.artifactId) || hiddenModules.has(m.name)))
    .map((m) => m.dir!);
  const [stage] = planVerification({ mavenArgs, failingModules, failingTests: [], kinds: ['compile'] });
  await build.workspace.reset();
  // The workspace may hold the outputs of the user's build (verify.reuseOutputs): these
  // modules compile from clean, or javac would have nothing to compile and warn of nothing.
  for (const dir of failingModules)
    await rm(path.join(build.workspace.root, dir, 'target'), { recursive: true, force: true });
  const result = await verifyInWorkspace({ ...build, stages: [stage!], baselineTests: [] });
  if (!result.diagnosisInput)
    return {
      diagnosis,
      note: `compiling again without -q (${stage!.args.join(' ')}) did not fail, so the warnings stay unknown`,
    };
  const recompiled = await diagnoseBuild({ ...result.diagnosisInput, ...(parsers ? { parsers } : {}) });
  const merged = mergeRecoveredWarnings(diagnosis, recompiled);
  return merged === diagnosis
    ? { diagnosis, note: `compiling again without -q (${stage!.args.join(' ')}) named no warnings` }
    : {
        diagnosis: merged,
        note: `-Werror under -q: compiled again without -q (${stage!.args.join(' ')}) to read the ${merged.diagnostics.length} warning(s) that failed the build`,
      };
}
