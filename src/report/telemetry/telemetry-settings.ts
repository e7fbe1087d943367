/**
 * Whether a failed build is exported to OpenTelemetry, read without loading any of it:
 * the standard OTEL_* variables (OTEL_EXPORTER_OTLP_ENDPOINT, or the traces/metrics ones,
 * and OTEL_SDK_DISABLED) win over config `telemetry.otlp`. With neither, the SDK is never
 * imported, so a build that mvnx does not export costs nothing.
 */

export interface TelemetryTarget {
  /** Full OTLP/HTTP URLs of the two signals. */
  tracesUrl: string;
  metricsUrl: string;
  timeoutMs: number;
  /** Where the endpoint came from, for the console line. */
  source: string;
}

const join = (base: string, signal: 'traces' | 'metrics') => `${base.replace(/\/+$/, '')}/v1/${signal}`;

export function telemetryTarget(
  env: NodeJS.ProcessEnv,
  config: { otlp?: string | undefined; timeoutMs: number },
): TelemetryTarget | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || undefined;
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || undefined;
  const metrics = env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT?.trim() || undefined;
  const fallback = base ?? config.otlp;
  if (!traces && !metrics && !fallback) return undefined;
  const source = base || traces || metrics ? 'OTEL_EXPORTER_OTLP_*' : 'telemetry.otlp';
  // A signal-specific variable is the full URL as given (the OTLP exporter specification says so).
  const tracesUrl = traces ?? join(fallback ?? metrics!.replace(/\/v1\/metrics\/?$/, ''), 'traces');
  const metricsUrl = metrics ?? join(fallback ?? traces!.replace(/\/v1\/traces\/?$/, ''), 'metrics');
  const envTimeout = Number(env.OTEL_EXPORTER_OTLP_TIMEOUT);
  // The standard timeout may only shorten mvnx's bound: the export never delays the exit by more.
  const timeoutMs =
    Number.isFinite(envTimeout) && envTimeout > 0 ? Math.min(envTimeout, config.timeoutMs) : config.timeoutMs;
  return { tracesUrl, metricsUrl, timeoutMs, source };
}
