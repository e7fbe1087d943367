// Runs real Maven (offline) on a broken fixture project and diagnoses the live output:
// the result must equal the expectation reviewed for the captured log of the same run.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { diagnoseBuild } from '../../src/diagnose/index.js';
import { cliPath } from '../helpers/repair-project.js';
import { ensureTinyFormatPlugin } from '../helpers/tiny-format-plugin.js';
import { CASES_DIR, comparable, projectDir } from '../unit/diagnose-cases.js';

const bases: string[] = [];
afterAll(async () => {
  for (const base of bases) await rm(base, { recursive: true, force: true });
});

async function runMaven(caseName: string, project: string, args: string[]) {
  const base = await mkdtemp(path.join(os.tmpdir(), 'mvnx-diagnose-live-'));
  bases.push(base);
  const root = path.join(base, 'my proj');
  await cp(projectDir(project), root, { recursive: true });
  const startedAt = new Date();
  const result = await execa('mvn', args, {
    cwd: root,
    all: true,
    reject: false,
    env: { MAVEN_OPTS: '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC' },
  });
  const logFile = path.join(base, 'console.txt');
  await writeFile(logFile, result.all ?? '');
  const expected = JSON.parse(await readFile(path.join(CASES_DIR, caseName, 'expected.json'), 'utf8')) as unknown;
  return { root, logFile, startedAt, exitCode: result.exitCode ?? -1, expected };
}

describe('diagnosing a live Maven build', () => {
  it('finds exactly the compile errors of the multi-module fixture (module folder with a space)', async () => {
    const run = await runMaven('multi-module', 'multi-module', ['-o', '-B', 'verify']);
    expect(run.exitCode).toBe(1);
    const diagnosis = await diagnoseBuild({
      projectRoot: run.root,
      logFile: run.logFile,
      runStartedAt: run.startedAt,
      exitCode: run.exitCode,
    });
    expect(comparable(diagnosis)).toEqual(run.expected);
  });

  // The forms of issue 16, live: the diagnosis of the build and `mvnx diagnose` of its
  // saved log both equal the expectation reviewed for the checked-in capture.
  it.each([
    ['werror', 'werror', ['-o', '-B', 'verify']],
    ['werror-quiet', 'werror', ['-o', '-B', '-q', 'verify']],
    ['test-exit', 'test-exit', ['-o', '-B', 'verify']],
    ['format-check', 'format-violation', ['-o', '-B', 'verify']],
  ] as const)(
    '%s: the live build and mvnx diagnose of its log give the reviewed diagnosis',
    async (caseName, project, args) => {
      if (caseName === 'format-check') await ensureTinyFormatPlugin();
      const run = await runMaven(caseName, project, [...args]);
      expect(run.exitCode).toBe(1);
      const diagnosis = await diagnoseBuild({
        projectRoot: run.root,
        logFile: run.logFile,
        runStartedAt: run.startedAt,
        exitCode: run.exitCode,
      });
      expect(comparable(diagnosis)).toEqual(run.expected);
      const saved = await execa('node', [cliPath, 'diagnose', run.logFile, '--json'], {
        cwd: run.root,
        reject: false,
        env: { CI: 'true' },
      });
      expect(saved.exitCode, saved.stderr).toBe(0);
      const printed = comparable(JSON.parse(saved.stdout)) as { diagnostics: unknown };
      expect(printed.diagnostics).toEqual((run.expected as { diagnostics: unknown }).diagnostics);
    },
  );

  it('finds exactly the failing tests of the test-failures fixture from the reports this run wrote', async () => {
    const run = await runMaven('test-failures', 'test-failures', ['-o', '-B', 'verify']);
    expect(run.exitCode).toBe(1);
    const diagnosis = await diagnoseBuild({
      projectRoot: run.root,
      logFile: run.logFile,
      runStartedAt: run.startedAt,
      exitCode: run.exitCode,
    });
    expect(comparable(diagnosis)).toEqual(run.expected);
  });
});
