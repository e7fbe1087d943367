/**
 * verifyInWorkspace with real Maven on the ledger fixture (two modules), sandboxed with
 * bwrap where it runs: a patch that does not compile, a fix, a fix that breaks a test
 * that passed before, and an interrupted and a timed-out verification.
 */
import { cp, mkdtemp, readFile, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectTestResults, type TestCaseResult } from '../../src/diagnose/index.js';
import { runMaven } from '../../src/maven/run.js';
import { detectSandbox, type SandboxInfo } from '../../src/workspace/sandbox.js';
import { planVerification, verifyInWorkspace, type VerificationStage } from '../../src/workspace/verify.js';
import { createWorkspace, type Workspace } from '../../src/workspace/workspace.js';

const fixture = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/workspace/ledger');
const amountsFile = 'core/src/main/java/com/example/ledger/core/Amounts.java';
const env = { ...process.env, MAVEN_OPTS: '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC' };
const installedFixture = path.join(os.homedir(), '.m2/repository/com/example/mvnx/wsfixture');

let scratch: string;
let project: string;
let original: string;
let baseline: TestCaseResult[];
let sandbox: SandboxInfo;
let workspace: Workspace;

async function editAmounts(replace: (source: string) => string) {
  const file = path.join(workspace.root, amountsFile);
  await writeFile(file, replace(await readFile(file, 'utf8')));
}

function verify(stages: VerificationStage[], extra: Partial<Parameters<typeof verifyInWorkspace>[0]> = {}) {
  return verifyInWorkspace({
    workspace,
    stages,
    executable: 'mvn',
    env,
    sandbox,
    baselineTests: baseline,
    timeoutMs: 180_000,
    ...extra,
  });
}

const testFixPlan = (mavenArgs: string[]) =>
  planVerification({
    mavenArgs,
    failingModules: ['core'],
    failingTests: ['com.example.ledger.core.AmountsTest#takesPercent'],
    kinds: ['test'],
  });

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-verify-it-'));
  project = path.join(scratch, 'ledger');
  await cp(fixture, project, { recursive: true });
  original = await readFile(path.join(project, amountsFile), 'utf8');
  sandbox = await detectSandbox('auto');
  if (sandbox.kind !== 'bwrap') console.warn(`verification runs unsandboxed in these tests: ${sandbox.reason}`);

  // The user's failed build, in the user's tree: its reports are the baseline.
  const run = await runMaven({ executable: 'mvn', args: ['-o', '-B', 'verify'], cwd: project, env, echo: false });
  await run.log.dispose();
  expect(run.exitCode).toBe(1);
  baseline = await collectTestResults({ projectRoot: project, since: run.startedAt });
  workspace = await createWorkspace(project);
});

afterAll(async () => {
  await workspace?.dispose();
  await rm(scratch, { recursive: true, force: true });
  await rm(installedFixture, { recursive: true, force: true });
  // The install also made com/example/mvnx; remove those folders when nothing else is in them.
  for (const parent of [path.dirname(installedFixture), path.dirname(path.dirname(installedFixture))])
    await rmdir(parent).catch(() => undefined);
});

describe('verifyInWorkspace (real Maven)', () => {
  it('the baseline has the failing target test and a passing neighbour', () => {
    const status = Object.fromEntries(baseline.map((t) => [`${t.className}#${t.method}`, t.status]));
    expect(status).toEqual({
      'com.example.ledger.core.AmountsTest#addsCents': 'passed',
      'com.example.ledger.core.AmountsTest#takesPercent': 'failed',
    });
  });

  it('a patch that does not compile fails at the compile stage, with the log kept for diagnosis', async () => {
    await editAmounts((source) => source.replace('return a + b;', 'return a + b'));
    const stages = planVerification({
      mavenArgs: ['-o', '-B', 'verify'],
      failingModules: ['core'],
      failingTests: [],
      kinds: ['compile'],
    });
    expect(stages.map((s) => s.name)).toEqual(['compile', 'full']);
    const seen: string[] = [];
    const result = await verify(stages, { onStage: (name) => seen.push(name) });

    expect(result.outcome).toBe('build-failed');
    expect(result.failedStage).toBe('compile');
    expect(seen).toEqual(['compile']);
    expect(result.stageResults.map((s) => [s.name, s.exitCode])).toEqual([['compile', 1]]);
    expect(result.diagnosisInput?.projectRoot).toBe(workspace.root);
    expect(result.diagnosisInput?.logFile.startsWith(workspace.scratchDir)).toBe(true);
    const log = await readFile(result.diagnosisInput!.logFile, 'utf8');
    expect(log).toMatch(/Amounts\.java:\[9,.*';' expected/);
    expect(result.sandboxNote).toBe(sandbox.reason);
  });

  it('a real fix is verified only after the user’s full command passes (here: install, verified as verify: the local repository is never written)', async () => {
    await workspace.reset();
    await editAmounts((source) => source.replace('/ 1000', '/ 100'));
    const startedAt = Date.now();
    const result = await verify(testFixPlan(['-o', '-B', 'install']));

    // The failing-tests stage compiles the module first: no separate compile stage for a test failure.
    expect(result.stageResults.map((s) => [s.name, s.exitCode])).toEqual([
      ['failing-tests', 0],
      ['full', 0],
    ]);
    expect(result.outcome).toBe('verified');
    expect(result.regressions).toEqual([]);
    expect(result.stageResults[0]!.args).toContain('-Dtest=com.example.ledger.core.AmountsTest#takesPercent');
    for (const stage of result.stageResults) expect(existsSync(stage.logFile)).toBe(true);
    expect(result.stageResults[1]!.args).toContain('verify');
    expect(result.stageResults[1]!.args).not.toContain('install');
    const jar = path.join(installedFixture, 'ledger-core/1.0.0/ledger-core-1.0.0.jar');
    const installed = await stat(jar).catch(() => undefined);
    expect(
      installed === undefined || installed.mtimeMs < startedAt - 2_000,
      'a candidate was installed into ~/.m2',
    ).toBe(true);
    // The user's tree is untouched.
    expect(await readFile(path.join(project, amountsFile), 'utf8')).toBe(original);
  });

  it('a fix that breaks a test which passed before is a regression, although the target test passes', async () => {
    await workspace.reset();
    expect(await readFile(path.join(workspace.root, amountsFile), 'utf8')).toBe(original);
    await editAmounts((source) => source.replace('/ 1000', '/ 100').replace('return a + b;', 'return a + b + 1;'));
    const result = await verify(testFixPlan(['-o', '-B', 'verify']));

    expect(result.stageResults.map((s) => [s.name, s.exitCode])).toEqual([
      ['failing-tests', 0],
      ['full', 1],
    ]);
    expect(result.outcome).toBe('regressed');
    expect(result.failedStage).toBe('full');
    expect(result.regressions).toEqual(['com.example.ledger.core.AmountsTest#addsCents']);
    expect(result.diagnosisInput?.exitCode).toBe(1);
  });

  it('an abort during a stage ends the verification as interrupted', async () => {
    const controller = new AbortController();
    const result = await verify(testFixPlan(['-o', '-B', 'verify']), {
      signal: controller.signal,
      onStage: () => controller.abort(),
    });
    expect(result.outcome).toBe('interrupted');
    expect(result.failedStage).toBe('failing-tests');
    expect(result.stageResults).toHaveLength(1);
  });

  it('running out of time ends the verification as timeout', async () => {
    const result = await verify(testFixPlan(['-o', '-B', 'verify']), { timeoutMs: 1 });
    expect(result.outcome).toBe('timeout');
    expect(result.failedStage).toBe('failing-tests');
  });
});
