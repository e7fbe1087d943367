/**
 * Fast verification with real Maven on a generated four-module reactor (util <- core <-
 * {app, report}), sandboxed with bwrap where it runs: the user's build compiled the
 * project, then failed on a bug in the leaf module `report`. The verification session
 * reuses the fresh outputs of that build, compiles only what the fix touched, runs the
 * failing tests first inside the verdict build (one Maven run: report is the first module
 * whose tests run), and takes the tests of modules the fix cannot affect from the user's
 * build. A fix that also touches core runs core's tests before report's: the failing
 * tests then get a Maven run of their own first. Every candidate gets the same verdict under
 * `verify.scope: full`; a fix that only stale outputs would let pass is still refused.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateProject, type GeneratedBug, type ProjectSpec } from '../../src/bench/verify-projects.js';
import { collectTestResults, diagnoseBuild, type TestCaseResult } from '../../src/diagnose/index.js';
import type { Diagnosis } from '../../src/diagnose/types.js';
import { runMaven } from '../../src/maven/run.js';
import type { ChangeSet } from '../../src/patch/types.js';
import {
  startVerificationSession,
  type VerificationSession,
} from '../../src/repair/verification/verification-session.js';
import { createVerifier } from '../../src/repair/verification/verifier.js';
import { detectSandbox, type SandboxInfo } from '../../src/workspace/sandbox.js';

const SPEC: ProjectSpec = {
  name: 'mini',
  groupId: 'com.acme.mini',
  modules: [
    { dir: 'util', stems: ['Text'], classes: 6, testEvery: 2, dependsOn: [] },
    { dir: 'core', stems: ['Rule'], classes: 6, testEvery: 2, dependsOn: ['util'] },
    { dir: 'app', stems: ['Screen'], classes: 6, testEvery: 2, dependsOn: ['core'] },
    { dir: 'report', stems: ['Summary'], classes: 6, testEvery: 2, dependsOn: ['core'] },
  ],
};
const generated = generateProject(SPEC, [{ name: 'leaf', kind: 'leaf', module: 'report', classIndex: 4 }]);
const bug: GeneratedBug = generated.bugs[0]!;
const ARGS = ['-o', '-B', '-q', 'verify'];
const env = { ...process.env };
delete env.MAVEN_OPTS;

// A class of report that reads a resource of its module, and its test (it passes in the user's build).
const CONFIG_CLASS = `package com.acme.mini.report;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

public final class ReportConfig {
    public static String moduleName() throws IOException {
        try (InputStream in = ReportConfig.class.getResourceAsStream("/report.properties")) {
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("module");
        }
    }
}
`;
const CONFIG_TEST = `package com.acme.mini.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ReportConfigTest {
    @Test
    void readsTheModuleName() throws Exception {
        assertEquals("report", ReportConfig.moduleName());
    }
}
`;

let scratch: string;
let project: string;
let sandbox: SandboxInfo;
let baseline: TestCaseResult[];
let diagnosis: Diagnosis;
let session: VerificationSession;

const write = async (root: string, rel: string, text: string) => {
  await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await writeFile(path.join(root, rel), text);
};
const edit = (after: string): ChangeSet => ({ files: [{ path: bug.file, before: bug.broken, after }] });
const fix = edit(bug.correct);
/** The file a model reply ends with, applied to the broken file. */
function fileOfReply(reply: string): string {
  const diff = /```diff\n([\s\S]*?)```/.exec(reply)![1]!;
  const removed = diff
    .split('\n')
    .filter((l) => l.startsWith('-') && !l.startsWith('---'))
    .map((l) => l.slice(1));
  const added = diff
    .split('\n')
    .filter((l) => l.startsWith('+') && !l.startsWith('+++'))
    .map((l) => l.slice(1));
  return bug.broken.replace(removed.join('\n'), added.join('\n'));
}
const config = (scope: 'affected' | 'full', parallel: number | 'auto' = 1) => ({
  tier: 'monitor' as const,
  rules: [],
  auto: { maxRisk: 'high' as const, requireFullVerification: false },
  verify: { scope, tests: 'all' as const, reuseOutputs: true, quickJvm: true, parallel },
  sandbox: { env: { pass: [] } },
});

