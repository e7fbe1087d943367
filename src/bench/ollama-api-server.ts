/**
 * A real HTTP server that speaks enough of the Ollama API for the real `ollama` client:
 * /api/version, /api/tags, /api/show, /api/chat (NDJSON stream or one JSON object) and a
 * minimal /api/generate. Replies come from a script, in order. `mvnx bench` serves its
 * scripted replies with it (scripted-ollama.ts); the tests use its failure injection.
 *
 *   const mock = await startOllamaMock({ replies: [fixture('missing-semicolon-wrong-counts')] });
 *   ... new OllamaProvider({ host: mock.url, ... }) ...
 *   expect(mock.failures).toEqual([]);
 *   await mock.close();
 *
 * The script object is read on every request, so a test may change it midway
 * (e.g. set `busy = true` after the health check).
 */
import type { ServerResponse } from 'node:http';
import {
  offersTools,
  pause,
  ReplyQueue,
  sendJson,
  splitIntoPieces,
  startRecordingServer,
  toolCallsAsText,
  type MockHandle,
  type RecordedRequest,
  type ScriptedReply,
} from './recording-server.js';

export { deadServerUrl, type RecordedRequest, type ReplySpec, type ScriptedReply, type ScriptedToolCall } from './recording-server.js';

export interface MockScript {
  /** Chat replies in order. When they run out the mock answers 500 and records a failure, unless `exhaustedReply` is set. */
  replies?: ScriptedReply[];
  /** What a model call gets once the replies have run out: the model has nothing more to say. */
  exhaustedReply?: string;
  /** Models the server has pulled (default: qwen2.5-coder:7b). */
  models?: string[];
  /** The model is not pulled: absent from /api/tags, 404 on /api/show and /api/chat. */
  modelMissing?: boolean;
  /** 503 on /api/chat and /api/generate, as Ollama does when its queue is full. */
  busy?: boolean;
  /** Accept requests and never answer: every endpoint, or only chat. */
  hang?: boolean | 'chat';
  /** Any /api/chat or /api/generate call is a failure (proves zero model calls). */
  failIfCalled?: boolean;
  /** Context length reported by /api/show (default 32768). */
  contextLength?: number;
  /**
   * Native tool calling (default true): /api/show lists `tools` among the capabilities.
   * false: it does not, and a chat request with `tools` gets HTTP 400, as Ollama answers
   * for a model whose template has no tool support.
   */
  tools?: boolean;
  /** /api/show without a `capabilities` field, as Ollama before 0.6.4 answers. */
  noCapabilities?: boolean;
  /** Default pieces per streamed reply (default 4) and delay between them. */
  chunks?: number;
  tokenDelayMs?: number;
  version?: string;
}

export interface OllamaMock extends MockHandle {
  script: MockScript;
  /** The recorded /api/chat requests only. */
  chatRequests(): RecordedRequest[];
  /** Model calls that got a completion (scripted or the exhausted reply). */
  answered(): number;
}

export const DEFAULT_MOCK_MODEL = 'qwen2.5-coder:7b';

