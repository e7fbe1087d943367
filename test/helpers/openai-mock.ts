/**
 * A real HTTP server speaking the OpenAI-compatible chat API as llama.cpp server, vLLM
 * and LM Studio do: GET /v1/models and POST /v1/chat/completions (SSE stream, or one
 * JSON object when stream is false). Replies come from a script, in order.
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
} from '../../src/bench/recording-server.js';
import type { MockReplySpec, MockScriptedReply } from './mock-server.js';

export interface OpenAiMockScript {
  replies?: MockScriptedReply[];
  /** Model ids listed by /v1/models (default: qwen2.5-coder-7b-instruct). */
  models?: string[];
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
  /** 503 on chat, as llama.cpp does while the model is loading. */
  busy?: boolean;
  hang?: boolean | 'chat';
  failIfCalled?: boolean;
  chunks?: number;
  tokenDelayMs?: number;
  /** Send `: ping` comment lines between events, as llama.cpp's keep-alive does. */
  keepAliveComments?: boolean;
  /** Use CRLF line ends in the event stream. */
  crlf?: boolean;
  /** false: a request with `tools` gets HTTP 400, as llama.cpp answers without --jinja. Default true. */
  tools?: boolean;
}

export interface OpenAiMock extends MockHandle {
  script: OpenAiMockScript;
  chatRequests(): RecordedRequest[];
}

export const DEFAULT_OPENAI_MOCK_MODEL = 'qwen2.5-coder-7b-instruct';

export async function startOpenAiMock(script: OpenAiMockScript = {}): Promise<OpenAiMock> {
  const queue = new ReplyQueue<MockReplySpec>(script.replies ?? []);
  const models = () => script.models ?? [DEFAULT_OPENAI_MOCK_MODEL];
  // Routes run only after the server has started, so `handle` is set by then.
  const fail = (message: string) => handle.failures.push(message);

  const handle: MockHandle = await startRecordingServer(async (request, response) => {
    if (script.hang === true || (script.hang === 'chat' && request.path === '/v1/chat/completions')) return;
    if (script.apiKey !== undefined && request.headers.authorization !== `Bearer ${script.apiKey}`) {
      return sendJson(response, 401, { error: { message: 'Invalid API Key', type: 'authentication_error' } });
    }
    const route = `${request.method} ${request.path}`;
    if (route === 'GET /v1/models') {
      return sendJson(response, 200, {
        object: 'list',
        data: models().map((id) => ({ id, object: 'model', created: 1735689600, owned_by: 'mock' })),
      });
    }
    if (route === 'POST /v1/chat/completions') return answerChat(request, response);
    return sendJson(response, 404, { error: { message: `mock: no route for ${route}`, type: 'not_found_error' } });
  });

  async function answerChat(request: RecordedRequest, response: ServerResponse): Promise<void> {
    if (script.failIfCalled) fail(`${request.path} was called although the script says failIfCalled`);
    const body = request.body as
      { model?: string; stream?: boolean; stream_options?: { include_usage?: boolean } } | undefined;
    const model = body?.model ?? '';
    if (!models().includes(model))
      return sendJson(response, 404, {
        error: { message: `The model \`${model}\` does not exist.`, type: 'invalid_request_error' },
      });
    if (script.busy) return sendJson(response, 503, { error: { message: 'Loading model', type: 'unavailable_error' } });
    if (script.tools === false && offersTools(request))
      return sendJson(response, 400, {
        error: { message: 'tools param requires --jinja flag', type: 'invalid_request_error' },
      });
    const reply = queue.take(request);
    if (!reply) {
      fail(`${request.path} call ${queue.used + 1} has no scripted reply`);
      return sendJson(response, 500, { error: { message: 'mock: no scripted reply left' } });
    }
    if (reply.hang) return;
    if (reply.status !== undefined && reply.status !== 200) {
      return sendJson(response, reply.status, {
        error: { message: reply.errorMessage ?? `mock error ${reply.status}`, type: 'invalid_request_error' },
      });
    }
    const native = reply.toolCalls !== undefined && offersTools(request);
    const text = native || !reply.toolCalls ? reply.text : toolCallsAsText(reply);
    // The OpenAI shape: an id per call, arguments as a JSON string.
    const calls = native
      ? reply.toolCalls!.map((call, index) => ({
          id: `call_${index + 1}`,
          type: 'function',
          function: { name: call.name, arguments: call.rawArguments ?? JSON.stringify(call.arguments) },
        }))
      : [];
    const finish = calls.length > 0 ? 'tool_calls' : 'stop';
    const usage = {
      prompt_tokens: Math.ceil(request.rawBody.length / 4),
      completion_tokens: Math.max(1, Math.ceil(text.length / 4)),
    };
    if (body?.stream !== true) {
      return sendJson(response, 200, {
        id: 'chatcmpl-mock',
        object: 'chat.completion',
        model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: calls.length > 0 && text === '' ? null : text,
              ...(calls.length > 0 ? { tool_calls: calls } : {}),
            },
            finish_reason: finish,
          },
        ],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      });
    }
    const eol = script.crlf ? '\r\n' : '\n';
    const event = (value: unknown) => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}${eol}${eol}`;
    const chunk = (delta: object, finish: string | null) => ({
      id: 'chatcmpl-mock',
      object: 'chat.completion.chunk',
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    response.write(event(chunk({ role: 'assistant', content: '' }, null)));
    const pieces = text === '' ? [] : splitIntoPieces(text, reply.chunks ?? script.chunks ?? 4);
    for (const [index, piece] of pieces.entries()) {
      if (reply.errorAfterChunks && index === reply.errorAfterChunks.after) {
        response.end(event({ error: { message: reply.errorAfterChunks.message, type: 'server_error' } }));
        return;
      }
      if (response.destroyed) return;
      if (script.keepAliveComments) response.write(`: ping${eol}${eol}`);
      response.write(event(chunk({ content: piece }, null)));
      await pause(reply.tokenDelayMs ?? script.tokenDelayMs ?? 0);
    }
    // A streamed call: id, type and name first, then its arguments' JSON text in pieces.
    for (const [index, call] of calls.entries()) {
      response.write(
        event(
          chunk(
            {
              tool_calls: [
                { index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } },
              ],
            },
            null,
          ),
        ),
      );
      for (const piece of splitIntoPieces(call.function.arguments, 3))
        response.write(event(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null)));
    }
    response.write(event(chunk({}, finish)));
    if (body.stream_options?.include_usage)
      response.write(event({ id: 'chatcmpl-mock', object: 'chat.completion.chunk', model, choices: [], usage }));
    response.end(event('[DONE]'));
  }

  return {
    ...handle,
    script,
    chatRequests: () => handle.requests.filter((request) => request.path === '/v1/chat/completions'),
  };
}
