/**
 * The tests' Ollama: the shipped Ollama-API server (src/bench/ollama-api-server.ts, the one
 * `mvnx bench` uses) with a script of replies and, in front of it, the faults a test needs:
 * a full queue, a hang, a model that is not pulled or has no tool support, a stream that
 * breaks off, a call that must not happen.
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
  DEFAULT_MOCK_MODEL,
  hasModel,
  isLoadRequest,
  isModelCall,
  modelOf,
  modelPiece,
  ReplyQueue,
  startOllamaApiServer,
  type OllamaApiServer,
  type OllamaApiSettings,
  type RecordedRequest,
  type ReplySpec,
} from '../../src/bench/ollama-api-server.js';
import { offersTools, pause, sendJson, splitIntoPieces } from '../../src/bench/recording-server.js';
import { isFault, type MockReplySpec, type MockScriptedReply } from './mock-server.js';

export { deadServerUrl, type MockReplySpec } from './mock-server.js';
export { DEFAULT_MOCK_MODEL, type RecordedRequest, type ScriptedToolCall } from '../../src/bench/ollama-api-server.js';
export type ScriptedReply = MockScriptedReply;

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

export interface OllamaMock extends OllamaApiServer {
  script: MockScript;
}

export async function startOllamaMock(script: MockScript = {}): Promise<OllamaMock> {
  const queue = new ReplyQueue<MockReplySpec>(script.replies ?? []);
  // The reply the fault layer took for a request, handed to the server's own answer.
  const taken = new WeakMap<RecordedRequest, ReplySpec>();
  let brokenStreams = 0;
  const models = () => (script.modelMissing ? [] : (script.models ?? [DEFAULT_MOCK_MODEL]));
  const fail = (message: string) => server.failures.push(message);

  // The server reads its settings on every request: the script's own, live, but for the models a missing model hides.
  const settings = new Proxy(script, {
    get: (target, key) => (key === 'models' ? models() : target[key as keyof MockScript]),
  }) as OllamaApiSettings;
  const server = await startOllamaApiServer(settings, {
    reply: (request) => taken.get(request),
    intercept: async (request, response) => {
      if (script.hang === true || (script.hang === 'chat' && isModelCall(request.path))) return true;
      if (!isModelCall(request.path)) return false;
      // Loading the model ahead reads nothing and takes no scripted reply: the server answers it.
      if (isLoadRequest(request) && !script.busy) return false;
      if (script.failIfCalled) fail(`${request.path} was called although the script says failIfCalled`);
      // Not pulled, or tools offered to a model without them: the server's own refusal.
      if (!hasModel(models(), modelOf(request))) return false;
      if (script.busy) {
        sendJson(response, 503, { error: 'server busy, please try again.  maximum pending requests exceeded' });
        return true;
      }
      if (script.tools === false && offersTools(request)) return false;
      const reply =
        queue.take(request) ?? (script.exhaustedReply === undefined ? undefined : { text: script.exhaustedReply });
      if (!reply) {
        fail(`${request.path} call ${queue.used + 1} has no scripted reply`);
        return false;
      }
      if (!isFault(reply)) {
        taken.set(request, reply);
        return false;
      }
      await answerWithFault(request, response, reply);
      return true;
    },
  });

  async function answerWithFault(
    request: RecordedRequest,
    response: ServerResponse,
    reply: MockReplySpec,
  ): Promise<void> {
    if (reply.hang) return;
    if (reply.status !== undefined && reply.status !== 200) {
      sendJson(response, reply.status, { error: reply.errorMessage ?? `mock error ${reply.status}` });
      return;
    }
    const broken = reply.errorAfterChunks!;
    brokenStreams += 1;
    if ((request.body as { stream?: boolean } | undefined)?.stream === false) {
      sendJson(response, 500, { error: broken.message });
      return;
    }
    // A stream that breaks off: some pieces, then an error line, still HTTP 200.
    response.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
    const pieces = splitIntoPieces(reply.text, reply.chunks ?? script.chunks ?? 4);
    for (const piece of pieces.slice(0, broken.after)) {
      response.write(`${JSON.stringify({ ...modelPiece(request, modelOf(request), piece), done: false })}\n`);
      await pause(reply.tokenDelayMs ?? script.tokenDelayMs ?? 0);
    }
    response.end(`${JSON.stringify({ error: broken.message })}\n`);
  }

  return { ...server, script, answered: () => server.answered() + brokenStreams };
}
