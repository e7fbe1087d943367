/**
 * One failed build as one trace, planned from its run record (pure): the spans, their
 * times and attributes, before any OpenTelemetry code loads. Attribute names follow the
 * OpenTelemetry semantic conventions where they exist: CI/CD (`cicd.pipeline.*`) for the
 * run and the user's build, GenAI (`gen_ai.*`) for model calls, `server.*` and
 * `error.type`; the rest are `mvnx.*`. Never a prompt, a reply or a line of code: only
 * names, counts, durations and outcomes.
 */
import type { RunRecord } from '../run-record.js';

export type AttributeValue = string | number | boolean;

export interface PlannedSpan {
  id: string;
  parent?: string;
  name: string;
  kind: 'internal' | 'client';
  /** Epoch ms. */
  start: number;
  end: number;
  attributes: Record<string, AttributeValue>;
  /** Set when the span's operation failed: the status message. */
  error?: string;
}

/** `cicd.pipeline.result` for the run: success only for a verified fix. */
function pipelineResult(record: RunRecord): string {
  if (record.stopReason === 'fixed') return 'success';
  if (record.stopReason === 'interrupted') return 'cancellation';
  if (record.status === 'error') return 'error';
  if (record.status === 'skipped') return 'skip';
  return 'failure';
}

/** The CI's own names for the pipeline and its run, when a known CI set them. */
function pipelineNames(env: NodeJS.ProcessEnv, record: RunRecord): Record<string, string> {
  const name = env.GITHUB_WORKFLOW ?? env.CI_PIPELINE_NAME ?? env.JOB_NAME ?? env.BUILDKITE_PIPELINE_SLUG;
  const runId = env.GITHUB_RUN_ID ?? env.CI_PIPELINE_ID ?? env.BUILD_ID ?? env.BUILDKITE_BUILD_ID;
  return {
    ...(name ? { 'cicd.pipeline.name': name } : {}),
    ...(runId ? { 'cicd.pipeline.run.id': runId } : {}),
    ...(record.repository ? { 'vcs.repository.name': record.repository } : {}),
  };
}

function hostParts(host: string): Record<string, AttributeValue> {
  try {
    const url = new URL(host);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    return { 'server.address': url.hostname, 'server.port': port };
  } catch {
    return {};
  }
}

