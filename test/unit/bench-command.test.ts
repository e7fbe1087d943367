import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/commands/bench.js';

const io = { cwd: process.cwd(), env: {} };

describe('mvnx bench arguments', () => {
  it.each([
    [['--edit-format', 'json'], '--edit-format needs --host'],
    [['--host', 'http://127.0.0.1:11434', '--edit-format', 'xml'], 'expected diff, search-replace or json'],
    [['--model', 'qwen2.5-coder:7b'], '--model needs --host'],
    [['--repeat', '0'], 'expected a whole number from 1 to 100'],
    [['--host', 'localhost'], 'expected a URL'],
    [['--frobnicate'], 'unknown argument --frobnicate'],
  ])('%j is refused with a clear line', async (args, message) => {
    await expect(run(args, io)).rejects.toThrow(message);
  });
});

describe('mvnx bench reads its arguments through the shared subcommand reader', () => {
  it.each([
    [['--repeat'], 'mvnx bench: --repeat needs a value; usage: mvnx bench'],
    [['--only='], 'mvnx bench: --only needs a value; usage: mvnx bench'],
    [['--json=yes'], 'mvnx bench: --json takes no value; usage: mvnx bench'],
    [['extra'], 'mvnx bench: unknown argument extra; usage: mvnx bench'],
  ])('%j', async (args, message) => {
    await expect(run(args, io)).rejects.toThrow(message);
  });
});

describe('mvnx bench as installed from the npm package', () => {
  it('finds its cases: bench/cases, the folder it falls back to outside a checkout, is among the package files', async () => {
    const { readFile } = await import('node:fs/promises');
    const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      files: string[];
    };
    expect(manifest.files).toContain('bench/cases');
    // The server mvnx bench scripts the model with ships in dist/ (src/bench/), the tests' faults do not.
    const server = await readFile(new URL('../../src/bench/ollama-api-server.ts', import.meta.url), 'utf8');
    for (const fault of ['failIfCalled', 'modelMissing', 'busy', 'errorAfterChunks', 'hang'])
      expect(server).not.toMatch(new RegExp(`\\b${fault}\\??:|\\.${fault}\\b`));
  });
});
