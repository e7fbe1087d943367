// `npm run bench:repair [-- --repeat N] [--only NAME]`: the repair integration scenarios,
// timed. Each run copies the fixture to a temp dir, starts a scripted Ollama with the
// integration test's replies, runs the built CLI as CI would, and reads the run record
// from stdout. The repair is split by the record's own timings (model, apply, verify);
// the verification is compared with a plain `mvn -o -q verify` of a fresh copy with the
// verified fix.patch applied (the broken project when there is no fix). Rounds interleave
// scenarios and each mvnx run is followed by its plain build; figures are medians.
import { execa } from 'execa';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseRunRecordFromStdout } from '../dist/bench/harness.js';
import {
  REPAIR_SCENARIOS,
  formatRepairTable,
  sampleFromRepairRecord,
  scenarioConfig,
  stagedPlanCost,
  summariseRepair,
} from '../dist/bench/repair-scenarios.js';
import { startScriptedOllama } from '../dist/bench/scripted-ollama.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cliPath = path.join(repoRoot, 'dist/cli/mvnx.cjs');
const repliesDir = path.join(repoRoot, 'test/fixtures/repair/replies');
const resultsFile = path.join(repoRoot, 'bench/results-repair.md');
const MAVEN_OPTS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';
const TIMEOUT_MS = 10 * 60_000;

function parseArgs(argv) {
  const options = { repeat: 1, only: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const [flag, inline] = arg.split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--repeat') options.repeat = Number(value());
    else if (flag === '--only') options.only.push(value());
    else throw new Error(`unknown argument ${arg} (use --repeat N, --only NAME)`);
  }
  if (!Number.isInteger(options.repeat) || options.repeat < 1) throw new Error('--repeat needs a whole number >= 1');
  return options;
}

function childEnv() {
  const env = { ...process.env, CI: 'true', MAVEN_OPTS };
  delete env.MVNX_HOST;
  delete env.OLLAMA_HOST;
  delete env.MVNX_TIER;
  return env;
}

async function deadServerUrl() {
  const server = createServer();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

async function copyFixture(fixture, config) {
  const source = path.join(repoRoot, fixture);
  const parent = await mkdtemp(path.join(tmpdir(), 'mvnx-bench-repair-'));
  const root = path.join(parent, path.basename(source));
  await cp(source, root, {
    recursive: true,
    filter: (file) => !/[\\/](target|\.mvnx)([\\/]|$)/.test(file.slice(source.length)),
  });
  if (config) await writeFile(path.join(root, '.mvnxrc.yaml'), config);
  return { root, remove: () => rm(parent, { recursive: true, force: true }) };
}

async function timed(work) {
  const started = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - started) };
}

async function runScenario(scenario) {
  const replies = await Promise.all(
    scenario.replies.map((name) => readFile(path.join(repliesDir, `${name}.md`), 'utf8')),
  );
  const copy = await copyFixture(scenario.fixture, scenarioConfig(scenario));
  const server = scenario.deadHost ? undefined : await startScriptedOllama(replies);
  try {
    const host = server ? server.url : await deadServerUrl();
    const args = [cliPath, '-o', '-B', '-q', 'verify', '--mvnx-json', `--mvnx-host=${host}`];
    const { value: result, ms } = await timed(() =>
      execa('node', args, { cwd: copy.root, env: childEnv(), reject: false, stdin: 'ignore', timeout: TIMEOUT_MS }),
    );
    const record = parseRunRecordFromStdout(result.stdout);
    const sample = sampleFromRepairRecord(record, result.exitCode ?? -1, ms);
    sample.serverCalls = server ? server.calls() : null;
    if (!record) sample.error = `${sample.error}: ${result.stderr.split('\n').filter(Boolean).pop() ?? ''}`;
    let patch;
    if (record?.status === 'fixed')
      patch = await readFile(path.join(copy.root, '.mvnx/runs', record.runId, 'fix.patch'));
    return { sample, patch };
  } finally {
    await server?.close();
    await copy.remove();
  }
}

