// `npm run bench:verify -- --project DIR [--kinds k1,k2] [--rounds N] [--cli PATH] [--out FILE] [--config "yaml line"]
// [--model-cost prompt=60,output=8,load=6]`:
// what repairing a one-line bug costs on a real project, per bug and per stage, as ratios to a
// plain clean `mvn -o -q verify` of the same project measured in the same round, interleaved.
//
// The bugs are the bench's own (src/bench/project-bugs.ts: off-by-one, inverted condition, wrong
// constant, missing null check, compile error), written into a copy of DIR (DIR is never written).
// Per round and bug:
//   1. a fresh copy gets a plain clean build (the baseline, and the developer's built tree);
//   2. the bug is written in and `mvnx -o -B -q verify` runs with the scripted model whose first
//      reply is the right fix (when the user's build passes, no test catches this bug: the next
//      candidate of its kind is taken);
//   3. the bug again, mvnx with a first reply that compiles and leaves the test failing (a compile
//      error: a first reply that does not compile), then the fix;
//   4. a second plain clean build of a fresh copy: the round's baseline is the mean of the two.
// Per stage: the flaky re-check, building the prompt, each verification stage, and mvnx's own time
// from the end of the user's failed build to the verdict (the record's totalMs).
// --model-cost: the scripted server charges each call as llama.cpp's prompt cache does (src/bench/model-cost.ts), and
// a second table gives per mvnx run the prompt tokens sent and evaluated, output tokens, model s, Maven s and total.
import { execa } from 'execa';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseRunRecordFromStdout } from '../dist/bench/harness.js';
import { parseModelCost, summariseCharges } from '../dist/bench/model-cost.js';
import { formatModelCostTable } from '../dist/bench/model-cost-table.js';
import { findProjectBugs, BUG_KINDS } from '../dist/bench/project-bugs.js';
import { startScriptedOllama } from '../dist/bench/scripted-ollama.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TIMEOUT_MS = 30 * 60_000;
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

