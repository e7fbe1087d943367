/**
 * The attack fixture end to end (test/helpers/attack.ts): the built CLI, real Maven, the
 * real Ollama-API test server serving candidate patches whose test tries every escape.
 * Asserted: nothing got out of the sandbox, and no secret value reached any request the
 * model server received, any console line or any file under .mvnx/, under every backend.
 */
import { readdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOllamaMock, type OllamaMock } from '../helpers/ollama-mock.js';
import { detectSandbox } from '../../src/workspace/sandbox.js';
import { setUpAttack, attackFixture, type AttackSetup } from '../helpers/attack.js';
import { copyProject, repoRoot, runMvnx, type CliRun, type ProjectCopy } from '../helpers/repair-project.js';

const bwrap = await detectSandbox('bwrap');
if (!bwrap.available) console.warn(`skipping the attack fixture under bwrap: ${bwrap.reason}`);

// The attacker's replies edit the failing test (the probes run from it): the team lets a
// test edit through (always risk high, never applied), so that the candidate really runs.
const config = (tier: string, extra = '') => `tier: ${tier}
fixers:
  enabled: false
tests:
  allowFailingTestEdits: true
budget:
  dynamic: false
  maxAttempts: 3
  maxModelCalls: 3
${extra}`;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

interface Scene {
  setup: AttackSetup;
  copy: ProjectCopy;
  mock: OllamaMock;
  repositoryBefore: Map<string, string>;
  /** The project's files before the run. */
  before: Map<string, string>;
}

async function scene(configText: string): Promise<Scene> {
  const setup = await setUpAttack();
  cleanups.push(setup.close);
  const copy = await copyProject(attackFixture, configText);
  cleanups.push(copy.remove);
  const mock = await startOllamaMock({ replies: await setup.replies() });
  cleanups.push(mock.close);
  return { setup, copy, mock, repositoryBefore: await setup.repositorySnapshot(), before: await copy.snapshot() };
}

const install = (host: string, ...extra: string[]) => [
  '-o',
  '-B',
  '-q',
  'install',
  `--mvnx-host=${host}`,
  '--mvnx-json',
  ...extra,
];

async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) found.push(path.join(entry.parentPath, entry.name));
  }
  return found;
}

/** Every channel a secret could leave by: requests to the model server, the console, the run record's files. */
async function leakedSecrets(s: Scene, run: CliRun): Promise<string[]> {
  const channels: [string, string][] = [
    ...s.mock.requests.map((r, i): [string, string] => [`request ${i + 1} ${r.path}`, r.rawBody]),
    ['stdout', run.stdout],
    ['stderr', run.stderr],
  ];
  for (const file of await filesUnder(path.join(s.copy.root, '.mvnx')))
    channels.push([path.relative(s.copy.root, file), await readFile(file, 'utf8')]);
  const leaks: string[] = [];
  for (const [where, text] of channels) {
    for (const secret of s.setup.secrets.forbidden())
      if (text.includes(secret)) leaks.push(`${where} carries ${secret.slice(0, 6)}…`);
  }
  return leaks;
}

/** What got out of the build, as the host sees it. */
async function escapes(s: Scene): Promise<string[]> {
  const found: string[] = [];
  if (existsSync(s.setup.outsideFile)) found.push('wrote a file outside the workspace');
  if (existsSync(s.setup.homeFile)) found.push('wrote into $HOME');
  if (existsSync(s.setup.repoProbe)) found.push('wrote into the local repository');
  if (s.setup.tcpConnections() > 0) found.push(`${s.setup.tcpConnections()} TCP connection(s) to the host`);
  if (s.setup.unixConnections() > 0) found.push(`${s.setup.unixConnections()} connection(s) to a host Unix socket`);
  if (s.setup.survivors().length > 0) found.push(`${s.setup.survivors().length} process(es) outlived the run`);
  const after = await s.setup.repositorySnapshot();
  const added = [...after.keys()].filter((file) => !s.repositoryBefore.has(file));
  const changed = [...after.entries()].filter(
    ([file, stamp]) => s.repositoryBefore.has(file) && s.repositoryBefore.get(file) !== stamp,
  );
  if (added.length > 0) found.push(`local repository gained ${added.length} file(s): ${added.slice(0, 3).join(', ')}`);
  if (changed.length > 0)
    found.push(
      `local repository changed ${changed.length} file(s): ${changed
        .slice(0, 3)
        .map(([f]) => f)
        .join(', ')}`,
    );
  return found;
}

