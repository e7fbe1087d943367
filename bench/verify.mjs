// `npm run bench:verify [-- --rounds N] [--only multi|single] [--bug NAME] [--cli PATH] [--out FILE]`: what
// verifying a candidate fix costs on projects of realistic size, as ratios to a plain clean
// `mvn -o -q verify` of the same project measured in the same round.
//
// The projects are generated here (src/bench/verify-projects.ts): a seven-module reactor
// and a single-module project, a few hundred classes and tests each. Per round and bug:
//   1. a fresh copy of the correct project gets a plain clean build (the baseline, and the
//      developer's already-built tree);
//   2. the bug is written in and `mvnx -o -B -q verify` runs with the scripted model whose
//      first reply is the right fix: the whole run, and what verifying the fix cost;
//   3. the fix is written by hand and plain `mvn -o -q verify` runs (the incremental build
//      a developer would run to check it);
//   4. the bug again, mvnx with a first reply that does not compile, then the fix;
//   5. the bug again, mvnx with a first reply that compiles but leaves the test failing;
//   6. a second plain clean build of a fresh copy: the round's baseline is the mean of the
//      two, so a load change on the shared machine during the round moves both sides.
// A candidate's cost is its attempt's apply (workspace reset and write) plus verification,
// from the run record. Plain and mvnx runs interleave; figures are medians over rounds.
// Maven runs as the user's would: no MAVEN_OPTS from this script.
// --behaviour-check-cost (issue 45): per round and bug, the right fix verified with the behavioural probe and the
// failing tests' second run (the default), then the same fix again with `verify.behaviourCheck: false`, in place of
// steps 3-5; the table (bench/results-behaviour-cost-reactor.md unless --out) compares the two.
import { execa } from 'execa';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseRunRecordFromStdout } from '../dist/bench/harness.js';
import { startScriptedOllama } from '../dist/bench/scripted-ollama.js';
import {
  attemptCost,
  doneWhenProblems,
  expectedFirstOutcome,
  formatStagesTable,
  formatVerifyTable,
  summariseVerify,
} from '../dist/bench/verify-bench.js';
import {
  MULTI_MODULE_BUGS,
  MULTI_MODULE_SPEC,
  SINGLE_MODULE_BUGS,
  SINGLE_MODULE_SPEC,
  generateProject,
} from '../dist/bench/verify-projects.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TIMEOUT_MS = 20 * 60_000;
const CONFIG = [
  'tier: monitor',
  'fixers:',
  '  enabled: false',
  'budget:',
  '  dynamic: false',
  '  maxAttempts: 4',
  '  maxModelCalls: 4',
  '  maxWallSeconds: 3600',
  '  perAttemptTimeoutSeconds: 1200',
  '  hardCap:',
  '    maxWallSeconds: 3600',
  '    perAttemptTimeoutSeconds: 1200',
  '',
].join('\n');

function parseArgs(argv) {
  const options = {
    rounds: 3,
    only: [],
    bugs: [],
    cli: path.join(repoRoot, 'dist/cli/mvnx.cjs'),
    out: path.join(repoRoot, 'bench/results-verify.md'),
    config: [],
    behaviourCost: false,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const [flag, inline] = arg.split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--rounds') options.rounds = Number(value());
    else if (flag === '--only') options.only.push(value());
    else if (flag === '--bug') options.bugs.push(value());
    else if (flag === '--cli') options.cli = path.resolve(value());
    else if (flag === '--out') options.out = path.resolve(value());
    else if (flag === '--config') options.config.push(value());
    else if (flag === '--behaviour-check-cost') options.behaviourCost = true;
    else
      throw new Error(
        `unknown argument ${arg} (use --rounds N, --only multi|single, --bug NAME, --cli PATH, --out FILE, --config "yaml line", --behaviour-check-cost)`,
      );
  }
  if (options.behaviourCost && !argv.some((arg) => arg.startsWith('--out')))
    options.out = path.join(repoRoot, 'bench/results-behaviour-cost-reactor.md');
  if (!Number.isInteger(options.rounds) || options.rounds < 1) throw new Error('--rounds needs a whole number >= 1');
  for (const only of options.only)
    if (only !== 'multi' && only !== 'single') throw new Error(`--only takes multi or single, not ${only}`);
  return options;
}

