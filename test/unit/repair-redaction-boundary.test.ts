/**
 * Redaction at the provider boundary, through the real proposer, the real `ollama`
 * client and the real Ollama-API test server: the request carries no secret, the prompt
 * file is byte for byte what the server received, and a correct hunk whose context line
 * the model could only see redacted still applies (placeholders are mapped back).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOllamaMock, type OllamaMock } from '../helpers/ollama-mock.js';
import type { Diagnosis } from '../../src/diagnose/types.js';
import { createProvider, Redactor, withRedaction } from '../../src/model/index.js';
import { configSchema } from '../../src/policy/schema.js';
import { toPatchPolicy } from '../../src/policy/patch-policy.js';
import { createModelProposer, renderMessages } from '../../src/repair/proposers/model-proposer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const FILE = 'src/main/java/com/acme/Db.java';
// Built from pieces so that this file does not trip secret scanners.
const PASSWORD = ['hunter', '2-', 'Xq9'].join('');
const ENV_TOKEN = ['ci', '-job-', 'Zt7Kq2Wm9Rp4'].join('');
const SOURCE = `package com.acme;

public class Db {
    private static final String PASSWORD = "${PASSWORD}";

    public String url() {
        return "jdbc:h2:mem:app"
    }
}
`;

function diagnosis(message: string): Diagnosis {
  return {
    diagnostics: [
      { kind: 'compile', category: 'compile', fixable: true, message, file: FILE, line: 7, fingerprint: 'f1' },
    ],
    fingerprint: 'd1',
    fixable: true,
    modules: [],
    warnings: [],
  };
}

describe('redaction at the provider boundary', () => {
  let mock: OllamaMock;

  it('sends no secret, records exactly what was sent, and applies a hunk whose context the model saw as a placeholder', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'mvnx-redaction-boundary-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    await mkdir(path.join(root, path.dirname(FILE)), { recursive: true });
    await writeFile(path.join(root, FILE), SOURCE);

    // What a model answers when it saw `"[REDACTED-n]"`: it copies the placeholder into the context.
    const reply = (placeholder: string) =>
      `Missing semicolon.\n\n\`\`\`diff\n--- a/${FILE}\n+++ b/${FILE}\n@@ -4,6 +4,6 @@\n     private static final String PASSWORD = "${placeholder}";\n \n     public String url() {\n-        return "jdbc:h2:mem:app"\n+        return "jdbc:h2:mem:app";\n     }\n }\n\`\`\`\n`;
    const redactor = new Redactor({ knownSecrets: [ENV_TOKEN] });
    // Numbered in order of appearance: the token in the failure message is 1, the password in the source 2.
    mock = await startOllamaMock({ replies: [reply('[REDACTED-2]')] });
    cleanups.push(mock.close);
    const provider = withRedaction(
      createProvider({
        provider: 'ollama',
        name: 'qwen2.5-coder:7b',
        host: mock.url,
        temperature: 0,
        seed: 1,
        timeoutSeconds: 10,
      }),
      redactor,
    );

    const kept: { prompt: string; response: string }[] = [];
    const propose = createModelProposer({
      provider,
      editFormat: 'diff',
      contextTokens: 8192,
      list: async () => [FILE],
      checker: { root, policy: toPatchPolicy(configSchema.parse({})) },
      read: () => async (file) => readFile(path.join(root, file), 'utf8').catch(() => undefined),
      keepExchange: async (_n, prompt, response) => {
        kept.push({ prompt, response });
      },
      signal: new AbortController().signal,
      perCallTimeoutMs: 10_000,
    });

    const proposal = await propose({
      diagnosis: diagnosis(`';' expected (token ${ENV_TOKEN} in the log)`),
      base: { files: [] },
      history: [],
      n: 1,
    });

    const body = mock.chatRequests()[0]!;
    expect(body.rawBody).not.toContain(PASSWORD);
    expect(body.rawBody).not.toContain(ENV_TOKEN);
    expect(body.rawBody).toContain('(token [REDACTED-1] in the log)');
    expect(body.rawBody).toContain('PASSWORD = \\"[REDACTED-2]\\"');
    // The prompt file is the messages the server received, rendered; not the ones built before redaction.
    const sent = (body.body as { messages: { role: string; content: string }[] }).messages;
    expect(kept[0]!.prompt).toBe(renderMessages(sent));
    expect(kept[0]!.response).toContain('[REDACTED-2]');
    expect(kept[0]!.response).not.toContain(PASSWORD);
    // Mapped back: the hunk applies to the real file, which holds the real password.
    expect(proposal.problems).toEqual([]);
    const changed = proposal.changeSet?.files[0];
    expect(changed?.after).toBe(SOURCE.replace('"jdbc:h2:mem:app"\n', '"jdbc:h2:mem:app";\n'));
  });

  it('keeps out a known secret that the files hold JSON- and XML-escaped, and a fix beside it still applies to the escaped text', async () => {
    // Characters that JSON, Java and XML escape: each spelling in the files differs from the raw value.
    const secret = ['Pa"ss', '<w&rd', '\\9'].join('');
    const javaForm = JSON.stringify(secret);
    const xmlForm = secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
    const source = `package com.acme;\n\n// deployed with <motd>${xmlForm}</motd>\npublic class Db {\n    static final String BANNER = ${javaForm};\n\n    public String url() {\n        return "jdbc:h2:mem:app"\n    }\n}\n`;
    const root = await mkdtemp(path.join(os.tmpdir(), 'mvnx-redaction-escaped-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    await mkdir(path.join(root, path.dirname(FILE)), { recursive: true });
    await writeFile(path.join(root, FILE), source);
    const reply = `Missing semicolon.\n\n\`\`\`diff\n--- a/${FILE}\n+++ b/${FILE}\n@@ -5,5 +5,5 @@\n     static final String BANNER = "[REDACTED-3]";\n \n     public String url() {\n-        return "jdbc:h2:mem:app"\n+        return "jdbc:h2:mem:app";\n     }\n\`\`\`\n`;
    mock = await startOllamaMock({ replies: [reply] });
    cleanups.push(mock.close);
    const redactor = new Redactor({ knownSecrets: [secret] });
    const provider = withRedaction(
      createProvider({
        provider: 'ollama',
        name: 'qwen2.5-coder:7b',
        host: mock.url,
        temperature: 0,
        seed: 1,
        timeoutSeconds: 10,
      }),
      redactor,
    );
    const propose = createModelProposer({
      provider,
      editFormat: 'diff',
      contextTokens: 8192,
      list: async () => [FILE],
      checker: { root, policy: toPatchPolicy(configSchema.parse({})) },
      read: () => async (file) => readFile(path.join(root, file), 'utf8').catch(() => undefined),
      keepExchange: async () => undefined,
      signal: new AbortController().signal,
      perCallTimeoutMs: 10_000,
    });

    const proposal = await propose({
      diagnosis: diagnosis(`';' expected near ${secret}`),
      base: { files: [] },
      history: [],
      n: 1,
    });

    const sent = (mock.chatRequests()[0]!.body as { messages: { content: string }[] }).messages
      .map((message) => message.content)
      .join('\n');
    for (const form of [secret, javaForm.slice(1, -1), xmlForm]) expect(sent).not.toContain(form);
    expect(sent).toContain('<motd>[REDACTED-');
    expect(proposal.problems).toEqual([]);
    expect(proposal.changeSet?.files[0]?.after).toBe(source.replace('"jdbc:h2:mem:app"\n', '"jdbc:h2:mem:app";\n'));
  });
});
