/**
 * The bwrap profile for real: a process started exactly as a verification stage is
 * (prepareLaunch) must not reach the network or a host Unix socket, must not write
 * outside the workspace, must see a private /tmp, an empty home but for the Maven parts,
 * no secret in its environment, and must not outlive its stage. Each check has an
 * unsandboxed control, so a check that passes for the wrong reason would show.
 */
import { execa } from 'execa';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareLaunch } from '../../src/workspace/launch.js';
import { detectSandbox } from '../../src/workspace/sandbox.js';
import { repoRoot } from '../helpers/repair-project.js';

const sandbox = await detectSandbox('bwrap');
if (!sandbox.available) console.warn(`skipping the bwrap sandbox tests: ${sandbox.reason}`);

let scratch: string;
let workspaceRoot: string;
let home: string;
let outside: string;

async function inSandbox(command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const launch = await prepareLaunch({
    sandbox,
    workspaceRoot,
    scratchDir: scratch,
    cwd: workspaceRoot,
    executable: '/usr/bin/mvn',
    args: [],
    env: { PATH: process.env.PATH, HOME: home, MAVEN_OPTS: `-Duser.home=${home}`, ...env },
    pass: [],
  });
  const [file, wrapped] = launch.wrap(command, args);
  return execa(file, wrapped, { reject: false, env: launch.env, extendEnv: false });
}

describe.skipIf(!sandbox.available)('bwrap sandbox', () => {
  beforeAll(async () => {
    // Outside /tmp: the private /tmp would hide a host folder there for the wrong reason.
    await mkdir(path.join(repoRoot, 'node_modules', '.cache'), { recursive: true });
    scratch = await mkdtemp(path.join(repoRoot, 'node_modules', '.cache', 'mvnx-sandbox-it-'));
    workspaceRoot = path.join(scratch, 'ws');
    home = path.join(scratch, 'home');
    outside = path.join(scratch, 'outside');
    await Promise.all([
      mkdir(workspaceRoot),
      mkdir(path.join(home, '.m2', 'repository'), { recursive: true }),
      mkdir(outside),
    ]);
    await writeFile(
      path.join(home, '.m2', 'settings.xml'),
      '<settings><servers><server><password>Settings-S3cret</password></server></servers></settings>',
    );
    await writeFile(path.join(home, '.ssh-key'), 'private');
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('has no network but loopback', async () => {
    const result = await inSandbox('cat', ['/proc/net/dev']);
    expect(result.exitCode).toBe(0);
    const interfaces = result.stdout
      .split('\n')
      .slice(2)
      .map((line) => line.split(':')[0]!.trim())
      .filter(Boolean);
    expect(interfaces).toEqual(['lo']);
  });

  it('cannot connect to a TCP server or a Unix socket on the host, which the host itself reaches', async () => {
    const server = net.createServer((socket) => socket.on('error', () => undefined).end('hello\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const socketPath = path.join(outside, 'agent.sock');
    const unix = net.createServer((socket) => socket.on('error', () => undefined).end('hello\n'));
    await new Promise<void>((resolve) => unix.listen(socketPath, resolve));
    const connect = (target: string) =>
      `require('net').connect(${target}).on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(3); })`;
    try {
      for (const target of [`${port}, '127.0.0.1'`, JSON.stringify(socketPath)]) {
        const control = await execa(process.execPath, ['-e', connect(target)], { reject: false });
        expect(control.stdout).toBe('connected');
        // `node` by PATH, not process.execPath: the sandbox shows system folders only, and the
        // Node lines of scripts/node-lines.mjs run from node_modules/.cache (PATH then finds /usr's).
        const sandboxed = await inSandbox('node', ['-e', connect(target)]);
        expect(sandboxed.exitCode, `${target}: ${sandboxed.stderr}`).toBe(3);
        expect(['ECONNREFUSED', 'ENOENT']).toContain(sandboxed.stdout);
      }
    } finally {
      server.close();
      unix.close();
    }
  });

  it('cannot write the home folder or anything else outside the workspace', async () => {
    const beside = await inSandbox('sh', ['-c', `echo x > ${path.join(outside, 'f')}`]);
    expect(beside.exitCode).not.toBe(0);
    expect(existsSync(path.join(outside, 'f'))).toBe(false);
    const repo = await inSandbox('sh', ['-c', `echo x > ${path.join(home, '.m2', 'repository', 'probe')}`]);
    expect(repo.stderr).toMatch(/Read-only file system/);
    expect(existsSync(path.join(home, '.m2', 'repository', 'probe'))).toBe(false);
    await inSandbox('sh', ['-c', `echo x > ${path.join(home, 'dropped')}`]);
    expect(existsSync(path.join(home, 'dropped'))).toBe(false);
  });

  it('sees an empty home but for the Maven parts, and settings.xml without its passwords', async () => {
    const listing = await inSandbox('sh', ['-c', `ls -A ${home}; cat ${path.join(home, '.m2', 'settings.xml')}`]);
    expect(listing.exitCode, listing.stderr).toBe(0);
    expect(listing.stdout).not.toContain('.ssh-key');
    expect(listing.stdout).toContain('<password></password>');
    expect(listing.stdout).not.toContain('Settings-S3cret');
    expect(readFileSync(path.join(home, '.m2', 'settings.xml'), 'utf8')).toContain('Settings-S3cret');
  });

  it('gets only the allowlisted environment', async () => {
    const result = await inSandbox('env', [], { GITHUB_TOKEN: 'ghp_not_for_builds', CI: 'true', LANG: 'C.UTF-8' });
    const names = result.stdout
      .split('\n')
      .map((line) => line.split('=')[0])
      .filter(Boolean)
      .sort();
    // PWD is bwrap's own, for --chdir.
    expect(names).toEqual(['HOME', 'LANG', 'MAVEN_OPTS', 'PATH', 'PWD', 'TMPDIR']);
  });

  it('writes the workspace, and a background process dies with the stage (PID namespace)', async () => {
    const marker = `777.${process.pid}`;
    const result = await inSandbox('sh', [
      '-c',
      `echo built > ${path.join(workspaceRoot, 'out.txt')}; (sleep ${marker} &) ; echo started`,
    ]);
    expect(result.stdout).toBe('started');
    expect(await readFile(path.join(workspaceRoot, 'out.txt'), 'utf8')).toBe('built\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const alive = readdirSync('/proc').filter(
      (pid) =>
        /^\d+$/.test(pid) &&
        (() => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(marker);
          } catch {
            return false;
          }
        })(),
    );
    expect(alive).toEqual([]);
  });

  it('has a private /tmp and starts in the workspace', async () => {
    const name = `mvnx-private-tmp-${process.pid}`;
    const result = await inSandbox('sh', ['-c', `echo x > /tmp/${name} && pwd`]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(workspaceRoot);
    expect(existsSync(path.join('/tmp', name))).toBe(false);
  });
});
