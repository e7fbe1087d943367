/**
 * The bench harness through the built mvnx and real Maven, on two cases: one a quick-fix
 * repairs with no model call, one where the scripted model only talks and never patches.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBenchCases } from '../../src/bench/cases.js';
import { runBench } from '../../src/bench/harness.js';
import { rebuildFirstPrompt } from '../../src/bench/rebuild-prompt.js';
import { formatBenchTable } from '../../src/bench/table.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('runBench', () => {
  it('measures a fixed and an unfixed case from the run records mvnx prints', async () => {
    const cases = await loadBenchCases(path.join(repoRoot, 'bench/cases'), ['missing-semicolon-statement', 'prose-only-replies']);
    const progress: string[] = [];
    const results = await runBench({ cases, mvnxBin: path.join(repoRoot, 'dist/cli/mvnx.cjs'), repeat: 1, scripted: true, onProgress: (line) => progress.push(line), rebuildPrompt: rebuildFirstPrompt });

    const [semicolon, prose] = results;
    expect(semicolon!.samples[0]).toMatchObject({ status: 'fixed', stopReason: 'fixed', exitCode: 1, modelCalls: 0, serverCalls: 0 });
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
