import { findProjectRootAbove } from '../../maven/project.js';
import { loadEffectiveConfig } from '../../policy/load.js';
import { publishRun, recordPublication } from '../../report/publish/index.js';
import { updateRunRecord, type RunRecord } from '../../report/run-record.js';
import { toolVersion } from '../../report/tool-version.js';
import { MvnxError } from '../../shared/errors.js';
import { readNamedRun } from './recorded-run.js';
import { helpAsked, parseSubcommandArgs, type SubcommandOption, type SubcommandSpec } from '../subcommand-args.js';

const ARGS = {
  command: 'mvnx publish',
  usage: 'usage: mvnx publish [RUN_ID]   (default: the latest run)',
  options: {},
  maxPositionals: 1,
  tooMany: (ids: string[]) => `one run id at a time, got ${ids.join(' and ')}`,
} satisfies SubcommandSpec<Record<string, SubcommandOption>>;

export const EXIT_CODES = [
  'Exit codes:',
  '  0  published: the request was opened or updated (a later step such as auto-merge may have failed: the line says why)',
  '  1  not published: the run has no verified fix, or the token, git or the forge failed (the line says why)',
  '  2  bad arguments or run id',
  "  3  refused: the policy did not let the run's fix be taken (the line names the rule), or the commit the run built",
  '     cannot be the base (not recorded, uncommitted changes, not on the target branch, a merge checkout)',
].join('\n');

/**
 * `mvnx publish [runId]`: the recorded run's verified fix as branch mvnx/fix-<fingerprint>,
 * one commit and a pull/merge request (updated when one is open), with the forge's
 * auto-merge where publish.merge and the target branch's required checks allow it.
 */
export async function run(args: string[], io: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number> {
  if (helpAsked(ARGS, args)) {
    process.stdout.write(
      `${ARGS.usage}\nPublishes the verified fix of .mvnx/runs/RUN_ID as a pull request (GitHub Actions) or merge request (GitLab CI), with the token named by publish.tokenEnv; a later job of a pipeline can publish what the repair job recorded. The fix's commit is built on the commit the run built (the record's built.commit), never on a later HEAD.\n${EXIT_CODES}\n`,
    );
    return 0;
  }
  const { positionals } = parseSubcommandArgs(ARGS, args);
  const projectRoot = await findProjectRootAbove(io.cwd);
  const { runId, record } = await readNamedRun('mvnx publish', projectRoot, positionals[0]);
  if (record.status !== 'fixed')
    throw new MvnxError(
      `mvnx publish: run ${runId} has no verified fix (status ${record.status}, stop reason ${record.stopReason})`,
      1,
    );

  const config = await loadEffectiveConfig({ projectRoot, env: io.env });
  const result = await publishRun({
    projectRoot,
    record,
    policy: config,
    env: io.env,
    userAgent: `mvnx/${await toolVersion()}`,
    asked: true,
  });
  const outcome = result.outcome!;
  const updated: RunRecord = { ...record, decisions: [...record.decisions, `mvnx publish: ${outcome.message}`] };
  if (outcome.published) Object.assign(updated, recordPublication(record, outcome.publication));
  await updateRunRecord(projectRoot, updated);
  process.stderr.write(`mvnx: publish: ${outcome.message}\n`);
  return outcome.published ? 0 : outcome.refused ? 3 : 1;
}
