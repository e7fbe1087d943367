/**
 * Ctrl-C while a verification build runs: the workspace goes and no process of the build
 * (Maven, forked JVMs, bwrap) survives. Runs a real mvnx-like child process on the built
 * package, so the signal path is the one users hit.
 */
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const distIndex = path.join(repoRoot, 'dist/workspace/index.js');
const fixture = path.join(repoRoot, 'test/fixtures/workspace/ledger');
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-interrupt-it-'));
  await cp(fixture, path.join(scratch, 'ledger'), { recursive: true });
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** Command lines of live processes that mention `needle`. */
async function processesMentioning(needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(needle)) found.push(`${pid}: ${cmdline.replaceAll('\0', ' ').slice(0, 200)}`);
  }
  return found;
}

it('SIGINT during a verification stage leaves no workspace and no build process behind', async () => {
  expect(existsSync(distIndex), `${distIndex} is missing: run npm run build first`).toBe(true);
  const script = `
    const ws = await import(${JSON.stringify(distIndex)});
    const workspace = await ws.createWorkspace(${JSON.stringify(path.join(scratch, 'ledger'))});
    const sandbox = await ws.detectSandbox('auto');
    const result = await ws.verifyInWorkspace({
      workspace, sandbox, executable: 'mvn', baselineTests: [], timeoutMs: 600000,
      env: { ...process.env, MAVEN_OPTS: '-XX:+UseSerialGC' },
      stages: [{ name: 'full', args: ['-o', '-B', 'verify'] }],
      onStage: () => process.stdout.write(workspace.root + '\\n'),
    });
    process.stdout.write('outcome ' + result.outcome + '\\n');
    await workspace.dispose();
    process.exitCode = result.outcome === 'interrupted' ? 130 : 1;
  `;
  const child = execa(process.execPath, ['--input-type=module', '-e', script], {
    reject: false,
    buffer: { stdout: false },
  });
  let output = '';
  const root = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve(output.split('\n')[0]!);
    });
    child.once('exit', () => reject(new Error(`child exited before verifying: ${output}`)));
  });

  // Wait until Maven's JVM is really running in the workspace (bwrap alone is not enough).
  const mavenJvm = async () => (await processesMentioning(root)).filter((line) => line.includes('java'));
  while ((await mavenJvm()).length === 0 && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
  expect(await mavenJvm()).not.toEqual([]);

  child.kill('SIGINT');
  const result = await child;
  expect(output).toContain('outcome interrupted');
  expect(result.exitCode).toBe(130);
  expect(existsSync(path.dirname(root))).toBe(false);
  expect(await processesMentioning(root)).toEqual([]);
});