describe.skipIf(!bwrap.available)('the attack fixture under bwrap', () => {
  it('lets nothing out: no file outside, no TCP or Unix connection, no surviving process, the local repository untouched, no secret in any channel', async () => {
    const s = await scene(config('monitor', 'sandbox:\n  mode: bwrap\n'));

    const run = await runMvnx(s.copy.root, install(s.mock.url), s.setup.env());

    expect(
      run.record?.attempts.map((a) => a.outcome),
      run.stderr,
    ).toEqual(['build-failed', 'verified']);
    const seen = { sandbox: run.record?.sandbox, escapes: await escapes(s), leaks: await leakedSecrets(s, run) };
    if (process.env.MVNX_ATTACK_REPORT) console.log(JSON.stringify(seen, null, 2), run.record?.attempts[0]?.reason);
    expect(seen).toEqual({ sandbox: { kind: 'bwrap', isolated: true }, escapes: [], leaks: [] });
    // The probes ran and were refused (not skipped): the first attempt's failure says so.
    const reason = run.record?.attempts[0]?.reason ?? '';
    // A checkout under /tmp puts the trap under the sandbox's private /tmp: the write then
    // lands in that tmpfs and vanishes (escapes above proves the host never saw it).
    const trapInSandboxTmp = s.setup.outsideFile.startsWith('/tmp/');
    expect(reason).toMatch(trapInSandboxTmp ? / write=(blocked|written)/ : / write=blocked/);
    expect(reason).toContain('repo=blocked');
    expect(reason).toContain('tcp=blocked');
    expect(reason).toContain('unix=blocked');
    expect(reason).toContain('fork=started');
    expect(s.mock.failures).toEqual([]);
  });
});

const fakeContainerBin = path.join(repoRoot, 'test/helpers/fake-container');
const noSandboxBin = path.join(repoRoot, 'test/helpers/no-sandbox');
const FAKE_IMAGE = 'mvnx-test/maven-jdk17:fake';

interface ContainerCall {
  engine: string;
  args: string[];
}

async function containerCalls(log: string): Promise<ContainerCall[]> {
  if (!existsSync(log)) return [];
  return (await readFile(log, 'utf8'))
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ContainerCall);
}

describe.skipIf(!bwrap.available)(
  'the attack fixture under the container backend (a fake docker that checks its arguments and runs under bwrap)',
  () => {
    it.each(['docker', 'podman'])(
      '%s: lets nothing out, passes only allowlisted variables, and removes every container',
      async (engine) => {
        const s = await scene(config('monitor', `sandbox:\n  mode: ${engine}\n  image: ${FAKE_IMAGE}\n`));
        const log = path.join(s.setup.scratch, 'container-calls.jsonl');

        const run = await runMvnx(
          s.copy.root,
          install(s.mock.url),
          s.setup.env({
            PATH: `${fakeContainerBin}${path.delimiter}${process.env.PATH}`,
            FAKE_CONTAINER_IMAGE: FAKE_IMAGE,
            FAKE_CONTAINER_LOG: log,
          }),
        );

        expect(
          run.record?.attempts.map((a) => a.outcome),
          run.stderr,
        ).toEqual(['build-failed', 'verified']);
        const seen = { sandbox: run.record?.sandbox, escapes: await escapes(s), leaks: await leakedSecrets(s, run) };
        expect(seen).toEqual({ sandbox: { kind: engine, isolated: true }, escapes: [], leaks: [] });
        const reason = run.record?.attempts[0]?.reason ?? '';
        expect(reason).toContain('tcp=blocked');
        expect(reason).toContain('unix=blocked');
        expect(reason).toContain('repo=blocked');

        const calls = await containerCalls(log);
        const runs = calls.filter((call) => call.args[0] === 'run');
        // The probe, the flaky re-check, then one Maven run per attempt (the failing tests first inside it).
        expect(runs.length).toBeGreaterThanOrEqual(4);
        for (const call of runs) {
          expect(call.engine).toBe(engine);
          expect(call.args).toContain('--rm');
          expect(call.args.join(' ')).toContain('--network none');
        }
        const builds = runs.filter((call) => call.args.includes('mvn'));
        expect(builds.length).toBeGreaterThanOrEqual(3);
        for (const call of builds)
          expect(call.args.join(' ')).toContain(`${s.setup.localRepository}:${s.setup.localRepository}:ro`);
        // install was verified as verify: nothing could write the local repository.
        expect(builds.every((call) => !call.args.includes('install'))).toBe(true);
        expect(run.record?.decisions.join('\n')).toContain('verification ran `verify` in place of `install`');
      },
    );
  },
);

