/**
 * The package as a user installs it, not as it runs from the repository: `npm pack`, then
 * `npm install -g` of the tarball into a fresh prefix (runtime dependencies only, from the npm
 * cache that `npm ci` filled), then the installed `mvnx` on a copy of examples/compile-error
 * with no model, `doctor`, `runs --stats` and `report --html`. A runtime file left out of
 * package.json `files`, or a runtime import of a dev dependency, fails here and nowhere else.
 */
import { execa } from 'execa';
import { mkdtemp, readFile, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunRecordFromStdout } from '../../src/bench/harness.js';
import type { RunRecord } from '../../src/report/run-record.js';
import { deadServerUrl } from '../helpers/mock-server.js';
import { copyProject, FAST_MAVEN_OPTS, repoRoot, type ProjectCopy } from '../helpers/repair-project.js';

const manifest = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const moduleLogHook = pathToFileURL(path.join(repoRoot, 'test/helpers/module-log-hook.mjs')).href;
// Packing and installing take 20-100 s on a busy 2-core machine; the run itself up to a minute.
const SLOW = 600_000;

let work: string;
let prefix: string;
let installed: string;
let installOutput: string;
let project: ProjectCopy;
let run: { exitCode: number; stdout: string; stderr: string; record?: RunRecord; modules: string[] };

async function mvnx(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = await execa(path.join(prefix, 'bin/mvnx'), args, {
    cwd: project.root,
    reject: false,
    stdin: 'ignore',
    env: { CI: 'true', MAVEN_OPTS: FAST_MAVEN_OPTS, ...env },
  });
  return { exitCode: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'mvnx-installed-'));
  const packed = await execa('npm', ['pack', '--json', '--pack-destination', work], { cwd: repoRoot });
  const [tarball] = JSON.parse(packed.stdout) as { filename: string }[];
  prefix = path.join(work, 'prefix');
  const install = await execa(
    'npm',
    [
      'install',
      '--global',
      '--prefix',
      prefix,
      path.join(work, tarball!.filename),
      '--omit=dev',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
    ],
    { cwd: work, all: true, reject: false },
  );
  installOutput = install.all ?? '';
  expect(install.exitCode, installOutput).toBe(0);
  installed = path.join(prefix, 'lib/node_modules/mvnx');

  project = await copyProject(path.join(repoRoot, 'examples/compile-error'));
  const moduleLog = path.join(work, 'modules.log');
  const result = await mvnx(['-o', '-B', '-q', 'verify', `--mvnx-host=${await deadServerUrl()}`, '--mvnx-json'], {
    NODE_OPTIONS: `--import=${moduleLogHook}`,
    MVNX_TEST_MODULE_LOG: moduleLog,
    MVNX_TEST_MODULE_MATCH: '/node_modules/',
  });
  const record = parseRunRecordFromStdout(result.stdout);
  const modules = (await readFile(moduleLog, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  run = { ...result, modules, ...(record ? { record } : {}) };
}, SLOW);

afterAll(async () => {
  await project?.remove();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('mvnx installed from the packed tarball', () => {
  it('installs with no engine warning on a Node line that package.json engines admits', () => {
    if (semver.satisfies(process.version, manifest.engines.node)) {
      expect(installOutput).not.toContain('EBADENGINE');
    } else {
      // A line mvnx does not claim: npm says so, naming mvnx itself.
      expect(installOutput).toMatch(/EBADENGINE[\s\S]*package: 'mvnx@/);
    }
  });

  it('installs the runtime dependencies only, and the bin is the bundled start-up file', async () => {
    const packages = await readdir(path.join(installed, 'node_modules'));
    for (const dev of Object.keys(manifest.devDependencies)) expect(packages).not.toContain(dev.split('/')[0]);
    expect(await realpath(path.join(prefix, 'bin/mvnx'))).toBe(path.join(installed, 'dist/cli/mvnx.cjs'));
    expect(JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8'))).toMatchObject({
      version: manifest.version,
    });
  });

  it('verifies a quick-fix on examples/compile-error with no model, and suggests it (tier assist)', () => {
    expect(run.record?.status, run.stderr).toBe('fixed');
    expect(run.record?.attempts.find((attempt) => attempt.outcome === 'verified')?.source).toBe('fixer');
    expect(run.record?.modelCalls).toBe(0);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('mvnx apply ');
  });

  it('loads its dependencies from the installed package only, and neither telemetry nor forge clients', () => {
    const fromPackages = run.modules.filter((url) => url.startsWith('file:'));
    expect(fromPackages.length).toBeGreaterThan(0);
    const installedUrl = pathToFileURL(installed).href;
    expect(fromPackages.filter((url) => !url.startsWith(installedUrl))).toEqual([]);
    expect(fromPackages.filter((url) => /\/node_modules\/@(opentelemetry|octokit)\//.test(url))).toEqual([]);
  });

  it('doctor finds Java, Maven and the offline plugins, and warns of the missing model', async () => {
    const doctor = await mvnx(['doctor', `--mvnx-host=${await deadServerUrl()}`]);
    expect(doctor.exitCode, doctor.stdout + doctor.stderr).toBe(0);
    expect(doctor.stdout).toMatch(/^ok {3}java: /m);
    expect(doctor.stdout).toMatch(/^ok {3}maven version: /m);
    expect(doctor.stdout).toMatch(/^warn model server: cannot reach /m);
  });

  it('runs --stats counts the one fixed run', async () => {
    const stats = await mvnx(['runs', '--stats', '--json']);
    expect(stats.exitCode, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ runs: 1, overall: { fixed: 1 }, modelCalls: 0 });
  });

  it('report --html writes one page', async () => {
    const report = await mvnx(['report', '--html', 'out/report.html']);
    expect(report.exitCode, report.stderr).toBe(0);
    expect(report.stderr).toContain('report written to out/report.html (1 run');
    const html = await readFile(path.join(project.root, 'out/report.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('</html>');
  });
});
