import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSandbox, sandboxWrap, SandboxError, type SandboxInfo } from '../../src/workspace/sandbox.js';

const bwrap: SandboxInfo = { kind: 'bwrap', available: true, executable: '/usr/bin/bwrap' };
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-sandbox-unit-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('detectSandbox', () => {
  it('mode none: no sandbox, and the reason says it was turned off', async () => {
    expect(await detectSandbox('none')).toEqual({ kind: 'none', available: true, reason: 'sandbox turned off (sandbox mode none)' });
  });

  it('auto without bubblewrap: runs unsandboxed and says why', async () => {
    const info = await detectSandbox('auto', { bwrapExecutable: path.join(scratch, 'no-bwrap') });
    expect(info.kind).toBe('none');
    expect(info.available).toBe(true);
    expect(info.reason).toMatch(/bubblewrap \(.*no-bwrap\) is not installed; verification builds run without a sandbox/);
  });

  it('bwrap demanded but missing: unavailable, with the reason', async () => {
    const info = await detectSandbox('bwrap', { bwrapExecutable: path.join(scratch, 'no-bwrap') });
    expect(info).toMatchObject({ kind: 'bwrap', available: false });
    expect(info.reason).toMatch(/is not installed/);
  });

  it('a bwrap that answers --version but cannot isolate (as in an unprivileged container) is not trusted', async () => {
    const broken = path.join(scratch, 'broken-bwrap');
    await writeFile(broken, '#!/bin/sh\n[ "$1" = --version ] && { echo "bubblewrap 0.8.0"; exit 0; }\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n');
    await chmod(broken, 0o755);
    const info = await detectSandbox('auto', { bwrapExecutable: broken });
    expect(info.kind).toBe('none');
    expect(info.reason).toMatch(/installed but cannot isolate a process here \(bwrap: No permissions to create new namespace\)/);
  });

  it('rejects an unknown mode', async () => {
    await expect(detectSandbox('docker' as 'auto')).rejects.toThrow(/unknown sandbox mode "docker"; expected auto, bwrap or none/);
  });
});

describe('sandboxWrap', () => {
  it('no sandbox: no wrap, Maven runs as is', () => {
    expect(sandboxWrap({ kind: 'none', available: true }, { workspaceRoot: '/tmp/ws', writablePaths: [], network: false })).toBeUndefined();
  });

  it('builds the bwrap command: read-only root, private /tmp, writable workspace, no network', () => {
    const wrap = sandboxWrap(bwrap, { workspaceRoot: '/tmp/mvnx-ws-a/project', writablePaths: ['/root/.m2/repository'], network: false })!;
    const [file, args] = wrap('/usr/bin/mvn', ['-o', 'verify']);
    expect(file).toBe('/usr/bin/bwrap');
    expect(args.slice(0, 3)).toEqual(['--ro-bind', '/', '/']);
    for (const flag of ['--unshare-net', '--unshare-pid', '--die-with-parent']) expect(args).toContain(flag);
    const tmpfs = args.indexOf('--tmpfs');
    const workspaceBind = args.findIndex((a, i) => a === '--bind' && args[i + 1] === '/tmp/mvnx-ws-a/project');
    expect(args[tmpfs + 1]).toBe('/tmp');
    // The workspace under /tmp must be mounted after (on top of) the private /tmp.
    expect(workspaceBind).toBeGreaterThan(tmpfs);
    expect(args.join(' ')).toContain('--bind /root/.m2/repository /root/.m2/repository');
    expect(args.slice(-6)).toEqual(['--chdir', '/tmp/mvnx-ws-a/project', '--', '/usr/bin/mvn', '-o', 'verify']);
  });

  it('refuses to build an unsandboxed command when bwrap was demanded', () => {
    expect(() => sandboxWrap({ kind: 'bwrap', available: false, reason: 'not installed' }, { workspaceRoot: '/w', writablePaths: [], network: false })).toThrow(
      /required but unavailable: not installed/,
    );
  });

  it.each([
    [{ workspaceRoot: 'relative', writablePaths: [] }, /workspaceRoot must be absolute/],
    [{ workspaceRoot: '/w', writablePaths: ['~/.m2'] }, /writablePaths must be absolute/],
    [{ workspaceRoot: '/w', writablePaths: [], cwd: 'sub' }, /cwd must be absolute/],
  ])('bad options %j are a clear error', (options, message) => {
    expect(() => sandboxWrap(bwrap, { network: false, ...options })).toThrow(message);
    expect(() => sandboxWrap(bwrap, { network: false, ...options })).toThrow(SandboxError);
  });

  it('network on is refused', () => {
    expect(() => sandboxWrap(bwrap, { workspaceRoot: '/w', writablePaths: [], network: true as false })).toThrow(/network off/);
  });
});
