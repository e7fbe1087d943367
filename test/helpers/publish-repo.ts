/**
 * A project under git with a bare remote, and a recorded run whose verified fix
 * (fix.patch) changes one line: what `mvnx publish` and the CI flow start from.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import type { RunRecord } from '../../src/report/run-record.js';

export const FINGERPRINT = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9';
export const BRANCH = 'mvnx/fix-a1b2c3d4e5f6';

const CALC = [
  'package demo;',
  '',
  'public class Calc {',
  '    public int add(int a, int b) {',
  '        return a - b;',
  '    }',
  '}',
  '',
].join('\n');
export const FIX_PATCH = [
  'diff --git a/src/main/java/demo/Calc.java b/src/main/java/demo/Calc.java',
  '--- a/src/main/java/demo/Calc.java',
  '+++ b/src/main/java/demo/Calc.java',
  '@@ -3,5 +3,5 @@',
  ' public class Calc {',
  '     public int add(int a, int b) {',
  '-        return a - b;',
  '+        return a + b;',
  '     }',
  ' }',
  '',
].join('\n');

export const git = async (cwd: string, ...args: string[]) =>
  (
    await execa('git', args, {
      cwd,
      env: { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
    })
  ).stdout.trim();

export interface PublishRepo {
  work: string;
  /** Folder holding `acme/demo.git` (the bare remote), served by git-http-server or as file://. */
  remoteRoot: string;
  bare: string;
  mainTip: string;
}

export async function makePublishRepo(dir: string): Promise<PublishRepo> {
  const work = path.join(dir, 'work');
  const remoteRoot = path.join(dir, 'remote');
  const bare = path.join(remoteRoot, 'acme', 'demo.git');
  await mkdir(path.join(work, 'src/main/java/demo'), { recursive: true });
  await mkdir(bare, { recursive: true });
  await git(bare, 'init', '-q', '--bare', '-b', 'main');
  await git(bare, 'config', 'http.receivepack', 'true');
  await writeFile(
    path.join(work, 'pom.xml'),
    '<project><modelVersion>4.0.0</modelVersion><groupId>demo</groupId><artifactId>calc</artifactId><version>1</version></project>\n',
  );
  await writeFile(path.join(work, 'src/main/java/demo/Calc.java'), CALC);
  await writeFile(path.join(work, '.gitignore'), '.mvnx/\n');
  await git(work, 'init', '-q', '-b', 'main');
  await git(work, 'add', '.');
  await git(work, 'commit', '-q', '-m', 'calc');
  await git(work, 'push', '-q', bare, 'main');
  return { work, remoteRoot, bare, mainTip: await git(work, 'rev-parse', 'HEAD') };
}

export function fixedRecord(runId: string, overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    runId,
    startedAt: '2026-12-03T10:00:00.000Z',
    finishedAt: '2026-12-03T10:01:00.000Z',
    mavenArgs: ['-B', 'verify'],
    mavenExitCode: 1,
    tier: 'auto',
    status: 'fixed',
    stopReason: 'fixed',
    diagnostics: [
      {
        kind: 'test',
        file: 'src/test/java/demo/CalcTest.java',
        line: 9,
        message: 'expected: <5> but was: <-1>',
        test: 'demo.CalcTest#adds',
      } as RunRecord['diagnostics'][number],
    ],
    attempts: [
      {
        n: 1,
        source: 'model',
        fingerprint: FINGERPRINT,
        outcome: 'verified',
        filesChanged: ['src/main/java/demo/Calc.java'],
        timings: {},
        verdict: { scope: 'full', args: ['-B', 'verify'], testsFromYourBuild: [], jvmFlags: [] },
      },
    ],
    applied: true,
    decisions: ['risk low: 1 line changed in 1 file', 'tier auto: verified fix applied'],
    action: 'apply',
    risk: 'low',
    modelCalls: 1,
    model: { provider: 'ollama', name: 'qwen2.5-coder:7b', host: 'http://127.0.0.1:11434' },
    sandbox: { kind: 'bwrap', isolated: true },
    timings: { totalMs: 60_000, modelMs: 20_000, applyMs: 10, verifyMs: 30_000 },
    fixModules: ['calc'],
    ...overrides,
  };
}

/**
 * Writes the run under .mvnx/runs. A record without `built` is taken to have built the work tree's HEAD, as a run
 * there would have: `built` is filled in on the object itself, so the caller's record says it too.
 */
export async function writeRun(work: string, record: RunRecord, patch = FIX_PATCH): Promise<void> {
  record.built ??= { commit: await git(work, 'rev-parse', 'HEAD'), tree: await git(work, 'rev-parse', 'HEAD^{tree}') };
  const dir = path.join(work, '.mvnx', 'runs', record.runId);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'run.json'), `${JSON.stringify(record, null, 2)}\n`);
  await writeFile(path.join(dir, 'fix.patch'), patch);
  await writeFile(path.join(work, '.mvnx', 'runs', 'latest'), `${record.runId}\n`);
}
