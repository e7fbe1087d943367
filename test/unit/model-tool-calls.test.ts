/**
 * Native tool calling through both real providers against loopback servers that answer
 * in each API's documented shape: Ollama's message.tool_calls (arguments an object, sent
 * whole) and the OpenAI stream's delta.tool_calls (id and name first, then the arguments'
 * JSON text in pieces), and the HTTP 400 both send for tools a model cannot take.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startOllamaMock } from '../helpers/ollama-mock.js';
import type { MockHandle } from '../../src/bench/recording-server.js';
import { ModelCallError } from '../../src/model/errors.js';
import { withRedaction } from '../../src/model/index.js';
import { OllamaProvider } from '../../src/model/ollama-provider.js';
import { OpenAiCompatibleProvider } from '../../src/model/openai-provider.js';
import type { ChatMessage, ChatRequest, ToolSpec } from '../../src/model/types.js';
import { startOpenAiMock } from '../helpers/openai-mock.js';

const READ: ToolSpec = {
  name: 'read_range',
  description: 'lines of a file',
  parameters: {
    type: 'object',
    properties: {
      file: { type: 'string', description: 'a file' },
      start: { type: 'integer', description: 'first line' },
    },
    required: ['file', 'start'],
  },
};
const CONVERSATION: ChatMessage[] = [
  { role: 'system', content: 'You repair builds.' },
  { role: 'user', content: 'The build fails.' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'call_7', name: 'read_range', arguments: { file: 'A.java', start: 1 } }],
  },
  { role: 'tool', content: '   1| class A {}', toolName: 'read_range', toolCallId: 'call_7' },
];
const withTools: ChatRequest = { messages: CONVERSATION, tools: [READ] };

let servers: MockHandle[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function ollama(script: Parameters<typeof startOllamaMock>[0]) {
  const server = await startOllamaMock(script);
  servers.push(server);
  return {
    server,
    provider: new OllamaProvider({
      provider: 'ollama',
      name: 'qwen2.5-coder:7b',
      host: server.url,
      temperature: 0,
      seed: 1,
      timeoutSeconds: 10,
    }),
  };
}

async function openai(script: Parameters<typeof startOpenAiMock>[0]) {
  const server = await startOpenAiMock(script);
  servers.push(server);
  return {
    server,
    provider: new OpenAiCompatibleProvider({
      provider: 'openai-compatible',
      name: 'qwen2.5-coder-7b-instruct',
      host: server.url,
      temperature: 0,
      seed: 1,
      timeoutSeconds: 10,
    }),
  };
}

async function failure(promise: Promise<unknown>): Promise<ModelCallError> {
  try {
    await promise;
  } catch (error) {
    return error as ModelCallError;
  }
  throw new Error('expected the call to fail');
}

describe('Ollama native tool calls', () => {
  it("learns from /api/show that the model takes tools, sends them and the earlier call and result in Ollama's shape, and reads the call back", async () => {
    const { server, provider } = await ollama({
      replies: [{ text: '', toolCalls: [{ name: 'extract_method', arguments: { file: 'A.java', method: 'f' } }] }],
    });
    expect(await provider.toolCalling()).toEqual({
      native: true,
      reason: "Ollama's /api/show lists tools among the model's capabilities",
    });
    const result = await provider.chat(withTools);
    expect(result.toolCalls).toEqual([{ name: 'extract_method', arguments: { file: 'A.java', method: 'f' } }]);
    expect(result.text).toBe('');
    const body = server.chatRequests()[0]!.body as { tools: unknown[]; messages: unknown[] };
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'read_range', description: 'lines of a file', parameters: READ.parameters },
      },
    ]);
    expect(body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'read_range', arguments: { file: 'A.java', start: 1 } } }],
      },
      { role: 'tool', content: '   1| class A {}', tool_name: 'read_range' },
    ]);
  });

  it('for a model without tool support: /api/show says so, the request gets HTTP 400, and no later request offers tools', async () => {
    const { server, provider } = await ollama({
      tools: false,
      replies: ['{"tool": "read_range", "args": {"file": "A.java", "start": 1}}'],
    });
    expect(await provider.toolCalling()).toEqual({
      native: false,
      reason: "Ollama's /api/show does not list tools among the model's capabilities",
    });
    const refused = await failure(provider.chat(withTools));
    expect(refused).toBeInstanceOf(ModelCallError);
    expect(refused.code).toBe('tools-unsupported');
    expect(refused.message).toContain('does not support tools');
    expect(await provider.toolCalling()).toEqual({
      native: false,
      reason: 'the server refused tools for qwen2.5-coder:7b (HTTP 400)',
    });
    expect((await failure(provider.chat(withTools))).code).toBe('tools-unsupported');
    expect(server.chatRequests()).toHaveLength(1);
    // Without tools the same provider works, and the model writes its call as text.
    expect((await provider.chat({ messages: [{ role: 'user', content: 'go' }] })).text).toContain(
      '"tool": "read_range"',
    );
  });

  it('knows nothing before the first request when /api/show has no capabilities (Ollama before 0.6.4)', async () => {
    const { provider } = await ollama({
      noCapabilities: true,
      replies: [
        { text: 'Reading it.', toolCalls: [{ name: 'read_range', arguments: { file: 'A.java', start: '3' } }] },
      ],
    });
    expect(await provider.toolCalling()).toBeUndefined();
    const result = await provider.chat(withTools);
    expect(result.toolCalls).toEqual([{ name: 'read_range', arguments: { file: 'A.java', start: '3' } }]);
    expect(result.text).toBe('Reading it.');
  });

  it('sizes num_ctx with the tool definitions counted in', async () => {
    const { server, provider } = await ollama({ replies: ['a', 'b'] });
    const big: ToolSpec = { ...READ, description: 'x'.repeat(20_000) };
    await provider.chat({ messages: [{ role: 'user', content: 'go' }] });
    await provider.chat({ messages: [{ role: 'user', content: 'go' }], tools: [big] });
    const windows = server
      .chatRequests()
      .map((request) => (request.body as { options: { num_ctx: number } }).options.num_ctx);
    expect(windows[1]).toBeGreaterThan(windows[0]!);
  });
});

describe('OpenAI-compatible native tool calls', () => {
  it('assembles a streamed call from its pieces, keeps its id, and sends calls and results in the OpenAI shape', async () => {
    const { server, provider } = await openai({
      replies: [
        {
          text: '',
          toolCalls: [
            { name: 'search_code_base', arguments: { pattern: 'total(' } },
            { name: 'read_range', arguments: { file: 'B.java', start: 4 } },
          ],
        },
      ],
    });
    expect(await provider.toolCalling()).toBeUndefined();
    const result = await provider.chat(withTools);
    expect(result.toolCalls).toEqual([
      { id: 'call_1', name: 'search_code_base', arguments: { pattern: 'total(' } },
      { id: 'call_2', name: 'read_range', arguments: { file: 'B.java', start: 4 } },
    ]);
    const body = server.chatRequests()[0]!.body as { tools: unknown[]; messages: unknown[] };
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'read_range', description: 'lines of a file', parameters: READ.parameters },
      },
    ]);
    expect(body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_7',
            type: 'function',
            function: { name: 'read_range', arguments: '{"file":"A.java","start":1}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_7', content: '   1| class A {}' },
    ]);
  });

  it('keeps arguments that are not JSON as written, with empty arguments', async () => {
    const { provider } = await openai({
      replies: [
        { text: '', toolCalls: [{ name: 'read_range', arguments: {}, rawArguments: '{"file": "A.java", start: 1' }] },
      ],
    });
    expect((await provider.chat(withTools)).toolCalls).toEqual([
      { id: 'call_1', name: 'read_range', arguments: {}, rawArguments: '{"file": "A.java", start: 1' },
    ]);
  });

  it('turns a 400 for tools into tools-unsupported and offers no tools again', async () => {
    const { server, provider } = await openai({ tools: false, replies: ['plain'] });
    const refused = await failure(provider.chat(withTools));
    expect(refused.code).toBe('tools-unsupported');
    expect(refused.message).toContain('tools param requires --jinja flag');
    expect(await provider.toolCalling()).toEqual({
      native: false,
      reason: 'the server refused tools for qwen2.5-coder-7b-instruct (HTTP 400)',
    });
    expect((await failure(provider.chat(withTools))).code).toBe('tools-unsupported');
    expect((await provider.chat({ messages: [{ role: 'user', content: 'go' }] })).text).toBe('plain');
    expect(server.chatRequests()).toHaveLength(2);
  });
});

describe('redaction of native tool calls', () => {
  it('redacts text values in the arguments echoed back to the model, and passes the tool-calling question through', async () => {
    const { server, provider } = await ollama({ replies: ['ok'] });
    const redacting = withRedaction(provider, { projectRoot: '/work/project' });
    expect(await redacting.toolCalling!()).toEqual({ native: true, reason: expect.any(String) });
    await redacting.chat({
      tools: [READ],
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { name: 'search_code_base', arguments: { pattern: 'password = "hunter2"', glob: '/work/project/src/**' } },
          ],
        },
        { role: 'tool', content: 'token: "abc123secret"', toolName: 'search_code_base' },
      ],
    });
    const sent = server.chatRequests()[0]!.rawBody;
    expect(sent).not.toContain('hunter2');
    expect(sent).not.toContain('abc123secret');
    expect(sent).not.toContain('/work/project');
  });
});
