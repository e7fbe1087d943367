/**
 * The user's Maven setup reaches the sandbox (issue 44): a local repository under /tmp
 * (`-Dmaven.repo.local`), where bubblewrap gives the build a private /tmp of its own. The
 * verification must still read the user's repository (offline, every plugin comes from it)
 * and pass under bwrap. The repository is a hard-linked copy of ~/.m2/repository (same
 * file system), so it costs no disk and nothing else has it.
 */
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { detectSandbox } from '../../src/workspace/sandbox.js';
import { startOllamaMock } from '../helpers/ollama-mock.js';
import { copyProject, repairFixtures, reply, runMvnx } from '../helpers/repair-project.js';

const sandbox = await detectSandbox('bwrap');
const userRepository = path.join(os.homedir(), '.m2', 'repository');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

it.skipIf(!sandbox.available || !existsSync(userRepository))(
  'a local repository under /tmp (-Dmaven.repo.local): the fix is verified under bubblewrap',
  async () => {
    const scratch = await mkdtemp(path.join('/tmp', 'mvnx-repo-local-'));
    cleanups.push(() => rm(scratch, { recursive: true, force: true }));
    const repository = path.join(scratch, 'repository');
    await execa('cp', ['-al', userRepository, repository]);
    const copy = await copyProject(
      path.join(repairFixtures, 'calc-semicolon'),
      'tier: monitor\nfixers:\n  enabled: false\n',
    );
    cleanups.push(copy.remove);
    const mock = await startOllamaMock({ replies: [await reply('semicolon-wrong-counts')] });
    cleanups.push(() => mock.close());

    const run = await runMvnx(copy.root, [
      '-o',
      '-B',
      `-Dmaven.repo.local=${repository}`,
      'verify',
      `--mvnx-host=${mock.url}`,
      '--mvnx-json',
      '--mvnx-sandbox=bwrap',
    ]);

    expect(run.record?.sandbox, run.stderr).toMatchObject({ kind: 'bwrap', isolated: true });
    expect(
      run.record?.attempts.map((attempt) => attempt.outcome),
      run.stderr,
    ).toEqual(['verified']);
    expect(run.record?.status).toBe('fixed');
    expect(run.exitCode).toBe(1);
  },
  240_000,
);
