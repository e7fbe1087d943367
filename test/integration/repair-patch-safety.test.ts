/**
 * Hostile and broken model replies through the real loop: the built CLI, real Maven, the
 * real Ollama-API server and client. Each reply is refused with its reason code and goes
 * back to the model; none makes the repair end in `error`, hang, or touch the real tree.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startOllamaMock, type OllamaMock } from '../helpers/ollama-mock.js';
import { copyProject, repairFixtures, reply, runMvnx, type ProjectCopy } from '../helpers/repair-project.js';

const CONFIG = `tier: monitor
fixers:
  enabled: false
budget:
  dynamic: false
  maxAttempts: 8
  maxModelCalls: 8
`;

const CALC = 'src/main/java/com/acme/calc/Calculator.java';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A model that answers in prose, then a block, as 7B models do. */
function prose(body: string): string {
  return `The build fails because of a missing semicolon. Here is the fix:\n\n${body}\n\nThis should compile now.\n`;
}

const longName = `src/main/java/com/acme/calc/${'Calculator'.repeat(40)}.java`;

const replies = {
  tooLong: prose(JSON.stringify({ edits: [{ file: longName, content: 'class X {}\n' }] })),
  ontoFolder: prose(
    '```diff\n--- a/src/main/java/com/acme/calc\n+++ b/src/main/java/com/acme/calc\n@@ -1,1 +1,1 @@\n-package com.acme.calc;\n+package com.acme.evil;\n```',
  ),
  fifo: prose('docs/pipe\n```\n<<<<<<< SEARCH\nanything\n=======\nsomething\n>>>>>>> REPLACE\n```'),
  beyondLink: prose(
    'src/main/java/com/acme/calc/cfg/jvm.config\n```\n<<<<<<< SEARCH\n-Xmx512m\n=======\n-Xmx4g -javaagent:/tmp/evil.jar\n>>>>>>> REPLACE\n```',
  ),
  millions: prose(
    `\`\`\`diff\n--- /dev/null\n+++ b/src/main/resources/huge.txt\n@@ -0,0 +1,2000000 @@\n${'+x\n'.repeat(2_000_000)}\`\`\``,
  ),
};

describe('hostile and broken replies through the real repair loop', () => {
  let copy: ProjectCopy;
  let mock: OllamaMock;

  it('refuses each with its reason code, never ends in error, and still fixes the build with the next good reply', async () => {
    copy = await copyProject(path.join(repairFixtures, 'calc-semicolon'), CONFIG);
    cleanups.push(() => copy.remove());
    // The tree a team really has: a .mvn folder, a link into it from the sources, a FIFO.
    await mkdir(path.join(copy.root, '.mvn'));
    await writeFile(path.join(copy.root, '.mvn/jvm.config'), '-Xmx512m\n');
    await symlink(path.join(copy.root, '.mvn'), path.join(copy.root, 'src/main/java/com/acme/calc/cfg'));
    await mkdir(path.join(copy.root, 'docs'));
    execFileSync('mkfifo', [path.join(copy.root, 'docs/pipe')]);
    const calculatorBefore = await readFile(path.join(copy.root, CALC), 'utf8');

    mock = await startOllamaMock({
      replies: [
        replies.tooLong,
        replies.ontoFolder,
        replies.fifo,
        replies.beyondLink,
        replies.millions,
        await reply('semicolon-wrong-counts'),
      ],
    });
    cleanups.push(() => mock.close());

    const run = await runMvnx(copy.root, ['-o', '-B', '-q', 'verify', `--mvnx-host=${mock.url}`, '--mvnx-json']);

    const attempts = run.record?.attempts ?? [];
    expect(run.record?.status, run.stderr).toBe('fixed');
    expect(attempts.map((a) => a.outcome)).toEqual([
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'verified',
    ]);
    expect(attempts[0]!.reason).toMatch(/^path-too-long: /);
    expect(attempts[1]!.reason).toMatch(/^not-a-file: src\/main\/java\/com\/acme\/calc is a folder/);
    expect(attempts[2]!.reason).toMatch(/^not-a-file: docs\/pipe is a FIFO/);
    expect(attempts[3]!.reason).toMatch(/^beyond-symlink: .* is beyond a symbolic link/);
    expect(attempts[4]!.reason).toMatch(/^file-too-large: /);
    // The model hears why, in the next prompt.
    expect(JSON.stringify(mock.chatRequests()[4]!.body)).toContain('beyond a symbolic link');
    // Monitor: the real tree is as it was, .mvn/jvm.config above all.
    expect(await readFile(path.join(copy.root, '.mvn/jvm.config'), 'utf8')).toBe('-Xmx512m\n');
    expect(await readFile(path.join(copy.root, CALC), 'utf8')).toBe(calculatorBefore);
    expect(mock.failures).toEqual([]);
  });

  it('ends unfixed (budget), not in error, when every reply is refused', async () => {
    copy = await copyProject(
      path.join(repairFixtures, 'calc-semicolon'),
      CONFIG.replace(/maxAttempts: 8\n {2}maxModelCalls: 8/, 'maxAttempts: 2\n  maxModelCalls: 2'),
    );
    cleanups.push(() => copy.remove());
    mock = await startOllamaMock({ replies: [replies.tooLong, replies.ontoFolder] });
    cleanups.push(() => mock.close());

    const run = await runMvnx(copy.root, ['-o', '-B', '-q', 'verify', `--mvnx-host=${mock.url}`, '--mvnx-json']);

    expect(run.record?.status, run.stderr).toBe('unfixed');
    expect(run.record?.stopReason).toBe('budget-exhausted');
    expect(run.record?.attempts.map((a) => a.outcome)).toEqual(['rejected', 'rejected']);
    expect(run.exitCode).toBe(1);
  });
});
