/**
 * A model server that runs but fails: a real loopback server speaking Ollama's API whose
 * chat answers HTTP 500 with an HTML page, or never answers. Each failed call is a server
 * failure (one console line, the HTML reduced to its status and title), never a rejected
 * fix attempt; the run stops on the server's problem (provider-unavailable), not on
 * budget-exhausted, and the advice is not `ollama serve` for a server that is running.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { copyProject, repoRoot, runMvnx } from '../helpers/repair-project.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const ERROR_PAGE =
  '<!DOCTYPE html>\n<html><head><title>500 Internal Server Error</title></head>\n' +
  '<body><h1>Internal Server Error</h1><p>The server encountered an internal error.</p></body></html>\n';

/** Ollama's health endpoints answer; /api/chat fails as told. */
async function failingServer(chat: 'html-500' | 'hold'): Promise<{ url: string; chats: () => number }> {
  let chats = 0;
  const server: Server = createServer((request, response) => {
    const json = (body: unknown) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(body));
    };
    if (request.url === '/api/version') return json({ version: '0.6.4' });
    if (request.url === '/api/tags') return json({ models: [{ name: 'qwen2.5-coder:7b', model: 'qwen2.5-coder:7b' }] });
    if (request.url === '/api/show')
      return json({ capabilities: ['completion', 'tools'], model_info: { 'qwen2.context_length': 32768 } });
    const body: Buffer[] = [];
    request.on('data', (chunk: Buffer) => body.push(chunk));
    request.on('end', () => {
      // A load request (no messages: mvnx loads the model ahead, issue 42) is not a chat the repair waits on.
      const messages = (JSON.parse(Buffer.concat(body).toString('utf8') || '{}') as { messages?: unknown[] }).messages;
      if (messages?.length) chats++;
      if (chat === 'hold') return;
      response.statusCode = 500;
      response.setHeader('content-type', 'text/html');
      response.end(ERROR_PAGE);
    });
    return undefined;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, chats: () => chats };
}

async function repairWith(url: string, extra: string[] = [], config?: string) {
  const copy = await copyProject(path.join(repoRoot, 'examples/compile-error'), config);
  cleanups.push(copy.remove);
  return runMvnx(copy.root, [
    '-o',
    '-B',
    '-q',
    'verify',
    `--mvnx-host=${url}`,
    '--mvnx-no-fixers',
    '--mvnx-json',
    ...extra,
  ]);
}

it('HTTP 500 with an HTML page: two server failures, one line each with status and title, no attempt', async () => {
  const server = await failingServer('html-500');
  const run = await repairWith(server.url);
  const record = run.record!;
  expect(record, run.stderr).toBeDefined();
  expect(record.stopReason).toBe('provider-unavailable');
  expect(record.message).toMatch(
    /^the model server failed 2 calls in a row \(last: .*HTTP 500: 500 Internal Server Error\)$/,
  );
  expect(record.attempts).toEqual([]);
  expect(server.chats()).toBe(2);
  const failureLines = run.stderr.split('\n').filter((line) => line.includes('a server failure, not a rejected fix'));
  expect(failureLines).toHaveLength(2);
  expect(failureLines[0]).toContain('HTTP 500: 500 Internal Server Error');
  expect(run.stderr).not.toContain('<html');
  expect(run.stderr).not.toContain('The server encountered an internal error');
  expect(run.stderr).not.toContain('ollama serve');
  expect(run.exitCode).toBe(1);
});

it('a model call that times out says "timed out after N s" and counts as a server failure', async () => {
  const server = await failingServer('hold');
  const run = await repairWith(server.url, ['--mvnx-model-timeout=2']);
  const record = run.record!;
  expect(record, run.stderr).toBeDefined();
  expect(record.stopReason).toBe('provider-unavailable');
  expect(record.message).toContain('timed out after 2 s');
  expect(record.attempts).toEqual([]);
  expect(run.stderr).not.toMatch(/\baborted\b/);
  expect(run.exitCode).toBe(1);
});

// Agent mode (issue 49 item 6): a server failure of an agent session's call is a server failure too, not a rejected
// attempt; so is one that used the last model call the budget allowed.
const AGENT = `agent:
  mode: always
`;

it('agent mode, HTTP 500: server failures, not attempts; the run stops on the server', async () => {
  const server = await failingServer('html-500');
  const run = await repairWith(server.url, [], AGENT);
  const record = run.record!;
  expect(record, run.stderr).toBeDefined();
  expect(run.stderr).toContain('agent session');
  expect(record.stopReason, run.stderr).toBe('provider-unavailable');
  expect(record.message).toMatch(
    /^the model server failed 2 calls in a row \(last: .*HTTP 500: 500 Internal Server Error\)$/,
  );
  expect(record.attempts).toEqual([]);
  const failureLines = run.stderr.split('\n').filter((line) => line.includes('a server failure, not a rejected fix'));
  expect(failureLines).toHaveLength(2);
  expect(run.stderr).not.toContain('<html');
  expect(run.exitCode).toBe(1);
});

it('agent mode, a held call with one model call allowed: timed out, a server failure, provider-unavailable', async () => {
  const server = await failingServer('hold');
  const run = await repairWith(
    server.url,
    ['--mvnx-model-timeout=2'],
    `${AGENT}budget:
  dynamic: false
  maxModelCalls: 1
`,
  );
  const record = run.record!;
  expect(record, run.stderr).toBeDefined();
  expect(record.stopReason, run.stderr).toBe('provider-unavailable');
  expect(record.message).toBe(
    'the model server failed the last model call the budget allowed (the model call timed out after 2 s)',
  );
  expect(record.attempts).toEqual([]);
  expect(server.chats()).toBe(1);
  expect(run.stderr).toContain('attempt 1: the model call timed out after 2 s (a server failure, not a rejected fix)');
  expect(run.exitCode).toBe(1);
});
