/**
 * A real HTTP proxy in front of a test model server, with the faults of a company's
 * network between mvnx and its model servers: a buffering gateway (the whole answer in
 * one piece, as nginx with proxy_buffering or a corporate proxy delivers a stream), a
 * service that answers 429/503 with Retry-After before it serves, and a server that dies
 * mid-answer (the connection is cut after some bytes of the body). It counts the client
 * connections, so keep-alive can be seen.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FaultScript {
  /** Deliver each answer whole, in one write, after the upstream finished. */
  buffer?: boolean;
  /** The first N model calls get this status (with Retry-After when given) instead of an answer. */
  busyFirst?: number;
  /** Every Nth model call (the 1st, N+1st, ...) gets the busy answer: a server whose queue fills now and then. */
  busyEvery?: number;
  busyStatus?: number;
  retryAfter?: string;
  /** Model calls whose answer is cut after this many body bytes (the socket destroyed). */
  cutAfterBytes?: number;
}

export interface FaultProxy {
  url: string;
  script: FaultScript;
  /** Client connections accepted, and model calls seen (busy answers included). */
  connections(): number;
  modelCalls(): number;
  close(): Promise<void>;
}

const isModelCall = (url: string | undefined) => /^\/(api\/chat|api\/generate|v1\/chat\/completions)/.test(url ?? '');

export async function startFaultProxy(upstream: string, script: FaultScript = {}): Promise<FaultProxy> {
  const target = new URL(upstream);
  let connections = 0;
  let modelCalls = 0;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => void handle(req, res));
  server.on('connection', (socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (isModelCall(req.url)) {
      modelCalls += 1;
      const every = script.busyEvery;
      if (modelCalls <= (script.busyFirst ?? 0) || (every !== undefined && (modelCalls - 1) % every === 0)) {
        const status = script.busyStatus ?? 503;
        res.writeHead(status, {
          'Content-Type': 'application/json',
          ...(script.retryAfter !== undefined ? { 'Retry-After': script.retryAfter } : {}),
        });
        res.end(JSON.stringify({ error: 'server busy, please try again.  maximum pending requests exceeded' }));
        return;
      }
    }
    const upstreamReq = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (upstreamRes) => {
        const headers = { ...upstreamRes.headers };
        if (script.buffer) {
          const parts: Buffer[] = [];
          upstreamRes.on('data', (part: Buffer) => parts.push(part));
          upstreamRes.on('end', () => {
            const whole = Buffer.concat(parts);
            delete headers['transfer-encoding'];
            res.writeHead(upstreamRes.statusCode ?? 502, { ...headers, 'content-length': String(whole.length) });
            res.end(whole);
          });
          return;
        }
        res.writeHead(upstreamRes.statusCode ?? 502, headers);
        let sent = 0;
        const cut = isModelCall(req.url) ? script.cutAfterBytes : undefined;
        upstreamRes.on('data', (part: Buffer) => {
          if (cut !== undefined && sent + part.length >= cut) {
            res.write(part.subarray(0, Math.max(0, cut - sent)));
            // The server died: no end of the chunked body, the connection just goes.
            setTimeout(() => res.socket?.destroy(), 20);
            upstreamRes.destroy();
            return;
          }
          sent += part.length;
          res.write(part);
        });
        upstreamRes.on('end', () => res.end());
      },
    );
    upstreamReq.on('error', () => res.destroy());
    upstreamReq.end(body);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    script,
    connections: () => connections,
    modelCalls: () => modelCalls,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
