/**
 * Config fields for running mvnx across a company's fleet (issue 28), kept out of
 * schema.ts (which is full): the model server list and its cool-down, and the
 * OpenTelemetry export. schema.ts spreads `fleetModelFields` into `model` and takes
 * `telemetrySchema` as `telemetry`.
 */
import { z } from 'zod';

const DEFAULT_MODEL_HOST = 'http://127.0.0.1:11434';

/** A list in YAML/JSON; commas in the flag and the variables. Kept as one comma-joined text. */
const hostList = z
  .union([
    z.string().min(1),
    z
      .array(z.string().min(1).describe('One model server URL.'))
      .min(1)
      .transform((hosts) => hosts.join(',')),
  ])
  .describe(
    `Model server URL, or several (a list, or separated by commas): each request goes to the first that is not cooling down, and a host that refused or failed is skipped for model.coolDownSeconds (failover, not load balancing; put a gateway in front for that). Precedence: --mvnx-host, MVNX_HOST, this field, OLLAMA_HOST, ${DEFAULT_MODEL_HOST}.`,
  );

export const fleetModelFields = {
  host: hostList.optional(),
  coolDownSeconds: z
    .number()
    .int()
    .positive()
    .default(60)
    .describe(
      'Seconds a model host that refused a connection, dropped a request or said it is busy is skipped before it is asked again.',
    ),
};

export const telemetrySchema = z
  .strictObject({
    otlp: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe(
        'OTLP/HTTP endpoint (e.g. http://otel-collector:4318) that gets one trace and the metrics of every failed build mvnx looks at. OTEL_EXPORTER_OTLP_ENDPOINT (and the other OTEL_* variables) do the same and win.',
      ),
    timeoutMs: z
      .number()
      .int()
      .positive()
      .max(5000)
      .default(1000)
      .describe(
        "Longest the export may delay mvnx's exit; a collector that does not answer by then is one console line.",
      ),
  })
  .describe('OpenTelemetry export of failed builds: traces and metrics over OTLP/HTTP (protobuf).');

export type TelemetryConfig = z.output<typeof telemetrySchema>;
