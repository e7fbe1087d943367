/**
 * `mvnx publish --from DIR`: a run record and fix.patch made by another job (the template's `pull_request` job, which
 * ran the pull request's code with no write token) published by a job that holds one, without building or running
 * anything: the record is checked against the run-record contract, the patch against the record's fingerprint on the
 * head that was built, the config of the checked-out (trusted) branch decides paths and mode, and the push guard
 * refuses the test side and build-time code (revalidate.ts). For now only a dependency bot's pull request
 * (publish.updateBranch) is published this way. What was done is written back into DIR/run.json (a decision line, and
 * the `publications` entry naming the commit on the bot's branch), for a later step to keep.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PublishPolicy } from '../../policy/publish.js';
import { parseRunRecord } from '../run-record-schema.js';
import type { RunRecord } from '../run-record.js';
import type { RateLimitOptions } from './rate-limit.js';
import { recordPublication } from './record-publication.js';
import { publishUpdateBranchRun } from './update-branch-run.js';
import type { UpdateBranchOutcome } from './update-branch.js';

export async function publishFromDir(input: {
  projectRoot: string;
  dir: string;
  policy: PublishPolicy;
  env: NodeJS.ProcessEnv;
  userAgent: string;
  rateLimit?: RateLimitOptions;
}): Promise<{ record?: RunRecord; outcome: UpdateBranchOutcome }> {
  const refused = (message: string) => ({
    outcome: { pushed: false, placed: false, message: `not pushed: ${message}` },
  });
  const recordFile = path.join(input.dir, 'run.json');
  let record: RunRecord;
  try {
    record = parseRunRecord(await readFile(recordFile, 'utf8'), recordFile);
  } catch (error) {
    return refused((error as Error).message.split('\n')[0]!);
  }
  const result = await publishUpdateBranchRun({
    projectRoot: input.projectRoot,
    record,
    policy: input.policy,
    env: input.env,
    userAgent: input.userAgent,
    patchFile: path.join(input.dir, 'fix.patch'),
    ...(input.rateLimit ? { rateLimit: input.rateLimit } : {}),
  });
  if (!result.handled)
    return { record, ...refused(`${result.why}; --from publishes only a dependency bot's pull request`) };
  const { outcome } = result;
  const updated: RunRecord = {
    ...record,
    decisions: [
      ...record.decisions,
      `mvnx publish --from: ${outcome.message.startsWith('not pushed') ? '' : 'update branch: '}${outcome.message}`,
    ],
    ...(outcome.publication ? recordPublication(record, outcome.publication) : {}),
  };
  if (outcome.entry) updated.publications = [...(updated.publications ?? []), outcome.entry];
  try {
    await writeFile(recordFile, `${JSON.stringify(updated, null, 2)}\n`);
  } catch (error) {
    const why = (error as Error).message.split('\n')[0];
    return {
      record: updated,
      outcome: { ...outcome, message: `${outcome.message}; ${recordFile} not updated: ${why}` },
    };
  }
  return { record: updated, outcome };
}