async function mvn(args: string[]) {
  const run = await runMaven({ executable: 'mvn', args, cwd: project, env, echo: false });
  await run.log.dispose();
  return run;
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'mvnx-reuse-it-'));
  project = path.join(scratch, 'mini');
  for (const [file, text] of generated.files) await write(project, file, text);
  await write(project, 'report/src/main/java/com/acme/mini/report/ReportConfig.java', CONFIG_CLASS);
  await write(project, 'report/src/test/java/com/acme/mini/report/ReportConfigTest.java', CONFIG_TEST);
  sandbox = await detectSandbox('auto');
  if (sandbox.kind !== 'bwrap') console.warn(`verification runs unsandboxed in these tests: ${sandbox.reason}`);

  // The developer's tree was built; then the bug came in, and the user's build failed on it.
  expect((await mvn(ARGS)).exitCode).toBe(0);
  await writeFile(path.join(project, bug.file), bug.broken);
  const run = await runMaven({ executable: 'mvn', args: ARGS, cwd: project, env, echo: false });
  expect(run.exitCode).toBe(1);
  baseline = await collectTestResults({ projectRoot: project, since: run.startedAt });
  diagnosis = await diagnoseBuild({
    projectRoot: project,
    logFile: run.log.file,
    runStartedAt: run.startedAt,
    exitCode: run.exitCode,
  });
  await run.log.dispose();
  session = await startVerificationSession({
    projectRoot: project,
    mavenArgs: ARGS,
    executable: 'mvn',
    env,
    userCwd: project,
    buildStartedAt: run.startedAt,
    config: config('affected'),
    sandbox,
    baselineTests: baseline,
    timeoutMs: 600_000,
    signal: new AbortController().signal,
  });
}, 900_000);

afterAll(async () => {
  await session?.dispose();
  await rm(scratch, { recursive: true, force: true });
});

