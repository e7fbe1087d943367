/**
 * One Maven run per candidate (issue 26 part 1), with real Maven: the failing tests run
 * first inside the verdict build, through a Surefire execution added to the workspace
 * copy's pom. End to end through the built CLI and the real Ollama-API test server on
 * the calc fixture (one module, Surefire 3.2.5 from pluginManagement), then through the
 * verification session on other pom shapes: Surefire declared in build/plugins with its
 * own configuration (3.5.2, which needs plexus-utils offline), and Surefire inherited
 * from a parent's build/plugins in a two-module reactor. JUnit 4 is not covered: no
 * Surefire JUnit 4 provider nor Vintage engine is in the offline repository, nor
 * Surefire 2.22.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collectTestResults, diagnoseBuild } from '../../src/diagnose/index.js';
import { runMaven } from '../../src/maven/run.js';
import type { ChangeSet } from '../../src/patch/types.js';
import { judgeProgress } from '../../src/repair/loop/judge-progress.js';
import { startVerificationSession } from '../../src/repair/verification/verification-session.js';
import { failingTests } from '../../src/repair/verification/verifier.js';
import { detectSandbox } from '../../src/workspace/sandbox.js';
import { startOllamaMock } from '../helpers/ollama-mock.js';
import {
  copyProject,
  FAST_MAVEN_OPTS,
  readRecordFile,
  repairFixtures,
  reply,
  runMvnx,
} from '../helpers/repair-project.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const CALCULATOR = 'src/main/java/com/acme/calc/Calculator.java';
const SUBTRACTS = `\`multiply\` should not add the operands. Using subtraction keeps the sign handling of the billing service:

\`\`\`diff
--- a/${CALCULATOR}
+++ b/${CALCULATOR}
@@ -10,4 +10,4 @@
     public int multiply(int a, int b) {
-        int result = a + b;
+        int result = a - b;
         return result;
     }
\`\`\`
`;

describe('one Maven run per candidate, end to end (calc: Surefire from pluginManagement)', () => {
  it('a wrong candidate stops at the failing test in its one run, a regression is found after it in the same run, the fix verifies in one run; no pom change leaves the workspace', async () => {
    const copy = await copyProject(
      path.join(repairFixtures, 'calc-logic-bug'),
      'tier: monitor\nfixers:\n  enabled: false\nbudget:\n  dynamic: false\n  maxAttempts: 3\n  maxModelCalls: 3\n',
    );
    cleanups.push(copy.remove);
    const before = await copy.snapshot();
    const mock = await startOllamaMock({
      replies: [SUBTRACTS, await reply('logic-bug-regression'), await reply('logic-bug-fix')],
    });
    cleanups.push(mock.close);

    const run = await runMvnx(copy.root, ['-o', '-B', '-q', 'verify', `--mvnx-host=${mock.url}`, '--mvnx-json']);
    const record = run.record!;
    expect(record, run.stderr).toBeDefined();
    const [wrong, regression, fix] = record.attempts;

    expect(record.attempts.map((a) => a.outcome)).toEqual(['build-failed', 'regressed', 'verified']);
    // Rejected by the failing test, read as before: the same reason shape and rejectedAt as a failing-tests stage of its own.
    expect(wrong!.rejectedAt).toBe('failing-tests');
    // Maven ends on its own (1) or is stopped by the watch of the failing class's report: either way not 0.
    expect(wrong!.stages?.map((s) => [s.name, s.exitCode !== 0, s.failingFirst])).toEqual([['full', true, 'stopped']]);
    expect(wrong!.reason).toBe(
      'the patched build still fails: src/test/java/com/acme/calc/CalculatorTest.java:16 expected: <6> but was: <-1> (not kept: the failure at com.acme.calc.CalculatorTest#multipliesTwoNumbers only changed its message)',
    );
    // The failing test passed first; addsTwoNumbers, which ran after it in the same run, now fails.
    expect(regression!.stages?.map((s) => [s.name, s.exitCode, s.failingFirst])).toEqual([['full', 1, 'passed']]);
    expect(regression!.reason).toBe('broke tests that passed before: com.acme.calc.CalculatorTest#addsTwoNumbers');
    expect(fix!.stages?.map((s) => [s.name, s.exitCode, s.failingFirst])).toEqual([
      ['full', 0, 'passed'],
      ['behaviour-probe', 0, undefined],
      ['test-repeat', 0, undefined],
    ]);
    expect(fix!.verdict?.args).toContain('verify');
    expect(record.status).toBe('fixed');

    // The pom of the workspace copy never reaches the user: not in the files changed, not in fix.patch, not in the tree.
    expect(fix!.filesChanged).toEqual([CALCULATOR]);
    const patch = await readRecordFile(copy.root, 'fix.patch');
    expect(patch).toContain(`+++ b/${CALCULATOR}`);
    expect(patch).not.toMatch(/pom\.xml|mvnx-failing-first/);
    expect(await copy.snapshot()).toEqual(before);
  }, 900_000);
});

/** A failed user build of `root`, and a verification session on it (scope affected, as under monitor). */
async function sessionOn(root: string, mavenArgs: string[]) {
  const env = { ...process.env, MAVEN_OPTS: FAST_MAVEN_OPTS };
  const build = await runMaven({ executable: 'mvn', args: mavenArgs, cwd: root, env, echo: false });
  expect(build.exitCode).toBe(1);
  const baselineTests = await collectTestResults({ projectRoot: root, since: build.startedAt });
  const diagnosis = await diagnoseBuild({
    projectRoot: root,
    logFile: build.log.file,
    runStartedAt: build.startedAt,
    exitCode: build.exitCode,
  });
  await build.log.dispose();
  const session = await startVerificationSession({
    projectRoot: root,
    mavenArgs,
    executable: 'mvn',
    env,
    userCwd: root,
    buildStartedAt: build.startedAt,
    config: {
      tier: 'monitor',
      rules: [],
      auto: { maxRisk: 'high', requireFullVerification: false },
      verify: { scope: 'affected', tests: 'all', reuseOutputs: true, quickJvm: true, parallel: 1 },
      sandbox: { env: { pass: [] } },
    },
    sandbox: await detectSandbox('auto'),
    baselineTests,
    timeoutMs: 600_000,
    signal: new AbortController().signal,
  });
  cleanups.push(() => session.dispose());
  return { session, diagnosis, baselineTests };
}

