/**
 * The built CLI in front of real Maven (`mvn -o`): the example projects' exit codes and
 * Ctrl-C reaching every JVM of the build.
 */
import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../../dist/cli/mvnx.cjs', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
const cleanups: string[] = [];
afterEach(async () => {
  for (const dir of cleanups.splice(0)) await rm(dir, { recursive: true, force: true });
});

function env(): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('MVNX_')) clean[name] = value;
  return { ...clean, MAVEN_OPTS: '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC', MVNX_HOST: 'http://127.0.0.1:9' };
}

async function copyExample(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `mvnx-example-${name}-`));
  cleanups.push(dir);
  await cp(path.join(EXAMPLES, name), dir, {
    recursive: true,
    filter: (source) => !/[\\/](target|\.mvnx)$/.test(source),
  });
  return dir;
}

function mvnx(args: string[], cwd: string) {
  return execa('node', [MAIN, ...args], { cwd, env: env(), extendEnv: false, reject: false, stdin: 'ignore' });
}

describe('the example projects through mvnx', () => {
  it('passing: exits 0 and prints nothing of mvnx', async () => {
    const dir = await copyExample('passing');
    const run = await mvnx(['-o', '-B', '-q', 'verify'], dir);
    expect(run.exitCode).toBe(0);
    expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/mvnx/i);
    await expect(stat(path.join(dir, '.mvnx'))).rejects.toThrow();
  });

  it('multi-module: exits 0', async () => {
    const run = await mvnx(['-o', '-B', '-q', 'verify'], await copyExample('multi-module'));
    expect(run.exitCode).toBe(0);
  });

  it("compile-error: exits 1 with tier off, and Maven's log names the missing symbol", async () => {
    const run = await mvnx(['-o', '-B', '-q', 'verify', '--mvnx-tier=off'], await copyExample('compile-error'));
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/Inventory\.java:\[6,19\] cannot find symbol/);
    expect(run.stdout).toContain('symbol:   class List');
  });

  it('failing-test: exits 1 with tier off, and Surefire names the failing test', async () => {
    const run = await mvnx(['-o', '-B', '-q', 'verify', '--mvnx-no-fix'], await copyExample('failing-test'));
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('StatsTest.sumsEveryValue');
  });
});

describe('Ctrl-C', () => {
  it('reaches Maven and its forked test JVM: mvnx exits 130 and no java process of the run remains', async () => {
    const dir = await copyExample('passing');
    const testDir = path.join(dir, 'src', 'test', 'java', 'com', 'example');
    await mkdir(testDir, { recursive: true });
    await writeFile(
      path.join(testDir, 'SlowTest.java'),
      `package com.example;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SlowTest {
    @Test
    void takesForever() throws Exception {
        Files.writeString(Path.of("target", "test-started"), "started");
        Thread.sleep(600_000);
    }
}
`,
    );
    const child = mvnx(['-o', '-B', 'verify'], dir);
    await waitForFile(path.join(dir, 'target', 'test-started'));
    expect(await javaProcessesOf(dir)).not.toEqual([]);

    child.kill('SIGINT');
    const run = await child;
    expect(run.exitCode).toBe(130);
    expect(await javaProcessesOf(dir)).toEqual([]);
  });
});

/** Live processes whose command line names the run's folder (Maven's JVM and Surefire's fork do). */
async function javaProcessesOf(dir: string): Promise<string[]> {
  const found = await execa('pgrep', ['-f', '-a', dir], { reject: false });
  return found.stdout.split('\n').filter((line) => line.trim() !== '');
}

async function waitForFile(file: string): Promise<void> {
  while (!(await readFile(file, 'utf8').catch(() => ''))) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
