// Fleet-scale rollout numbers (issue 28): `mvnx runs --stats --from` and
// `mvnx report --html` over generated records of 1,000 repositories x 100 runs.
//
//   npm run bench:fleet [-- --quick] [-- --repos N] [-- --runs M] [-- --rounds R] [-- --keep DIR] [-- --reuse DIR]
//
// Generates the records once (src/bench/fleet-records.ts, the shape and size mvnx writes),
// then runs each command as a user would (node dist/cli/mvnx.cjs) under /usr/bin/time and
// prints its wall time, CPU time (user + sys: what load on a shared machine changes least),
// peak RSS and the load average beside it, against the limits (5 s, 200 MB). `--quick` is
// 100 x 100 runs for a re-check in a minute; `--reuse DIR` measures a fleet kept earlier
// with `--keep DIR`. The full size (1,000 x 100) rewrites the top of bench/results-fleet.md
// (the "Before" section below it stays).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { fleetTruth, writeFleet } from '../dist/bench/fleet-records.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const MAIN = path.join(here, '../dist/cli/mvnx.cjs');
const LIMIT_S = 5;
const LIMIT_MB = 200;
const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? fallback : process.argv[index + 1];
};
const quick = process.argv.includes('--quick');
const repositories = Number(option('repos', quick ? 100 : 1000));
const runsPerRepository = Number(option('runs', 100));
const rounds = Number(option('rounds', 1));
const reuse = option('reuse', undefined);
const root = reuse ?? option('keep', undefined) ?? (await mkdtemp(path.join(os.tmpdir(), 'mvnx-bench-fleet-')));
const full = repositories * runsPerRepository >= 100_000;

let started = Date.now();
const truth = reuse
  ? fleetTruth({ repositories, runsPerRepository })
  : await writeFleet(path.join(root, 'repos'), { repositories, runsPerRepository });
console.log(
  `${reuse ? 'reusing' : 'generated'} ${truth.runs} records${reuse ? '' : ` (${(truth.bytes / 1e6).toFixed(0)} MB of run.json) in ${((Date.now() - started) / 1000).toFixed(1)} s`} under ${root}`,
);

async function measure(label, args) {
  const load = os.loadavg()[0];
  const result = await execa('/usr/bin/time', ['-f', '%e %U %S %M', 'node', MAIN, ...args], {
    cwd: root,
    reject: false,
    env: { CI: 'true' },
  });
  const [seconds, user, sys, kb] = result.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  const cpu = user + sys;
  const mb = kb / 1024;
  const ok = result.exitCode === 0 && seconds <= LIMIT_S && mb <= LIMIT_MB;
  console.log(
    `${label}: ${seconds.toFixed(2)} s wall, ${cpu.toFixed(2)} s CPU (user ${user.toFixed(2)} + sys ${sys.toFixed(2)}), peak RSS ${mb.toFixed(0)} MB, load ${load.toFixed(1)}, exit ${result.exitCode} (limits ${LIMIT_S} s, ${LIMIT_MB} MB) ${ok ? 'OK' : 'OVER'}`,
  );
  if (result.exitCode !== 0) console.log(result.stderr);
  return { label, seconds, cpu, mb, load, ok, stdout: result.stdout };
}

const rows = [];
for (let round = 1; round <= rounds; round++) {
  rows.push(
    await measure(`mvnx runs --stats --from 'repos/*' (round ${round})`, [
      'runs',
      '--stats',
      '--json',
      '--from',
      'repos/*',
    ]),
  );
  rows.push(
    await measure(`mvnx report --html (round ${round})`, ['report', '--html', 'report.html', '--from', 'repos/*']),
  );
}
console.log('');
console.log('| command | wall time | CPU (user+sys) | peak RSS | load avg | within limits |');
console.log('|---|---|---|---|---|---|');
for (const row of rows)
  console.log(
    `| ${row.label} | ${row.seconds.toFixed(2)} s | ${row.cpu.toFixed(2)} s | ${row.mb.toFixed(0)} MB | ${row.load.toFixed(1)} | ${row.ok ? 'yes' : 'no'} |`,
  );
const stats = JSON.parse(rows[0].stdout);
const counted = stats.runs === truth.runs && stats.overall.fixed === truth.fixed;
console.log(
  `counted ${stats.runs} runs, ${stats.overall.fixed} fixed, ${stats.repositories.length} repositories: ${counted ? 'matches what was generated' : 'DOES NOT MATCH'}`,
);

const lines = [
  '# Fleet-scale rollout numbers (`npm run bench:fleet`)',
  '',
  `${repositories} repositories x ${runsPerRepository} runs = ${truth.runs} generated run records (${(truth.bytes / 1e6).toFixed(0)} MB of run.json), ${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
  `Limits: ${LIMIT_S} s and ${LIMIT_MB} MB peak RSS per command (issue 28). Records streamed: each folded into the numbers as it is read.`,
  '',
  '| command | wall time | CPU (user+sys) | peak RSS | load avg (1 min) | within limits |',
  '|---|---|---|---|---|---|',
  ...rows.map(
    (row) =>
      `| ${row.label} | ${row.seconds.toFixed(2)} s | ${row.cpu.toFixed(2)} s | ${row.mb.toFixed(0)} MB | ${row.load.toFixed(1)} | ${row.ok ? 'yes' : 'no'} |`,
  ),
  '',
  `Counted ${stats.runs} runs, ${stats.overall.fixed} fixed, ${stats.repositories.length} repositories: ${counted ? 'the generated numbers' : 'NOT the generated numbers'}.`,
  '',
];
const resultsFile = path.join(here, 'results-fleet.md');
if (full) {
  const previous = await readFile(resultsFile, 'utf8').catch(() => '');
  const kept = previous.indexOf('\n## ');
  await writeFile(resultsFile, `${lines.join('\n')}${kept >= 0 ? previous.slice(kept) : ''}`);
}
if (!option('keep', undefined) && !reuse) await rm(root, { recursive: true, force: true });
process.exitCode = rows.every((row) => row.ok) && counted ? 0 : 1;
