/**
 * The repair engine end to end: the built CLI, real Maven, a real HTTP server that
 * speaks the Ollama API with scripted replies, and the real `ollama` client.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { deadServerUrl, startOllamaMock, type OllamaMock } from '../helpers/ollama-mock.js';
import {
  copyProject,
  readRecordFile,
  repairFixtures,
  reply,
  runMvnx,
  type ProjectCopy,
} from '../helpers/repair-project.js';

const MODEL_ONLY = `tier: monitor
fixers:
  enabled: false
budget:
  dynamic: false
  maxAttempts: 4
  maxModelCalls: 4
`;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function project(name: string, config = MODEL_ONLY): Promise<ProjectCopy> {
  const copy = await copyProject(path.join(repairFixtures, name), config);
  cleanups.push(copy.remove);
  return copy;
}

async function ollama(replies: string[]): Promise<OllamaMock> {
  const mock = await startOllamaMock({ replies });
  cleanups.push(mock.close);
  return mock;
}

const verify = (host: string, ...extra: string[]) => [
  '-o',
  '-B',
  '-q',
  'verify',
  `--mvnx-host=${host}`,
  '--mvnx-json',
  ...extra,
];

describe('repair engine', () => {
  it('fixes a missing semicolon from a diff with wrong hunk counts, and leaves the tree alone under monitor', async () => {
    const copy = await project('calc-semicolon');
    const before = await copy.snapshot();
    const mock = await ollama([await reply('semicolon-wrong-counts')]);

    const run = await runMvnx(copy.root, verify(mock.url));

    expect(run.record?.status, run.stderr).toBe('fixed');
    expect(run.record?.stopReason).toBe('fixed');
    expect(run.record?.tier).toBe('monitor');
    expect(run.record?.applied).toBe(false);
    expect(run.record?.attempts.map((a) => a.outcome)).toEqual(['verified']);
    expect(run.exitCode).toBe(1);
    expect(await copy.snapshot()).toEqual(before);
    const patch = await readRecordFile(copy.root, 'fix.patch');
    expect(patch).toContain('+        int result = a * b;');
    const check = await execa('git', ['apply', '--check', '-'], { cwd: copy.root, input: patch, reject: false });
    expect(check.exitCode, check.stderr).toBe(0);
    expect(await readRecordFile(copy.root, 'attempt-1.prompt.txt')).toContain("';' expected");
    expect(mock.failures).toEqual([]);
  });

  it('takes filesChanged from the diff, not from a misleading summary', async () => {
    const copy = await project('calc-semicolon');
    const mock = await ollama([await reply('semicolon-misleading-summary')]);

    const run = await runMvnx(copy.root, verify(mock.url));

    const attempt = run.record?.attempts[0];
    expect(attempt?.outcome, run.stderr).toBe('verified');
    expect(attempt?.filesChanged).toEqual(['src/main/java/com/acme/calc/Calculator.java']);
    expect(attempt?.summary).toContain('pom.xml');
  });

  it('stops with duplicate-patch when the model repeats a wrong patch, after 2 calls', async () => {
    const copy = await project('calc-semicolon');
    const wrong = await reply('semicolon-wrong-line');
    const mock = await ollama([wrong, wrong, wrong]);

    const run = await runMvnx(copy.root, verify(mock.url));

    expect(run.record?.stopReason, run.stderr).toBe('duplicate-patch');
    expect(run.record?.status).toBe('unfixed');
    expect(mock.chatRequests()).toHaveLength(2);
    expect(run.exitCode).toBe(1);
  });

  it('stops with no-progress when two different patches leave the same error', async () => {
    const copy = await project('calc-semicolon');
    const mock = await ollama([
      await reply('semicolon-wrong-line'),
      await reply('semicolon-wrong-line-2'),
      await reply('semicolon-wrong-counts'),
    ]);

    const run = await runMvnx(copy.root, verify(mock.url));

    expect(run.record?.stopReason, run.stderr).toBe('no-progress');
    expect(run.record?.attempts.map((a) => a.outcome)).toEqual(['build-failed', 'build-failed']);
    expect(mock.chatRequests()).toHaveLength(2);
    // The second prompt tells the model how the first try failed.
    const secondPrompt = JSON.stringify(mock.chatRequests()[1]!.body);
    expect(secondPrompt).toContain('build-failed');
  });

  it('stops with provider-unavailable within 5 s when the server is down, and keeps Maven exit code', async () => {
    const copy = await project('calc-semicolon');
    const host = await deadServerUrl();

    const run = await runMvnx(copy.root, verify(host));

    expect(run.record?.stopReason, run.stderr).toBe('provider-unavailable');
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('ollama serve');
    // The contract bound: the repair (not the Maven build before it) gives up within 5 s.
    expect(run.record!.timings.totalMs).toBeGreaterThan(0);
    expect(run.record!.timings.totalMs).toBeLessThan(5_000);
  });

  it('rejects a path traversal and a protected pom.xml without building them', async () => {
    const copy = await project('calc-semicolon');
    const mock = await ollama([
      await reply('path-traversal'),
      await reply('protected-pom'),
      await reply('semicolon-wrong-counts'),
    ]);
    const before = await copy.snapshot();

    const run = await runMvnx(copy.root, verify(mock.url));

    const attempts = run.record?.attempts ?? [];
    expect(
      attempts.map((a) => a.outcome),
      run.stderr,
    ).toEqual(['rejected', 'rejected', 'verified']);
    expect(attempts[0]!.reason).toMatch(/path-traversal|absolute-path/);
    expect(attempts[1]!.reason).toContain('protected-path');
    expect(await copy.snapshot()).toEqual(before);
  });

  it('fixes a test failure in main code', async () => {
    const copy = await project('calc-logic-bug');
    const mock = await ollama([await reply('logic-bug-fix')]);

    const run = await runMvnx(copy.root, verify(mock.url));

    expect(run.record?.status, run.stderr).toBe('fixed');
    expect(run.record?.diagnostics[0]).toMatchObject({
      kind: 'test',
      test: 'com.acme.calc.CalculatorTest#multipliesTwoNumbers',
    });
    const prompt = await readRecordFile(copy.root, 'attempt-1.prompt.txt');
    expect(prompt).toContain('multipliesTwoNumbers');
  });

  it('catches a regression: a patch that fixes the target test but breaks another', async () => {
    const copy = await project('calc-logic-bug');
    const mock = await ollama([await reply('logic-bug-regression'), await reply('logic-bug-fix')]);

    const run = await runMvnx(copy.root, verify(mock.url));

    const attempts = run.record?.attempts ?? [];
    expect(
      attempts.map((a) => a.outcome),
      run.stderr,
    ).toEqual(['regressed', 'verified']);
    expect(attempts[0]!.reason).toContain('addsTwoNumbers');
  });

  it('fixes a compile error in the second module of a multi-module build', async () => {
    const copy = await project('multi');
    const mock = await ollama([await reply('multi-module-fix')]);

    const run = await runMvnx(copy.root, verify(mock.url));

    expect(run.record?.status, run.stderr).toBe('fixed');
    expect(run.record?.diagnostics[0]).toMatchObject({
      module: 'app',
      file: 'app/src/main/java/com/acme/app/WelcomeBanner.java',
    });
    expect(run.record?.attempts[0]!.filesChanged).toEqual(['app/src/main/java/com/acme/app/WelcomeBanner.java']);
  });

  it('applies the fix under auto, re-runs the build in place and exits 0', async () => {
    const copy = await project('calc-semicolon', MODEL_ONLY.replace('tier: monitor', 'tier: auto'));
    const mock = await ollama([await reply('semicolon-wrong-counts')]);

    const run = await runMvnx(copy.root, verify(mock.url));

    expect(run.record?.status, run.stderr).toBe('fixed');
    expect(run.record?.applied).toBe(true);
    expect(run.exitCode).toBe(0);
    const source = await readFile(path.join(copy.root, 'src/main/java/com/acme/calc/Calculator.java'), 'utf8');
    expect(source).toContain('int result = a * b;');
  });
});