async function scratchCopy(source: string): Promise<string> {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'mvnx-onerun-it-'));
  cleanups.push(() => rm(parent, { recursive: true, force: true }));
  const root = path.join(parent, path.basename(source));
  await cp(source, root, {
    recursive: true,
    filter: (file) => !/[\\/](target|\.mvnx)([\\/]|$)/.test(file.slice(source.length)),
  });
  return root;
}

const OTHER_TEST = `package com.acme.calc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class OtherTest {
    @Test
    void stillCounts() {
        assertEquals(4, new Calculator().add(2, 2));
    }
}
`;

describe('one Maven run on other pom shapes (verification session, real Maven)', () => {
  it('Surefire 3.5.2 in build/plugins with its own configuration (a JVM per class, plexus-utils): the Surefire execution in the pom, so the wrong candidate ran the failing test alone, the fix every test, each in one run', async () => {
    const root = await scratchCopy(path.join(repairFixtures, 'calc-logic-bug'));
    const pom = await readFile(path.join(root, 'pom.xml'), 'utf8');
    const declared = `<plugins>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>3.5.2</version>
        <configuration><forkCount>1</forkCount><reuseForks>false</reuseForks><trimStackTrace>false</trimStackTrace></configuration>
        <dependencies><dependency><groupId>org.codehaus.plexus</groupId><artifactId>plexus-utils</artifactId><version>3.5.1</version></dependency></dependencies>
      </plugin>
    </plugins>
  </build>`;
    await writeFile(path.join(root, 'pom.xml'), pom.replace('</build>', declared));
    await writeFile(path.join(root, 'src/test/java/com/acme/calc/OtherTest.java'), OTHER_TEST);
    const { session, diagnosis } = await sessionOn(root, ['-o', '-B', 'verify']);
    const source = await readFile(path.join(root, CALCULATOR), 'utf8');
    const edit = (after: string): ChangeSet => ({ files: [{ path: CALCULATOR, before: source, after }] });

    const wrong = await session.verify(edit(source.replace('int result = a + b;', 'int result = a - b;')), diagnosis);
    expect([wrong.outcome, wrong.rejectedAt]).toEqual(['build-failed', 'failing-tests']);
    expect(wrong.stages.map((s) => [s.name, s.exitCode, s.failingFirst])).toEqual([['full', 1, 'stopped']]);
    // The module's target was removed before the run: these reports are its own. Only the failing test ran.
    const ranWrong = await collectTestResults({ projectRoot: session.workspace.root });
    expect(ranWrong.map((t) => `${t.className}#${t.method}:${t.status}`)).toEqual([
      'com.acme.calc.CalculatorTest#multipliesTwoNumbers:failed',
    ]);
    // The execution went into the declared plugin: no second declaration (one in pluginManagement, one in build/plugins, as before).
    const workspacePom = await readFile(path.join(session.workspace.root, 'pom.xml'), 'utf8');
    expect(workspacePom).toContain('<id>mvnx-failing-first</id>');
    expect(workspacePom.match(/<artifactId>maven-surefire-plugin<\/artifactId>/g)).toHaveLength(2);

    const fixed = await session.verify(edit(source.replace('int result = a + b;', 'int result = a * b;')), diagnosis);
    expect(fixed.outcome).toBe('verified');
    expect(fixed.stages.map((s) => [s.name, s.exitCode, s.failingFirst])).toEqual([
      ['full', 0, 'passed'],
      ['behaviour-probe', 0, undefined],
      ['test-repeat', 0, undefined],
    ]);
    const ranFixed = await collectTestResults({ projectRoot: session.workspace.root });
    expect(ranFixed.map((t) => `${t.className}#${t.method}:${t.status}`).sort()).toEqual([
      'com.acme.calc.CalculatorTest#addsTwoNumbers:passed',
      'com.acme.calc.CalculatorTest#multipliesTwoNumbers:passed',
      'com.acme.calc.OtherTest#stillCounts:passed',
    ]);
    // The user's pom is as it was.
    expect(await readFile(path.join(root, 'pom.xml'), 'utf8')).toBe(pom.replace('</build>', declared));

    // A fix that also leaves CalculatorTest out of the user's command: it passed when run first, but the verdict reads the user's command alone.
    const userPom = pom.replace('</build>', declared);
    const hiding: ChangeSet = {
      files: [
        ...edit(source.replace('int result = a + b;', 'int result = a * b;')).files,
        {
          path: 'pom.xml',
          before: userPom,
          after: userPom.replace(
            '<trimStackTrace>false</trimStackTrace>',
            '<trimStackTrace>false</trimStackTrace><excludes><exclude>**/CalculatorTest.java</exclude></excludes>',
          ),
        },
      ],
    };
    const hidden = await session.verify(hiding, diagnosis);
    expect(hidden.stages.map((s) => [s.name, s.exitCode, s.failingFirst])).toEqual([['full', 0, 'passed']]);
    expect(hidden.outcome).toBe('regressed');
    expect(hidden.testProblems).toContain(
      'com.acme.calc.CalculatorTest#multipliesTwoNumbers, which failed in your build, did not run',
    );
  }, 900_000);

  it('Surefire inherited from the parent’s build/plugins (ledger: core fails, app depends on it): one run, core’s failing test first', async () => {
    const root = await scratchCopy(path.resolve(repairFixtures, '../workspace/ledger'));
    const { session, diagnosis, baselineTests } = await sessionOn(root, ['-o', '-B', 'verify']);
    expect(diagnosis.diagnostics.map((d) => d.test)).toEqual(['com.example.ledger.core.AmountsTest#takesPercent']);
    const file = 'core/src/main/java/com/example/ledger/core/Amounts.java';
    const source = await readFile(path.join(root, file), 'utf8');
    expect(baselineTests.length).toBeGreaterThan(0);

    // The wrong candidate changes nothing the test checks: a comment.
    const wrong = await session.verify(
      { files: [{ path: file, before: source, after: `${source}\n// checked\n` }] },
      diagnosis,
    );
    expect(wrong.stages.map((s) => [s.name, s.exitCode !== 0, s.failingFirst])).toEqual([['full', true, 'stopped']]);
    expect(wrong.rejectedAt).toBe('failing-tests');
    // app (after core in the reactor) never got to its tests; core's failing class ran (JUnit Jupiter: first, by mvnx's class orderer).
    const ran = await collectTestResults({ projectRoot: session.workspace.root });
    expect(ran.filter((t) => t.module === 'ledger-app')).toEqual([]);
    expect(ran.filter((t) => t.module === 'ledger-core').map((t) => `${t.className}#${t.method}`)).toContain(
      'com.example.ledger.core.AmountsTest#takesPercent',
    );
  }, 900_000);

  it("JUnit Jupiter, one test JVM: the failing class runs first inside default-test (mvnx's class orderer) and a wrong candidate is stopped while a slow class runs; the fix runs everything in the same JVM", async () => {
    const root = await scratchCopy(path.join(repairFixtures, 'calc-logic-bug'));
    // First by name, which is Surefire's order here (runOrder alphabetical), and slow: without the orderer it would end before the failing class starts.
    await writeFile(path.join(root, 'src/test/java/com/acme/calc/AaaSlowTest.java'), SLOW_TEST);
    const { session, diagnosis } = await sessionOn(root, ['-o', '-B', '-Dsurefire.runOrder=alphabetical', 'verify']);
    const source = await readFile(path.join(root, CALCULATOR), 'utf8');
    const edit = (after: string): ChangeSet => ({ files: [{ path: CALCULATOR, before: source, after }] });

    const wrong = await session.verify(edit(source.replace('int result = a + b;', 'int result = a - b;')), diagnosis);
    expect([wrong.outcome, wrong.rejectedAt]).toEqual(['build-failed', 'failing-tests']);
    expect(wrong.stages.map((s) => [s.name, s.failingFirst])).toEqual([['full', 'stopped']]);
    // Stopped by mvnx, not ended by Maven: killed while AaaSlowTest slept, so it never reported.
    expect(wrong.stages[0]!.exitCode).toBeGreaterThan(128);
    const ranWrong = await collectTestResults({ projectRoot: session.workspace.root });
    expect(ranWrong.map((t) => `${t.className}#${t.method}:${t.status}`).sort()).toEqual([
      'com.acme.calc.CalculatorTest#addsTwoNumbers:passed',
      'com.acme.calc.CalculatorTest#multipliesTwoNumbers:failed',
    ]);
    // The diagnosis of the stopped build reads the failing class's report, as after a build that ended.
    expect(wrong.diagnosis?.diagnostics.map((d) => d.test)).toEqual([
      'com.acme.calc.CalculatorTest#multipliesTwoNumbers',
    ]);
    // No pom was changed: the orderer sits among the workspace's test classes, named on the command line.
    const workspacePom = await readFile(path.join(session.workspace.root, 'pom.xml'), 'utf8');
    expect(workspacePom).not.toContain('mvnx-failing-first');

    const fixed = await session.verify(edit(source.replace('int result = a + b;', 'int result = a * b;')), diagnosis);
    expect(fixed.outcome).toBe('verified');
    expect(fixed.stages.map((s) => [s.name, s.exitCode, s.failingFirst])).toEqual([
      ['full', 0, 'passed'],
      ['behaviour-probe', 0, undefined],
      ['test-repeat', 0, undefined],
    ]);
    expect(fixed.verdict?.args).toEqual(
      expect.arrayContaining([
        '-Djunit.jupiter.testclass.order.default=mvnx.FailingFirstOrder',
        '-Dmvnx.failingFirst=com.acme.calc.CalculatorTest',
      ]),
    );
    const ranFixed = await collectTestResults({ projectRoot: session.workspace.root });
    expect(ranFixed.map((t) => `${t.className}#${t.method}:${t.status}`).sort()).toEqual([
      'com.acme.calc.AaaSlowTest#takesItsTime:passed',
      'com.acme.calc.CalculatorTest#addsTwoNumbers:passed',
      'com.acme.calc.CalculatorTest#multipliesTwoNumbers:passed',
    ]);
  }, 900_000);

  it('many failing tests: only ten, of the class with the most failures, run first, and a build they stop keeps the rest as still failing (not as fixed); the fix runs every one', async () => {
    const root = await scratchCopy(path.join(repairFixtures, 'calc-logic-bug'));
    await writeFile(path.join(root, 'src/test/java/com/acme/calc/TimesTableTest.java'), TIMES_TABLE_TEST);
    // The project orders its classes itself: the Surefire execution, whose reports show exactly what ran first.
    await mkdir(path.join(root, 'src/test/resources'), { recursive: true });
    await writeFile(
      path.join(root, 'src/test/resources/junit-platform.properties'),
      'junit.jupiter.testclass.order.default=org.junit.jupiter.api.ClassOrderer$ClassName\n',
    );
    const { session, diagnosis } = await sessionOn(root, ['-o', '-B', 'verify']);
    const failing = failingTests(diagnosis);
    expect(failing).toHaveLength(13);
    const source = await readFile(path.join(root, CALCULATOR), 'utf8');
    const edit = (after: string): ChangeSet => ({ files: [{ path: CALCULATOR, before: source, after }] });

    const wrong = await session.verify(edit(source.replace('int result = a + b;', 'int result = a - b;')), diagnosis);
    expect([wrong.outcome, wrong.rejectedAt]).toEqual(['build-failed', 'failing-tests']);
    expect(wrong.stages.map((s) => [s.name, s.failingFirst])).toEqual([['full', 'stopped']]);
    const ranWrong = (await collectTestResults({ projectRoot: session.workspace.root })).map(
      (t) => `${t.className}#${t.method}`,
    );
    expect(ranWrong).toHaveLength(10);
    expect(ranWrong.every((test) => test.startsWith('com.acme.calc.TimesTableTest#'))).toBe(true);
    expect(failing).toEqual(expect.arrayContaining(ranWrong));
    // The three that did not run are still failing in the candidate's diagnosis: nothing went away, so nothing is kept.
    expect(failingTests(wrong.diagnosis!).sort()).toEqual([...failing].sort());
    expect(judgeProgress(diagnosis, wrong.diagnosis!).adopted).toBe(false);

    const fixed = await session.verify(edit(source.replace('int result = a + b;', 'int result = a * b;')), diagnosis);
    expect(fixed.outcome).toBe('verified');
    const ranFixed = await collectTestResults({ projectRoot: session.workspace.root });
    expect(ranFixed.filter((t) => t.status === 'passed')).toHaveLength(14);
  }, 900_000);

  it("a project with its own argLine gets the quick-JVM flags appended to it in the workspace, so its test JVM starts with the serial collector; the user's pom is untouched", async () => {
    const root = await scratchCopy(path.join(repairFixtures, 'calc-logic-bug'));
    const userPom = (await readFile(path.join(root, 'pom.xml'), 'utf8')).replace(
      '</build>',
      '<plugins><plugin><artifactId>maven-surefire-plugin</artifactId><configuration><argLine>-Xss640k</argLine></configuration></plugin></plugins>\n  </build>',
    );
    await writeFile(path.join(root, 'pom.xml'), userPom);
    await writeFile(path.join(root, 'src/test/java/com/acme/calc/OtherTest.java'), FORK_ARGS_TEST);
    const { session, diagnosis } = await sessionOn(root, ['-o', '-B', 'verify']);
    const source = await readFile(path.join(root, CALCULATOR), 'utf8');

    const fixed = await session.verify(
      {
        files: [
          { path: CALCULATOR, before: source, after: source.replace('int result = a + b;', 'int result = a * b;') },
        ],
      },
      diagnosis,
    );
    expect(fixed.outcome).toBe('verified');
    // What the test JVM itself was started with: the project's flag, then the quick ones.
    const forkArgs = (await readFile(path.join(session.workspace.root, 'target/fork-args.txt'), 'utf8')).split('\n');
    expect(forkArgs).toEqual(expect.arrayContaining(['-Xss640k', '-XX:+UseSerialGC', '-Xshare:auto']));
    // C2 stays in the test JVM: a test run of seconds needs it.
    expect(forkArgs).not.toContain('-XX:TieredStopAtLevel=1');
    expect(fixed.verdict?.jvmFlags).toContain('argLine of pom.xml -XX:+UseSerialGC -Xshare:auto');
    expect(await readFile(path.join(session.workspace.root, 'pom.xml'), 'utf8')).toContain(
      '<argLine>-Xss640k -XX:+UseSerialGC -Xshare:auto</argLine>',
    );
    expect(await readFile(path.join(root, 'pom.xml'), 'utf8')).toBe(userPom);
  }, 900_000);
});

