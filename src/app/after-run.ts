/**
 * The rollout loop after a run is recorded: the SARIF file (`--mvnx-sarif`), the pull/merge
 * request suggestion (in CI under assist), the fix published as a pull/merge request (in CI
 * under auto, with the forge's auto-merge where publish.merge allows it), and the cheap pass that brings earlier runs'
 * outcomes up to date. None of these may change the build's exit code or lose the record.
 */
import path from 'node:path';
import { findGitRoot } from '../maven/project.js';
import type { EffectiveConfig } from '../policy/schema.js';
import type { ChangeSet } from '../patch/types.js';
import { reconcileRuns } from '../report/reconcile.js';
import { repositoryName } from '../report/repository.js';
import {
  builtSource,
  publicationDecision,
  publishRun,
  publishUpdateBranchRun,
  recordPublication,
} from '../report/publish/index.js';
import { postReview } from '../report/review/post.js';
import type { RunBuilt, RunRecord, RunRecorder } from '../report/run-record.js';
import { buildSarif } from '../report/sarif.js';
import { writeSarifFile } from '../report/sarif-file.js';
import { toolVersion } from '../report/tool-version.js';
import { exportTelemetry } from '../report/telemetry/index.js';
import type { BuildFailureContext } from './build-failure.js';
import { isCI } from './build-failure.js';

const say = (line: string) => process.stderr.write(`mvnx: ${line}\n`);

export async function repositoryOf(projectRoot: string, env: NodeJS.ProcessEnv): Promise<{ repository?: string }> {
  try {
    return { repository: await repositoryName(projectRoot, env) };
  } catch {
    return {};
  }
}

/** The commit and tree the failed build ran on, read before any fix touches the tree; nothing outside git. */
export async function builtSourceOf(projectRoot: string): Promise<{ built?: RunBuilt }> {
  try {
    const built = await builtSource(projectRoot);
    return built ? { built } : {};
  } catch {
    return {};
  }
}

/** `--mvnx-sarif=FILE` (or MVNX_SARIF, folded in by the CLI), resolved against the working directory. */
export function sarifTarget(options: BuildFailureContext['options'], cwd: string): string | undefined {
  return options.sarif ? path.resolve(cwd, options.sarif) : undefined;
}

async function repoPrefix(projectRoot: string): Promise<string> {
  const gitRoot = await findGitRoot(projectRoot);
  return gitRoot ? path.relative(gitRoot, projectRoot).split(path.sep).join('/') : '';
}

/**
 * A dependency bot's pull request (issue 43): the fix goes to the bot's branch when publish.updateBranch says so;
 * false leaves the run to the usual publication. Same gate as that one: what auto may publish on its own.
 */
async function publishedToUpdateBranch(
  context: BuildFailureContext,
  config: EffectiveConfig,
  record: RunRecord,
  recorder: RunRecorder,
  version: string,
): Promise<boolean> {
  if (!record.dependencyUpdate || !publicationDecision(record, config).publishAutomatically) return false;
  const result = await publishUpdateBranchRun({
    projectRoot: context.projectRoot,
    record,
    policy: config,
    env: context.env,
    userAgent: `mvnx/${version}`,
  });
  if (!result.handled) return false;
  const line = result.outcome.message;
  say(`publish: ${line}`);
  record.decisions.push(line.startsWith('not pushed') ? line : `update branch: ${line}`);
  if (result.outcome.publication) Object.assign(record, recordPublication(record, result.outcome.publication));
  if (result.outcome.entry) record.publications = [...(record.publications ?? []), result.outcome.entry];
  await recorder.writeRecord(record);
  return true;
}

export async function afterRun(input: {
  context: BuildFailureContext;
  config: EffectiveConfig;
  record: RunRecord;
  recorder: RunRecorder;
  fix?: ChangeSet;
}): Promise<void> {
  const { context, config, record, recorder } = input;
  const version = await toolVersion();
  // OpenTelemetry (OTEL_EXPORTER_OTLP_ENDPOINT or telemetry.otlp): bounded, the SDK loaded only when set.
  await exportTelemetry(record, { env: context.env, config: config.telemetry, version, say });

  const sarifFile = sarifTarget(context.options, context.cwd);
  if (sarifFile) {
    try {
      await writeSarifFile(
        sarifFile,
        buildSarif({
          record,
          prefix: await repoPrefix(context.projectRoot),
          toolVersion: version,
          ...(input.fix ? { fix: input.fix } : {}),
        }),
      );
      say(`SARIF written to ${path.relative(context.cwd, sarifFile) || sarifFile}`);
    } catch (error) {
      say(`SARIF not written: ${(error as Error).message}`);
    }
  }

  // Suggestions go where reviewers are only for what assist suggests; a later run without a
  // fix only updates an earlier mvnx review, so that it does not stand as current.
  const suggests = record.status === 'fixed' && record.action === 'suggest';
  const mayUpdate = record.status !== 'fixed' && record.tier === 'assist' && record.stopReason !== 'interrupted';
  if (config.review.post && isCI(context.env) && (suggests || mayUpdate)) {
    const outcome = await postReview({
      record,
      env: context.env,
      gitlabTokenEnv: config.review.gitlabTokenEnv,
      userAgent: `mvnx/${version}`,
      prefix: await repoPrefix(context.projectRoot),
      ...(input.fix ? { fix: input.fix } : {}),
    });
    if (suggests || outcome.posted) say(`review: ${outcome.message}`);
    if (outcome.platform && (suggests || outcome.posted)) {
      record.review = {
        platform: outcome.platform,
        message: outcome.message,
        ...(outcome.url ? { url: outcome.url } : {}),
      };
      await recorder.writeRecord(record);
    }
  }

  if (
    record.status === 'fixed' &&
    isCI(context.env) &&
    config.publish.auto &&
    (config.tier === 'auto' || record.tier === 'auto') &&
    !(await publishedToUpdateBranch(context, config, record, recorder, version))
  ) {
    const published = await publishRun({
      projectRoot: context.projectRoot,
      record,
      policy: config,
      env: context.env,
      userAgent: `mvnx/${version}`,
      asked: false,
    });
    const line = published.skipped ?? published.outcome!.message;
    say(`publish: ${line}`);
    record.decisions.push(line.startsWith('not published') ? line : `published: ${line}`);
    if (published.outcome?.published) Object.assign(record, recordPublication(record, published.outcome.publication));
    await recorder.writeRecord(record);
  }

  try {
    const report = await reconcileRuns(context.projectRoot, { skipRunId: record.runId, maxRuns: 20 });
    if (report.changes.length > 0)
      say(`${report.changes.length} earlier fix outcome(s) updated from the tree and git log (mvnx runs shows them)`);
  } catch (error) {
    if (context.env.MVNX_DEBUG) say(`reconcile skipped: ${(error as Error).message}`);
  }
}
