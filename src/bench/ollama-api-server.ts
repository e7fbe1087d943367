/**
 * A real HTTP server that speaks enough of the Ollama API for the real `ollama` client:
 * /api/version, /api/tags, /api/show, /api/chat (NDJSON stream or one JSON object) and a
 * minimal /api/generate. It answers as a healthy Ollama does, with the replies `reply`
 * hands it. `mvnx bench` serves its scripted replies with it (scripted-ollama.ts).
 *
 * What it reports (models, context length, tool support, chunking) is read from the
 * options on every request, so a caller may change it midway. A server in trouble (a full
 * queue, a hang, a stream that breaks off) is the tests' business, not the shipped
 * code's: test/helpers/ollama-mock.ts puts those in front of this server through `intercept`.
 */
import type { ServerResponse } from 'node:http';
import {
  offersTools,
  pause,
  sendJson,
  splitIntoPieces,
  startRecordingServer,
  toolCallsAsText,
  type MockHandle,
  type RecordedRequest,
  type ReplySpec,
} from './recording-server.js';
import { renderPromptAsModelReadsIt, totalSeconds, type CallCharge, type PromptCacheCost } from './model-cost.js';

export {
  ReplyQueue,
  type RecordedRequest,
  type ReplySpec,
  type ScriptedReply,
  type ScriptedToolCall,
} from './recording-server.js';

/** What the server reports and how it streams; read on every request, so a caller may change it midway. */
export interface OllamaApiSettings {
  /** Models the server has pulled (default: qwen2.5-coder:7b). */
  models?: string[] | undefined;
  /** Context length reported by /api/show (default 32768). */
  contextLength?: number | undefined;
  /**
   * The model has native tool calling (default true): /api/show lists `tools` among its
   * capabilities. false: it does not, and a chat request that offers tools gets HTTP 400,
   * as Ollama answers for a model whose template has no tool support.
   */
  tools?: boolean | undefined;
  /** /api/show without a `capabilities` field, as Ollama before 0.6.4 answers. */
  noCapabilities?: boolean | undefined;
  /** Default pieces per streamed reply (default 4) and delay between them. */
  chunks?: number | undefined;
  tokenDelayMs?: number | undefined;
  version?: string | undefined;
  /**
   * Charge each call the way llama.cpp's prompt cache does (model-cost.ts): the response
   * fields report the charge, and the server waits `rates.scale` times it. Without it every
   * call reports a nominal microsecond and the whole prompt as evaluated.
   */
  cost?: PromptCacheCost | undefined;
}

export interface OllamaApiHandlers {
  /** The reply to a model call; undefined when there is none (then HTTP 500). */
  reply(request: RecordedRequest): ReplySpec | undefined;
  /** Runs before the API's routes: true when it has dealt with the request (answered it, or chosen never to). */
  intercept?(request: RecordedRequest, response: ServerResponse): boolean | Promise<boolean>;
}

export interface OllamaApiServer extends MockHandle {
  /** The recorded /api/chat requests that ask the model something (not those that only load it). */
  chatRequests(): RecordedRequest[];
  /** Model calls that got a completion. */
  answered(): number;
}

export const DEFAULT_MOCK_MODEL = 'qwen2.5-coder:7b';

