import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isUtf8 } from 'node:buffer';
import { findProjectRootAbove } from '../../maven/project.js';
import { checkPathOnDisk, extractEdits, pathsNeeded, resolveEdits } from '../../patch/index.js';
import { withOutcome } from '../../report/outcome.js';
import { runsDir, updateRunRecord } from '../../report/run-record.js';
import { applyInPlace, staleFiles } from '../../app/tier-actions.js';
import { MvnxError } from '../../shared/errors.js';
import { readNamedRun } from './recorded-run.js';
import { helpAsked, parseSubcommandArgs, type SubcommandOption, type SubcommandSpec } from '../subcommand-args.js';

const ARGS = {
  command: 'mvnx apply',
  usage: 'usage: mvnx apply [RUN_ID]   (default: the latest run)',
  options: {},
  maxPositionals: 1,
  tooMany: (ids: string[]) => `one run id at a time, got ${ids.join(' and ')}`,
} satisfies SubcommandSpec<Record<string, SubcommandOption>>;

/** `mvnx apply [runId]`: write a recorded, verified fix to the real tree. */
export async function run(args: string[], io: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number> {
  if (helpAsked(ARGS, args)) {
    process.stdout.write(
      `${ARGS.usage}\nApplies the verified fix recorded in .mvnx/runs/RUN_ID/fix.patch, after checking that the files it was made against are unchanged.\n`,
    );
    return 0;
  }
  const { positionals } = parseSubcommandArgs(ARGS, args);

  const projectRoot = await findProjectRootAbove(io.cwd);
  const { runId, record } = await readNamedRun('mvnx apply', projectRoot, positionals[0]);
  if (record.status !== 'fixed') {
    throw new MvnxError(
      `mvnx apply: run ${runId} has no verified fix (status ${record.status}, stop reason ${record.stopReason})`,
    );
  }
  if (record.applied) {
    process.stderr.write(`mvnx: the fix of run ${runId} was already applied.\n`);
    return 0;
  }

  const stale = await staleFiles(projectRoot, record.fixBase ?? []);
  if (stale.length > 0) {
    throw new MvnxError(`mvnx apply: refused: ${stale.join(', ')} changed since run ${runId} made its fix`, 1);
  }

  const patchFile = path.join(runsDir(projectRoot), runId, 'fix.patch');
  const bytes = await readFile(patchFile).catch(() => {
    throw new MvnxError(`mvnx apply: ${patchFile} is missing`);
  });
  // A fix to a file that is not UTF-8 (patch.allowNonUtf8) is written in that file's bytes.
  // Then the patch and the files are read as Latin-1, a one-char-per-byte view in which
  // applying the patch changes exactly the bytes it names, whatever each file's encoding.
  const encoding: 'utf8' | 'latin1' = isUtf8(bytes) ? 'utf8' : 'latin1';
  const extracted = extractEdits(bytes.toString(encoding));
  const files = new Map<string, string | undefined>();
  const rootReal = await realpath(projectRoot);
  for (const file of pathsNeeded(extracted.edits)) {
    // The same file-system rules as when the fix was made: no links, FIFOs or folders.
    const refused = await checkPathOnDisk(rootReal, file);
    if (refused) throw new MvnxError(`mvnx apply: refused: ${refused.message}`, 1);
    files.set(file, await readFile(path.join(projectRoot, file), encoding).catch(() => undefined));
  }
  const resolved = resolveEdits(extracted.edits, files, { ignoreWhitespace: false, allowTabSpaceContext: false });
  const problems = [...extracted.problems, ...resolved.problems];
  if (problems.length > 0) {
    throw new MvnxError(`mvnx apply: ${patchFile} does not apply: ${problems[0]!.message}`, 1);
  }

  const fix =
    encoding === 'utf8'
      ? resolved.changeSet
      : { ...resolved.changeSet, files: resolved.changeSet.files.map((file) => ({ ...file, encoding })) };
  const outcome = await applyInPlace({ projectRoot, fix });
  if (!outcome.applied) throw new MvnxError(`mvnx apply: ${outcome.message}`, 1);
  const at = new Date().toISOString();
  const applied = withOutcome(
    { ...record, applied: true, decisions: [...record.decisions, `applied later with mvnx apply at ${at}`] },
    { outcome: 'applied', at, evidence: 'mvnx apply' },
  );
  await updateRunRecord(projectRoot, applied);
  process.stderr.write(`mvnx: ${outcome.message} (run ${runId}).\n`);
  return 0;
}
