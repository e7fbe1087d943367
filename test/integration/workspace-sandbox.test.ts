/**
 * The sandbox for real: bubblewrap processes must not reach the network, must not write
 * outside the workspace, and must see a private /tmp. Each check has an unsandboxed
 * control, so a check that passes for the wrong reason (a broken helper) would show.
 */
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSandbox, sandboxWrap } from '../../src/workspace/sandbox.js';

const sandbox = await detectSandbox('bwrap');
if (!sandbox.available) console.warn(`skipping the bwrap sandbox tests: ${sandbox.reason}`);

let scratch: string;
let workspaceRoot: string;
let extraWritable: string;
let outside: string;

async function inSandbox(command: string, args: string[], writablePaths: string[] = []) {
  const wrap = sandboxWrap(sandbox, { workspaceRoot, writablePaths, network: false })!;
  const [file, wrapped] = wrap(command, args);
  return execa(file, wrapped, { reject: false });
}

describe.skipIf(!sandbox.available)('bwrap sandbox', () => {
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-sandbox-it-'));
    workspaceRoot = path.join(scratch, 'ws');
    extraWritable = path.join(scratch, 'repo');
    outside = path.join(scratch, 'outside');
    await Promise.all([mkdir(workspaceRoot), mkdir(extraWritable), mkdir(outside)]);
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('has no network but loopback', async () => {
    const result = await inSandbox('cat', ['/proc/net/dev']);
    expect(result.exitCode).toBe(0);
    const interfaces = result.stdout.split('\n').slice(2).map((line) => line.split(':')[0]!.trim()).filter(Boolean);
    expect(interfaces).toEqual(['lo']);
  });

  it('cannot connect to a server on the host, which the host itself reaches', async () => {
    // The control client exits as soon as it connects; its reset is expected.
    const server = net.createServer((socket) => socket.on('error', () => undefined).end('hello\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const connect = `require('net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(3); })`;
    try {
      const control = await execa(process.execPath, ['-e', connect], { reject: false });
      expect(control.stdout).toBe('connected');
      const sandboxed = await inSandbox(process.execPath, ['-e', connect]);
      expect(sandboxed.exitCode).toBe(3);
      expect(sandboxed.stdout).toBe('ECONNREFUSED');
    } finally {
      server.close();
    }
  });

  it('cannot write the home folder or anything else outside the workspace', async () => {
    const home = os.homedir();
    const target = path.join(home, `mvnx-sandbox-probe-${process.pid}`);
    const result = await inSandbox('touch', [target]);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/Read-only file system/);
    expect(existsSync(target)).toBe(false);

    const beside = await inSandbox('sh', ['-c', `echo x > ${path.join(outside, 'f')}`]);
    expect(beside.exitCode).not.toBe(0);
    expect(existsSync(path.join(outside, 'f'))).toBe(false);
  });

  it('writes the workspace and the paths it is given, and only those', async () => {
    const ok = await inSandbox('sh', ['-c', `echo built > ${path.join(workspaceRoot, 'out.txt')} && echo repo > ${path.join(extraWritable, 'a.jar')}`], [extraWritable]);
    expect(ok.exitCode).toBe(0);
    expect(await readFile(path.join(workspaceRoot, 'out.txt'), 'utf8')).toBe('built\n');
    expect(await readFile(path.join(extraWritable, 'a.jar'), 'utf8')).toBe('repo\n');

    const notGiven = await inSandbox('sh', ['-c', `echo again > ${path.join(extraWritable, 'b.jar')}`]);
    expect(notGiven.exitCode).not.toBe(0);
  });

  it('has a private /tmp: what the build leaves there is gone, and the host’s /tmp is not visible', async () => {
    const name = `mvnx-private-tmp-${process.pid}`;
    const hostFile = path.join(outside, 'host-only');
    await writeFile(hostFile, 'host');
    const result = await inSandbox('sh', ['-c', `echo x > /tmp/${name} && ls /tmp && ls ${scratch}`]);
    expect(result.exitCode).toBe(0);
    const listed = result.stdout.split('\n');
    expect(listed).toContain(name);
    // Only the workspace's own mount point exists under the private /tmp.
    expect(listed).toContain('ws');
    expect(listed).not.toContain('outside');
    expect(existsSync(path.join('/tmp', name))).toBe(false);
    expect((await inSandbox('cat', [hostFile])).exitCode).not.toBe(0);
  });

  it('starts in the workspace', async () => {
    const result = await inSandbox('pwd', []);
    expect(result.stdout).toBe(workspaceRoot);
  });
});