export function parseProjectArgs(argv) {
  const options = {
    project: undefined,
    kinds: [...BUG_KINDS],
    rounds: 1,
    cli: path.join(repoRoot, 'dist/cli/mvnx.cjs'),
    out: undefined,
    config: [],
    behaviourCost: false,
    modelCost: undefined,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--project') options.project = path.resolve(value());
    else if (flag === '--kinds') options.kinds = value().split(',');
    else if (flag === '--rounds') options.rounds = Number(value());
    else if (flag === '--cli') options.cli = path.resolve(value());
    else if (flag === '--out') options.out = path.resolve(value());
    else if (flag === '--config') options.config.push(value());
    else if (flag === '--behaviour-check-cost') options.behaviourCost = true;
    else if (flag === '--model-cost') options.modelCost = parseModelCost(value() ?? '');
    else
      throw new Error(
        `unknown argument ${argv[i]} (use --project DIR, --kinds ${BUG_KINDS.join(',')}, --rounds N, --cli PATH, --out FILE, --config "yaml line", --behaviour-check-cost, --model-cost prompt=60,output=8,load=6)`,
      );
  }
  if (!options.project) throw new Error('--project DIR is required');
  for (const kind of options.kinds)
    if (!BUG_KINDS.includes(kind)) throw new Error(`unknown bug kind ${kind} (one of ${BUG_KINDS.join(', ')})`);
  if (!Number.isInteger(options.rounds) || options.rounds < 1) throw new Error('--rounds needs a whole number >= 1');
  options.out ??= path.join(repoRoot, 'bench', `results-verify-${path.basename(options.project)}.md`);
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

/** The project's Java files by project-relative path (target, .git, .mvnx and node_modules left out). */
export async function sources(root, dir = '', files = new Map()) {
  for (const entry of await readdir(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory() && !['target', '.git', '.mvnx', 'node_modules'].includes(entry.name))
      await sources(root, rel, files);
    else if (entry.isFile() && rel.endsWith('.java')) files.set(rel, await readFile(path.join(root, rel), 'utf8'));
  }
  return files;
}

/** A plain clean build of the correct project; one that fails (a timing-sensitive test on a loaded machine) is said and run again, once. */
async function plainVerify(root, label, again = true) {
  const { value: result, ms } = await timed(() =>
    execa('mvn', ['-o', '-q', 'verify'], {
      cwd: root,
      env: childEnv(),
      reject: false,
      stdin: 'ignore',
      timeout: TIMEOUT_MS,
      all: true,
    }),
  );
  if (result.exitCode === 0) return ms;
  const errors = (result.all ?? '')
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((line) => line.startsWith('[ERROR]'))
    .slice(0, 6)
    .join(' | ');
  if (!again) throw new Error(`${label}: plain mvn -o -q verify failed (exit ${result.exitCode}): ${errors}`);
  process.stderr.write(
    `${label}: plain mvn -o -q verify failed (exit ${result.exitCode}), running it again: ${errors}\n`,
  );
  await execa('mvn', ['-o', '-q', 'clean'], { cwd: root, env: childEnv(), reject: false, stdin: 'ignore' });
  return plainVerify(root, label, false);
}

/** One mvnx run on the bug; what its record says, per stage. */
async function mvnxRun(root, bug, replies, options) {
  await writeFile(path.join(root, bug.file), bug.broken);
  const server = await startScriptedOllama(replies, options.modelCost ? { cost: options.modelCost } : {});
  try {
    const args = [options.cli, '-o', '-B', '-q', 'verify', '--mvnx-json', `--mvnx-host=${server.url}`];
    const { value: result, ms } = await timed(() =>
      execa('node', args, { cwd: root, env: childEnv(), reject: false, stdin: 'ignore', timeout: TIMEOUT_MS }),
    );
    const record = parseRunRecordFromStdout(result.stdout);
    if (!record && result.exitCode === 0) return { caught: false };
    const attempt = (n) => record?.attempts?.find((a) => a.n === n);
    const first = attempt(1);
    const cost = (a) => (a?.timings ? (a.timings.applyMs ?? 0) + (a.timings.verifyMs ?? 0) : null);
    return {
      caught: true,
      status: record?.status,
      ...(options.modelCost ? { modelCost: summariseCharges(server.charges(), options.modelCost, ms / 1000) } : {}),
      wallMs: ms,
      stopReason: record?.stopReason ?? `no record (exit ${result.exitCode})`,
      ownMs: record?.timings?.totalMs ?? null,
      recheckMs: record?.timings?.recheckMs ?? null,
      promptMs: record?.timings?.promptMs ?? null,
      modelMs: record?.timings?.modelMs ?? null,
      first: first
        ? {
            outcome: first.outcome,
            ms: cost(first),
            stages: (first.stages ?? []).map((s) => `${s.name} ${(s.durationMs / 1000).toFixed(1)}s`),
          }
        : null,
      verdict: record?.attempts?.find((a) => a.outcome === 'verified')?.verdict ?? null,
      // Every timing the record has (the run's and attempt 1's), for the log: where the rest of the own time went.
      timings: { run: record?.timings ?? null, attempt: first?.timings ?? null },
    };
  } finally {
    await server.close();
  }
}

async function round(template, name, bug, options) {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'mvnx-bench-project-'));
  const root = path.join(parent, name);
  try {
    await cp(template, root, { recursive: true });
    const plainBefore = await plainVerify(root, `${name} clean`);
    await writeFile(path.join(root, '.mvnxrc.yaml'), [CONFIG, ...options.config].join('\n'));
    const fix = await mvnxRun(root, bug, [bug.replies.fix], options);
    if (!fix.caught) return { caught: false };
    // --behaviour-check-cost: the same right fix again without the probe and the tests' second run (issue 45),
    // in place of the rejected candidate's run, so that both sides meet the same load.
    let without;
    if (options.behaviourCost) {
      await writeFile(
        path.join(root, '.mvnxrc.yaml'),
        [CONFIG, ...options.config, 'verify:', '  behaviourCheck: false', ''].join('\n'),
      );
      without = await mvnxRun(root, bug, [bug.replies.fix], options);
      await writeFile(path.join(root, '.mvnxrc.yaml'), [CONFIG, ...options.config].join('\n'));
    }
    const wrong = bug.replies.testStillFails ?? bug.replies.doesNotCompile;
    const reject = options.behaviourCost
      ? { first: null }
      : await mvnxRun(root, bug, [wrong, bug.replies.fix], options);
    await writeFile(path.join(root, bug.file), bug.correct);
    const again = path.join(parent, `${name}-again`);
    await cp(template, again, { recursive: true });
    const plainAfter = await plainVerify(again, `${name} clean (again)`);
    return {
      caught: true,
      plainCleanMs: Math.round((plainBefore + plainAfter) / 2),
      plainEach: [plainBefore, plainAfter],
      fix,
      without,
      reject,
      rejectKind: bug.replies.testStillFails ? 'test still fails' : 'does not compile',
    };
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}

