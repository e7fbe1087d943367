import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline/promises';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runMaven } from '../maven/run.js';
import { applyChangeSet, PatchApplyError } from '../patch/index.js';
import type { ChangeSet } from '../patch/types.js';
import type { RunRecord } from '../report/run-record.js';

export function sha256(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * What the fix was made against, so that applying it later can refuse a changed tree.
 * Hashed as the bytes on disk (a Latin-1 file's text re-encoded as Latin-1): for UTF-8
 * files that is the hash of the text, as records before this change hold.
 */
export function fixBaseOf(fix: ChangeSet): NonNullable<RunRecord['fixBase']> {
  return fix.files.map((file) => ({
    path: file.oldPath ?? file.path,
    beforeSha256: file.before === null ? null : sha256(Buffer.from(file.before, file.encoding ?? 'utf8')),
  }));
}

/** Files of the real tree that no longer match what the fix was made against. */
export async function staleFiles(projectRoot: string, base: NonNullable<RunRecord['fixBase']>): Promise<string[]> {
  const stale: string[] = [];
  for (const entry of base) {
    let current: Buffer | null;
    try {
      // Bytes, not UTF-8 text: a file that is not UTF-8 would read as replacement characters and always look changed.
      current = await readFile(path.join(projectRoot, entry.path));
    } catch {
      current = null;
    }
    const currentSha = current === null ? null : sha256(current);
    if (currentSha !== entry.beforeSha256) stale.push(entry.path);
  }
  return stale;
}

export interface InPlaceOutcome {
  applied: boolean;
  /** Exit code of the original command re-run in the real tree, when it ran. */
  exitCode?: number;
  message: string;
}

/**
 * The auto tier (and `mvnx apply`): write the verified fix to the real tree atomically,
 * then run the user's command there. When that command fails in place the fix is
 * rolled back, so the tree is never left half-fixed.
 */
export async function applyInPlace(input: {
  projectRoot: string;
  fix: ChangeSet;
  rerun?: { executable: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv };
}): Promise<InPlaceOutcome> {
  let applied: Awaited<ReturnType<typeof applyChangeSet>>;
  try {
    // expectBefore: every file must still hold what the fix was made against.
    applied = await applyChangeSet(input.projectRoot, input.fix, { expectBefore: true });
  } catch (error) {
    if (error instanceof PatchApplyError && error.code === 'stale-file') {
      return { applied: false, message: `not applied: ${error.file ?? 'a file'} changed since the fix was made` };
    }
    throw error;
  }
  if (!input.rerun) return { applied: true, message: `applied to ${input.fix.files.map((f) => f.path).join(', ')}` };

  const result = await runMaven({ ...input.rerun, echo: true, inheritStdin: true });
  await result.log.dispose();
  if (result.exitCode === 0) {
    return { applied: true, exitCode: 0, message: 'applied; the original command now passes' };
  }
  await applied.rollback();
  return {
    applied: false,
    exitCode: result.exitCode,
    message: `rolled back: the original command still failed in place (exit ${result.exitCode})`,
  };
}

/** Ask on the terminal; anything but yes is no. */
export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
