/**
 * The OpenTelemetry export of one failed build (issue 28): its trace (trace-plan.ts) and
 * its metrics, over OTLP/HTTP with protobuf, through the OpenTelemetry JS SDK. Loaded by
 * `import()` only when an endpoint is set (settings.ts): a build that is not exported
 * never loads the SDK. Bounded: the export gets `timeoutMs` and the caller stops waiting
 * then, so a dead collector delays the exit by about that at most and never changes the
 * exit code.
 */
import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { AlwaysOnSampler, BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { RunRecord } from '../run-record.js';
import type { TelemetryTarget } from './telemetry-settings.js';
import { planRunTrace, type PlannedSpan } from './trace-plan.js';

const SCOPE = 'mvnx';

export interface ExportResult {
  ok: boolean;
  /** The console line for a failed export. */
  message?: string;
  spans: number;
}

export async function exportRunTelemetry(
  record: RunRecord,
  target: TelemetryTarget,
  options: { env: NodeJS.ProcessEnv; version: string },
): Promise<ExportResult> {
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES are read by the env detector and win over the defaults.
  const detected = detectResources({ detectors: [envDetector] });
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: 'mvnx',
    [ATTR_SERVICE_VERSION]: options.version,
  }).merge(detected);
  const planned = planRunTrace(record, options.env);

  const traceExporter = new OTLPTraceExporter({ url: target.tracesUrl, timeoutMillis: target.timeoutMs });
  const tracerProvider = new TracerProvider({
    resource,
    sampler: new AlwaysOnSampler(),
    spanProcessors: [new BatchSpanProcessor({ exporter: traceExporter, exportTimeoutMillis: target.timeoutMs })],
  });
  emitSpans(tracerProvider.getTracer(SCOPE, options.version), planned);

  const metricExporter = new OTLPMetricExporter({ url: target.metricsUrl, timeoutMillis: target.timeoutMs });
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
    exportTimeoutMillis: target.timeoutMs,
  });
  const meterProvider = new MeterProvider({ resource, readers: [reader] });
  recordMetrics(meterProvider, record);

  const failures: string[] = [];
  const flush = (what: string, work: Promise<unknown>) =>
    work.catch((error: unknown) => failures.push(`${what}: ${(error as Error).message ?? String(error)}`));
  // The SDK reports failed exports through its diagnostics, not by rejecting forceFlush: read the exporters' own
  // results.
  const traceResult = watchExport(traceExporter);
  const metricResult = watchExport(metricExporter);
  // Shutting the meter provider down collects and exports once (a flush before it would send every point twice).
  await Promise.all([flush('traces', tracerProvider.forceFlush()), flush('metrics', meterProvider.shutdown())]);
  for (const [what, result] of [
    ['traces', traceResult()],
    ['metrics', metricResult()],
  ] as const)
    if (result) failures.push(`${what}: ${result}`);
  void tracerProvider.shutdown().catch(() => undefined);
  return failures.length === 0
    ? { ok: true, spans: planned.length }
    : { ok: false, spans: planned.length, message: failures.join('; ') };
}

/** Wraps an exporter's export to keep its last failure, which the SDK would only log. */
function watchExport(exporter: {
  export: (items: never, done: (result: { code: number; error?: Error }) => void) => void;
}): () => string | undefined {
  let failure: string | undefined;
  const original = exporter.export.bind(exporter);
  exporter.export = (items, done) =>
    original(items, (result) => {
      if (result.code !== 0) failure = result.error?.message ?? 'export failed';
      done(result);
    });
  return () => failure;
}

function emitSpans(tracer: ReturnType<TracerProvider['getTracer']>, planned: PlannedSpan[]): void {
  const started = new Map<string, Span>();
  for (const plan of planned) {
    const parent = plan.parent ? started.get(plan.parent) : undefined;
    const parentContext = parent ? trace.setSpan(context.active(), parent) : context.active();
    const span = tracer.startSpan(
      plan.name,
      {
        kind: plan.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL,
        startTime: plan.start,
        attributes: plan.attributes,
        root: !parent,
      },
      parentContext,
    );
    if (plan.error) span.setStatus({ code: SpanStatusCode.ERROR, message: plan.error });
    started.set(plan.id, span);
  }
  // Children end before their parents, so the exporter sees a whole tree in one batch.
  for (const plan of [...planned].reverse()) started.get(plan.id)?.end(plan.end);
}

/**
 * The fleet's numbers, one run at a time: runs and their outcomes, verified fixes and
 * the time to a verified fix, attempts by outcome, and per model call the GenAI
 * conventions' duration and token usage.
 */
function recordMetrics(provider: MeterProvider, record: RunRecord): void {
  const meter = provider.getMeter(SCOPE);
  const runAttributes = {
    'mvnx.status': record.status,
    'mvnx.stop_reason': record.stopReason,
    'mvnx.tier': record.tier,
    ...(record.repository ? { 'vcs.repository.name': record.repository } : {}),
  };
  meter
    .createCounter('mvnx.runs', { description: 'Failed builds mvnx looked at', unit: '{run}' })
    .add(1, runAttributes);
  const verified = record.stopReason === 'fixed';
  meter
    .createCounter('mvnx.fixes.verified', { description: 'Runs that ended with a verified fix', unit: '{fix}' })
    .add(verified ? 1 : 0, { 'mvnx.tier': record.tier });
  if (verified) {
    const seconds = (Date.parse(record.finishedAt) - Date.parse(record.startedAt)) / 1000;
    meter
      .createHistogram('mvnx.fix.duration', {
        description: "Time from the failed build's start to a verified fix",
        unit: 's',
      })
      .record(seconds, { 'mvnx.tier': record.tier });
  }
  const attempts = meter.createCounter('mvnx.attempts', {
    description: 'Repair attempts by outcome',
    unit: '{attempt}',
  });
  for (const attempt of record.attempts)
    attempts.add(1, { 'mvnx.attempt.outcome': attempt.outcome, 'mvnx.attempt.source': attempt.source });

  const duration = meter.createHistogram('gen_ai.client.operation.duration', {
    description: 'GenAI operation duration',
    unit: 's',
  });
  const tokens = meter.createHistogram('gen_ai.client.token.usage', {
    description: 'Measures number of input and output tokens used',
    unit: '{token}',
  });
  const provider_ = record.model?.provider ?? 'ollama';
  for (const request of record.modelRequests ?? []) {
    const attributes = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': provider_,
      'gen_ai.request.model': request.model,
      ...(request.outcome === 'answered'
        ? {}
        : { 'error.type': request.outcome === 'unavailable' ? 'provider-unavailable' : 'model-call-failed' }),
    };
    duration.record(request.durationMs / 1000, attributes);
    if (request.promptTokens !== undefined)
      tokens.record(request.promptTokens, { ...attributes, 'gen_ai.token.type': 'input' });
    if (request.completionTokens !== undefined)
      tokens.record(request.completionTokens, { ...attributes, 'gen_ai.token.type': 'output' });
    if (request.estimatedTokens) {
      const estimated = { ...attributes, 'mvnx.usage.estimated': true };
      tokens.record(request.estimatedTokens.prompt, { ...estimated, 'gen_ai.token.type': 'input' });
      tokens.record(request.estimatedTokens.completion, { ...estimated, 'gen_ai.token.type': 'output' });
    }
  }
}