/** What the verdict says ran and was taken from the user's build (verdict.tests), in a table cell. */
const testsOf = (verdict) => {
  const tests = verdict?.tests;
  if (!tests) return '-';
  return `${tests.ran.length} classes ran, ${tests.fromYourBuild.length} from your build: ${tests.why}${tests.compileWhy ? `; ${tests.compileWhy}` : ''}`.replace(
    /\|/g,
    '/',
  );
};
const seconds = (ms) => (ms === null || ms === undefined ? '-' : (ms / 1000).toFixed(1));
const ratio = (ms, base) => (ms === null || ms === undefined ? '-' : `${(ms / base).toFixed(2)}×`);
const both = (ms, base) => (ms === null || ms === undefined ? '-' : `${seconds(ms)} (${ratio(ms, base)})`);

export async function runProjectBench(argv) {
  const options = parseProjectArgs(argv);
  const name = path.basename(options.project);
  const templates = await mkdtemp(path.join(os.tmpdir(), 'mvnx-bench-project-template-'));
  const template = path.join(templates, name);
  await cp(options.project, template, { recursive: true, filter: (src) => !/[\\/](target|\.mvnx)$/.test(src) });
  const rows = [];
  try {
    const bugs = findProjectBugs(await sources(template));
    for (let n = 1; n <= options.rounds; n += 1) {
      for (const kind of options.kinds) {
        for (const bug of bugs.filter((b) => b.kind === kind)) {
          const result = await round(template, name, bug, options);
          const label = `${kind} (${bug.file.split('/').pop()}:${bug.line})`;
          if (!result.caught) {
            process.stderr.write(`[${n}] ${label}: no test catches it; next candidate\n`);
            continue;
          }
          rows.push({ label, ...result });
          const base = result.plainCleanMs;
          if (result.without)
            process.stderr.write(
              `[${n}] ${label}: verified without probe+repeat ${both(result.without.first?.ms, base)} [${result.without.first?.stages.join(', ')}]\n`,
            );
          process.stderr.write(
            `[${n}] ${label}: clean ${result.plainEach.map(seconds).join('/')}s; mvnx own ${both(result.fix.ownMs, base)} ${result.fix.stopReason}; recheck ${both(result.fix.recheckMs, base)}; prompt ${seconds(result.fix.promptMs)}; ` +
              `verified ${both(result.fix.first?.ms, base)} [${result.fix.first?.stages.join(', ')}] (${testsOf(result.fix.verdict)}); rejected (${result.rejectKind}) ${both(result.reject.first?.ms, base)} [${result.reject.first?.stages.join(', ')}] ${result.reject.first?.outcome}\n` +
              `    timings (fix run): ${JSON.stringify(result.fix.timings)}\n`,
          );
          break;
        }
      }
    }
  } finally {
    await rm(templates, { recursive: true, force: true });
  }
  const header = [
    'bug',
    'plain clean s',
    'mvnx own time (failed build → verdict)',
    'flaky re-check',
    'prompt build s',
    'model call s',
    'verified candidate',
    'stages (verified)',
    'tests in the verified build (run record)',
    'rejected candidate',
    'stages (rejected)',
    'stop',
    ...(options.behaviourCost
      ? ['verified candidate without probe and repetition', 'probe + repetition added (with ÷ without − 1)']
      : []),
  ];
  const table = [header, header.map(() => '---')];
  for (const row of rows) {
    const base = row.plainCleanMs;
    table.push([
      row.label,
      seconds(base),
      both(row.fix.ownMs, base),
      both(row.fix.recheckMs, base),
      seconds(row.fix.promptMs),
      seconds(row.fix.modelMs),
      both(row.fix.first?.ms, base),
      row.fix.first?.stages.join(' → ') ?? '-',
      testsOf(row.fix.verdict),
      `${both(row.reject.first?.ms, base)} (${row.rejectKind}, ${row.reject.first?.outcome ?? '-'})`,
      row.reject.first?.stages.join(' → ') ?? '-',
      row.fix.stopReason,
      ...(options.behaviourCost
        ? [
            both(row.without?.first?.ms, base),
            row.without?.first?.ms && row.fix.first?.ms
              ? `${((row.fix.first.ms / row.without.first.ms - 1) * 100).toFixed(0)} %`
              : '-',
          ]
        : []),
    ]);
  }
  // Under --model-cost, each mvnx run as `mvnx bench --model-cost` tables it: the right fix first, then the wrong reply
  // followed by the fix.
  const costRuns = rows.flatMap((row) =>
    [
      [row.label, row.fix],
      [`${row.label}, ${row.rejectKind} first`, row.reject],
    ].flatMap(([label, run]) =>
      run?.modelCost ? [{ name: label, samples: [{ status: run.status, modelCost: run.modelCost }] }] : [],
    ),
  );
  const mavenVersion = ((await execa('mvn', ['-v', '-B'], { reject: false })).stdout.split('\n')[0] ?? '').replace(
    /\x1b\[[0-9;]*m/g,
    '',
  );
  const output = [
    `# Verification on a real project: ${name}`,
    '',
    `\`npm run bench:verify -- --project ${name}${options.config.map((c) => ` --config "${c}"`).join('')}${options.modelCost ? ` --model-cost prompt=${options.modelCost.prompt},output=${options.modelCost.output},load=${options.modelCost.load}` : ''}\` on ${new Date().toISOString().slice(0, 16)}Z, ${options.rounds} round(s); ${mavenVersion}, node ${process.version}, ${os.cpus().length} cores (shared), load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at the end.`,
    '',
    "Seconds, and in brackets the ratio to a plain clean `mvn -o -q verify` of the correct project in the same round (the mean of one before and one after the bug's mvnx runs). The model answers at once (scripted).",
    '',
    table.map((cells) => `| ${cells.join(' | ')} |`).join('\n'),
    '',
    "- **mvnx own time**: the run record's `totalMs`, from the end of the user's failed build to the verdict, when the first reply is the fix.",
    "- **verified** / **rejected candidate**: attempt 1's apply (workspace reset and write) plus its verification stages.",
    '- Timings come from a shared 2-core machine where other builds run at the same time.',
    '',
    ...(options.modelCost
      ? [
          `## Model cost (--model-cost prompt=${options.modelCost.prompt},output=${options.modelCost.output},load=${options.modelCost.load})`,
          '',
          formatModelCostTable(costRuns, options.modelCost),
          '',
        ]
      : []),
  ].join('\n');
  await writeFile(options.out, output);
  process.stdout.write(output);
}