/** Plain Maven on a fresh copy, with the verified patch applied when there is one. */
async function plainBuildMs(scenario, patch) {
  const copy = await copyFixture(scenario.fixture);
  try {
    if (patch) {
      const applied = await execa('git', ['apply', '-'], { cwd: copy.root, input: patch, reject: false });
      if (applied.exitCode !== 0) throw new Error(`${scenario.name}: git apply of fix.patch failed: ${applied.stderr}`);
    }
    const { value: result, ms } = await timed(() =>
      execa('mvn', ['-o', '-q', 'verify'], {
        cwd: copy.root,
        env: childEnv(),
        reject: false,
        stdin: 'ignore',
        timeout: TIMEOUT_MS,
      }),
    );
    if (patch && result.exitCode !== 0)
      throw new Error(`${scenario.name}: the fixed project does not build (exit ${result.exitCode})`);
    return ms;
  } finally {
    await copy.remove();
  }
}

const options = parseArgs(process.argv.slice(2));
const scenarios =
  options.only.length > 0
    ? REPAIR_SCENARIOS.filter((scenario) => options.only.includes(scenario.name))
    : REPAIR_SCENARIOS;
if (scenarios.length === 0) throw new Error(`no scenario named ${options.only.join(', ')}`);
const samples = new Map(scenarios.map((scenario) => [scenario.name, []]));

for (let round = 1; round <= options.repeat; round += 1) {
  for (const scenario of scenarios) {
    const { sample, patch } = await runScenario(scenario);
    sample.plainMs = await plainBuildMs(scenario, patch);
    sample.plainOf = patch ? 'fixed' : 'broken';
    samples.get(scenario.name).push(sample);
    process.stderr.write(
      `[${round}/${options.repeat}] ${scenario.name}: ${sample.stopReason ?? sample.error} wall ${(sample.wallMs / 1000).toFixed(1)}s, ` +
        `repair ${sample.totalMs}ms (model ${sample.modelMs}, apply ${sample.applyMs}, verify ${sample.verifyMs}), ` +
        `stages ${sample.stagesAll}, plain ${sample.plainMs}ms (${sample.plainOf})\n`,
    );
  }
}

const summaries = scenarios.map((scenario) => summariseRepair(scenario, samples.get(scenario.name)));
const cost = stagedPlanCost(summaries);
const problems = summaries.flatMap((summary) => summary.problems.map((problem) => `${summary.name} ${problem}`));
const mavenVersion = ((await execa('mvn', ['-v', '-B'], { reject: false })).stdout.split('\n')[0] ?? '').replace(
  /\x1b\[[0-9;]*m/g,
  '',
);
const lines = [
  '# Repair benchmark (scripted model)',
  '',
  `\`npm run bench:repair -- --repeat ${options.repeat}\` on ${new Date().toISOString().slice(0, 10)}: ${options.repeat} interleaved round(s), medians; ` +
    `${mavenVersion}, node ${process.version}, MAVEN_OPTS="${MAVEN_OPTS}".`,
  '',
  formatRepairTable(summaries),
  '',
  '- **wall**: the whole `mvnx -o -B -q verify --mvnx-json` process, initial failing Maven build included. ' +
    '**repair** = record `timings.totalMs` (after that build); model/apply/verify are its split, summed over attempts.',
  '- **verify (last)**: the verification of the last built attempt (the verified one on a fix), all its stages; ' +
    '**plain mvn**: `mvn -o -q verify` on a fresh copy with `fix.patch` applied by `git apply` (or the broken project when nothing was fixed).',
  '- repair − (model + apply + verify) is workspace setup and bookkeeping (~0.1–0.3 s), plus, under auto, the in-place re-run of the command (~3 s). ' +
    'Timings come from a shared 2-core machine: expect ±30 % between rounds.',
  '- **stages**: verification stages from the record (each a Maven JVM start); **mvn JVMs** = 1 initial build + all stages (+1 in-place re-run under auto).',
  cost.scenarios > 0
    ? `- Staged plan on these tiny projects: ${cost.meanStages.toFixed(1)} stages per verified fix on average, and verifying costs a median ` +
      `${cost.medianRatio.toFixed(2)}× a plain full rebuild of the fixed project (${cost.scenarios} fixed scenarios).`
    : '- No scenario verified a fix.',
  problems.length > 0
    ? `- **Figures that do not add up or runs not as expected**: ${problems.join('; ')}`
    : '- Sanity: in every run model + apply + verify <= repair total <= wall, and every run stopped as expected with the expected model calls.',
  '',
];
const output = lines.join('\n');
await writeFile(resultsFile, output);
process.stdout.write(output);
if (problems.length > 0) process.exitCode = 1;