function childEnv() {
  const env = { ...process.env, CI: 'true' };
  for (const name of ['MAVEN_OPTS', 'MVNX_HOST', 'OLLAMA_HOST', 'MVNX_TIER', 'JAVA_TOOL_OPTIONS']) delete env[name];
  return env;
}

async function timed(work) {
  const started = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - started) };
}

async function writeProject(project, root) {
  for (const [file, content] of project.files) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
}

async function plainVerify(root, label) {
  const { value: result, ms } = await timed(() =>
    execa('mvn', ['-o', '-q', 'verify'], {
      cwd: root,
      env: childEnv(),
      reject: false,
      stdin: 'ignore',
      timeout: TIMEOUT_MS,
    }),
  );
  if (result.exitCode !== 0)
    throw new Error(
      `${label}: plain mvn -o -q verify failed (exit ${result.exitCode}): ${result.stdout.split('\n').slice(-5).join(' ')}`,
    );
  return ms;
}

async function mvnxRun(root, bug, first, options) {
  await writeFile(path.join(root, bug.file), bug.broken);
  const replies = first === 'fix' ? [bug.replies.fix] : [bug.replies[first], bug.replies.fix];
  const server = await startScriptedOllama(replies);
  try {
    const args = [options.cli, '-o', '-B', '-q', 'verify', '--mvnx-json', `--mvnx-host=${server.url}`];
    const { value: result, ms } = await timed(() =>
      execa('node', args, { cwd: root, env: childEnv(), reject: false, stdin: 'ignore', timeout: TIMEOUT_MS }),
    );
    const record = parseRunRecordFromStdout(result.stdout);
    const problems = [];
    if (!record)
      problems.push(
        `${first}: no run record (exit ${result.exitCode}): ${result.stderr.split('\n').filter(Boolean).pop() ?? ''}`,
      );
    const one = attemptCost(record, 1);
    if (record && !expectedFirstOutcome(first).includes(one?.outcome ?? 'none'))
      problems.push(`${first}: attempt 1 was ${one?.outcome ?? 'missing'}`);
    // Test code that did not compile: a candidate that compiles and leaves a test failing is progress the loop
    // keeps, and the fix (written against the broken file) then no longer applies. Only its attempt 1 counts.
    const mustFix = first === 'fix' || first === 'doesNotCompile' || bug.kind !== 'test';
    if (record && mustFix && record.stopReason !== 'fixed')
      problems.push(`${first}: stopped ${record.stopReason}, not fixed`);
    return { record, wallMs: ms, first: one, problems };
  } finally {
    await server.close();
  }
}

