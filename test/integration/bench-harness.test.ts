/**
 * The bench harness through the built mvnx and real Maven, on two cases: one a quick-fix
 * repairs with no model call, one where the scripted model only talks and never patches.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBenchCases } from '../../src/bench/cases.js';
import { runBench } from '../../src/bench/harness.js';
import { formatAgentTable, formatBenchTable } from '../../src/bench/table.js';
import { startOllamaMock } from '../helpers/ollama-mock.js';
import { execa } from 'execa';
import { rebuildFirstPrompt } from '../../src/bench/rebuild-prompt.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('runBench', () => {
  it('measures a fixed and an unfixed case from the run records mvnx prints', async () => {
    const cases = await loadBenchCases(path.join(repoRoot, 'bench/cases'), [
      'missing-semicolon-statement',
      'prose-only-replies',
    ]);
    const progress: string[] = [];
    const results = await runBench({
      cases,
      mvnxBin: path.join(repoRoot, 'dist/cli/mvnx.cjs'),
      repeat: 1,
      scripted: true,
      onProgress: (line) => progress.push(line),
      rebuildPrompt: rebuildFirstPrompt,
    });

    const [semicolon, prose] = results;
    expect(semicolon!.samples[0]).toMatchObject({
      status: 'fixed',
      stopReason: 'fixed',
      exitCode: 1,
      modelCalls: 0,
      serverCalls: 0,
    });
    expect(semicolon!.samples[0]!.applicable).toBeGreaterThanOrEqual(1);
    expect(semicolon!.mavenMs).toBeGreaterThan(0);
    // No model was asked: the first prompt is rebuilt from the run's diagnosis, and holds the fix's line.
    expect(semicolon!.samples[0]!.fixInPrompt).toMatchObject({ source: 'rebuilt', missing: [] });
    expect(semicolon!.samples[0]!.fixInPrompt!.total).toBeGreaterThan(0);
    expect(semicolon!.samples[0]!.fixInPrompt!.found).toBe(semicolon!.samples[0]!.fixInPrompt!.total);

    const unfixed = prose!.samples[0]!;
    expect(unfixed.status).toBe('unfixed');
    expect(unfixed.stopReason).not.toBe('fixed');
    expect(unfixed.modelCalls).toBeGreaterThan(0);
    expect(unfixed.serverCalls).toBe(unfixed.modelCalls);
    expect(unfixed.error).toBeUndefined();
    expect(unfixed.fixInPrompt).toMatchObject({ source: 'prompt', missing: [] });
    expect(unfixed.fixInPrompt!.promptTokens).toBeGreaterThan(0);
    expect(unfixed.fixInPrompt!.promptTokens).toBeLessThan(8192 - 2048);

    expect(progress).toHaveLength(2);
    const table = formatBenchTable(results);
    expect(table).toMatch(/^\| missing-semicolon-statement \| compile \| 1 \| fixed \| 1\/1 \|/m);
    expect(table).toMatch(/^\| prose-only-replies \| test \| 1 \| unfixed \| 0\/1 \|/m);
    expect(table).toMatch(/\| \*\*all 2 cases\*\* \| {2}\| {2}\| 2\/2 as expected \|/);
  });
});

describe('mvnx bench --agent', () => {
  const agentCases = ['agent-cents-from-another-class', 'agent-percent-from-core'];

  it('fixes the two cases that need another file through tool use, with scripted replies that misname tools and pass messy arguments, and reports what the sessions did', async () => {
    const cases = await loadBenchCases(path.join(repoRoot, 'bench/cases'), agentCases);
    const results = await runBench({
      cases,
      mvnxBin: path.join(repoRoot, 'dist/cli/mvnx.cjs'),
      repeat: 1,
      scripted: true,
      agent: true,
      skipBaseline: true,
    });
    for (const result of results) {
      const sample = result.samples[0]!;
      expect(sample, result.name).toMatchObject({
        status: 'fixed',
        stopReason: 'fixed',
        modelCalls: 6,
        serverCalls: 6,
      });
      expect(sample.agent).toMatchObject({ sessions: 1, steps: 6, toolCalling: 'native' });
      // Each case misnames a tool and passes arguments the middleware has to correct.
      expect(sample.agent!.corrections, result.name).toBe(3);
    }
    expect(results[0]!.samples[0]!.agent!.toolCalls).toEqual({
      extract_test_code: 1,
      extract_method: 1,
      express_hypothesis: 1,
      search_code_base: 1,
      read_range: 1,
      write_fix: 1,
    });
    expect(results[0]!.samples[0]!.agent!.candidates).toBe(2);
    expect(results[1]!.samples[0]!.agent!.toolCalls).toEqual({
      extract_test_code: 1,
      get_classes_and_methods: 1,
      express_hypothesis: 1,
      find_similar_api_calls: 1,
      read_range: 1,
      write_fix: 1,
    });
    const table = formatAgentTable(results);
    expect(table).toMatch(
      /^\| agent-cents-from-another-class \| test \| fixed \| 1\/1 \| 100% \| [\d.]+ \| 6 \| 6 \| [^|]*extract_method 1[^|]* \| 3 \| 2 \| native \|$/m,
    );
    expect(table).toMatch(/^\| \*\*all 2 cases\*\* \| {2}\| {2}\| 2\/2 \| 100% \|/m);
  });

  it('mvnx bench --host URL --agent runs the sessions against a real server (here the loopback Ollama-API server) and prints the same table', async () => {
    const [benchCase] = await loadBenchCases(path.join(repoRoot, 'bench/cases'), ['agent-percent-from-core']);
    const server = await startOllamaMock({
      replies: benchCase!.agentReplies!,
      exhaustedReply: 'I have nothing to add.',
    });
    try {
      const result = await execa(
        'node',
        [
          path.join(repoRoot, 'dist/cli/mvnx.cjs'),
          'bench',
          '--host',
          server.url,
          '--agent',
          '--only',
          'agent-percent-from-core',
        ],
        { cwd: repoRoot, reject: false, env: { MAVEN_OPTS: '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC' } },
      );
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toMatch(
        /^\| case \| kind \| expect \| fixed \| fix rate \| median s \| steps \| model calls \| tool calls per run \| corrected \| candidates \| tool calling \|$/m,
      );
      expect(result.stdout).toMatch(
        /^\| agent-percent-from-core \| test \| fixed \| 1\/1 \| 100% \| [\d.]+ \| 6 \| 6 \| [^|]*find_similar_api_calls 1[^|]* \| 3 \| 1 \| native \|$/m,
      );
      expect(result.stderr).toContain('agent-percent-from-core #1: fixed (fixed)');
      expect(server.answered()).toBe(6);
      expect(server.failures).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
