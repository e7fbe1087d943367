/**
 * The prompt through the whole engine, on the bench cases of issue 15: real Maven, real
 * Surefire reports, the real diagnosis, a model server that answers with the true fix.
 * The first prompt must hold the line the fix changes, the system message must offer
 * the file the fix edits, and what the server received must be what the record keeps.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBenchCases, materialiseCase } from '../../src/bench/cases.js';
import { startOllamaMock } from '../helpers/ollama-mock.js';
import { renderMessages } from '../../src/repair/proposers/model-proposer.js';
import { readRecordFile, repoRoot, runMvnx } from '../helpers/repair-project.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function benchCase(name: string): Promise<{ root: string; replies: string[] }> {
  const [found] = await loadBenchCases(path.join(repoRoot, 'bench/cases'), [name]);
  const parent = await mkdtemp(path.join(os.tmpdir(), 'mvnx-prompt-'));
  cleanups.push(() => rm(parent, { recursive: true, force: true }));
  const root = path.join(parent, name);
  await materialiseCase(found!, root);
  return { root, replies: found!.replies };
}

describe('what the model is shown', () => {
  it.each([
    [
      'wrapped-exception-root-cause',
      'src/main/java/com/acme/export/CsvRow.java',
      20,
      'String escaped = value.replace("\\"", "\\"\\"");',
    ],
    [
      'assertion-without-main-frame',
      'src/test/java/com/acme/text/EmojiRoundTripTest.java',
      19,
      'if (lead >= 0xF0 && lead < 0xF0) {',
    ],
  ])(
    '%s: the line to fix is in the first prompt, its file is offered, and the fix is verified',
    async (name, file, line, fixLine) => {
      const { root, replies } = await benchCase(name);
      const mock = await startOllamaMock({ replies });
      cleanups.push(mock.close);

      const run = await runMvnx(root, [
        '-o',
        '-B',
        '-q',
        'verify',
        `--mvnx-host=${mock.url}`,
        '--mvnx-json',
        '--mvnx-tier=monitor',
      ]);

      expect(run.record?.status, run.stderr).toBe('fixed');
      expect(run.record?.diagnostics[0]).toMatchObject({ kind: 'test', file, line });
      const prompt = await readRecordFile(root, 'attempt-1.prompt.txt');
      expect(prompt).toMatch(new RegExp(`\\d+ \\| +${fixLine.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      const fixedFile = name === 'wrapped-exception-root-cause' ? file : 'src/main/java/com/acme/text/Utf8Decoder.java';
      expect(prompt).toContain(`Files you may edit (all shown in the prompt):`);
      expect(prompt.slice(0, prompt.indexOf('### user'))).toContain(`- ${fixedFile}`);
      // What the record keeps is what the server received.
      const sent = (mock.chatRequests()[0]!.body as { messages: { role: string; content: string }[] }).messages;
      expect(prompt).toBe(renderMessages(sent));
      const fix = await readFile(path.join(root, '.mvnx/runs', run.record!.runId, 'fix.patch'), 'utf8');
      expect(fix).toContain(`+++ b/${fixedFile}`);
    },
  );
});
