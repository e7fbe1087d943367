import { findProjectRootAbove } from '../../maven/project.js';
import { loadEffectiveConfig } from '../../policy/load.js';
import { publishRun } from '../../report/publish/index.js';
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

/**
 * `mvnx publish [runId]`: the recorded run's verified fix as branch mvnx/fix-<fingerprint>,
 * one commit and a pull/merge request (updated when one is open), with the forge's
 * auto-merge where publish.merge and the target branch's required checks allow it.
 */
export async function run(args: string[], io: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number> {
  if (helpAsked(ARGS, args)) {
    process.stdout.write(
      `${ARGS.usage}\nPublishes the verified fix of .mvnx/runs/RUN_ID as a pull request (GitHub Actions) or merge request (GitLab CI), with the token named by publish.tokenEnv; a later job of a pipeline can publish what the repair job recorded.\n`,
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
  if (outcome.published) updated.publication = outcome.publication;
  await updateRunRecord(projectRoot, updated);
  process.stderr.write(`mvnx: publish: ${outcome.message}\n`);
  return outcome.published ? 0 : 1;
}