/** A passing test class that takes 8 seconds. */
const SLOW_TEST = `package com.acme.calc;

import org.junit.jupiter.api.Test;

class AaaSlowTest {
    @Test
    void takesItsTime() throws Exception {
        Thread.sleep(8_000);
    }
}
`;

/** A passing test that writes the arguments its JVM started with to target/fork-args.txt (Surefire runs it with the module as working directory). */
const FORK_ARGS_TEST = `package com.acme.calc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

class OtherTest {
    @Test
    void recordsItsJvmArguments() throws Exception {
        Files.write(Paths.get("target/fork-args.txt"), ManagementFactory.getRuntimeMXBean().getInputArguments());
        assertEquals(4, new Calculator().add(2, 2));
    }
}
`;

/** Twelve failing tests of the multiply bug, in a class of their own. */
const TIMES_TABLE_TEST = `package com.acme.calc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TimesTableTest {
    @Test
    void times01() {
        assertEquals(3, new Calculator().multiply(1, 3));
    }

    @Test
    void times02() {
        assertEquals(6, new Calculator().multiply(2, 3));
    }

    @Test
    void times03() {
        assertEquals(9, new Calculator().multiply(3, 3));
    }

    @Test
    void times04() {
        assertEquals(12, new Calculator().multiply(4, 3));
    }

    @Test
    void times05() {
        assertEquals(15, new Calculator().multiply(5, 3));
    }

    @Test
    void times06() {
        assertEquals(18, new Calculator().multiply(6, 3));
    }

    @Test
    void times07() {
        assertEquals(21, new Calculator().multiply(7, 3));
    }

    @Test
    void times08() {
        assertEquals(24, new Calculator().multiply(8, 3));
    }

    @Test
    void times09() {
        assertEquals(27, new Calculator().multiply(9, 3));
    }

    @Test
    void times10() {
        assertEquals(30, new Calculator().multiply(10, 3));
    }

    @Test
    void times11() {
        assertEquals(33, new Calculator().multiply(11, 3));
    }

    @Test
    void times12() {
        assertEquals(36, new Calculator().multiply(12, 3));
    }
}
`;
