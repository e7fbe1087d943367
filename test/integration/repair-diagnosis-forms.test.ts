/**
 * Repairs of the failures issue 16 taught mvnx to read, end to end: the built CLI, real
 * offline Maven, the real loop and workspace, the real HTTP server that speaks the Ollama
 * API.
 *
 * - `-Xlint:all -Werror` under `-q`: the log names no line; mvnx compiles again without
 *   -q in its workspace, sends the model the real warnings, and a one-line generics
 *   change is verified.
 * - a spotless-style formatting failure: the formatter-goal quick-fix runs the project's
 *   own `apply` goal in the workspace; no model is asked (the model server is dead).
 *   The formatter is a tiny offline stand-in for spotless built by the test helper,
 *   since the real plugin is not in the offline repository.
 */
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deadServerUrl, startOllamaMock, type OllamaMock } from '../helpers/ollama-mock.js';
import {
  copyProject,
  readRecordFile,
  repairFixtures,
  reply,
  runMvnx,
  type ProjectCopy,
} from '../helpers/repair-project.js';
import { ensureTinyFormatPlugin } from '../helpers/tiny-format-plugin.js';
import { projectDir } from '../unit/diagnose-cases.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});
beforeAll(() => ensureTinyFormatPlugin());

async function project(source: string, config: string): Promise<ProjectCopy> {
  const copy = await copyProject(source, config);
  cleanups.push(copy.remove);
  return copy;
}

async function ollama(replies: string[]): Promise<OllamaMock> {
  const mock = await startOllamaMock({ replies });
  cleanups.push(mock.close);
  return mock;
}

describe('repairing what issue 16 taught mvnx to read', () => {
  it('-Xlint:all -Werror run with -q: the hidden warnings are recovered and a one-line generics change is verified', async () => {
    const copy = await project(
      path.join(repairFixtures, 'names-werror'),
      'tier: monitor\nbudget:\n  dynamic: false\n  maxAttempts: 2\n  maxModelCalls: 2\n',
    );
    const before = await copy.snapshot();
    const mock = await ollama([await reply('werror-raw-type')]);

    const run = await runMvnx(copy.root, ['-o', '-B', '-q', 'verify', `--mvnx-host=${mock.url}`, '--mvnx-json']);

    const record = run.record!;
    expect(record.status, run.stderr).toBe('fixed');
    expect(record.attempts.map((a) => [a.source, a.outcome])).toEqual([['model', 'verified']]);
    // The run record holds the recovered warnings, not the line-less -q failure.
    expect(record.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} [${d.lint}] ${d.message}`)).toEqual([
      'src/main/java/com/acme/names/Names.java:15:9 [rawtypes] found raw type: java.util.List',
      'src/main/java/com/acme/names/Names.java:16:25 [unchecked] unchecked method invocation: method sort in class java.util.Collections is applied to given types',
      'src/main/java/com/acme/names/Names.java:16:26 [unchecked] unchecked conversion',
      'src/main/java/com/acme/names/Names.java:17:16 [unchecked] unchecked conversion',
    ]);
    expect(record.decisions).toContainEqual(
      expect.stringMatching(
        /^-Werror under -q: compiled again without -q \(.*test-compile\) to read the 4 warning\(s\) that failed the build$/,
      ),
    );
    // The model saw the warnings with their lines and categories.
    const prompt = await readRecordFile(copy.root, 'attempt-1.prompt.txt');
    expect(prompt).toContain(
      'javac warning [rawtypes] that fails the build under -Werror in src/main/java/com/acme/names/Names.java, line 15, column 9',
    );
    expect(mock.chatRequests()).toHaveLength(1);
    const patch = await readRecordFile(copy.root, 'fix.patch');
    expect(patch).toContain('+        List<String> copy = new ArrayList<>(names);');
    expect(patch.split('\n').filter((line) => /^[-+][^-+]/.test(line))).toHaveLength(2);
    const check = await execa('git', ['apply', '--check', '-'], { cwd: copy.root, input: patch, reject: false });
    expect(check.exitCode, check.stderr).toBe(0);
    expect(await copy.snapshot()).toEqual(before);
    expect(run.exitCode).toBe(1);
  });

  it("a spotless-style formatting failure is repaired by the project's own formatter goal, with no model at all", async () => {
    const copy = await project(projectDir('format-violation'), 'tier: monitor\n');
    const before = await copy.snapshot();
    const dead = await deadServerUrl();

    const run = await runMvnx(copy.root, ['-o', '-B', 'verify', `--mvnx-host=${dead}`, '--mvnx-json']);

    const record = run.record!;
    expect(record.status, run.stderr).toBe('fixed');
    expect(record.diagnostics).toEqual([
      expect.objectContaining({
        kind: 'quality',
        tool: 'spotless',
        file: 'src/main/java/com/acme/Greeter.java',
        line: 8,
      }),
    ]);
    expect(record.attempts.map((a) => [a.source, a.fixer, a.outcome])).toEqual([
      ['fixer', 'formatter-goal', 'verified'],
    ]);
    expect(record.attempts[0]?.summary).toContain(
      'dev.mvnx.fixtures:spotless-maven-plugin:1.0.0:apply'.split(':').slice(1, 2)[0],
    );
    expect(record.modelCalls).toBe(0);
    const patch = await readRecordFile(copy.root, 'fix.patch');
    expect(patch).toContain('-    \treturn "Hello, " + name;   ');
    expect(patch).toContain('+        return "Hello, " + name;');
    const check = await execa('git', ['apply', '--check', '-'], { cwd: copy.root, input: patch, reject: false });
    expect(check.exitCode, check.stderr).toBe(0);
    expect(await copy.snapshot()).toEqual(before);
  });
});