export async function startOllamaApiServer(
  settings: OllamaApiSettings,
  handlers: OllamaApiHandlers,
): Promise<OllamaApiServer> {
  let answered = 0;
  const models = () => settings.models ?? [DEFAULT_MOCK_MODEL];

  const handle = await startRecordingServer(async (request, response) => {
    if (handlers.intercept && (await handlers.intercept(request, response))) return;
    const route = `${request.method} ${request.path}`;
    switch (route) {
      case 'GET /api/version':
      case 'HEAD /api/version':
        return sendJson(response, 200, { version: settings.version ?? '0.6.8' });
      case 'GET /api/tags':
        return sendJson(response, 200, { models: models().map(describeModel) });
      case 'POST /api/show': {
        const model = modelOf(request);
        if (!hasModel(models(), model)) return sendJson(response, 404, { error: `model '${model}' not found` });
        return sendJson(response, 200, showResponse(settings));
      }
      case 'POST /api/chat':
      case 'POST /api/generate':
        return answerModelCall(request, response);
      default:
        return sendJson(response, 404, { error: `no route for ${route}` });
    }
  });

  async function answerModelCall(request: RecordedRequest, response: ServerResponse): Promise<void> {
    const model = modelOf(request);
    if (!hasModel(models(), model))
      return sendJson(response, 404, { error: `model "${model}" not found, try pulling it first` });
    if (settings.tools === false && offersTools(request)) {
      return sendJson(response, 400, { error: `registry.ollama.ai/library/${model} does not support tools` });
    }
    const body = request.body as { stream?: boolean } | undefined;
    // Nothing to read (Ollama's way to load a model ahead): loaded, no reply used.
    if (isLoadRequest(request)) {
      const charge = settings.cost?.load(model, windowOf(request));
      if (charge) await pause(totalSeconds(charge) * settings.cost!.rates.scale * 1000);
      return sendJson(response, 200, {
        ...modelPiece(request, model, ''),
        done: true,
        done_reason: 'load',
        ...(charge ? { load_duration: nanos(charge.loadSeconds), total_duration: nanos(totalSeconds(charge)) } : {}),
      });
    }
    const reply = handlers.reply(request);
    if (!reply) return sendJson(response, 500, { error: 'no scripted reply left' });
    answered += 1;
    const native = reply.toolCalls !== undefined && offersTools(request);
    const text = native || !reply.toolCalls ? reply.text : toolCallsAsText(reply);
    // Ollama sends tool calls whole, arguments as an object, in the message of one chunk.
    const calls = native
      ? {
          tool_calls: reply.toolCalls!.map((call) => ({
            function: { name: call.name, arguments: call.rawArguments ?? call.arguments },
          })),
        }
      : undefined;
    const written = calls ? `${text}${calls.tool_calls.map((call) => JSON.stringify(call.function)).join('')}` : text;
    const charge = settings.cost?.charge(model, renderPromptAsModelReadsIt(request.body), written, windowOf(request));
    const scale = (settings.cost?.rates.scale ?? 0) * 1000;
    if (charge) await pause((charge.loadSeconds + charge.promptSeconds) * scale);
    const done = doneFields(request, text, charge);
    // Ollama streams unless the request says stream: false.
    if (body?.stream === false) {
      if (charge) await pause(charge.outputSeconds * scale);
      const whole = modelPiece(request, model, text) as { message?: object };
      if (calls && whole.message) whole.message = { ...whole.message, ...calls };
      return sendJson(response, 200, { ...whole, ...done });
    }
    response.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
    // Charged as a model writes: a line at a time, and a client that closes the stream stops the writing (Ollama
    // cancels the generation), so only what was written is charged.
    const pieces = charge ? splitIntoLines(text) : splitIntoPieces(text, reply.chunks ?? settings.chunks ?? 4);
    const delay = charge
      ? Math.max((charge.outputSeconds * scale) / pieces.length, CLIENT_REACTION_MS)
      : (reply.tokenDelayMs ?? settings.tokenDelayMs ?? 0);
    let streamed = '';
    let clientGone = false;
    response.on('close', () => {
      clientGone = true;
    });
    for (const piece of pieces) {
      if (response.destroyed || clientGone) {
        if (charge) settings.cost!.cutShort(charge, streamed);
        return;
      }
      response.write(`${JSON.stringify({ ...modelPiece(request, model, piece), done: false })}\n`);
      streamed += piece;
      await pause(delay);
    }
    if (calls)
      response.write(
        `${JSON.stringify({ model, created_at: new Date().toISOString(), message: { role: 'assistant', content: '', ...calls }, done: false })}\n`,
      );
    response.end(`${JSON.stringify({ ...modelPiece(request, model, ''), ...done })}\n`);
  }

  return {
    ...handle,
    chatRequests: () => handle.requests.filter((request) => request.path === '/api/chat' && !isLoadRequest(request)),
    answered: () => answered,
  };
}

