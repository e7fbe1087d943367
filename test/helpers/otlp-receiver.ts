/**
 * A loopback OTLP/HTTP receiver that decodes what it gets with the official OTLP protobuf
 * definitions (test/fixtures/otlp-proto, opentelemetry-proto) through protobufjs, as a
 * collector would: traces at /v1/traces, metrics at /v1/metrics. `hang` accepts and never
 * answers, as a dead collector behind a load balancer does.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const PROTO_DIR = fileURLToPath(new URL('../fixtures/otlp-proto/', import.meta.url));

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startMs: number;
  endMs: number;
  status?: { code?: number; message?: string };
  attributes: Record<string, unknown>;
}

export interface ReceivedPoint {
  metric: string;
  unit: string;
  attributes: Record<string, unknown>;
  /** Sum/gauge value, or histogram count and sum. */
  value?: number;
  count?: number;
  sum?: number;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  points: ReceivedPoint[];
  resources: Record<string, unknown>[];
  /** Requests by path, with their content types. */
  requests: { path: string; contentType: string }[];
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; boolValue?: boolean; intValue?: string | number; doubleValue?: number };
const valueOf = (value: AnyValue | undefined): unknown =>
  value?.stringValue ??
  value?.boolValue ??
  (value?.intValue !== undefined ? Number(value.intValue) : value?.doubleValue);
const attributesOf = (list: { key: string; value?: AnyValue }[] | undefined) =>
  Object.fromEntries((list ?? []).map((entry) => [entry.key, valueOf(entry.value)]));
const hex = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('hex');
const ms = (nanos: string | number | undefined) => Number(BigInt(nanos ?? 0) / 1_000_000n);

export async function startOtlpReceiver(options: { hang?: boolean } = {}): Promise<OtlpReceiver> {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => path.join(PROTO_DIR, target);
  await root.load(
    [
      'opentelemetry/proto/collector/trace/v1/trace_service.proto',
      'opentelemetry/proto/collector/metrics/v1/metrics_service.proto',
    ],
    { keepCase: false },
  );
  const traceRequest = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
  const metricsRequest = root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest');
  const toObject = { longs: String, enums: Number, defaults: false, arrays: true };

  const received: OtlpReceiver = {
    url: '',
    spans: [],
    points: [],
    resources: [],
    requests: [],
    close: async () => undefined,
  };
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      received.requests.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '' });
      if (options.hang) return;
      if (req.url === '/v1/traces') {
        const decoded = traceRequest.toObject(traceRequest.decode(body), toObject) as {
          resourceSpans?: { resource?: { attributes?: [] }; scopeSpans?: { spans?: unknown[] }[] }[];
        };
        for (const resourceSpans of decoded.resourceSpans ?? []) {
          received.resources.push(attributesOf(resourceSpans.resource?.attributes));
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              const s = span as {
                traceId?: Uint8Array;
                spanId?: Uint8Array;
                parentSpanId?: Uint8Array;
                name: string;
                kind?: number;
                startTimeUnixNano?: string;
                endTimeUnixNano?: string;
                status?: { code?: number; message?: string };
                attributes?: [];
              };
              received.spans.push({
                traceId: hex(s.traceId),
                spanId: hex(s.spanId),
                parentSpanId: hex(s.parentSpanId),
                name: s.name,
                kind: s.kind ?? 0,
                startMs: ms(s.startTimeUnixNano),
                endMs: ms(s.endTimeUnixNano),
                ...(s.status ? { status: s.status } : {}),
                attributes: attributesOf(s.attributes),
              });
            }
          }
        }
      } else if (req.url === '/v1/metrics') {
        const decoded = metricsRequest.toObject(metricsRequest.decode(body), toObject) as {
          resourceMetrics?: { scopeMetrics?: { metrics?: unknown[] }[] }[];
        };
        for (const resourceMetrics of decoded.resourceMetrics ?? [])
          for (const scope of resourceMetrics.scopeMetrics ?? [])
            for (const metric of scope.metrics ?? []) {
              const m = metric as {
                name: string;
                unit?: string;
                sum?: { dataPoints?: [] };
                gauge?: { dataPoints?: [] };
                histogram?: { dataPoints?: [] };
              };
              type Point = { attributes?: []; asInt?: string; asDouble?: number; count?: string; sum?: number };
              for (const point of (m.sum?.dataPoints ?? m.gauge?.dataPoints ?? []) as Point[]) {
                received.points.push({
                  metric: m.name,
                  unit: m.unit ?? '',
                  attributes: attributesOf(point.attributes),
                  value: point.asDouble ?? Number(point.asInt ?? 0),
                });
              }
              for (const point of (m.histogram?.dataPoints ?? []) as Point[]) {
                received.points.push({
                  metric: m.name,
                  unit: m.unit ?? '',
                  attributes: attributesOf(point.attributes),
                  count: Number(point.count ?? 0),
                  ...(point.sum !== undefined ? { sum: point.sum } : {}),
                });
              }
            }
      }
      res.writeHead(200, { 'Content-Type': 'application/x-protobuf' });
      res.end();
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  received.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  received.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return received;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