async function round(project, template, bug, options) {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'mvnx-bench-verify-'));
  const root = path.join(parent, project.name);
  try {
    await cp(template, root, { recursive: true });
    const plainCleanMs = await plainVerify(root, `${project.name} clean`);
    await writeFile(path.join(root, '.mvnxrc.yaml'), [CONFIG, ...options.config].join('\n'));

    const fix = await mvnxRun(root, bug, 'fix', options);
    if (options.behaviourCost)
      return await behaviourCostRound(template, parent, project, root, bug, fix, plainCleanMs, options);
    await writeFile(path.join(root, bug.file), bug.correct);
    const plainIncrementalMs = await plainVerify(root, `${project.name} incremental`);
    const compile = await mvnxRun(root, bug, 'doesNotCompile', options);
    const test = await mvnxRun(root, bug, 'testStillFails', options);
    await writeFile(path.join(root, bug.file), bug.correct);
    return {
      ...(await plainCleanBothSides(template, parent, project, plainCleanMs)),
      plainIncrementalMs,
      rejectCompileMs: compile.first?.ms ?? null,
      rejectTestMs: test.first?.ms ?? null,
      verifiedMs: fix.first?.ms ?? null,
      wholeRunMs: fix.record ? fix.wallMs : null,
      stages: {
        rejectCompile: compile.first?.stages ?? [],
        rejectTest: test.first?.stages ?? [],
        verified: fix.first?.stages ?? [],
      },
      ...(fix.first?.verdictCommand ? { verdictCommand: fix.first.verdictCommand } : {}),
      // Issue 42: the modules the failed build never reached, tested beside the model (verifiedMs counts only the wait for them, if any).
      beforeCandidate: fix.record?.attempts?.find((a) => a.n === 1)?.verdict?.tests?.beforeCandidate,
      problems: [...fix.problems, ...compile.problems, ...test.problems],
    };
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}

/**
 * The round's second plain clean build, in a fresh copy of the template after the bug's mvnx runs, and the mean with
 * the first: a round's ratios are against both sides, so load that changes during the round weighs on each.
 */
async function plainCleanBothSides(template, parent, project, plainCleanMs) {
  const second = path.join(parent, `${project.name}-again`);
  await cp(template, second, { recursive: true });
  const plainCleanAgainMs = await plainVerify(second, `${project.name} clean (again)`);
  return {
    plainCleanMs: Math.round((plainCleanMs + plainCleanAgainMs) / 2),
    plainCleanEachMs: [plainCleanMs, plainCleanAgainMs],
  };
}

/** The same right fix again without the probe and the second run, on the same copy; then the second plain build. */
async function behaviourCostRound(template, parent, project, root, bug, fix, plainCleanMs, options) {
  const config = (extra) =>
    writeFile(path.join(root, '.mvnxrc.yaml'), [CONFIG, ...options.config, ...extra].join('\n'));
  await config(['verify:', '  behaviourCheck: false', '']);
  const without = await mvnxRun(root, bug, 'fix', options);
  await config([]);
  return {
    ...(await plainCleanBothSides(template, parent, project, plainCleanMs)),
    with: costDetail(fix),
    without: costDetail(without),
    problems: [...fix.problems, ...without.problems],
  };
}

/** Attempt 1's verification, with each stage's seconds. */
function costDetail(run) {
  const stages = run.record?.attempts?.find((a) => a.n === 1)?.stages ?? [];
  return {
    outcome: run.first?.outcome,
    ms: run.first?.ms ?? null,
    stages: stages.map((stage) => `${stage.name} ${(stage.durationMs / 1000).toFixed(1)}s`),
    stageMs: Object.fromEntries(stages.map((stage) => [stage.name, stage.durationMs])),
  };
}

