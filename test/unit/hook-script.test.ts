import { execa } from 'execa';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  HUSKY_BLOCK_BEGIN,
  HUSKY_BLOCK_END,
  isMvnxHook,
  isOnlyHuskyBoilerplate,
  removeHuskyBlock,
  renderPrePushHook,
  shellQuote,
  splitGoals,
  withHuskyBlock,
  type HookScriptOptions,
} from '../../src/report/hook-script.js';

const options: HookScriptOptions = {
  goals: ['-o', '-q', 'verify', '-Dtest=My Test'],
  projectDir: '.',
  node: '/usr/bin/node',
  script: '/opt/mvnx/dist/cli/mvnx.cjs',
};

describe('splitGoals', () => {
  it('splits on whitespace and groups quoted words', () => {
    expect(splitGoals('  -o -q   verify ')).toEqual(['-o', '-q', 'verify']);
    expect(splitGoals(`-Dtest="Calc Test" -Dx='a b' -Dempty=""`)).toEqual(['-Dtest=Calc Test', '-Dx=a b', '-Dempty=']);
  });
  it('refuses an unbalanced quote', () => {
    expect(() => splitGoals('-Dtest="Calc')).toThrow(/unbalanced " in/);
  });
});

describe('shellQuote', () => {
  it('leaves plain words alone and quotes the rest, single quotes included', () => {
    expect(shellQuote('-Dmaven.test.skip=true')).toBe('-Dmaven.test.skip=true');
    expect(shellQuote("it's $HOME")).toBe(`'it'\\''s $HOME'`);
  });
});

describe('renderPrePushHook', () => {
  const hook = renderPrePushHook(options);
  it('is marked as ours, chains pre-push.local first and quotes the goals', () => {
    expect(hook.startsWith('#!/bin/sh\n')).toBe(true);
    expect(isMvnxHook(hook)).toBe(true);
    expect(hook.indexOf('pre-push.local" "$@" || exit $?')).toBeLessThan(hook.indexOf('mvnx_run -o'));
    expect(hook).toContain(`mvnx_run -o -q verify '-Dtest=My Test' </dev/null`);
    expect(hook).toContain(`elif [ -f /opt/mvnx/dist/cli/mvnx.cjs ]; then`);
    expect(hook).toContain('npx --no-install mvnx "$@"');
  });
  it('is valid sh', async () => {
    const result = await execa('sh', ['-n'], { input: hook, reject: false });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
  });
  it('does not recognise a foreign hook as ours', () => {
    expect(isMvnxHook('#!/bin/sh\nnpm test\n')).toBe(false);
  });
});

describe('husky block', () => {
  const foreign = '#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n\nnpm run lint\n';
  it('appends after the existing commands, and replaces itself on a second install', () => {
    const once = withHuskyBlock(foreign, options, '');
    expect(once.startsWith(foreign)).toBe(true);
    expect(once.indexOf('npm run lint')).toBeLessThan(once.indexOf(HUSKY_BLOCK_BEGIN));
    const twice = withHuskyBlock(once, { ...options, goals: ['-q', 'test'] }, '');
    expect(twice.split(HUSKY_BLOCK_BEGIN)).toHaveLength(2);
    expect(twice).toContain('mvnx_run -q test');
    expect(twice).not.toContain('mvnx_run -o');
  });
  it('removes only its own lines', () => {
    expect(removeHuskyBlock(withHuskyBlock(foreign, options, ''))).toBe(foreign);
    expect(removeHuskyBlock(foreign)).toBe(foreign);
  });
  it('starts a new file with the header given', () => {
    const created = withHuskyBlock(undefined, options, '#!/usr/bin/env sh\n\n');
    expect(created.startsWith(`#!/usr/bin/env sh\n\n${HUSKY_BLOCK_BEGIN}\n`)).toBe(true);
    expect(created.endsWith(`${HUSKY_BLOCK_END}\n`)).toBe(true);
    expect(isOnlyHuskyBoilerplate(removeHuskyBlock(created))).toBe(true);
    expect(isOnlyHuskyBoilerplate(foreign)).toBe(false);
    expect(isOnlyHuskyBoilerplate('#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n')).toBe(true);
  });
  it('is valid sh under -e, as husky runs it', async () => {
    const result = await execa('sh', ['-n', '-e'], { input: withHuskyBlock(foreign, options, ''), reject: false });
    expect(result.exitCode).toBe(0);
  });
});

// The hook's decisions, run by a real sh against a stand-in mvnx that leaves the run
// record a real mvnx would; the stand-in is the hook's input, not the code under test.
describe('the hook script when it runs', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mvnx-hook-script-'));
    await mkdir(path.join(dir, 'hooks'));
    await writeFile(path.join(dir, 'hooks', 'pre-push'), renderPrePushHook({ ...options, goals: ['-o', 'verify'] }));
    await chmod(path.join(dir, 'hooks', 'pre-push'), 0o755);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function standIn(body: string): Promise<string> {
    const file = path.join(dir, 'fake-mvnx');
    await writeFile(file, `#!/bin/sh\necho "args: $*" >> "${dir}/calls"\n${body}\n`);
    await chmod(file, 0o755);
    return file;
  }

  function runHook(mvnxBin: string, input = 'refs/heads/main abc refs/heads/main def\n') {
    return execa(path.join(dir, 'hooks', 'pre-push'), ['origin', 'file:///remote'], {
      cwd: dir,
      env: { MVNX_BIN: mvnxBin },
      input,
      reject: false,
    });
  }

  // As mvnx does: the run's id to MVNX_RUN_ID_FILE when it starts its record, `latest` when the record is written.
  const writeRecord = (runId: string, json: string) =>
    `echo ${runId} > "$MVNX_RUN_ID_FILE" && mkdir -p .mvnx/runs/${runId} && ` +
    `printf '%s\\n' '${json}' > .mvnx/runs/${runId}/run.json && echo ${runId} > .mvnx/runs/latest`;

  it('lets the push through when the build passes', async () => {
    const result = await runHook(await standIn('exit 0'));
    expect(result.exitCode).toBe(0);
    expect(await readFile(path.join(dir, 'calls'), 'utf8')).toBe('args: -o verify\n');
    expect(result.stderr).toContain('mvnx pre-push: mvnx -o verify');
  });

  it('blocks with the build exit code and names the bypass when there is no fix', async () => {
    const result = await runHook(await standIn(`${writeRecord('run-1', '{"status": "unfixed"}')}\nexit 1`));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('mvnx: push blocked: the build failed (exit 1).');
    expect(result.stderr).toContain('git push --no-verify');
    expect(result.stderr).not.toContain('mvnx apply');
  });

  it('prints how to apply a verified fix of this push', async () => {
    const result = await runHook(
      await standIn(`${writeRecord('run-2', '{"status": "fixed", "applied": false}')}\nexit 1`),
    );
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('mvnx has a verified fix (run run-2)');
    expect(result.stderr).toContain('mvnx apply run-2');
    expect(result.stderr).toContain('cat ./.mvnx/runs/run-2/fix.patch');
  });

  it('ignores a fixed record left by an earlier run', async () => {
    await mkdir(path.join(dir, '.mvnx/runs/old'), { recursive: true });
    await writeFile(path.join(dir, '.mvnx/runs/old/run.json'), '{"status": "fixed"}');
    await writeFile(path.join(dir, '.mvnx/runs/latest'), 'old\n');
    const result = await runHook(await standIn('exit 1'));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).not.toContain('mvnx apply');
  });

  it("decides by its own run's record, not by the run another mvnx made `latest` meanwhile", async () => {
    const other = `mkdir -p .mvnx/runs/other && printf '%s\\n' '{"status": "unfixed"}' > .mvnx/runs/other/run.json`;
    const own = await standIn(
      `${writeRecord('own', '{"status": "fixed", "applied": true}')}\n${other} && echo other > .mvnx/runs/latest\nexit 0`,
    );
    const result = await runHook(own);
    expect(result.stderr).toContain('mvnx applied a verified fix to your working tree (run own)');
    expect(result.exitCode).toBe(1);
  });

  it('blocks a passing build whose fix mvnx applied to the working tree', async () => {
    const result = await runHook(
      await standIn(`${writeRecord('run-3', '{"status": "fixed", "applied": true}')}\nexit 0`),
    );
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('mvnx applied a verified fix to your working tree (run run-3)');
  });

  it('runs the chained hook first with its arguments and stdin, and stops when it fails', async () => {
    const chained = path.join(dir, 'hooks', 'pre-push.local');
    await writeFile(chained, `#!/bin/sh\necho "chained $1" >> "${dir}/calls"\ncat >> "${dir}/calls"\nexit 3\n`);
    await chmod(chained, 0o755);
    const result = await runHook(await standIn('exit 0'));
    expect(result.exitCode).toBe(3);
    expect(await readFile(path.join(dir, 'calls'), 'utf8')).toBe(
      'chained origin\nrefs/heads/main abc refs/heads/main def\n',
    );
  });

  it("keeps git's ref list away from mvnx", async () => {
    const result = await runHook(await standIn(`cat >> "${dir}/calls"`));
    expect(result.exitCode).toBe(0);
    expect(await readFile(path.join(dir, 'calls'), 'utf8')).toBe('args: -o verify\n');
  });
});