describe("verification that reuses the user's build (real Maven)", () => {
  it("the user's build failed on report's tests only; its fresh outputs are taken, and report's as that build left them", () => {
    expect(diagnosis.diagnostics.every((d) => d.kind === 'test' && d.module === 'report')).toBe(true);
    // report's jar is older than the broken source (the failed build never packaged it), but the build
    // (no clean) compiled the broken source: report is taken as it left it, without the stale jar.
    expect(session.reusedOutputs).toEqual(['app', 'core', 'report', 'util']);
    expect(
      existsSync(path.join(session.workspace.root, 'report/target/classes/com/acme/mini/report/ReportConfig.class')),
    ).toBe(true);
    expect(
      readdirSync(path.join(session.workspace.root, 'report/target')).filter((name) => name.endsWith('.jar')),
    ).toEqual([]);
    expect(session.facts.graph.problems).toEqual([]);
  });

  it("the fix: one Maven run, the failing tests first in it, then the rest of the verdict build of report and what it needs; the other modules' tests come from the user's build", async () => {
    const reused = path.join(session.workspace.root, 'core/target/classes/com/acme/mini/core/Rule0.class');
    const before = (await stat(reused)).mtimeMs;
    const result = await session.verify(fix, diagnosis);

    expect(result.outcome).toBe('verified');
    expect(result.stages.map((s) => [s.name, s.exitCode, s.failingFirst])).toEqual([
      ['full', 0, 'passed'],
      ['behaviour-probe', 0, undefined],
      ['test-repeat', 0, undefined],
    ]);
    expect(result.verdict).toMatchObject({ scope: 'affected', testsFromYourBuild: ['util', 'core', 'app'] });
    expect(result.verdict!.args).toEqual(
      expect.arrayContaining([
        '-pl',
        'report',
        '-am',
        '-Dsurefire.excludesFile=target/mvnx-verify-excludes.txt',
        'verify',
      ]),
    );
    expect(result.verdict!.args).toContain('-DargLine=-XX:+UseSerialGC -Xshare:auto');
    expect(result.verdict!.args).toContain('-Dmaven.compiler.useIncrementalCompilation=false');
    // Upstream modules were not compiled again, not even after the verdict build packaged their jars anew.
    expect((await stat(reused)).mtimeMs).toBe(before);
    // The copy keeps the time to the microsecond (utimes takes seconds as a double).
    expect(
      Math.abs(
        (await stat(reused)).mtimeMs -
          (await stat(path.join(project, 'core/target/classes/com/acme/mini/core/Rule0.class'))).mtimeMs,
      ),
    ).toBeLessThan(0.01);
  }, 600_000);

  it('a candidate that does not compile is rejected by its one run before any test, which compiled only what it touched', async () => {
    const result = await session.verify(edit(fileOfReply(bug.replies.doesNotCompile)), diagnosis);
    expect(result.outcome).toBe('build-failed');
    expect(result.rejectedAt).toBe('compile');
    expect(result.stages.map((s) => [s.name, s.exitCode, s.failingFirst])).toEqual([['full', 1, 'not-reached']]);
    expect(result.diagnosis?.diagnostics.some((d) => d.kind === 'compile' && d.file === bug.file)).toBe(true);
  }, 600_000);

  it('a candidate that compiles but leaves the test failing is rejected by its failing tests, run first in its one run', async () => {
    const result = await session.verify(edit(fileOfReply(bug.replies.testStillFails)), diagnosis);
    expect(result.outcome).toBe('build-failed');
    expect(result.rejectedAt).toBe('failing-tests');
    // Stopped by the watch of the failing class's report, or ended by Maven when the module's few other classes were quicker.
    expect(result.stages.map((s) => [s.name, s.exitCode !== 0, s.failingFirst])).toEqual([['full', true, 'stopped']]);
    expect(result.diagnosis?.diagnostics.map((d) => [d.kind, d.test])).toEqual(
      diagnosis.diagnostics.map((d) => [d.kind, d.test]),
    );
    // report's target was removed before the run: every report in it is this run's; the failing tests ran and failed again.
    const ran = await collectTestResults({ projectRoot: session.workspace.root });
    const failedNow = ran
      .filter((t) => t.module === 'report' && t.status === 'failed')
      .map((t) => `${t.className}#${t.method}`);
    expect(failedNow.sort()).toEqual(diagnosis.diagnostics.map((d) => d.test).sort());
    // Nothing of it reaches the user: the user's pom is as it was.
    expect(await readFile(path.join(project, 'report/pom.xml'), 'utf8')).toBe(generated.files.get('report/pom.xml'));
  }, 600_000);

  it('a fix that only the stale outputs of a deleted resource would let pass is refused: the touched module is rebuilt from clean', async () => {
    const broken: ChangeSet = {
      files: [
        ...fix.files,
        {
          path: 'report/src/main/resources/report.properties',
          before: generated.files.get('report/src/main/resources/report.properties')!,
          after: null,
        },
      ],
    };
    expect(existsSync(path.join(session.workspace.root, 'report/target/classes/report.properties'))).toBe(true);
    const result = await session.verify(broken, diagnosis);
    expect(result.outcome).toBe('regressed');
    expect(result.regressions).toEqual(['com.acme.mini.report.ReportConfigTest#readsTheModuleName']);
  }, 600_000);

  it('a fix that breaks a module it does not touch (app, through core) is refused: every dependent of a touched module is rebuilt from clean', async () => {
    // A core class that app builds with and report does not: the fix makes its constructor package-private.
    const usedBy = (module: string) =>
      new Set(
        [...generated.files]
          .filter(([file]) => file.startsWith(`${module}/src/main/`))
          .flatMap(([, text]) => [...text.matchAll(/new (Rule\d+)\(\)/g)].map((m) => m[1]!)),
      );
    const inReport = usedBy('report');
    const victim = [...usedBy('app')].find((name) => !inReport.has(name))!;
    expect(victim).toBeDefined();
    const file = `core/src/main/java/com/acme/mini/core/${victim}.java`;
    const text = generated.files.get(file)!;
    const breaking: ChangeSet = {
      files: [...fix.files, { path: file, before: text, after: text.replace(`public ${victim}() {`, `${victim}() {`) }],
    };
    expect(breaking.files[1]!.after).not.toBe(text);

    const result = await session.verify(breaking, diagnosis);
    expect(result.outcome).toBe('build-failed');
    expect(result.rejectedAt).toBe('compile');
    // core's tests run before report's in the verdict build: the failing tests get their own stage first.
    // They passed (report and core compile); the verdict build, with app in it, did not.
    expect(result.stages.map((s) => [s.name, s.exitCode])).toEqual([
      ['failing-tests', 0],
      ['full', 1],
    ]);
    expect(result.diagnosis?.diagnostics.some((d) => d.kind === 'compile' && d.file?.startsWith('app/'))).toBe(true);
  }, 600_000);

  it("verify.scope full gives the same verdicts, with the user's command as it is", async () => {
    const full = createVerifier({
      workspace: session.workspace,
      executable: 'mvn',
      mavenArgs: ARGS,
      env,
      sandbox,
      baselineTests: baseline,
      timeoutMs: 600_000,
      signal: new AbortController().signal,
      userCwd: project,
      facts: session.facts,
      scope: 'full',
    });
    const verified = await full(fix, diagnosis);
    expect(verified.outcome).toBe('verified');
    expect(verified.verdict).toMatchObject({ scope: 'full', testsFromYourBuild: [] });
    // The user's command as it is, without -q (verification builds are read, never quiet), with the quick-JVM argLine and stale-sources-only compiling.
    expect(
      verified.verdict!.args.filter(
        (arg) => !arg.startsWith('-DargLine=') && arg !== '-Dmaven.compiler.useIncrementalCompilation=false',
      ),
    ).toEqual(['-o', '-B', 'verify']);
    const wrong = await full(edit(fileOfReply(bug.replies.testStillFails)), diagnosis);
    expect(wrong.outcome).toBe('build-failed');
  }, 900_000);

  it('several candidates at once: in order of preference, the first that verifies wins', async () => {
    const two = await startVerificationSession({
      projectRoot: project,
      mavenArgs: ARGS,
      executable: 'mvn',
      env,
      userCwd: project,
      buildStartedAt: new Date(0),
      config: config('affected', 2),
      sandbox,
      baselineTests: baseline,
      timeoutMs: 600_000,
      signal: new AbortController().signal,
    });
    try {
      const result = await two.verifyCandidates([edit(fileOfReply(bug.replies.testStillFails)), fix], diagnosis);
      expect(result.verified?.index).toBe(1);
      expect(result.outcomes.map((o) => o.verification?.outcome)).toEqual(['build-failed', 'verified']);
      // The user's tree was never written.
      expect(await readFile(path.join(project, bug.file), 'utf8')).toBe(bug.broken);
    } finally {
      await two.dispose();
    }
  }, 900_000);
});
