/**
 * What the failed build never reached runs while the model works (issue 42, item 5), with
 * real Maven on a generated four-module reactor (util <- core <- app; util <- report,
 * declared last), sandboxed with bwrap where it runs. The user's build fails on a bug in
 * app, and Maven stops there: report, which needs none of app, never ran its tests. The
 * verification session builds and tests report on the unchanged code as soon as it starts
 * (before any candidate exists); a candidate's verdict build then leaves report out and
 * its verdict names report's results. A test of report that fails on the unchanged code is
 * reported as failing before the fix: the fixed candidate is not verified (the build is
 * not green) but is not blamed either — the loop takes it as progress.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOCK_SLACK_MS, collectTestResults, diagnoseBuild, type TestCaseResult } from '../../src/diagnose/index.js';
import type { Diagnosis } from '../../src/diagnose/types.js';
import { runMaven } from '../../src/maven/run.js';
import type { ChangeSet } from '../../src/patch/types.js';
import { judgeProgress } from '../../src/repair/loop/judge-progress.js';
import {
  startVerificationSession,
  type VerificationSession,
} from '../../src/repair/verification/verification-session.js';
import { detectSandbox, type SandboxInfo } from '../../src/workspace/sandbox.js';
import { neverReached as generated, neverReachedBug as bug } from '../helpers/never-reached-reactor.js';

const env = { ...process.env };
delete env.MAVEN_OPTS;
const fix: ChangeSet = { files: [{ path: bug.file, before: bug.broken, after: bug.correct }] };

// A test of report that fails on the unchanged code (the second part).
const BROKEN_TEST = `package com.acme.tri.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ReportBrokenTest {
    @Test
    void addsUp() {
        assertEquals(4, 2 + 1);
    }
}
`;

let scratch: string;
let project: string;
let sandbox: SandboxInfo;

const config = {
  tier: 'monitor' as const,
  rules: [],
  auto: { maxRisk: 'high' as const, requireFullVerification: false },
  verify: { scope: 'affected' as const, tests: 'all' as const, reuseOutputs: true, quickJvm: true, parallel: 1 },
  sandbox: { env: { pass: [] } },
};

const write = async (rel: string, text: string) => {
  await mkdir(path.dirname(path.join(project, rel)), { recursive: true });
  await writeFile(path.join(project, rel), text);
};

/** The user's build, failed: its test results, its diagnosis, and a verification session started on it. */
async function failedBuild(
  args: string[],
): Promise<{ baseline: TestCaseResult[]; diagnosis: Diagnosis; session: VerificationSession }> {
  const run = await runMaven({ executable: 'mvn', args, cwd: project, env, echo: false });
  expect(run.exitCode).toBe(1);
  const baseline = await collectTestResults({ projectRoot: project, since: run.startedAt });
  const diagnosis = await diagnoseBuild({
    projectRoot: project,
    logFile: run.log.file,
    runStartedAt: run.startedAt,
    exitCode: run.exitCode,
  });
  await run.log.dispose();
  const session = await startVerificationSession({
    projectRoot: project,
    mavenArgs: args,
    executable: 'mvn',
    env,
    userCwd: project,
    buildStartedAt: run.startedAt,
    config,
    sandbox,
    baselineTests: baseline,
    timeoutMs: 600_000,
    signal: new AbortController().signal,
    diagnosis,
  });
  return { baseline, diagnosis, session };
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-never-reached-it-'));
  project = path.join(scratch, 'tri');
  for (const [file, text] of generated.files) await write(file, text);
  sandbox = await detectSandbox('auto');
  if (sandbox.kind !== 'bwrap') console.warn(`verification runs unsandboxed in these tests: ${sandbox.reason}`);
  // The developer's tree was built; then the bug came in.
  const built = await runMaven({
    executable: 'mvn',
    args: ['-o', '-B', '-q', 'verify'],
    cwd: project,
    env,
    echo: false,
  });
  await built.log.dispose();
  expect(built.exitCode).toBe(0);
  await writeFile(path.join(project, bug.file), bug.broken);
  // Reports written within CLOCK_SLACK_MS of the failed build's start count as its own: let the clean build's age.
  await new Promise((resolve) => setTimeout(resolve, CLOCK_SLACK_MS + 500));
}, 900_000);

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('the modules a failed build never reached, tested beside the model (real Maven)', () => {
  it("report's tests run once on the unchanged code before any candidate; the fix's verdict build leaves report out and its verdict names report's results", async () => {
    const { baseline, diagnosis, session } = await failedBuild(['-o', '-B', '-q', 'verify']);
    try {
      // Maven stopped at app: report never ran a test.
      expect(diagnosis.diagnostics.every((d) => d.kind === 'test' && d.module === 'app')).toBe(true);
      expect(baseline.some((t) => t.module === 'report')).toBe(false);

      // Started with the session, before any candidate exists; it needs no candidate to finish.
      expect(session.beforeCandidate?.modules).toEqual([{ dir: 'report', artifactId: 'report' }]);
      const early = await session.beforeCandidate!.result;
      expect(early).toMatchObject({ passed: ['report'], failed: [] });
      expect(early!.run.exitCode).toBe(0);
      const reportTests = early!.run.tests.filter((t) => t.module === 'report');
      expect(reportTests.length).toBeGreaterThan(0);
      expect(reportTests.every((t) => t.status === 'passed')).toBe(true);
      // Only report's tests ran there: util's (it builds from the user's outputs) were left out.
      expect(early!.run.tests.every((t) => t.module === 'report')).toBe(true);
      expect(early!.run.args).toEqual(expect.arrayContaining(['--fail-at-end', '-pl', 'report', '-am']));

      const result = await session.verify(fix, diagnosis);
      expect(result.outcome).toBe('verified');
      expect(result.verdict!.args).toEqual(expect.arrayContaining(['-pl', 'app', '-am']));
      expect(result.verdict!.args.join(' ')).not.toContain('report');
      expect(result.verdict!.testsFromYourBuild).toEqual(['util', 'core']);
      // report's tests did not run again in the candidate's build: their results are the ones run beside the model.
      const reportClasses = [...new Set(reportTests.map((t) => t.className))].sort();
      expect(result.verdict!.tests!.ran.filter((c) => c.includes('.report.'))).toEqual([]);
      expect(result.verdict!.tests!.beforeCandidate).toMatchObject({
        modules: ['report'],
        ran: reportClasses,
        failed: [],
        durationMs: early!.run.durationMs,
      });
      expect(result.verdict!.tests!.beforeCandidate!.why).toContain('never reached by your build');

      // Another candidate: the same run's results, not a second run.
      const again = await session.verify(fix, diagnosis);
      expect(again.outcome).toBe('verified');
      expect(again.verdict!.tests!.beforeCandidate!.durationMs).toBe(early!.run.durationMs);
    } finally {
      await session.dispose();
    }
  }, 900_000);

  it('a test of report that fails on the unchanged code is reported as failing before the fix: the build is not green, the fix is not blamed', async () => {
    await write('report/src/test/java/com/acme/tri/report/ReportBrokenTest.java', BROKEN_TEST);
    // Not quiet this time: the reactor summary says which modules were skipped.
    const { diagnosis, session } = await failedBuild(['-o', '-B', 'verify']);
    try {
      expect(diagnosis.modules.find((m) => m.artifactId === 'report')?.status).toBe('SKIPPED');
      expect(session.beforeCandidate?.modules.map((m) => m.artifactId)).toEqual(['report']);
      const early = await session.beforeCandidate!.result;
      expect(early).toMatchObject({ passed: [], failed: ['report'] });

      const result = await session.verify(fix, diagnosis);
      // The candidate's own build passed; report failed before the fix existed.
      expect(result.stages.find((s) => s.name === 'full')?.exitCode).toBe(0);
      expect(result.outcome).toBe('build-failed');
      expect(result.regressions).toEqual([]);
      expect(result.testProblems?.join('\n')).toContain(
        'module report fails on your unchanged code too (built beside the model, before this fix): not caused by the fix',
      );
      expect(result.verdict!.tests!.beforeCandidate).toMatchObject({
        modules: ['report'],
        failed: ['com.acme.tri.report.ReportBrokenTest#addsUp'],
      });
      expect(result.diagnosis!.diagnostics.map((d) => [d.kind, d.test])).toEqual([
        ['test', 'com.acme.tri.report.ReportBrokenTest#addsUp'],
      ]);
      // The loop keeps the fix as progress: app's failure went away, report's was never seen by the user's build.
      expect(judgeProgress(diagnosis, result.diagnosis!)).toMatchObject({ adopted: true });
    } finally {
      await session.dispose();
    }
  }, 900_000);
});