/** --behaviour-check-cost: one row per round and bug, both sides' verification and stages. */
function behaviourCostTable(rows, options) {
  const s = (ms) => (ms === null || ms === undefined ? '-' : (ms / 1000).toFixed(1));
  const stageMs = (first, name) => first?.stageMs?.[name] ?? 0;
  const lines = [
    '| round | project / bug | plain clean s | verified, with probe + second run s | its stages | verified, without s | its stages | probe + second run: time outside the full build, with − without s | ÷ verification without | with ÷ without − 1 (whole, noisy) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of rows) {
    // The two run side by side: what they add is the verification's time outside its build, beyond the other side's.
    const outside = (first) => (first?.ms ?? 0) - stageMs(first, 'full');
    const own = outside(row.with) - outside(row.without);
    lines.push(
      `| ${row.round} | ${row.label} | ${s(row.plainCleanMs)} | ${s(row.with?.ms)} | ${(row.with?.stages ?? []).join(' → ')} | ${s(row.without?.ms)} | ${(row.without?.stages ?? []).join(' → ')} | ${s(own)} | ${row.without?.ms ? `${((own / row.without.ms) * 100).toFixed(1)} %` : '-'} | ${row.with?.ms && row.without?.ms ? `${((row.with.ms / row.without.ms - 1) * 100).toFixed(0)} %` : '-'} |`,
    );
  }
  return [
    "# What the behavioural probe and the failing tests' second run cost on the generated projects (issue 45)",
    '',
    `\`npm run bench:verify -- --behaviour-check-cost --rounds ${options.rounds}${options.only.map((o) => ` --only ${o}`).join('')}${options.bugs.map((b) => ` --bug "${b}"`).join('')}\` on ${new Date().toISOString().slice(0, 16)}Z; node ${process.version}, ${os.cpus().length} cores (shared), load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at the end.`,
    '',
    "Per round and bug, on the same copy: the right fix verified with the probe and the second run (the default), then the same fix with `verify.behaviourCheck: false`. Verification = attempt 1's apply plus its stages, from the run record. The probe and the second run (which compiles the probed files with a record call first, and captures their arguments) start together; the probe runs once more when a captured call is new. What they add is the verification's time outside its full build, minus the same on the other side (the full build's own variance under load is left out).",
    '',
    ...lines,
    '',
  ].join('\n');
}

// A real project (bench/verify-project.mjs): its own bugs, written into a copy.
if (process.argv.slice(2).some((arg) => arg === '--project' || arg.startsWith('--project='))) {
  await (await import('./verify-project.mjs')).runProjectBench(process.argv.slice(2));
  process.exit(process.exitCode ?? 0);
}
const options = parseArgs(process.argv.slice(2));
const projects = [
  {
    key: 'multi',
    label: `multi-module (${MULTI_MODULE_SPEC.modules.length} modules)`,
    project: generateProject(MULTI_MODULE_SPEC, MULTI_MODULE_BUGS),
  },
  { key: 'single', label: 'single-module', project: generateProject(SINGLE_MODULE_SPEC, SINGLE_MODULE_BUGS) },
].filter((entry) => options.only.length === 0 || options.only.includes(entry.key));