export async function startOllamaMock(script: MockScript = {}): Promise<OllamaMock> {
  const queue = new ReplyQueue(script.replies ?? []);
  let answered = 0;
  // Routes run only after the server has started, so `handle` is set by then.
  const fail = (message: string) => handle.failures.push(message);

  const handle: MockHandle = await startRecordingServer(async (request, response) => {
    if (script.hang === true || (script.hang === 'chat' && isModelCall(request.path))) return;
    const route = `${request.method} ${request.path}`;
    switch (route) {
      case 'GET /api/version':
      case 'HEAD /api/version':
        return sendJson(response, 200, { version: script.version ?? '0.6.8' });
      case 'GET /api/tags':
        return sendJson(response, 200, { models: listedModels(script).map(describeModel) });
      case 'POST /api/show': {
        const model = modelOf(request);
        if (!hasModel(script, model)) return sendJson(response, 404, { error: `model '${model}' not found` });
        return sendJson(response, 200, showResponse(script));
      }
      case 'POST /api/chat':
      case 'POST /api/generate':
        return answerModelCall(request, response);
      default:
        return sendJson(response, 404, { error: `mock: no route for ${route}` });
    }
  });

  async function answerModelCall(request: RecordedRequest, response: ServerResponse): Promise<void> {
    if (script.failIfCalled) fail(`${request.path} was called although the script says failIfCalled`);
    const model = modelOf(request);
    if (!hasModel(script, model)) {
      return sendJson(response, 404, { error: `model "${model}" not found, try pulling it first` });
    }
    if (script.busy) return sendJson(response, 503, { error: 'server busy, please try again.  maximum pending requests exceeded' });
    if (script.tools === false && offersTools(request)) return sendJson(response, 400, { error: `registry.ollama.ai/library/${model} does not support tools` });
    const reply = queue.take(request) ?? (script.exhaustedReply === undefined ? undefined : { text: script.exhaustedReply });
    if (!reply) {
      fail(`${request.path} call ${queue.used + 1} has no scripted reply`);
      return sendJson(response, 500, { error: 'mock: no scripted reply left' });
    }
    if (reply.hang) return;
    if (reply.status !== undefined && reply.status !== 200) {
      return sendJson(response, reply.status, { error: reply.errorMessage ?? `mock error ${reply.status}` });
    }
    answered += 1;
    const body = request.body as { stream?: boolean } | undefined;
    // Ollama streams unless the request says stream: false.
    const streamed = body?.stream !== false;
    const shape = request.path === '/api/chat' ? chatPiece : generatePiece;
    const native = reply.toolCalls !== undefined && offersTools(request);
    const text = native || !reply.toolCalls ? reply.text : toolCallsAsText(reply);
    // Ollama sends tool calls whole, arguments as an object, in the message of one chunk.
    const calls = native ? { tool_calls: reply.toolCalls!.map((call) => ({ function: { name: call.name, arguments: call.rawArguments ?? call.arguments } })) } : undefined;
    if (!streamed) {
      if (reply.errorAfterChunks) return sendJson(response, 500, { error: reply.errorAfterChunks.message });
      const whole = shape(model, text) as { message?: object };
      if (calls && whole.message) whole.message = { ...whole.message, ...calls };
      return sendJson(response, 200, { ...whole, ...doneFields(request, text) });
    }
    response.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
    const pieces = splitIntoPieces(text, reply.chunks ?? script.chunks ?? 4);
    const delay = reply.tokenDelayMs ?? script.tokenDelayMs ?? 0;
    for (const [index, piece] of pieces.entries()) {
      if (reply.errorAfterChunks && index === reply.errorAfterChunks.after) {
        response.end(`${JSON.stringify({ error: reply.errorAfterChunks.message })}\n`);
        return;
      }
      if (response.destroyed) return;
      response.write(`${JSON.stringify({ ...shape(model, piece), done: false })}\n`);
      await pause(delay);
    }
    if (calls) response.write(`${JSON.stringify({ model, created_at: new Date().toISOString(), message: { role: 'assistant', content: '', ...calls }, done: false })}\n`);
    response.end(`${JSON.stringify({ ...shape(model, ''), ...doneFields(request, text) })}\n`);
  }

  return {
    ...handle,
    script,
    chatRequests: () => handle.requests.filter((request) => request.path === '/api/chat'),
    answered: () => answered,
  };
}

function isModelCall(path: string): boolean {
  return path === '/api/chat' || path === '/api/generate';
}

function listedModels(script: MockScript): string[] {
  return script.modelMissing ? [] : (script.models ?? [DEFAULT_MOCK_MODEL]);
}

function hasModel(script: MockScript, model: string): boolean {
  const bare = (name: string) => name.replace(/:latest$/, '');
  return listedModels(script).some((name) => bare(name) === bare(model));
}

function modelOf(request: RecordedRequest): string {
  const body = request.body as { model?: unknown; name?: unknown } | undefined;
  const model = body?.model ?? body?.name;
  return typeof model === 'string' ? model : '';
}

function describeModel(name: string) {
  return {
    name,
    model: name,
    modified_at: '2025-01-01T00:00:00Z',
    size: 4_683_087_332,
    digest: 'dae161e27b0e',
    details: { parent_model: '', format: 'gguf', family: 'qwen2', families: ['qwen2'], parameter_size: '7.6B', quantization_level: 'Q4_K_M' },
  };
}

function showResponse(script: MockScript) {
  return {
    modelfile: '# mock',
    parameters: '',
    template: '{{ .Prompt }}',
    details: describeModel(DEFAULT_MOCK_MODEL).details,
    model_info: { 'general.architecture': 'qwen2', 'qwen2.context_length': script.contextLength ?? 32768 },
    ...(script.noCapabilities ? {} : { capabilities: script.tools === false ? ['completion', 'insert'] : ['completion', 'tools', 'insert'] }),
  };
}

function chatPiece(model: string, content: string) {
  return { model, created_at: new Date().toISOString(), message: { role: 'assistant', content } };
}

function generatePiece(model: string, response: string) {
  return { model, created_at: new Date().toISOString(), response };
}

function doneFields(request: RecordedRequest, text: string) {
  return {
    done: true,
    done_reason: 'stop',
    total_duration: 1_000_000,
    load_duration: 1000,
    prompt_eval_count: Math.ceil(request.rawBody.length / 4),
    prompt_eval_duration: 1000,
    eval_count: Math.max(1, Math.ceil(text.length / 4)),
    eval_duration: 1000,
  };
}

