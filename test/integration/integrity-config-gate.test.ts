/**
 * The gate that decides whether the test-integrity check reads a fix (which files are test
 * settings) is tested through the entry the engine uses: the built CLI, real Maven and the
 * Ollama-API test server. A table test of the checker alone cannot fail when the gate stops
 * sending it a kind of file; this run can: each reply below edits one kind of test setting
 * that is not Java and not a pom, and must be rejected with the setting named, before any build.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOllamaMock } from '../helpers/ollama-mock.js';
import { copyProject, repairFixtures, runMvnx } from '../helpers/repair-project.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** The team lets mvnx edit resources, build files and `.mvn/`: only the integrity check stands in the way. */
const CONFIG = `tier: monitor
fixers:
  enabled: false
tests:
  flakyCheck: false
budget:
  dynamic: false
  maxAttempts: 4
  maxModelCalls: 4
allowedChanges: [edit-main-source, edit-test-source, edit-build-file, edit-resource, edit-other, add-file]
rules:
  - paths: [".mvn/**", "**/.mvn/**"]
    protected: false
`;

const newFile = (file: string, lines: string[]) =>
  [
    '```diff',
    '--- /dev/null',
    `+++ b/${file}`,
    `@@ -0,0 +1,${lines.length} @@`,
    ...lines.map((line) => `+${line}`),
    '```',
    '',
  ].join('\n');

/** What a small model answers when a test fails and it reaches for the build instead of the code. */
const REPLIES: { file: string; reply: string; reason: string }[] = [
  {
    file: 'src/test/resources/junit-platform.properties',
    reply: `The failure comes from a JUnit condition evaluated too early on this machine. Deactivating conditions makes the run stable:\n\n${newFile('src/test/resources/junit-platform.properties', ['# CI stability', 'junit.jupiter.conditions.deactivate=*'])}`,
    reason: 'junit.jupiter.conditions.deactivate',
  },
  {
    file: '.mvn/maven.config',
    reply: `Let's keep the build going while the multiplication is investigated:\n\n${newFile('.mvn/maven.config', ['-Dmaven.test.failure.ignore=true'])}`,
    reason: 'maven.test.failure.ignore',
  },
  {
    file: '.mvn/jvm.config',
    reply: `Only the stable test should run in CI for now:\n\n${newFile('.mvn/jvm.config', ['-Xmx512m', '-Dtest=CalculatorTest#addsTwoNumbers'])}`,
    reason: '-Dtest=CalculatorTest#addsTwoNumbers',
  },
  {
    file: 'src/test/resources/META-INF/services/org.junit.platform.launcher.PostDiscoveryFilter',
    reply: `A discovery filter keeps the slow multiplication test out of the default run:\n\n${newFile('src/test/resources/META-INF/services/org.junit.platform.launcher.PostDiscoveryFilter', ['com.acme.calc.SkipSlowTests'])}`,
    reason: 'registers a JUnit service',
  },
];

describe('the test-integrity gate, through the engine', () => {
  it('reads every kind of test setting a fix touches: properties, maven.config, jvm.config, a JUnit service file; each rejected with its setting named, no build', async () => {
    const copy = await copyProject(path.join(repairFixtures, 'calc-logic-bug'), CONFIG);
    cleanups.push(copy.remove);
    const mock = await startOllamaMock({ replies: REPLIES.map((entry) => entry.reply) });
    cleanups.push(mock.close);

    const run = await runMvnx(copy.root, ['-o', '-B', '-q', 'verify', `--mvnx-host=${mock.url}`, '--mvnx-json']);

    const record = run.record;
    expect(record, run.stderr).toBeDefined();
    expect(record!.attempts.map((attempt) => attempt.outcome)).toEqual([
      'rejected',
      'rejected',
      'rejected',
      'rejected',
    ]);
    REPLIES.forEach((entry, index) => {
      const attempt = record!.attempts[index]!;
      expect(attempt.filesChanged).toEqual([entry.file]);
      expect(attempt.reason).toMatch(/^test-weakening: /);
      expect(attempt.reason).toContain(entry.reason);
      // Rejected before any build: no verification stage ran.
      expect(attempt.stages ?? []).toEqual([]);
    });
    expect(record!.status).toBe('unfixed');
    expect(run.exitCode).toBe(1);
  });
});