const templates = await mkdtemp(path.join(os.tmpdir(), 'mvnx-bench-verify-templates-'));
try {
  for (const entry of projects) {
    entry.template = path.join(templates, entry.project.name);
    await writeProject(entry.project, entry.template);
  }
  const rounds = new Map();
  const costRows = [];
  for (let n = 1; n <= options.rounds; n += 1) {
    for (const entry of projects) {
      for (const bug of entry.project.bugs.filter(
        (b) => options.bugs.length === 0 || options.bugs.some((name) => b.name.includes(name)),
      )) {
        const key = `${entry.label}\u0000${bug.name}`;
        const result = await round(entry.project, entry.template, bug, options);
        if (options.behaviourCost) {
          costRows.push({ round: n, label: `${entry.label} / ${bug.name}`, ...result });
          process.stderr.write(
            `[${n}/${options.rounds}] ${entry.label} / ${bug.name}: clean ${result.plainCleanEachMs.map((ms) => (ms / 1000).toFixed(1)).join('/')}s, with ${JSON.stringify(result.with)}, without ${JSON.stringify(result.without)}${result.problems.length ? ` PROBLEMS: ${result.problems.join('; ')}` : ''}\n`,
          );
          continue;
        }
        rounds.set(key, [...(rounds.get(key) ?? []), result]);
        const r = (ms) => (ms === null ? '-' : `${(ms / result.plainCleanMs).toFixed(2)}×`);
        process.stderr.write(
          `[${n}/${options.rounds}] ${entry.label} / ${bug.name}: clean ${result.plainCleanEachMs.map((ms) => (ms / 1000).toFixed(1)).join('/')}s, incremental ${r(result.plainIncrementalMs)}, ` +
            `reject compile ${r(result.rejectCompileMs)} (${result.stages.rejectCompile.join('→')}), reject test ${r(result.rejectTestMs)} (${result.stages.rejectTest.join('→')}), ` +
            `verified ${r(result.verifiedMs)} (${result.stages.verified.join('→')}), whole ${r(result.wholeRunMs)}${result.beforeCandidate ? `, beside the model: ${result.beforeCandidate.modules.join(',')} ${(result.beforeCandidate.durationMs / 1000).toFixed(1)}s (${r(result.beforeCandidate.durationMs)})` : ''}${result.problems.length ? ` PROBLEMS: ${result.problems.join('; ')}` : ''}\n`,
        );
      }
    }
  }

  if (options.behaviourCost) {
    const output = behaviourCostTable(costRows, options);
    await writeFile(options.out, output);
    process.stdout.write(output);
    process.exit(costRows.some((row) => row.problems.length > 0) ? 1 : 0);
  }
  const summaries = [...rounds.entries()].map(([key, results]) => {
    const [label, bug] = key.split('\u0000');
    return summariseVerify(label, bug, results);
  });
  const problems = summaries.flatMap((summary) =>
    summary.problems.map((problem) => `${summary.project} / ${summary.bug} ${problem}`),
  );
  const limits = doneWhenProblems(summaries);
  const mavenVersion = ((await execa('mvn', ['-v', '-B'], { reject: false })).stdout.split('\n')[0] ?? '').replace(
    /\x1b\[[0-9;]*m/g,
    '',
  );
  const stats = projects
    .map(
      (entry) =>
        `${entry.label}: ${entry.project.stats.mainClasses} main classes, ${entry.project.stats.testClasses} test classes, ${entry.project.stats.tests} tests`,
    )
    .join('; ');
  const lines = [
    '# Verification benchmark',
    '',
    `\`npm run bench:verify -- --rounds ${options.rounds}${options.bugs.map((b) => ` --bug "${b}"`).join('')}${options.config.map((c) => ` --config "${c}"`).join('')}\` on ${new Date().toISOString().slice(0, 10)}: ${options.rounds} interleaved round(s), medians of per-round ratios; ` +
      `${mavenVersion}, node ${process.version}, ${os.cpus().length} cores (shared), load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} at the end.`,
    '',
    `Projects (generated by \`src/bench/verify-projects.ts\`): ${stats}.`,
    '',
    "Every figure is a ratio to a plain clean `mvn -o -q verify` of the correct project in the same round (the mean of one before and one after the round's mvnx runs; the median over rounds in the third column).",
    '',
    formatVerifyTable(summaries),
    '',
    formatStagesTable(summaries),
    '',
    '- **plain incremental**: `mvn -o -q verify` after writing the fix into the tree the failed build left (what checking the fix by hand costs).',
    "- **rejected** / **verified**: the attempt's apply (workspace reset and write) plus all its verification stages, from the run record; the last stage listed is the one that rejected.",
    "- **whole mvnx run**: the `mvnx -o -B -q verify` process when the model's first reply is the fix: the user's failed build, the workspace, the flaky check, the model and the verification.",
    '- Timings come from a shared 2-core machine where other builds run at the same time: expect ±30 % between rounds.',
    problems.length > 0
      ? `- **Runs not as expected**: ${problems.join('; ')}`
      : '- Every run ended as expected: the wrong candidates were rejected and the fix verified.',
    limits.length > 0
      ? `- **Over the issue-17 limits**: ${limits.join('; ')}`
      : '- Within the issue-17 limits: rejecting ≤ 0.25× (does not compile) and ≤ 0.40× (test still fails); verifying ≤ 1.0× single-module and ≤ 0.5× for the leaf bug.',
    '',
  ];
  const output = lines.join('\n');
  await writeFile(options.out, output);
  process.stdout.write(output);
  if (problems.length > 0) process.exitCode = 1;
} finally {
  await rm(templates, { recursive: true, force: true });
}
