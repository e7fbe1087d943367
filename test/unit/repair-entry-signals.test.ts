/**
 * The repair listens for SIGINT/SIGTERM only while it runs. A session that cannot start
 * (here: the team requires Docker, which this PATH does not have) must not leave its
 * handlers behind: with a handler attached Node no longer exits on Ctrl-C, so the rest
 * of the run (writing the record, posting a review) could not be interrupted.
 */
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { handleBuildFailure } from '../../src/app/handle-build-failure.js';
import { tempDir } from '../helpers/temp-dir.js';

const COMPILE_ERROR = [
  '[INFO] --- compiler:3.13.0:compile (default-compile) @ calc ---',
  '[ERROR] COMPILATION ERROR : ',
  "[ERROR] /PROJECT/src/main/java/demo/Calc.java:[3,31] ';' expected",
  '[INFO] BUILD FAILURE',
  '',
].join('\n');

beforeEach(() => {
  // The run's summary goes to stderr; keep the test output readable.
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * A project whose build failed to compile, with a team config that requires Docker (which
 * this PATH does not have): the repair stops before any model call. The build ended at
 * `buildEnded`; the repair is called now.
 */
async function failedBuildHandled(buildEnded: number): Promise<{ exitCode: number; root: string }> {
  const root = await tempDir('mvnx-entry-');
  await mkdir(path.join(root, 'src/main/java/demo'), { recursive: true });
  await writeFile(
    path.join(root, 'pom.xml'),
    '<project><modelVersion>4.0.0</modelVersion><groupId>demo</groupId><artifactId>calc</artifactId><version>1</version></project>\n',
  );
  await writeFile(
    path.join(root, 'src/main/java/demo/Calc.java'),
    'package demo;\npublic class Calc {\n  int one() { return 1 }\n}\n',
  );
  await writeFile(
    path.join(root, '.mvnxrc.yaml'),
    'tier: monitor\nfixers:\n  enabled: false\nsandbox:\n  mode: docker\n',
  );
  const logFile = path.join(root, 'build.log');
  await writeFile(logFile, COMPILE_ERROR.replaceAll('/PROJECT', root));
  const exitCode = await handleBuildFailure({
    cwd: root,
    projectRoot: root,
    mavenExecutable: 'mvn',
    mavenArgs: ['-o', 'verify'],
    overrides: {},
    options: { json: false, verbose: false },
    env: { PATH: path.join(root, 'no-tools-here'), HOME: root, CI: 'true' },
    result: {
      exitCode: 1,
      interrupted: false,
      timedOut: false,
      startedAt: new Date(buildEnded - 1_000),
      finishedAt: new Date(buildEnded),
      log: { file: logFile, bytes: COMPILE_ERROR.length, truncated: false, dispose: () => Promise.resolve() },
    },
  });
  return { exitCode, root };
}

async function recordOf(
  root: string,
): Promise<{ stopReason: string; message: string; finishedAt: string; timings: { totalMs: number } }> {
  const [runId] = await readdir(path.join(root, '.mvnx/runs'));
  return JSON.parse(await readFile(path.join(root, '.mvnx/runs', runId!, 'run.json'), 'utf8')) as {
    stopReason: string;
    message: string;
    finishedAt: string;
    timings: { totalMs: number };
  };
}

it('a repair session that fails to start removes its signal handlers and records why', async () => {
  const before = { int: process.listenerCount('SIGINT'), term: process.listenerCount('SIGTERM') };
  const { exitCode, root } = await failedBuildHandled(Date.now());
  expect(exitCode).toBe(1);
  expect({ int: process.listenerCount('SIGINT'), term: process.listenerCount('SIGTERM') }).toEqual(before);
  const record = await recordOf(root);
  expect(record.stopReason).toBe('error');
  expect(record.message).toMatch(/docker/i);
});

it("counts mvnx's own time from the end of the user's build, not from when the repair stage had loaded", async () => {
  // The build ended 1.5 s before the repair was called: loading the repair stage and the configuration took that long.
  const buildEnded = Date.now() - 1_500;
  const record = await recordOf((await failedBuildHandled(buildEnded)).root);
  expect(record.timings.totalMs).toBeGreaterThanOrEqual(1_500);
  expect(Date.parse(record.finishedAt) - record.timings.totalMs).toBe(buildEnded);
});
