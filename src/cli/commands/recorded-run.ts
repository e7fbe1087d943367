import { readLatestRunId, readRunRecord, runsDir, type RunRecord } from '../../report/run-record.js';
import { InvalidRunRecordError } from '../../report/run-record-schema.js';
import { MvnxError } from '../../shared/errors.js';

/**
 * The run a subcommand names (`mvnx apply [RUN_ID]`, `mvnx publish [RUN_ID]`), or the latest:
 * its id checked and its record read, each problem one config-error line in the command's name.
 */
export async function readNamedRun(
  command: string,
  projectRoot: string,
  named: string | undefined,
): Promise<{ runId: string; record: RunRecord }> {
  const runId = named ?? (await readLatestRunId(projectRoot));
  if (!runId) throw new MvnxError(`${command}: no runs recorded under ${runsDir(projectRoot)}`);
  if (!/^[\w.-]+$/.test(runId)) throw new MvnxError(`${command}: ${JSON.stringify(runId)} is not a run id`);
  try {
    return { runId, record: await readRunRecord(projectRoot, runId) };
  } catch (error) {
    // A record that is there but wrong is said as such: it is not the same as no record.
    if (error instanceof InvalidRunRecordError) throw new MvnxError(`${command}: ${error.message}`);
    throw new MvnxError(`${command}: no run ${runId} in ${runsDir(projectRoot)}`);
  }
}
