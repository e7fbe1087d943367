/**
 * What the scripted model servers share (the Ollama-API server `mvnx bench` uses, and the
 * tests' OpenAI-compatible one): a real node:http server on 127.0.0.1 port 0 that records
 * every request and hands out scripted replies in order. A route may leave a request
 * unanswered; close() still ends at once.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: unknown;
}

/** One scripted answer; the plain string form streams `text` in the script's chunking. */
export interface ReplySpec {
  text: string;
  /** How many pieces the text is streamed in (default: the script's, else 4). */
  chunks?: number;
  /** Milliseconds between streamed pieces (default: the script's, else 0). */
  tokenDelayMs?: number;
  /**
   * Native tool calls, sent the way the server sends them when the request offered
   * `tools`; to a request without tools the same model writes them as JSON in its text.
   */
  toolCalls?: ScriptedToolCall[];
}

export interface ScriptedToolCall {
  name: string;
  /** An object, as the model meant it; `rawArguments` sends this text instead (a model's broken JSON). */
  arguments: Record<string, unknown>;
  rawArguments?: string;
}

/** Whether a chat request offered native tools. */
export function offersTools(request: RecordedRequest): boolean {
  const tools = (request.body as { tools?: unknown } | undefined)?.tools;
  return Array.isArray(tools) && tools.length > 0;
}

/** A reply's tool calls written into its text, as a model without native tool calling does. */
export function toolCallsAsText(reply: ReplySpec): string {
  const calls = (reply.toolCalls ?? []).map((call) => JSON.stringify({ tool: call.name, args: call.arguments }));
  return [reply.text, ...calls].filter((part) => part !== '').join('\n');
}

export type ScriptedReply<R extends ReplySpec = ReplySpec> = string | R | ((request: RecordedRequest) => string | R);

export interface MockHandle {
  url: string;
  requests: RecordedRequest[];
  /**
   * What went wrong in the server itself (a route that threw), and what a caller's script forbids that happened anyway.
   */
  failures: string[];
  close(): Promise<void>;
}

export type Route = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export async function startRecordingServer(route: Route): Promise<MockHandle> {
  const requests: RecordedRequest[] = [];
  const failures: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const parts: Buffer[] = [];
    incoming.on('data', (part: Buffer) => parts.push(part));
    incoming.on('end', () => {
      const rawBody = Buffer.concat(parts).toString('utf8');
      const recorded: RecordedRequest = {
        method: incoming.method ?? 'GET',
        path: (incoming.url ?? '/').split('?')[0] ?? '/',
        headers: incoming.headers,
        rawBody,
        body: parseJson(rawBody),
      };
      requests.push(recorded);
      Promise.resolve(route(recorded, response)).catch((error: unknown) => {
        failures.push(`mock route threw: ${String(error)}`);
        if (!response.headersSent) sendJson(response, 500, { error: String(error) });
        else response.destroy();
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failures,
    close: () =>
      new Promise<void>((resolve) => {
        // Hung requests keep their sockets open; close() would wait for them forever.
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export class ReplyQueue<R extends ReplySpec = ReplySpec> {
  private next = 0;
  constructor(private readonly replies: readonly ScriptedReply<R>[]) {}

  /**
   * The next reply for `request`, or undefined when the script has run out (a bare text is a reply with nothing else
   * set).
   */
  take(request: RecordedRequest): R | undefined {
    const reply = this.replies[this.next];
    if (reply === undefined) return undefined;
    this.next++;
    const value = typeof reply === 'function' ? reply(request) : reply;
    return typeof value === 'string' ? ({ text: value } as R) : value;
  }

  get used(): number {
    return this.next;
  }
}

/** Splits text into `count` pieces of similar size, keeping every character. */
export function splitIntoPieces(text: string, count: number): string[] {
  const n = Math.max(1, Math.min(count, text.length || 1));
  const size = Math.ceil(text.length / n);
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces.length > 0 ? pieces : [''];
}

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  response.end(body);
}

export function pause(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : new Promise((resolve) => setImmediate(resolve));
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
