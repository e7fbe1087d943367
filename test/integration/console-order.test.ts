/**
 * What a failing test with no model server prints, as a new user reads it (issue 48): the
 * steps in the order they happen (the re-check, the first model request prepared beside
 * it, the quick-fix look-up, attempt 1), and one plain closing sentence as the last line.
 * Real Maven, the built CLI, a port nothing listens on.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deadServerUrl } from '../helpers/ollama-mock.js';
import { copyProject, repairFixtures, runMvnx } from '../helpers/repair-project.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** The console's own lines, their elapsed-time stamps taken off. */
function mvnxLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('mvnx'))
    .map((line) => line.replace(/^mvnx \[[\d.]+s\] /, 'mvnx ').trimEnd());
}

function indexOf(lines: string[], pattern: RegExp): number {
  const at = lines.findIndex((line) => pattern.test(line));
  expect(at, `${pattern} in:\n${lines.join('\n')}`).toBeGreaterThanOrEqual(0);
  return at;
}

async function failingTestRun(...extra: string[]) {
  const copy = await copyProject(path.join(repairFixtures, 'calc-logic-bug'));
  cleanups.push(copy.remove);
  const host = await deadServerUrl();
  const run = await runMvnx(copy.root, ['-o', '-B', '-q', 'verify', `--mvnx-host=${host}`, ...extra]);
  expect(run.exitCode, run.stderr).toBe(1);
  return { run, lines: mvnxLines(run.stderr), host };
}

/** One sentence: no nested parentheses, no "attempt(s)", one full stop, at the end. */
function expectOnePlainSentence(line: string): void {
  expect(line).not.toMatch(/\([^()]*\(/);
  expect(line).not.toContain('attempt(s)');
  expect(line).toMatch(/\.$/);
  expect(line.replace(/https?:\/\/\S+/g, 'URL').slice(0, -1)).not.toMatch(/\.\s/);
}

describe('the console of a failing test with no model server (issue 48)', () => {
  it('reads in the order things happen and ends with one plain sentence', async () => {
    const { lines, host } = await failingTestRun();

    const recheck = indexOf(lines, /^mvnx re-running the failing tests on the unchanged code/);
    const prepared = indexOf(lines, /^mvnx meanwhile preparing a first request to \S+, used if no quick-fix applies$/);
    const quickFix = indexOf(lines, /^mvnx looking for a deterministic quick-fix$/);
    const attempt = indexOf(lines, /^mvnx attempt 1: the request to \S+ prepared beside the re-check$/);
    expect(recheck).toBeLessThan(prepared);
    expect(prepared).toBeLessThan(quickFix);
    expect(quickFix).toBeLessThan(attempt);
    // Nothing calls the early request "attempt 1" before the quick-fixes were looked at.
    expect(lines.slice(0, quickFix).some((line) => /attempt 1: asking/.test(line))).toBe(false);

    const last = lines.at(-1)!;
    expect(last).toBe(
      `mvnx: no fix was tried: cannot reach the Ollama server at ${host} (fetch failed: ECONNREFUSED); ` +
        'start it with `ollama serve`, or point mvnx at another server with --mvnx-host or MVNX_HOST.',
    );
    expectOnePlainSentence(last);
    expect(lines.at(-2)).toMatch(/^mvnx: details in \.mvnx\/runs\/[\w-]+\/run\.json$/);
  });

  it('under --mvnx-no-fixers does not say it looks for a quick-fix', async () => {
    const { lines } = await failingTestRun('--mvnx-no-fixers');

    expect(lines.some((line) => line.includes('quick-fix'))).toBe(false);
    const prepared = indexOf(lines, /^mvnx meanwhile preparing a first request to \S+$/);
    expect(prepared).toBeLessThan(indexOf(lines, /^mvnx attempt 1: the request to/));
    expectOnePlainSentence(lines.at(-1)!);
  });
});
