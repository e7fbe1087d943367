/**
 * An Ollama-compatible HTTP server whose chat answers come from a script, so that the
 * benchmark measures mvnx (extraction, validation, verification, stop rules) on the same
 * model replies every time. It speaks the parts of the API mvnx uses.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedOllamaOptions {
  /** Default qwen2.5-coder:7b. */
  model?: string;
  /** Reported by /api/show as `<family>.context_length`. Default 32768. */
  contextLength?: number;
  /** What /api/chat answers once the script has run out: the model has nothing more to say. */
  exhaustedReply?: string;
  /** Pieces a streamed reply is cut into (default 8), as a real model streams tokens. */
  streamPieces?: number;
}

export interface ScriptedOllama {
  url: string;
  /** /api/chat requests served so far. */
  calls(): number;
  /** The chat requests' bodies, for checking what mvnx sent. */
  requests(): unknown[];
  close(): Promise<void>;
}

export const SCRIPTED_MODEL = 'qwen2.5-coder:7b';
export const DEFAULT_EXHAUSTED_REPLY = 'I could not find another way to fix this build from the information given.';

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Cut at whitespace so that pieces look like tokens and reassemble exactly. */
export function splitIntoPieces(text: string, pieces: number): string[] {
  if (pieces <= 1 || text.length === 0) return [text];
  const size = Math.ceil(text.length / pieces);
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    const space = text.indexOf(' ', end);
    if (end < text.length && space !== -1 && space - end < 16) end = space + 1;
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts;
}

function sameModel(requested: unknown, served: string): boolean {
  if (typeof requested !== 'string') return false;
  const withTag = (name: string) => (name.includes(':') ? name : `${name}:latest`);
  return withTag(requested) === withTag(served);
}

export async function startScriptedOllama(replies: string[], options: ScriptedOllamaOptions = {}): Promise<ScriptedOllama> {
  const model = options.model ?? SCRIPTED_MODEL;
  const contextLength = options.contextLength ?? 32768;
  const exhaustedReply = options.exhaustedReply ?? DEFAULT_EXHAUSTED_REPLY;
  const streamPieces = options.streamPieces ?? 8;
  const script = [...replies];
  const chatBodies: unknown[] = [];
  const modifiedAt = new Date().toISOString();
  const details = { format: 'gguf', family: 'qwen2', families: ['qwen2'], parameter_size: '7.6B', quantization_level: 'Q4_K_M' };

  const chat = (response: ServerResponse, body: Record<string, unknown>): void => {
    if (!sameModel(body.model, model)) {
      sendJson(response, 404, { error: `model "${String(body.model)}" not found, try pulling it first` });
      return;
    }
    chatBodies.push(body);
    const content = script.shift() ?? exhaustedReply;
    const created_at = new Date().toISOString();
    const final = {
      model,
      created_at,
      message: { role: 'assistant', content: '' },
      done: true,
      done_reason: 'stop',
      total_duration: 1_000_000,
      prompt_eval_count: 900,
      eval_count: Math.ceil(content.length / 4),
    };
    if (body.stream === false) {
      sendJson(response, 200, { ...final, message: { role: 'assistant', content } });
      return;
    }
    response.writeHead(200, { 'content-type': 'application/x-ndjson' });
    for (const piece of splitIntoPieces(content, streamPieces)) {
      response.write(`${JSON.stringify({ model, created_at, message: { role: 'assistant', content: piece }, done: false })}\n`);
    }
    response.end(`${JSON.stringify(final)}\n`);
  };

  const route = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const text = request.method === 'POST' ? await readBody(request) : '';
    let body: Record<string, unknown> = {};
    if (text) {
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        sendJson(response, 400, { error: 'invalid JSON body' });
        return;
      }
    }
    switch (`${request.method} ${url.pathname}`) {
      case 'GET /api/version':
        sendJson(response, 200, { version: '0.6.4-scripted' });
        return;
      case 'GET /api/tags':
        sendJson(response, 200, { models: [{ name: model, model, modified_at: modifiedAt, size: 4_683_087_332, digest: 'scripted', details }] });
        return;
      case 'POST /api/show':
        if (!sameModel(body.model ?? body.name, model)) {
          sendJson(response, 404, { error: `model '${String(body.model ?? body.name)}' not found` });
          return;
        }
        sendJson(response, 200, {
          modelfile: `FROM ${model}`,
          parameters: '',
          template: '{{ .Prompt }}',
          details,
          model_info: { 'general.architecture': 'qwen2', 'qwen2.context_length': contextLength },
          capabilities: ['completion', 'tools', 'insert'],
          modified_at: modifiedAt,
        });
        return;
      case 'POST /api/chat':
        chat(response, body);
        return;
      default:
        sendJson(response, 404, { error: `scripted Ollama does not serve ${request.method} ${url.pathname}` });
    }
  };

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: String(error) });
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls: () => chatBodies.length,
    requests: () => [...chatBodies],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
