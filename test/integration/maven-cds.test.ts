/**
 * Maven's class-data archive (workspace/maven-cds.ts), end to end: the built CLI, real
 * Maven in the sandbox this machine has, the Ollama-API test server. The archive is made
 * by the flaky check's build of the unchanged code, kept in the machine cache, and named by
 * the verification builds after it; a build that never re-ran the user's code (a compile
 * error) makes none. MAVEN_OPTS is emptied here: the other tests set `-Xshare:auto`
 * themselves, which leaves class sharing to them.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOllamaMock } from '../helpers/ollama-mock.js';
import { copyProject, repairFixtures, reply, runMvnx } from '../helpers/repair-project.js';

const MODEL_ONLY =
  'tier: monitor\nfixers:\n  enabled: false\nbudget:\n  dynamic: false\n  maxAttempts: 2\n  maxModelCalls: 2\n';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function runOn(fixture: string, replyName: string, cache: string) {
  const copy = await copyProject(path.join(repairFixtures, fixture), MODEL_ONLY);
  cleanups.push(copy.remove);
  const mock = await startOllamaMock({ replies: [await reply(replyName)] });
  cleanups.push(mock.close);
  return runMvnx(copy.root, ['-o', '-B', '-q', 'verify', `--mvnx-host=${mock.url}`, '--mvnx-json'], {
    MAVEN_OPTS: '',
    XDG_CACHE_HOME: cache,
  });
}

async function archives(cache: string): Promise<string[]> {
  return (await readdir(path.join(cache, 'mvnx', 'cds')).catch(() => [] as string[])).filter((name) =>
    name.endsWith('.jsa'),
  );
}

describe("Maven's class-data archive", () => {
  it('is made by the flaky check of a failing test, then named by the verification builds; a compile error makes none', async () => {
    const cache = await mkdtemp(path.join(os.tmpdir(), 'mvnx-cds-it-'));
    cleanups.push(() => rm(cache, { recursive: true, force: true }));

    const compileError = await runOn('calc-semicolon', 'semicolon-wrong-counts', cache);
    expect(compileError.record?.status, compileError.stderr).toBe('fixed');
    expect(await archives(cache)).toEqual([]);
    const flags = (run: typeof compileError) =>
      run.record?.attempts.find((a) => a.outcome === 'verified')?.verdict?.jvmFlags ?? [];
    expect(flags(compileError).some((flag) => flag.includes('SharedArchiveFile'))).toBe(false);
    expect(flags(compileError)).toContain('MAVEN_OPTS -Xshare:auto');

    const first = await runOn('calc-logic-bug', 'logic-bug-fix', cache);
    expect(first.record?.status, first.stderr).toBe('fixed');
    const made = await archives(cache);
    expect(made).toHaveLength(1);
    const archive = path.join(cache, 'mvnx', 'cds', made[0]!);
    // Made by the re-check, before the candidate's build, which used it (in the sandbox too: bound read-only).
    expect(flags(first)).toContain(`MAVEN_OPTS -XX:SharedArchiveFile=${archive}`);

    const again = await runOn('calc-semicolon', 'semicolon-wrong-counts', cache);
    expect(again.record?.status, again.stderr).toBe('fixed');
    expect(flags(again)).toContain(`MAVEN_OPTS -XX:SharedArchiveFile=${archive}`);
    // Nothing of the archive's logging reached the build's output.
    expect(again.stdout + again.stderr).not.toMatch(/\[cds/);
    expect(await archives(cache)).toEqual(made);
  }, 600_000);
});
