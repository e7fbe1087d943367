import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from '../../src/cli/commands/apply.js';
import { toUnifiedDiffBytes } from '../../src/patch/index.js';
import type { ChangeSet } from '../../src/patch/types.js';
import { RunRecorder, readRunRecord, type RunRecord } from '../../src/report/run-record.js';
import { fixBaseOf } from '../../src/app/tier-actions.js';

const SOURCE = 'src/main/java/com/acme/calc/Calculator.java';
const before =
  'package com.acme.calc;\n\npublic class Calculator {\n    int twice(int a) {\n        return a * 2\n    }\n}\n';
const after = before.replace('a * 2\n', 'a * 2;\n');
const fix: ChangeSet = { files: [{ path: SOURCE, before, after }] };

const roots: string[] = [];
afterEach(async () => {
  while (roots.length > 0) await rm(roots.pop()!, { recursive: true, force: true });
});

async function projectWithRun(
  overrides: Partial<RunRecord> = {},
  recorded: ChangeSet = fix,
): Promise<{ root: string; runId: string }> {
  const root = await mkdtemp(path.join(tmpdir(), 'mvnx-apply-'));
  roots.push(root);
  await writeFile(path.join(root, 'pom.xml'), '<project/>\n');
  await mkdir(path.join(root, path.dirname(SOURCE)), { recursive: true });
  await writeFile(path.join(root, SOURCE), before);
  const recorder = await RunRecorder.open(root);
  await recorder.writeFixPatch(toUnifiedDiffBytes(recorded));
  const now = new Date().toISOString();
  await recorder.writeRecord({
    runId: recorder.runId,
    startedAt: now,
    finishedAt: now,
    mavenArgs: ['-o', 'verify'],
    mavenExitCode: 1,
    tier: 'assist',
    status: 'fixed',
    stopReason: 'fixed',
    diagnostics: [],
    attempts: [],
    applied: false,
    decisions: [],
    fixBase: fixBaseOf(fix),
    modelCalls: 0,
    timings: { totalMs: 1, modelMs: 0, applyMs: 0, verifyMs: 0 },
    ...overrides,
  });
  return { root, runId: recorder.runId };
}

