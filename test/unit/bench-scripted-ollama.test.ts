import { Ollama } from 'ollama';
import { afterEach, describe, expect, it } from 'vitest';
import { splitIntoPieces } from '../../src/bench/recording-server.js';
import {
  DEFAULT_EXHAUSTED_REPLY,
  SCRIPTED_MODEL,
  startScriptedOllama,
  type ScriptedOllama,
} from '../../src/bench/scripted-ollama.js';
import { OllamaProvider } from '../../src/model/ollama-provider.js';

let server: ScriptedOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const reply =
  'The loop stops early.\n\n```diff\n--- a/src/Series.java\n+++ b/src/Series.java\n@@ -4,1 +4,1 @@\n-        for (int i = 1; i < n; i++) {\n+        for (int i = 1; i <= n; i++) {\n```\n';

describe('startScriptedOllama through the real ollama client', () => {
  it('answers version, tags and show like Ollama', async () => {
    server = await startScriptedOllama([]);
    const client = new Ollama({ host: server.url });
    expect((await client.version()).version).toMatch(/scripted/);
    expect((await client.list()).models.map((model) => model.name)).toEqual([SCRIPTED_MODEL]);
    const show = await client.show({ model: SCRIPTED_MODEL });
    expect(show.capabilities).toContain('completion');
    expect((show.model_info as unknown as Record<string, unknown>)['qwen2.context_length']).toBe(32768);
    expect(server.calls()).toBe(0);
  });

  it('streams the scripted replies in order as NDJSON, then says it has nothing more', async () => {
    server = await startScriptedOllama([reply, 'second']);
    const client = new Ollama({ host: server.url });
    const chat = async () => {
      let text = '';
      let parts = 0;
      let done = false;
      for await (const part of await client.chat({
        model: SCRIPTED_MODEL,
        messages: [{ role: 'user', content: 'fix it' }],
        stream: true,
      })) {
        text += part.message.content;
        parts += 1;
        done = part.done;
      }
      return { text, parts, done };
    };
    const first = await chat();
    expect(first.text).toBe(reply);
    expect(first.parts).toBeGreaterThan(2);
    expect(first.done).toBe(true);
    expect((await chat()).text).toBe('second');
    expect((await chat()).text).toBe(DEFAULT_EXHAUSTED_REPLY);
    expect(server.calls()).toBe(3);
    expect(server.requests()[0]).toMatchObject({
      model: SCRIPTED_MODEL,
      messages: [{ role: 'user', content: 'fix it' }],
    });
  });

  it('answers a non-streamed chat with one object', async () => {
    server = await startScriptedOllama([reply]);
    const response = await new Ollama({ host: server.url }).chat({
      model: SCRIPTED_MODEL,
      messages: [{ role: 'user', content: 'x' }],
      stream: false,
    });
    expect(response.message.content).toBe(reply);
    expect(response.done).toBe(true);
  });

  it('refuses a model it does not serve with 404, as Ollama does', async () => {
    server = await startScriptedOllama([reply]);
    const client = new Ollama({ host: server.url });
    await expect(client.chat({ model: 'llama3:8b', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject(
      { status_code: 404 },
    );
    await expect(client.show({ model: 'llama3:8b' })).rejects.toMatchObject({ status_code: 404 });
    expect(server.calls()).toBe(0);
  });

  it("serves mvnx's own Ollama provider: health check, then chat", async () => {
    server = await startScriptedOllama([reply]);
    const provider = new OllamaProvider({
      provider: 'ollama',
      name: SCRIPTED_MODEL,
      host: server.url,
      temperature: 0,
      seed: 1,
      timeoutSeconds: 10,
    });
    await provider.healthCheck();
    const result = await provider.chat({ messages: [{ role: 'user', content: 'fix' }] });
    expect(result.text).toBe(reply);
    expect(server.calls()).toBe(1);
  });
});

describe('splitIntoPieces', () => {
  it('reassembles exactly', () => {
    for (const count of [1, 3, 8, 50]) expect(splitIntoPieces(reply, count).join('')).toBe(reply);
    expect(splitIntoPieces('', 8)).toEqual(['']);
  });
});
