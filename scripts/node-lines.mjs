// Runs a named subset of the tests under each Node line mvnx supports besides the one
// installed (CI's machines run Node 20, which runs the whole suite). The Node binaries come
// from the npm registry's `node-<os>-<cpu>` packages (the only download these machines may
// make), unpacked once into a cache folder.
//
//   node scripts/node-lines.mjs              every line below, after `npm run build`
//   node scripts/node-lines.mjs 24           one line
//   MVNX_NODE_CACHE=/some/dir ...            where the binaries are kept (default: node_modules/.cache)
//
// The subset: every unit test (each module's pure logic, the installed tree's engines) and
// the Maven integration tests of the drop-in (wrapper-cli), the repair loop and its run
// record (repair), the sandbox (workspace-sandbox) and the installed tarball (installed-package).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The exact release per line: a pinned binary, so a CI run is repeatable and cached. */
const LINES = { 22: '22.23.5', 24: '24.22.3' };

export const INTEGRATION_SUBSET = [
  'test/integration/wrapper-cli.test.ts',
  'test/integration/repair.test.ts',
  'test/integration/workspace-sandbox.test.ts',
  'test/integration/installed-package.test.ts',
];

const root = fileURLToPath(new URL('..', import.meta.url));
// Under node_modules/.cache, not $HOME: the sandbox tests run process.execPath inside
// bubblewrap, which shows the build an empty home, so a node kept in ~/.cache is not there.
const cache = process.env.MVNX_NODE_CACHE ?? path.join(root, 'node_modules/.cache/node-lines');

function fail(message) {
  console.error(`node-lines: ${message}`);
  process.exit(2);
}

/** The folder holding bin/node of that release, fetched with `npm pack` when not cached. */
function nodeBinDir(version) {
  const dir = path.join(cache, `${process.platform}-${process.arch}-${version}`);
  const bin = path.join(dir, 'bin');
  if (existsSync(path.join(bin, 'node'))) return bin;
  const spec = `node-${process.platform}-${process.arch}@${version}`;
  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(path.join(cache, '.fetch-'));
  try {
    console.log(`node-lines: fetching ${spec} from the npm registry`);
    const packed = JSON.parse(
      execFileSync('npm', ['pack', spec, '--json', '--pack-destination', work], { encoding: 'utf8' }),
    );
    const tarball = path.join(work, packed[0].filename);
    const unpacked = path.join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['xzf', tarball, '-C', unpacked, '--strip-components=1']);
    renameSync(unpacked, dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return bin;
}

async function runLine(line) {
  const version = LINES[line];
  if (!version) fail(`no Node line ${line}; known: ${Object.keys(LINES).join(', ')}`);
  const bin = nodeBinDir(version);
  const node = path.join(bin, 'node');
  const reported = execFileSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
  if (reported !== `v${version}`) fail(`${node} reports ${reported}, expected v${version}`);
  // The line's node first on PATH: tests that start `node` (the built CLI, hooks) get it too.
  const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` };
  const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
  const started = Date.now();
  console.log(`node-lines: Node ${reported}: unit tests and ${INTEGRATION_SUBSET.length} integration files`);
  // Its own process group, so that Ctrl-C or a kill of this script reaches vitest and its
  // workers (a SIGTERM to vitest alone left its workers running).
  const child = spawn(node, [vitest, 'run', 'test/unit/', ...INTEGRATION_SUBSET], {
    cwd: root,
    env,
    stdio: 'inherit',
    detached: true,
  });
  const forward = (signal) => process.kill(-child.pid, signal);
  process.on('SIGINT', forward).on('SIGTERM', forward);
  const status = await new Promise((resolve) => child.on('close', (code) => resolve(code)));
  process.off('SIGINT', forward).off('SIGTERM', forward);
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`node-lines: Node ${reported}: ${status === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
  return status === 0;
}

if (!existsSync(path.join(root, 'dist/cli/mvnx.cjs'))) fail('dist/ is missing: run `npm run build` first');
const wanted = process.argv.slice(2);
for (const line of wanted) if (!LINES[line]) fail(`no Node line ${line}; known: ${Object.keys(LINES).join(', ')}`);
const results = [];
for (const line of wanted.length > 0 ? wanted : Object.keys(LINES)) results.push(await runLine(line));
// Leave no stale release behind when a pin moves.
const kept = new Set(Object.values(LINES).map((v) => `${process.platform}-${process.arch}-${v}`));
for (const entry of existsSync(cache) ? readdirSync(cache) : []) {
  if (!kept.has(entry) && !entry.startsWith('.')) rmSync(path.join(cache, entry), { recursive: true, force: true });
}
process.exit(results.every(Boolean) ? 0 : 1);