describe('mvnx apply', () => {
  it('applies the latest recorded fix and marks the run applied', async () => {
    const { root, runId } = await projectWithRun();
    expect(await run([], { cwd: root, env: {} })).toBe(0);
    expect(await readFile(path.join(root, SOURCE), 'utf8')).toBe(after);
    expect((await readRunRecord(root, runId)).applied).toBe(true);
  });

  it('refuses a tree whose file changed since the fix was made, and leaves it alone', async () => {
    const { root, runId } = await projectWithRun();
    const edited = before.replace('twice', 'double');
    await writeFile(path.join(root, SOURCE), edited);
    await expect(run([runId], { cwd: root, env: {} })).rejects.toThrow(`${SOURCE} changed since run ${runId}`);
    expect(await readFile(path.join(root, SOURCE), 'utf8')).toBe(edited);
  });

  it('refuses to write through a file that became a symlink meanwhile, even with the same content', async () => {
    const { root, runId } = await projectWithRun();
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'mvnx-apply-elsewhere-'));
    roots.push(elsewhere);
    await writeFile(path.join(elsewhere, 'Calculator.java'), before);
    await rm(path.join(root, SOURCE));
    await symlink(path.join(elsewhere, 'Calculator.java'), path.join(root, SOURCE));
    await expect(run([runId], { cwd: root, env: {} })).rejects.toThrow('outside the project');
    expect(await readFile(path.join(elsewhere, 'Calculator.java'), 'utf8')).toBe(before);
  });

  it('refuses a run without a verified fix', async () => {
    const { root, runId } = await projectWithRun({ status: 'unfixed', stopReason: 'no-progress' });
    await expect(run([runId], { cwd: root, env: {} })).rejects.toThrow(
      'has no verified fix (status unfixed, stop reason no-progress)',
    );
  });

  it.each([
    [['../../etc'], 'is not a run id'],
    [['20200101-000000Z-abcdef'], 'no run 20200101-000000Z-abcdef'],
  ])('%j is refused with a clear line', async (args, message) => {
    const { root } = await projectWithRun();
    await expect(run(args, { cwd: root, env: {} })).rejects.toThrow(message);
  });

  it.each([
    [['--force'], 'unknown argument --force'],
    [['-x', 'abc'], 'unknown argument -x'],
    [['a', 'b'], 'one run id at a time, got a and b'],
  ])('%j is refused with the usage error (exit 2) and nothing applied', async (args, what) => {
    const { root } = await projectWithRun();
    await expect(run(args, { cwd: root, env: {} })).rejects.toMatchObject({
      exitCode: 2,
      message: `mvnx apply: ${what}; usage: mvnx apply [RUN_ID]   (default: the latest run)`,
    });
    expect(await readFile(path.join(root, SOURCE), 'utf8')).toBe(before);
  });

  it('applies a fix to a Latin-1 file (patch.allowNonUtf8): its bytes are not stale the moment the fix is made', async () => {
    // "é" is one byte (0xE9) in Latin-1 and not valid UTF-8: read as UTF-8 it becomes U+FFFD.
    const latin1Before = `${before.replace('public class', '/** Qualité */\npublic class')}`;
    const latin1Fix: ChangeSet = {
      files: [
        { path: SOURCE, before: latin1Before, after: latin1Before.replace('a * 2\n', 'a * 2;\n'), encoding: 'latin1' },
      ],
    };
    const { root, runId } = await projectWithRun({ fixBase: fixBaseOf(latin1Fix) }, latin1Fix);
    await writeFile(path.join(root, SOURCE), Buffer.from(latin1Before, 'latin1'));
    expect(await run([runId], { cwd: root, env: {} })).toBe(0);
    expect((await readFile(path.join(root, SOURCE))).equals(Buffer.from(latin1Fix.files[0]!.after!, 'latin1'))).toBe(
      true,
    );
    expect((await readRunRecord(root, runId)).applied).toBe(true);
  });

  it('finds the runs from a folder inside the project, as mvnx runs does', async () => {
    const { root, runId } = await projectWithRun();
    const inside = path.join(root, path.dirname(SOURCE));
    expect(await run([], { cwd: inside, env: {} })).toBe(0);
    expect(await readFile(path.join(root, SOURCE), 'utf8')).toBe(after);
    expect((await readRunRecord(root, runId)).applied).toBe(true);
  });

  it('refuses a run.json that is not a valid record, naming the field, before acting on it', async () => {
    const { root, runId } = await projectWithRun();
    const file = path.join(root, '.mvnx', 'runs', runId, 'run.json');
    const record = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...record, fixBase: 'src/main/java/com/acme/calc/Calculator.java' }));
    await expect(run([runId], { cwd: root, env: {} })).rejects.toThrow(
      `mvnx apply: ${file} is not a run record: fixBase: `,
    );
    await writeFile(file, '{"runId": ');
    await expect(run([runId], { cwd: root, env: {} })).rejects.toThrow(`${file} is not a run record: not JSON`);
    expect(await readFile(path.join(root, SOURCE), 'utf8')).toBe(before);
  });

  it('says so when nothing was recorded', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'mvnx-apply-'));
    roots.push(root);
    await writeFile(path.join(root, 'pom.xml'), '<project/>\n');
    await expect(run([], { cwd: root, env: {} })).rejects.toThrow('no runs recorded');
  });
});

describe('applying in place (tier auto)', () => {
  it('refuses when the real tree no longer matches what the fix was made against', async () => {
    const { root } = await projectWithRun();
    const { applyInPlace } = await import('../../src/app/tier-actions.js');
    await writeFile(path.join(root, SOURCE), `${before}// edited meanwhile\n`);
    const outcome = await applyInPlace({ projectRoot: root, fix });
    expect(outcome).toMatchObject({ applied: false });
    expect(outcome.message).toContain(`not applied: ${SOURCE} changed since the fix was made`);
    expect(await readFile(path.join(root, SOURCE), 'utf8')).toBe(`${before}// edited meanwhile\n`);
  });
});
