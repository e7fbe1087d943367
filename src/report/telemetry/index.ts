/**
 * The telemetry door of a failed build: decides from the environment and the config
 * whether to export, and only then loads the OpenTelemetry SDK (export.ts) with
 * `import()`, as soon as the repair starts (`preloadTelemetry`: loading the SDK takes
 * 0.2-2 s on a busy CI machine, which the repair's own work hides). The export after the
 * record is written, and whatever loading is still left, is bounded by
 * `timeoutMs`: mvnx stops waiting then (bin.ts exits with the build's code, whatever is
 * still in flight), so it never delays the exit by much more and never changes the code.
 */
import type { RunRecord } from '../run-record.js';
import { telemetryTarget } from './telemetry-settings.js';

export { telemetryTarget, type TelemetryTarget } from './telemetry-settings.js';

type ExportModule = typeof import('./export.js');
let loading: Promise<ExportModule> | undefined;

/** Starts loading the SDK when this run will export; does nothing otherwise. */
export function preloadTelemetry(
  env: NodeJS.ProcessEnv,
  config: { otlp?: string | undefined; timeoutMs: number },
): void {
  if (telemetryTarget(env, config)) loading ??= import('./export.js');
  // A failure to load is reported by exportTelemetry; it must not surface as an unhandled rejection meanwhile.
  loading?.catch(() => undefined);
}

export async function exportTelemetry(
  record: RunRecord,
  input: {
    env: NodeJS.ProcessEnv;
    config: { otlp?: string | undefined; timeoutMs: number };
    version: string;
    say: (line: string) => void;
  },
): Promise<void> {
  const target = telemetryTarget(input.env, input.config);
  if (!target) return;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), target.timeoutMs);
    timer.unref();
  });
  loading ??= import('./export.js');
  const work = loading
    .then((module) => module.exportRunTelemetry(record, target, { env: input.env, version: input.version }))
    .catch((error: unknown) => ({ ok: false, spans: 0, message: (error as Error).message }));
  const result = await Promise.race([work, timedOut]);
  clearTimeout(timer);
  const where = target.tracesUrl.replace(/\/v1\/traces$/, '');
  if (result === 'timeout')
    input.say(
      `telemetry: the collector at ${where} did not take the export within ${target.timeoutMs} ms (${target.source}); the run is not exported`,
    );
  else if (!result.ok) input.say(`telemetry: could not export to ${where} (${target.source}): ${result.message}`);
}
