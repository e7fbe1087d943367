import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseRunsArgs, run } from '../../src/cli/commands/runs.js';
import { MvnxError } from '../../src/shared/errors.js';
import { RunRecorder } from '../../src/report/run-record.js';
import { teamMonth } from './stats-support.js';

let projectRoot: string;
let output: string;

beforeEach(async () => {
  projectRoot = await mkdtemp(path.join(tmpdir(), 'mvnx-runs-'));
  await writeFile(path.join(projectRoot, 'pom.xml'), '<project/>\n');
  for (const record of teamMonth()) {
    const recorder = await RunRecorder.open(projectRoot, record.runId);
    await recorder.writeRecord(record);
  }
  output = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    output += String(chunk);
    return true;
  });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rm(projectRoot, { recursive: true, force: true });
});

const io = () => ({ cwd: projectRoot, env: {} });

describe('mvnx runs', () => {
  it('lists the recorded runs newest first', async () => {
    expect(await run([], io())).toBe(0);
    const ids = output
      .split('\n')
      .slice(2)
      .filter(Boolean)
      .map((line) => line.split(' ')[0]);
    expect(ids).toEqual(['r6', 'r5', 'r4', 'r3', 'r2', 'r1']);
  });

  it('honours --limit', async () => {
    expect(await run(['--limit', '2'], io())).toBe(0);
    expect(output.split('\n').filter(Boolean)).toHaveLength(4);
  });

  it('prints the stats object with --stats --json, from a sub folder of the project', async () => {
    const sub = path.join(projectRoot, 'src');
    await import('node:fs/promises').then((fs) => fs.mkdir(sub));
    expect(await run(['--stats', '--json'], { cwd: sub, env: {} })).toBe(0);
    const stats = JSON.parse(output);
    expect(stats.runs).toBe(6);
    expect(stats.byKind.compile.fixed).toBe(2);
  });

  it('applies --since=DATE to the stats', async () => {
    expect(await run(['--stats', '--json', '--since=2024-05-10'], io())).toBe(0);
    expect(JSON.parse(output).runs).toBe(3);
  });

  it('prints the text table with --stats', async () => {
    expect(await run(['--stats'], io())).toBe(0);
    expect(output).toMatch(/^runs\s+6$/m);
  });

  it.each([
    [['--since'], /--since needs a value/],
    [['--since', 'yesterday'], /--since "yesterday": expected an age like 30d/],
    [['--limit', '0'], /--limit 0: expected a whole number/],
    [['--bogus'], /unknown argument --bogus/],
    [['stats'], /unknown argument stats/],
  ])('refuses %j with one line and exit 2', async (args, message) => {
    const failure = run(args, io());
    await expect(failure).rejects.toBeInstanceOf(MvnxError);
    await expect(failure).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(message) });
  });
});

describe('mvnx runs arguments (the shared subcommand reader)', () => {
  const now = new Date('2026-06-30T12:00:00Z');
  it('reads every spelling, --from more than once', () => {
    const options = parseRunsArgs(
      ['--stats', '--from', 'a', '--from=b/*', '--since=7d', '--limit', '5', '--json'],
      now,
    );
    expect(options).toMatchObject({
      stats: true,
      json: true,
      from: ['a', 'b/*'],
      limit: 5,
      advise: false,
      reconcile: false,
    });
    expect(options.since?.toISOString()).toBe('2026-06-23T12:00:00.000Z');
  });

  it.each([
    [['--limit'], /^mvnx runs: --limit needs a value; usage: mvnx runs \[--stats/],
    [['--module='], /^mvnx runs: --module needs a value; usage/],
    [['--limit', '0'], /^mvnx runs: --limit 0: expected a whole number of at least 1$/],
    [
      ['--bogus'],
      /^mvnx runs: unknown argument --bogus; usage: mvnx runs \[--stats \| --advise \| --reconcile\] \[--limit N\].* \[--from DIR\|GLOB\]\.\.\. \[--config FILE\] \[--json\]$/,
    ],
    [['stray'], /^mvnx runs: unknown argument stray; usage/],
    [['--json=1'], /^mvnx runs: --json takes no value; usage/],
  ])('%j is refused in one line, exit 2', (args, message) => {
    const error = (() => {
      try {
        parseRunsArgs(args, now);
      } catch (caught) {
        return caught as MvnxError;
      }
      throw new Error('no error');
    })();
    expect(error).toBeInstanceOf(MvnxError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(message);
  });
});
