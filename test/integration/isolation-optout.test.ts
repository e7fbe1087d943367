/**
 * Who may tell `auto` to trust an unisolated verdict: only `sandbox.mode: none` written in
 * a config file (the team declares the environment itself the sandbox, e.g. an ephemeral
 * CI container). The same mode from a flag does not: the fix is suggested, not applied.
 * Both runs still print the one warning line.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOllamaMock } from '../helpers/ollama-mock.js';
import { copyProject, repairFixtures, reply, runMvnx } from '../helpers/repair-project.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const AUTO = `tier: auto
fixers:
  enabled: false
budget:
  dynamic: false
  maxAttempts: 2
  maxModelCalls: 2
`;

async function run(config: string, ...extra: string[]) {
  const copy = await copyProject(path.join(repairFixtures, 'calc-logic-bug'), config);
  cleanups.push(copy.remove);
  const mock = await startOllamaMock({ replies: [await reply('logic-bug-fix')] });
  cleanups.push(mock.close);
  return runMvnx(copy.root, ['-o', '-B', '-q', 'verify', `--mvnx-host=${mock.url}`, '--mvnx-json', ...extra]);
}

describe('sandbox.mode none', () => {
  it('written in the config file: auto applies, the record says the team opted out, and the warning is still printed', async () => {
    const result = await run(`${AUTO}sandbox:\n  mode: none\n`);

    expect(result.record?.status, result.stderr).toBe('fixed');
    expect(result.record?.sandbox).toEqual({
      kind: 'none',
      isolated: false,
      reason: 'sandbox.mode is none: verification builds run with your rights, network and files',
    });
    expect(result.record?.applied).toBe(true);
    expect(result.record?.decisions.join('\n')).toContain(
      '.mvnxrc.yaml sets sandbox.mode none (the environment is the sandbox)',
    );
    expect(result.stderr.split('\n').filter((line) => line.includes('WITHOUT isolation'))).toHaveLength(1);
    expect(result.exitCode).toBe(0);
  });

  it('from a flag: the verdict is not trusted, the fix is suggested instead', async () => {
    const result = await run(AUTO, '--mvnx-sandbox=none');

    expect(result.record?.status, result.stderr).toBe('fixed');
    expect(result.record?.applied).toBe(false);
    expect(result.record?.tier).toBe('assist');
    expect(result.record?.decisions.join('\n')).toMatch(
      /verification ran without isolation \(sandbox.mode is none.*\), so its verdict is not applied without you.*tier drops to assist/,
    );
    expect(result.exitCode).toBe(1);
  });
});