/**
 * Real milliseconds between streamed lines under a cost model, so a client that closes the stream once the answer is
 * whole is heard before the next line is written (and charged), even on a busy machine; a modelled line of ~10 tokens
 * takes over a second at the rates measured.
 */
const CLIENT_REACTION_MS = 100;

/** The text as lines, each with its line break: how the cost model streams a reply. */
function splitIntoLines(text: string): string[] {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  return lines.length > 0 ? lines : [''];
}

/** A model call with nothing to read: an empty `messages` (or no `prompt`), sent to load the model. */
export function isLoadRequest(request: RecordedRequest): boolean {
  const body = request.body as { messages?: unknown; prompt?: unknown } | undefined;
  if (request.path === '/api/chat') return Array.isArray(body?.messages) && body.messages.length === 0;
  return request.path === '/api/generate' && (body?.prompt === undefined || body.prompt === '');
}

export function isModelCall(path: string): boolean {
  return path === '/api/chat' || path === '/api/generate';
}

/** Whether `model` is among the pulled ones (`name` and `name:latest` are one model). */
export function hasModel(models: readonly string[], model: string): boolean {
  const bare = (name: string) => name.replace(/:latest$/, '');
  return models.some((name) => bare(name) === bare(model));
}

export function modelOf(request: RecordedRequest): string {
  const body = request.body as { model?: unknown; name?: unknown } | undefined;
  const model = body?.model ?? body?.name;
  return typeof model === 'string' ? model : '';
}

/** One streamed piece of a chat (`message.content`) or generate (`response`) answer. */
export function modelPiece(request: RecordedRequest, model: string, text: string): object {
  const created_at = new Date().toISOString();
  return request.path === '/api/chat'
    ? { model, created_at, message: { role: 'assistant', content: text } }
    : { model, created_at, response: text };
}

function describeModel(name: string) {
  return {
    name,
    model: name,
    modified_at: '2025-01-01T00:00:00Z',
    size: 4_683_087_332,
    digest: 'dae161e27b0e',
    details: {
      parent_model: '',
      format: 'gguf',
      family: 'qwen2',
      families: ['qwen2'],
      parameter_size: '7.6B',
      quantization_level: 'Q4_K_M',
    },
  };
}

function showResponse(settings: OllamaApiSettings) {
  return {
    modelfile: '# scripted',
    parameters: '',
    template: '{{ .Prompt }}',
    details: describeModel(DEFAULT_MOCK_MODEL).details,
    model_info: { 'general.architecture': 'qwen2', 'qwen2.context_length': settings.contextLength ?? 32768 },
    ...(settings.noCapabilities
      ? {}
      : { capabilities: settings.tools === false ? ['completion', 'insert'] : ['completion', 'tools', 'insert'] }),
  };
}

/** The request's `options.num_ctx`, if it names one. */
function windowOf(request: RecordedRequest): number | undefined {
  const window = (request.body as { options?: { num_ctx?: unknown } } | undefined)?.options?.num_ctx;
  return typeof window === 'number' ? window : undefined;
}

const nanos = (seconds: number) => Math.round(seconds * 1e9);

/** Ollama's closing fields; with a cost model, its charge (`prompt_eval_count` counts only evaluated tokens). */
function doneFields(request: RecordedRequest, text: string, charge?: CallCharge) {
  if (charge)
    return {
      done: true,
      done_reason: 'stop',
      total_duration: nanos(totalSeconds(charge)),
      load_duration: nanos(charge.loadSeconds),
      prompt_eval_count: charge.evaluatedTokens,
      prompt_eval_duration: nanos(charge.promptSeconds),
      eval_count: charge.outputTokens,
      eval_duration: nanos(charge.outputSeconds),
    };
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
