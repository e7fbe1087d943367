import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxError } from '../../src/workspace/sandbox.js';
import { verifyInWorkspace, type VerifyInput } from '../../src/workspace/verify.js';
import { createWorkspace, type Workspace } from '../../src/workspace/workspace.js';

let scratch: string;
let workspace: Workspace;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-verify-unit-'));
  await mkdir(path.join(scratch, 'p'));
  await writeFile(path.join(scratch, 'p/pom.xml'), '<project/>');
  workspace = await createWorkspace(path.join(scratch, 'p'));
});
afterAll(async () => {
  await workspace.dispose();
  await rm(scratch, { recursive: true, force: true });
});

const valid = (): VerifyInput => ({
  workspace,
  stages: [{ name: 'full', args: ['verify'] }],
  executable: 'mvn',
  sandbox: { kind: 'none', isolated: false, available: true, tried: [] },
  baselineTests: [],
  timeoutMs: 1_000,
});

describe('verifyInWorkspace input checks (before any Maven runs)', () => {
  it.each([
    [{ stages: [] }, /at least one stage/],
    [{ executable: '' }, /needs the Maven executable/],
    [{ timeoutMs: 0 }, /timeoutMs must be a positive number/],
    [{ timeoutMs: Number.NaN }, /timeoutMs must be a positive number/],
    [{ baselineTests: undefined as unknown as [] }, /baseline test results/],
    [{ workspace: { root: '/x' } as unknown as Workspace }, /workspace made by createWorkspace/],
  ])('%j is a clear error', async (bad, message) => {
    await expect(verifyInWorkspace({ ...valid(), ...bad })).rejects.toThrow(message);
  });

  it('refuses to run unsandboxed when bwrap was demanded but is unavailable', async () => {
    const run = verifyInWorkspace({
      ...valid(),
      sandbox: {
        kind: 'bwrap',
        isolated: false,
        available: false,
        reason: 'bubblewrap (bwrap) is not installed',
        tried: [],
      },
    });
    await expect(run).rejects.toThrow(SandboxError);
    await expect(
      verifyInWorkspace({
        ...valid(),
        sandbox: { kind: 'bwrap', isolated: false, available: false, reason: 'x', tried: [] },
      }),
    ).rejects.toThrow(/required but unavailable: x/);
  });

  it('a bad stage argument list is reported, not run', async () => {
    await expect(verifyInWorkspace({ ...valid(), stages: [{ name: 'full', args: ['-pl'] }] })).rejects.toThrow(
      /-pl needs a value/,
    );
  });
});