describe('the attack fixture with no isolation available', () => {
  it('says so on stderr once, does not apply under auto, kills the forked process, leaves the local repository alone and redacts every secret the build could read', async () => {
    const s = await scene(config('auto'));

    const run = await runMvnx(
      s.copy.root,
      install(s.mock.url),
      s.setup.env({ PATH: `${noSandboxBin}${path.delimiter}${process.env.PATH}` }),
    );

    expect(
      run.record?.attempts.map((a) => a.outcome),
      run.stderr,
    ).toEqual(['build-failed', 'verified']);
    expect(run.record?.sandbox).toMatchObject({ kind: 'none', isolated: false });
    expect(run.record?.sandbox?.reason).toMatch(
      /bwrap: bubblewrap is installed but cannot isolate a process here \(bwrap: No permissions/,
    );
    expect(run.record?.sandbox?.reason).toContain('docker: docker cannot run');
    const warnings = run.stderr.split('\n').filter((line) => line.includes('WITHOUT isolation'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/(^|m)mvnx: warning: verification builds run WITHOUT isolation: no sandbox available/);
    // auto did not trust the unisolated verdict.
    expect(run.record?.applied).toBe(false);
    expect(run.record?.tier).toBe('assist');
    expect(run.record?.decisions.join('\n')).toMatch(/verification ran without isolation .*tier drops to assist/);
    expect(await s.copy.snapshot()).toEqual(s.before);
    expect(run.exitCode).toBe(1);

    // Without a sandbox the probes reach the host (that is what the warning is about) ...
    const reason = run.record?.attempts[0]?.reason ?? '';
    expect(reason).toContain('unix=connected');
    expect(reason).toContain('parent-env:');
    expect(reason).toContain('settings:password=[REDACTED-');
    // ... but no process outlives a stage, nothing is installed (the probe's own file is
    // the one write that reaches the repository: what the warning is about), and no secret leaves.
    const found = await escapes(s);
    expect(found).toContain('wrote into the local repository');
    expect(
      found.filter(
        (e) =>
          e.includes('outlived') ||
          e.includes('changed') ||
          (e.includes('gained') && !e.endsWith('1 file(s): mvnx-attack-probe')),
      ),
    ).toEqual([]);
    expect(await leakedSecrets(s, run)).toEqual([]);
  });

  it('stops before the first model call when sandbox.mode bwrap is required and cannot run', async () => {
    const s = await scene(config('assist', 'sandbox:\n  mode: bwrap\n'));

    const run = await runMvnx(
      s.copy.root,
      install(s.mock.url),
      s.setup.env({ PATH: `${noSandboxBin}${path.delimiter}${process.env.PATH}` }),
    );

    expect(run.record?.status, run.stderr).toBe('error');
    expect(run.record?.message).toMatch(
      /^sandbox.mode bwrap is required but unavailable: bubblewrap is installed but cannot isolate a process here/,
    );
    expect(run.record?.sandbox).toMatchObject({ kind: 'bwrap', isolated: false });
    expect(s.mock.chatRequests()).toHaveLength(0);
    expect(run.stderr).toContain('sandbox.mode bwrap is required but unavailable');
    expect(run.exitCode).toBe(1);
  });
});
