/**
 * The pre-push hook end to end: a bare remote on disk, a working clone with a tiny Maven
 * project, `mvnx hook install` through the built CLI, and real `git push`es.
 */
import { execa } from 'execa';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(repoRoot, 'dist/cli/mvnx.cjs');
const fixtures = path.join(repoRoot, 'test/fixtures/hook');
const greeter = 'src/main/java/com/acme/hello/Greeter.java';

let scratch: string;
let remote: string;
let work: string;
const env = {
  ...process.env,
  MAVEN_OPTS: '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  MVNX_BIN: '',
  CI: 'true',
};

const git = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
  execa('git', args, { cwd: work, env: { ...env, ...extraEnv }, reject: false });
const remoteHead = async () => (await execa('git', ['rev-parse', 'main'], { cwd: remote })).stdout.trim();
const localHead = async () => (await git(['rev-parse', 'HEAD'])).stdout.trim();

async function commitGreeter(body: string, message: string): Promise<void> {
  const source = (await readFile(path.join(work, greeter), 'utf8')).replace(/return .*;/, body);
  await writeFile(path.join(work, greeter), source);
  await git(['commit', '-q', '-am', message]);
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'mvnx-hook-it-'));
  remote = path.join(scratch, 'remote.git');
  work = path.join(scratch, 'work');
  await execa('git', ['init', '-q', '--bare', '-b', 'main', remote]);
  await execa('git', ['clone', '-q', remote, work], { env });
  await cp(path.join(fixtures, 'project'), work, { recursive: true });
  await git(['checkout', '-q', '-b', 'main']);
  await git(['add', '.']);
  await git(['commit', '-q', '-m', 'hello']);
  await git(['push', '-q', 'origin', 'main']);
  const install = await execa('node', [cli, 'hook', 'install', '--goals', '-o -q verify --mvnx-tier=off'], {
    cwd: work,
    env,
    reject: false,
  });
  expect(install.stderr).toContain('installed the pre-push hook');
  expect(install.exitCode).toBe(0);
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('the pre-push hook with real git', () => {
  it('lets a good commit through', async () => {
    await commitGreeter('return "Hello, " + name + "!";  // greeting', 'comment the greeting');
    const push = await git(['push', 'origin', 'main']);
    expect(push.stderr).toContain('mvnx pre-push: mvnx -o -q verify --mvnx-tier=off');
    expect(push.exitCode).toBe(0);
    expect(await remoteHead()).toBe(await localHead());
  });

  it('blocks a commit whose build fails, and --no-verify bypasses it', async () => {
    const before = await remoteHead();
    await commitGreeter('return "Hello, " + name;', 'drop the exclamation mark');
    const push = await git(['push', 'origin', 'main']);
    expect(push.exitCode).not.toBe(0);
    expect(push.stderr).toContain('mvnx: push blocked: the build failed (exit 1).');
    expect(push.stderr).toContain('git push --no-verify');
    expect(await remoteHead()).toBe(before);

    const bypass = await git(['push', '--no-verify', 'origin', 'main']);
    expect(bypass.exitCode).toBe(0);
    expect(await remoteHead()).toBe(await localHead());
  });

  it('prints how to apply the verified fix that mvnx recorded', async () => {
    const before = await remoteHead();
    await commitGreeter('return "Hi, " + name;', 'shorter greeting');
    const push = await git(['push', 'origin', 'main'], {
      MVNX_BIN: path.join(fixtures, 'fixed-run', 'stand-in-mvnx.sh'),
    });
    expect(push.exitCode).toBe(1);
    expect(push.stderr).toContain(
      'mvnx: push blocked: the build failed, and mvnx has a verified fix (run 20240514-101500Z-a1b2c3).',
    );
    expect(push.stderr).toContain('mvnx apply 20240514-101500Z-a1b2c3   then commit and push again');
    expect(push.stderr).toContain('cat ./.mvnx/runs/20240514-101500Z-a1b2c3/fix.patch');
    expect(await remoteHead()).toBe(before);
  });

  it('uninstalls, after which pushes no longer run the build', async () => {
    const uninstall = await execa('node', [cli, 'hook', 'uninstall'], { cwd: work, env, reject: false });
    expect(uninstall.exitCode).toBe(0);
    const push = await git(['push', 'origin', 'main']);
    expect(push.exitCode).toBe(0);
    expect(push.stderr).not.toContain('mvnx pre-push');
  });
});