export function planRunTrace(record: RunRecord, env: NodeJS.ProcessEnv = {}): PlannedSpan[] {
  const runStart = Date.parse(record.startedAt);
  const runEnd = Math.max(runStart, Date.parse(record.finishedAt));
  // mvnx's own part starts where the user's build ended.
  const buildEnd = Math.max(runStart, runEnd - record.timings.totalMs);
  const repairStart = Math.min(runEnd, buildEnd + (record.timings.diagnoseMs ?? 0));
  const spans: PlannedSpan[] = [];
  const failed = pipelineResult(record) !== 'success';

  spans.push({
    id: 'run',
    name: `mvnx ${record.stopReason}`,
    kind: 'internal',
    start: runStart,
    end: runEnd,
    attributes: {
      ...pipelineNames(env, record),
      'cicd.pipeline.result': pipelineResult(record),
      'mvnx.run.id': record.runId,
      'mvnx.status': record.status,
      'mvnx.stop_reason': record.stopReason,
      'mvnx.tier': record.tier,
      'mvnx.applied': record.applied,
      'mvnx.attempts': record.attempts.length,
      'mvnx.model_calls': record.modelCalls,
      ...(record.modelWaitMs ? { 'mvnx.model_wait_ms': record.modelWaitMs } : {}),
    },
    ...(failed ? { error: `stopped: ${record.stopReason}` } : {}),
  });
  spans.push({
    id: 'build',
    parent: 'run',
    name: 'maven build',
    kind: 'internal',
    start: runStart,
    end: buildEnd,
    attributes: {
      'cicd.pipeline.task.name': ['mvn', ...record.mavenArgs.filter((arg) => !arg.startsWith('-D'))].join(' '),
      'cicd.pipeline.task.type': 'build',
      'cicd.pipeline.task.run.result': 'failure',
      'process.exit.code': record.mavenExitCode,
    },
    error: `Maven exited with ${record.mavenExitCode}`,
  });
  spans.push({
    id: 'diagnosis',
    parent: 'run',
    name: 'diagnosis',
    kind: 'internal',
    start: buildEnd,
    end: repairStart,
    attributes: {
      'mvnx.diagnostics': record.diagnostics.length,
      'mvnx.failure.kinds': [...new Set(record.diagnostics.map((d) => d.kind))].sort().join(','),
    },
  });

  let attemptStart = repairStart;
  for (const attempt of record.attempts) {
    const end = Math.max(attemptStart, attempt.finishedAt ? Date.parse(attempt.finishedAt) : runEnd);
    const id = `attempt-${attempt.n}`;
    spans.push({
      id,
      parent: 'run',
      name: `attempt ${attempt.n}`,
      kind: 'internal',
      start: attemptStart,
      end,
      attributes: {
        'mvnx.attempt.number': attempt.n,
        'mvnx.attempt.source': attempt.source,
        'mvnx.attempt.outcome': attempt.outcome,
        'mvnx.attempt.files_changed': attempt.filesChanged.length,
        ...(attempt.fixer ? { 'mvnx.attempt.fixer': attempt.fixer } : {}),
        ...(attempt.rejectedAt ? { 'mvnx.attempt.rejected_at': attempt.rejectedAt } : {}),
      },
      ...(attempt.outcome === 'verified' ? {} : { error: attempt.outcome }),
    });
    // Verification stages are an attempt's last work: laid back to back, ending with it.
    let stageEnd = end;
    const stages = [...(attempt.stages ?? [])].reverse().map((stage, index) => {
      const span: PlannedSpan = {
        id: `${id}-stage-${index}`,
        parent: id,
        name: `verify ${stage.name}`,
        kind: 'internal',
        start: Math.max(attemptStart, stageEnd - stage.durationMs),
        end: stageEnd,
        attributes: {
          'cicd.pipeline.task.name': stage.name,
          'cicd.pipeline.task.type': 'test',
          'process.exit.code': stage.exitCode,
          'cicd.pipeline.task.run.result': stage.exitCode === 0 ? 'success' : 'failure',
        },
        ...(stage.exitCode === 0 ? {} : { error: `exit code ${stage.exitCode}` }),
      };
      stageEnd = span.start;
      return span;
    });
    spans.push(...stages.reverse());
    attemptStart = end;
  }

  for (const [index, request] of (record.modelRequests ?? []).entries()) {
    const start = Date.parse(request.startedAt);
    const parent =
      request.attempt !== undefined && record.attempts.some((a) => a.n === request.attempt)
        ? `attempt-${request.attempt}`
        : 'run';
    spans.push({
      id: `model-${index}`,
      parent,
      name: `chat ${request.model}`,
      kind: 'client',
      start,
      end: start + request.durationMs,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': record.model?.provider ?? 'ollama',
        'gen_ai.request.model': request.model,
        ...hostParts(request.host),
        ...(request.promptTokens !== undefined ? { 'gen_ai.usage.input_tokens': request.promptTokens } : {}),
        ...(request.completionTokens !== undefined ? { 'gen_ai.usage.output_tokens': request.completionTokens } : {}),
        // Closed at a whole answer, the request has no server counts: mvnx's estimate, marked as one.
        ...(request.estimatedTokens
          ? {
              'gen_ai.usage.input_tokens': request.estimatedTokens.prompt,
              'gen_ai.usage.output_tokens': request.estimatedTokens.completion,
              'mvnx.usage.estimated': true,
            }
          : {}),
        ...(request.waitedMs
          ? { 'mvnx.model.waited_ms': request.waitedMs, 'mvnx.model.waits': request.waits?.length ?? 0 }
          : {}),
        ...(request.failedHosts?.length
          ? { 'mvnx.model.failed_hosts': request.failedHosts.map((failed) => failed.host).join(',') }
          : {}),
        ...(request.outcome === 'answered'
          ? {}
          : { 'error.type': request.outcome === 'unavailable' ? 'provider-unavailable' : 'model-call-failed' }),
      },
      ...(request.outcome === 'answered' ? {} : { error: request.outcome }),
    });
  }
  return spans;
}
