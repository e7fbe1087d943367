/**
 * The live line while the model writes, on a real terminal: the built progress display
 * run under `script` (a pty), so listr2 renders as it does for a developer.
 */
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';

const progressModule = fileURLToPath(new URL('../../dist/report/progress.js', import.meta.url));

describe('progress on a terminal', () => {
  it('shows one live line with the tokens so far and the rate while the model writes', async () => {
    const program = [
      `const { createProgress } = await import(${JSON.stringify(progressModule)});`,
      'const progress = createProgress({ interactive: true });',
      "await progress.run('repairing', async () => {",
      "  progress.step('attempt 1: asking the model');",
      // Before the first token: the prompt's wait, estimated at the rate the run's previous request measured.
      '  progress.promptSent(1800, 60);',
      '  await new Promise((resolve) => setTimeout(resolve, 400));',
      '  for (let i = 0; i < 30; i++) {',
      "    progress.tokens('token ');",
      '    await new Promise((resolve) => setTimeout(resolve, 60));',
      '  }',
      '});',
    ].join('\n');
    const file = fileURLToPath(new URL('../../dist/progress-pty-probe.mjs', import.meta.url));
    const { writeFile, rm } = await import('node:fs/promises');
    await writeFile(file, program);
    try {
      // A pty of its own, 200 columns wide (script's has none when the tests have no terminal).
      const run = await execa('script', ['-qec', `stty cols 200 rows 40; node ${file}`, '/dev/null'], {
        reject: false,
        env: { TERM: 'xterm' },
      });
      expect(run.exitCode, run.stdout).toBe(0);
      expect(run.stdout).toContain(
        'attempt 1: asking the model: reading the prompt: ~1,800 tokens, about 30 s at the last measured 60 tokens/s',
      );
      expect(run.stdout).toMatch(/attempt 1: asking the model: \d+ tokens, \d+\.\d tokens\/s · token/);
    } finally {
      await rm(file, { force: true });
    }
  }, 60_000);

  it("an answer nobody streamed (the agent's): the prompt's line, then the step's own title once the answer is in", async () => {
    const program = [
      `const { createProgress } = await import(${JSON.stringify(progressModule)});`,
      'const progress = createProgress({ interactive: true });',
      "await progress.run('repairing', async () => {",
      "  progress.step('attempt 1 (agent): asking the model');",
      '  progress.promptSent(2400, 60);',
      '  await new Promise((resolve) => setTimeout(resolve, 500));',
      '  progress.promptAnswered();',
      '  await new Promise((resolve) => setTimeout(resolve, 500));',
      '});',
    ].join('\n');
    const file = fileURLToPath(new URL('../../dist/progress-pty-agent-probe.mjs', import.meta.url));
    const { writeFile, rm } = await import('node:fs/promises');
    await writeFile(file, program);
    try {
      const run = await execa('script', ['-qec', `stty cols 200 rows 40; node ${file}`, '/dev/null'], {
        reject: false,
        env: { TERM: 'xterm' },
      });
      expect(run.exitCode, run.stdout).toBe(0);
      const waitLine = 'attempt 1 (agent): asking the model: reading the prompt: ~2,400 tokens, about 40 s';
      expect(run.stdout).toContain(waitLine);
      // After the wait line's last frame, the step's title alone (no ': reading the prompt').
      const after = run.stdout.slice(run.stdout.lastIndexOf(waitLine) + waitLine.length);
      expect(after).toMatch(/attempt 1 \(agent\): asking the model(?!:)/);
      expect(after).not.toContain('reading the prompt');
    } finally {
      await rm(file, { force: true });
    }
  }, 60_000);
});
