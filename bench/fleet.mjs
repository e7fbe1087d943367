// Fleet-scale rollout numbers (issue 28): `mvnx runs --stats --from` and
// `mvnx report --html` over generated records of 1,000 repositories x 100 runs.
//
//   npm run bench:fleet [-- --repos N] [-- --runs M] [-- --keep DIR]
//
// Generates the records once (src/bench/fleet-records.ts, the shape and size mvnx writes),
// then runs each command as a user would (node dist/cli/mvnx.cjs) under /usr/bin/time and
// prints its wall time and peak RSS against the limits (5 s, 200 MB). Writes
// bench/results-fleet.md.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { writeFleet } from '../dist/bench/fleet-records.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const MAIN = path.join(here, '../dist/cli/mvnx.cjs');
const LIMIT_S = 5;
const LIMIT_MB = 200;
const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? fallback : process.argv[index + 1];
};
const repositories = Number(option('repos', 1000));
const runsPerRepository = Number(option('runs', 100));
const root = option('keep', undefined) ?? (await mkdtemp(path.join(os.tmpdir(), 'mvnx-bench-fleet-')));

let started = Date.now();
const truth = await writeFleet(path.join(root, 'repos'), { repositories, runsPerRepository });
console.log(`generated ${truth.runs} records (${(truth.bytes / 1e6).toFixed(0)} MB of run.json) in ${((Date.now() - started) / 1000).toFixed(1)} s under ${root}`);

async function measure(label, args) {
  const result = await execa('/usr/bin/time', ['-f', '%e %M', 'node', MAIN, ...args], { cwd: root, reject: false, env: { CI: 'true' } });
  const [seconds, kb] = result.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  const mb = kb / 1024;
  const ok = result.exitCode === 0 && seconds <= LIMIT_S && mb <= LIMIT_MB;
  console.log(`${label}: ${seconds.toFixed(2)} s, peak RSS ${mb.toFixed(0)} MB, exit ${result.exitCode} (limits ${LIMIT_S} s, ${LIMIT_MB} MB) ${ok ? 'OK' : 'OVER'}`);
  if (result.exitCode !== 0) console.log(result.stderr);
  return { label, seconds, mb, ok, stdout: result.stdout };
}

const rows = [];
for (let round = 1; round <= 2; round++) {
  rows.push(await measure(`mvnx runs --stats --from 'repos/*' (round ${round})`, ['runs', '--stats', '--json', '--from', 'repos/*']));
  rows.push(await measure(`mvnx report --html (round ${round})`, ['report', '--html', 'report.html', '--from', 'repos/*']));
}
const stats = JSON.parse(rows[0].stdout);
const counted = stats.runs === truth.runs && stats.overall.fixed === truth.fixed;
console.log(`counted ${stats.runs} runs, ${stats.overall.fixed} fixed, ${stats.repositories.length} repositories: ${counted ? 'matches what was generated' : 'DOES NOT MATCH'}`);

const lines = [
  '# Fleet-scale rollout numbers (`npm run bench:fleet`)',
  '',
  `${repositories} repositories x ${runsPerRepository} runs = ${truth.runs} generated run records (${(truth.bytes / 1e6).toFixed(0)} MB of run.json), ${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
  `Limits: ${LIMIT_S} s and ${LIMIT_MB} MB peak RSS per command (issue 28). Load average at the start: ${os.loadavg()[0].toFixed(1)}.`,
  '',
  '| command | wall time | peak RSS | within limits |',
  '|---|---|---|---|',
  ...rows.map((row) => `| ${row.label} | ${row.seconds.toFixed(2)} s | ${row.mb.toFixed(0)} MB | ${row.ok ? 'yes' : 'no'} |`),
  '',
  `Counted ${stats.runs} runs, ${stats.overall.fixed} fixed, ${stats.repositories.length} repositories: ${counted ? 'the generated numbers' : 'NOT the generated numbers'}.`,
  '',
];
await writeFile(path.join(here, 'results-fleet.md'), lines.join('\n'));
if (!option('keep', undefined)) await rm(root, { recursive: true, force: true });
process.exitCode = rows.every((row) => row.ok) && counted ? 0 : 1;
