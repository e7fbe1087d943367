/**
 * Agent mode end to end: real Maven, the real ollama client against a loopback server
 * that speaks the Ollama API, and the scripted turns a local 7B model plausibly takes
 * (prose around the JSON, OpenAI-style keys, numbers as strings, a tool called in the
 * wrong state, a diff with wrong hunk counts after the write_fix call).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOllamaMock, type OllamaMock } from '../helpers/ollama-mock.js';
import { copyProject, repoRoot, runMvnx, snapshotTree } from '../helpers/repair-project.js';

const logicBug = path.join(repoRoot, 'test/fixtures/fixers/other-logic-bug/project');
const MAIN = 'src/main/java/com/acme/calc/Discount.java';
const TEST = 'src/test/java/com/acme/calc/DiscountTest.java';
const CONFIG =
  'tier: monitor\nagent:\n  mode: always\n  maxSteps: 10\nbudget:\n  maxModelCalls: 12\n  maxAttempts: 2\n';

let mock: OllamaMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const AGENT_TURNS = [
  `Let me look at the failing test first.\n\n\`\`\`json\n{"tool": "extract_method", "args": {"file": "${TEST}", "method": "tenPercentOffHundred"}}\n\`\`\``,
  `{"name": "get_classes_and_methods", "arguments": {"file": "${MAIN}"}}`,
  `I will run the tests to see the failure.\n{"tool": "run_tests", "args": {}}`,
  `{"tool": "read_range", "args": {"file": "${MAIN}", "start": "1", "end": "7",}}`,
  `{"tool": "express_hypothesis", "args": {"hypothesis": "apply() divides by 10 instead of 100, so 10 percent takes 100 off."}}`,
  `Before changing it I check who owns the file.
{"tool": "who_owns", "args": {"file": "${MAIN}"}}`,
  `{"tool": "write_fix", "args": {}}\n\n\`\`\`diff\n--- a/${MAIN}\n+++ b/${MAIN}\n@@ -5,7 +5,7 @@\n     public int apply(int price, int percent) {\n-        return price - price * percent / 10;\n+        return price - price * percent / 100;\n     }\n\`\`\`\n`,
];

describe('agent mode', () => {
  it("reads the code with tools (a plugin's among them), states a hypothesis and writes a fix that Maven verifies", async () => {
    mock = await startOllamaMock({ replies: AGENT_TURNS });
    const copy = await copyProject(logicBug, `${CONFIG}plugins:\n  - ./mvnx/owners.mjs\n`);
    try {
      await mkdir(path.join(copy.root, 'mvnx'));
      await writeFile(
        path.join(copy.root, 'mvnx/owners.mjs'),
        "export default { name: 'owners', tools: [{ name: 'who_owns', description: 'the team that owns a file', parameters: { file: { type: 'string', description: 'a project file' } }, states: ['collect', 'fix'], run: async (args) => ({ ok: true, output: `${args.file} is owned by team-payments` }) }] };\n",
      );
      const before = await snapshotTree(copy.root);
      const run = await runMvnx(copy.root, ['-o', '-B', '-q', 'test', `--mvnx-host=${mock.url}`, '--mvnx-json']);
      expect(run.exitCode).toBe(1);
      expect(run.record?.status, JSON.stringify(run.record?.attempts, null, 1)).toBe('fixed');
      expect(run.record?.attempts).toHaveLength(1);
      expect(run.record?.attempts[0]).toMatchObject({ source: 'agent', outcome: 'verified', filesChanged: [MAIN] });
      expect(run.record?.modelCalls).toBe(AGENT_TURNS.length);
      expect(mock.failures).toEqual([]);

      const recordDir = path.join(copy.root, '.mvnx/runs', run.record!.runId);
      // The prompt file holds the last request as sent: it carries what the tools found, from the real files.
      const lastPrompt = await readFile(path.join(recordDir, 'attempt-1.prompt.txt'), 'utf8');
      // One conversation: what the tools found, the hypothesis as the model's own call, nothing rebuilt.
      // Native tools travel as the server's definitions only, not listed again in the text.
      expect(lastPrompt).not.toContain('## Tools, and the states they can be used in');
      expect(lastPrompt).toContain('State: understand the failure. Tools you can use now:');
      expect(lastPrompt).toContain('assertEquals(90, new Discount().apply(100, 10));');
      expect(lastPrompt).toContain('return price - price * percent / 10;');
      expect(lastPrompt).toContain(`${MAIN} is owned by team-payments`);
      expect(lastPrompt).toContain(
        '[tool call] express_hypothesis {"hypothesis":"apply() divides by 10 instead of 100',
      );
      const log = await readFile(path.join(recordDir, 'attempt-1.agent-log.txt'), 'utf8');
      expect(log).toContain('run_tests cannot be used while understanding the failure');
      // Every tool (the plugin's among them) is offered natively on every call, in one order: the
      // definitions at the top of the prompt never change; each answer says which are usable now.
      const offered = mock
        .chatRequests()
        .map((request) =>
          ((request.body as { tools?: { function: { name: string } }[] }).tools ?? []).map(
            (tool) => tool.function.name,
          ),
        );
      expect(offered[0]).toContain('who_owns');
      for (const tools of offered) expect(tools).toEqual(offered[0]);
      expect(run.record?.attempts[0]?.agent).toMatchObject({
        stop: 'fix-verified',
        steps: 7,
        toolCalling: 'native',
        toolCalls: {
          extract_method: 1,
          get_classes_and_methods: 1,
          read_range: 1,
          express_hypothesis: 1,
          who_owns: 1,
          write_fix: 1,
        },
      });
      expect(run.record?.toolCalling).toEqual({
        native: true,
        reason: "Ollama's /api/show lists tools among the model's capabilities",
      });
      expect(await readFile(path.join(recordDir, 'fix.patch'), 'utf8')).toContain(
        '+        return price - price * percent / 100;',
      );
      expect(await snapshotTree(copy.root)).toEqual(before);
    } finally {
      await copy.remove();
    }
  });

  it('under escalate, the first model attempt is single-shot and the next one, after it failed, an agent session', async () => {
    mock = await startOllamaMock({
      replies: ['The discount formula looks wrong; you should check how the percentage is applied.', ...AGENT_TURNS],
    });
    const copy = await copyProject(logicBug, CONFIG.replace('mode: always', 'mode: escalate'));
    try {
      const run = await runMvnx(copy.root, ['-o', '-B', '-q', 'test', `--mvnx-host=${mock.url}`, '--mvnx-json']);
      expect(run.record?.status, JSON.stringify(run.record?.attempts, null, 1)).toBe('fixed');
      expect(run.record?.attempts.map((attempt) => `${attempt.source} ${attempt.outcome}`)).toEqual([
        'model not-applicable',
        'agent verified',
      ]);
      expect(run.record?.modelCalls).toBe(1 + AGENT_TURNS.length);
    } finally {
      await copy.remove();
    }
  });

  it('stops a session that keeps asking for the same thing (loop guard), without a fix', async () => {
    const same = `{"tool": "read_range", "args": {"file": "${MAIN}", "start": 1}}`;
    mock = await startOllamaMock({
      replies: [same, same, same, same],
      exhaustedReply: 'I am not sure what else to do here.',
    });
    const copy = await copyProject(
      logicBug,
      'tier: monitor\nagent:\n  mode: always\nbudget:\n  maxAttempts: 1\n  dynamic: false\n',
    );
    try {
      const run = await runMvnx(copy.root, ['-o', '-B', '-q', 'test', `--mvnx-host=${mock.url}`, '--mvnx-json']);
      expect(run.exitCode).toBe(1);
      expect(run.record?.status).toBe('unfixed');
      expect(run.record?.attempts[0]).toMatchObject({ source: 'agent', outcome: 'not-applicable' });
      expect(run.record?.attempts[0]?.reason).toContain('the agent stopped without a fix (loop-guard) after 4 step(s)');
      expect(run.record?.attempts[0]?.agent).toMatchObject({
        stop: 'loop-guard',
        steps: 4,
        toolCalls: { read_range: 4 },
      });
      expect(run.record?.modelCalls).toBe(4);
    } finally {
      await copy.remove();
    }
  });
});
