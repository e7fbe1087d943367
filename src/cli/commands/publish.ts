import path from 'node:path';
import { findProjectRootAbove } from '../../maven/project.js';
import { loadEffectiveConfig } from '../../policy/load.js';
import { publishFromDir, publishRun, recordPublication } from '../../report/publish/index.js';
import { updateRunRecord, type RunRecord } from '../../report/run-record.js';
import { toolVersion } from '../../report/tool-version.js';
import { MvnxError } from '../../shared/errors.js';
import { readNamedRun } from './recorded-run.js';
import { helpAsked, parseSubcommandArgs, type SubcommandOption, type SubcommandSpec } from '../subcommand-args.js';

const ARGS = {
  command: 'mvnx publish',
  usage: 'usage: mvnx publish [RUN_ID]   (default: the latest run)   |   mvnx publish --from DIR',
  options: { from: { type: 'string', valueName: 'a folder holding run.json and fix.patch' } },
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
      `${ARGS.usage}\nPublishes the verified fix of .mvnx/runs/RUN_ID as a pull request (GitHub Actions) or merge request (GitLab CI), with the token named by publish.tokenEnv; a later job of a pipeline can publish what the repair job recorded. The fix's commit is built on the commit the run built (the record's built.commit), never on a later HEAD.\n--from DIR: run.json and fix.patch made by another job (a dependency bot's pull request), checked again here (fingerprint, policy paths, no test side or build-time code) and put on the bot's branch per publish.updateBranch; nothing is built or run.\n${EXIT_CODES}\n`,
    );
    return 0;
  }
  const { positionals, values } = parseSubcommandArgs(ARGS, args);
  const projectRoot = await findProjectRootAbove(io.cwd);
  if (values.from !== undefined) {
    if (positionals.length > 0) throw new MvnxError(`mvnx publish: --from DIR or a RUN_ID, not both; ${ARGS.usage}`, 2);
    // Another job's run (a dependency bot's pull request), re-validated against this checkout's config, never trusted.
    const config = await loadEffectiveConfig({ projectRoot, env: io.env });
    const from = await publishFromDir({
      projectRoot,
      dir: path.resolve(io.cwd, values.from),
      policy: config,
      env: io.env,
      userAgent: `mvnx/${await toolVersion()}`,
    });
    process.stderr.write(`mvnx: publish: ${from.outcome.message}\n`);
    return from.outcome.placed ? 0 : 1;
  }
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
