/**
 * The container backend when a stage is interrupted (Ctrl-C, a timeout): the client is
 * killed with the stage's process group, and the container, which a real daemon keeps
 * running without its client, is removed by name. Driven through verifyInWorkspace with
 * the fake client of test/helpers/fake-container (it logs every call and runs the command
 * under bubblewrap).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../src/workspace/workspace.js';
import { detectSandbox, type SandboxInfo } from '../../src/workspace/sandbox.js';
import { verifyInWorkspace } from '../../src/workspace/verify.js';
import { repoRoot } from '../helpers/repair-project.js';

const bwrap = await detectSandbox('bwrap');
const fakeDocker = path.join(repoRoot, 'test/helpers/fake-container/docker');
const IMAGE = 'mvnx-test/maven-jdk17:fake';

let scratch: string;
let workspace: Workspace;
let log: string;
const marker = `41.${process.pid}`;

function alive(): number[] {
  return readdirSync('/proc')
    .filter((pid) => {
      if (!/^\d+$/.test(pid)) return false;
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe.skipIf(!bwrap.available)('container backend: an interrupted stage', () => {
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-container-it-'));
    const project = path.join(scratch, 'p');
    await mkdir(project);
    await writeFile(path.join(project, 'pom.xml'), '<project/>');
    // The project's own wrapper runs as it is inside the container: here it just hangs.
    await writeFile(path.join(project, 'mvnw'), `#!/bin/sh\necho "building"\nexec sleep ${marker}\n`);
    await chmod(path.join(project, 'mvnw'), 0o755);
    workspace = await createWorkspace(project);
    log = path.join(scratch, 'calls.jsonl');
  });
  afterAll(async () => {
    for (const pid of alive()) process.kill(pid, 'SIGKILL');
    await workspace.dispose();
    await rm(scratch, { recursive: true, force: true });
  });

  it('kills the client and removes the container by name', async () => {
    const sandbox: SandboxInfo = {
      kind: 'docker',
      isolated: true,
      available: true,
      executable: fakeDocker,
      image: IMAGE,
      tried: [],
    };
    const abort = new AbortController();
    const env = {
      PATH: process.env.PATH,
      HOME: path.join(scratch, 'home'),
      FAKE_CONTAINER_IMAGE: IMAGE,
      FAKE_CONTAINER_LOG: log,
    };
    const started = Date.now();
    const waitForBuild = (async () => {
      while (alive().length === 0 && Date.now() - started < 20_000)
        await new Promise((resolve) => setTimeout(resolve, 100));
      abort.abort();
    })();

    const result = await verifyInWorkspace({
      workspace,
      stages: [{ name: 'full', args: ['verify'] }],
      executable: path.join(workspace.source, 'mvnw'),
      env,
      sandbox,
      baselineTests: [],
      timeoutMs: 60_000,
      signal: abort.signal,
    });
    await waitForBuild;

    expect(result.outcome).toBe('interrupted');
    const calls = (await readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { args: string[] });
    const run = calls.find((call) => call.args[0] === 'run')!;
    const name = run.args[run.args.indexOf('--name') + 1]!;
    expect(name).toMatch(/^mvnx-verify-[0-9a-f]+$/);
    expect(run.args).toContain(path.join(workspace.root, 'mvnw'));
    expect(calls.map((call) => call.args.join(' '))).toContain(`rm -f ${name}`);
    expect(alive()).toEqual([]);
    expect(existsSync(workspace.root)).toBe(true);
  });
});
