// Success-path overhead of mvnx over plain mvn, and mvnx's memory on a huge log.
//
//   npm run bench:overhead [-- --pairs N] [-- --stream-mb M] [-- --skip-maven]
//
// 1. Interleaved rounds of `mvn -o -q verify` and `mvnx -o -q verify` (order flipped
//    every round) on a copy of examples/passing (one untimed warm-up of each first);
//    prints the median of the per-round wall-time ratios with a bootstrap 95% interval,
//    and mvnx's peak RSS (VmHWM of the node process). When NODE_EXTRA_CA_CERTS is set, each round also runs
//    mvnx with it unset: Node 20 parses that certificate file before any JavaScript
//    runs (about 40 ms for the 144 certificates of a Debian bundle), a cost of the
//    environment that mvn does not pay and mvnx cannot avoid, so both figures are shown.
//    Then the fixed cost alone: the fake mvn with and without mvnx in front, 3N rounds.
// 2. A fake mvn (test/helpers/fake-mvn) prints M MB (default 200) through mvnx into a
//    pipe this script drains; prints mvnx's peak RSS and the throughput, next to the
//    fake mvn alone into the same kind of pipe.
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const here = path.dirname(fileURLToPath(import.meta.url));
const MAIN = path.join(here, '../dist/cli/mvnx.cjs');
const FAKE_MVN = path.join(here, '../test/helpers/fake-mvn');
const TARGET_RATIO = 1.05;
const TARGET_RSS_MB = 120;

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 1) {
    console.error(
      `bench:overhead: --${name} needs a positive whole number, got ${process.argv[index + 1] ?? 'nothing'}`,
    );
    process.exit(2);
  }
  return value;
}
const pairs = option('pairs', 20);
const streamMb = option('stream-mb', 200);
const skipMaven = process.argv.includes('--skip-maven');

const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('MVNX_')));
const mavenEnv = { ...baseEnv, MAVEN_OPTS: process.env.MAVEN_OPTS ?? '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC' };

/**
 * Peak RSS and CPU time of a running process (not its children), polled from /proc:
 * VmHWM and the schedstat run time only grow, so the last read is the closest.
 */
function watchProcess(pid) {
  let peakKb = 0;
  let cpuNs = 0;
  const read = async () => {
    const [status, schedstat] = await Promise.all([
      readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''),
      readFile(`/proc/${pid}/schedstat`, 'utf8').catch(() => ''),
    ]);
    const match = /^VmHWM:\s+(\d+) kB/m.exec(status);
    if (match) peakKb = Math.max(peakKb, Number(match[1]));
    const runNs = Number(schedstat.split(' ')[0]);
    if (Number.isFinite(runNs)) cpuNs = Math.max(cpuNs, runNs);
  };
  const timer = setInterval(read, 25);
  return async () => {
    clearInterval(timer);
    return { peakRssMb: peakKb / 1024, cpuMs: cpuNs / 1e6 };
  };
}

async function timed(file, args, options) {
  const started = process.hrtime.bigint();
  const child = execa(file, args, { reject: false, stdin: 'ignore', ...options });
  // Every run is polled, mvn's too: the polling costs a little CPU, and only the node
  // process's figures are reported, but both sides must pay the same.
  const stopWatch = child.pid ? watchProcess(child.pid) : undefined;
  let bytes = 0;
  child.stdout?.on('data', (chunk) => (bytes += chunk.length));
  const result = await child;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const watched = stopWatch ? await stopWatch() : undefined;
  if (result.exitCode !== 0)
    throw new Error(`${file} ${args.join(' ')} exited ${result.exitCode}: ${String(result.stderr).slice(0, 400)}`);
  return { seconds, bytes, ...watched };
}

/** Median of resamples with replacement, 2.5th and 97.5th percentile; seeded so reruns on the same data agree. */
function bootstrapMedianInterval(values, resamples = 2000) {
  let seed = 0x9e3779b9;
  const random = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  const medians = [];
  for (let r = 0; r < resamples; r++)
    medians.push(median(Array.from(values, () => values[Math.floor(random() * values.length)])));
  medians.sort((a, b) => a - b);
  return [medians[Math.floor(resamples * 0.025)], medians[Math.floor(resamples * 0.975)]];
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const report = { pairs, streamMb };

// Node 20 reads NODE_EXTRA_CA_CERTS before any JavaScript runs; mvn never starts a node.
const variants = [{ name: 'mvnx', env: mavenEnv }];
if (mavenEnv.NODE_EXTRA_CA_CERTS !== undefined) {
  const { NODE_EXTRA_CA_CERTS: _ignored, ...withoutExtraCerts } = mavenEnv;
  variants.push({ name: 'mvnx without NODE_EXTRA_CA_CERTS', env: withoutExtraCerts });
}

function summarise(variant) {
  const [low, high] = bootstrapMedianInterval(variant.ratios);
  return {
    name: variant.name,
    medianSeconds: +median(variant.times).toFixed(3),
    medianRatio: +median(variant.ratios).toFixed(3),
    ratioInterval95: [+low.toFixed(3), +high.toFixed(3)],
    minRatio: +Math.min(...variant.ratios).toFixed(3),
    maxRatio: +Math.max(...variant.ratios).toFixed(3),
    peakRssMb: +variant.peakRssMb.toFixed(1),
    medianCpuMs: +median(variant.cpuMs).toFixed(1),
  };
}

if (!skipMaven) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mvnx-bench-overhead-'));
  try {
    await cp(path.join(here, '../examples/passing'), dir, {
      recursive: true,
      filter: (source) => !/[\\/](target|\.mvnx)$/.test(source),
    });
    const { stdout: mvnPath } = await execa('sh', ['-c', 'command -v mvn']);
    const args = ['-o', '-q', 'verify'];
    const runMvn = () => timed(mvnPath, args, { cwd: dir, env: mavenEnv, extendEnv: false, buffer: false });
    const runMvnx = (env) =>
      timed(process.execPath, [MAIN, ...args], { cwd: dir, env, extendEnv: false, buffer: false });
    await runMvn();
    for (const variant of variants) await runMvnx(variant.env);
    const mvnTimes = [];
    const measured = variants.map((variant) => ({ ...variant, times: [], ratios: [], cpuMs: [], peakRssMb: 0 }));
    for (let i = 0; i < pairs; i++) {
      // The order flips every round (mvn first, then mvn last) so that whatever one run
      // leaves behind for the next (dirty pages, a warm JIT cache) falls on both sides.
      const order = [undefined, ...measured];
      if (i % 2 === 1) order.reverse();
      const timings = new Map();
      for (const variant of order) timings.set(variant, variant ? await runMvnx(variant.env) : await runMvn());
      const a = timings.get(undefined);
      mvnTimes.push(a.seconds);
      const line = [`round ${i + 1}/${pairs}: mvn ${a.seconds.toFixed(3)} s`];
      for (const variant of measured) {
        const b = timings.get(variant);
        variant.times.push(b.seconds);
        variant.ratios.push(b.seconds / a.seconds);
        variant.cpuMs.push(b.cpuMs);
        variant.peakRssMb = Math.max(variant.peakRssMb, b.peakRssMb);
        line.push(`${variant.name} ${b.seconds.toFixed(3)} s (${(b.seconds / a.seconds).toFixed(3)})`);
      }
      console.error(line.join(', '));
    }
    report.mvnMedianSeconds = +median(mvnTimes).toFixed(3);
    report.variants = measured.map(summarise);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  // The fixed cost, measured where Maven's own noise cannot hide it: the fake mvn (a sh
  // script that exits at once) alone and through mvnx, interleaved. This is all mvnx adds
  // to a quiet build; the CPU column above shows that node does nothing while Maven runs.
  const stubRounds = pairs * 3;
  const runStub = () => timed(FAKE_MVN, [], { cwd: os.tmpdir(), env: baseEnv, extendEnv: false, buffer: false });
  const stubCosts = variants.map(() => []);
  for (let i = 0; i < stubRounds; i++) {
    const order = [-1, ...variants.keys()];
    if (i % 2 === 1) order.reverse();
    const seconds = new Map();
    for (const index of order) {
      if (index < 0) seconds.set(index, (await runStub()).seconds);
      else {
        const env = { ...variants[index].env, MVNX_MAVEN: FAKE_MVN };
        seconds.set(
          index,
          (await timed(process.execPath, [MAIN, 'verify'], { cwd: os.tmpdir(), env, extendEnv: false, buffer: false }))
            .seconds,
        );
      }
    }
    for (const index of variants.keys()) stubCosts[index].push((seconds.get(index) - seconds.get(-1)) * 1000);
  }
  for (const [index, variant] of report.variants.entries()) {
    variant.fixedCostMs = +median(stubCosts[index]).toFixed(1);
    variant.estimatedRatio = +(1 + variant.fixedCostMs / 1000 / report.mvnMedianSeconds).toFixed(3);
  }
  report.stubRounds = stubRounds;
}

const streamBytes = streamMb * 1024 * 1024;
const streamEnv = { ...baseEnv, FAKE_MVN_BYTES: String(streamBytes), MVNX_MAVEN: FAKE_MVN };
const raw = await timed(FAKE_MVN, [], { env: streamEnv, extendEnv: false, buffer: false });
const through = await timed(process.execPath, [MAIN, '--mvnx-no-fix', 'verify'], {
  cwd: os.tmpdir(),
  env: streamEnv,
  extendEnv: false,
  buffer: false,
});
if (through.bytes !== streamBytes) throw new Error(`mvnx passed ${through.bytes} of ${streamBytes} bytes`);
Object.assign(report, {
  streamPeakRssMb: +through.peakRssMb.toFixed(1),
  streamMbPerSecond: +(streamMb / through.seconds).toFixed(0),
  fakeMvnAloneMbPerSecond: +(streamMb / raw.seconds).toFixed(0),
});

console.log(`mvnx overhead benchmark (${os.cpus().length} cores, node ${process.version})`);
if (!skipMaven) {
  console.log(`  mvn -o -q verify, median of ${pairs} rounds: ${report.mvnMedianSeconds} s`);
  for (const variant of report.variants) {
    const met = (ratio) => (ratio <= TARGET_RATIO ? 'met' : 'MISSED');
    console.log(`  ${variant.name}:`);
    console.log(
      `    median ${variant.medianSeconds} s; median ratio ${variant.medianRatio} (95% interval ${variant.ratioInterval95.join('-')}, min ${variant.minRatio}, max ${variant.maxRatio}; target <= ${TARGET_RATIO}: ${met(variant.medianRatio)})`,
    );
    console.log(
      `    fixed cost ${variant.fixedCostMs} ms (median of ${report.stubRounds}), so ${variant.estimatedRatio} on this build (${met(variant.estimatedRatio)})`,
    );
    console.log(`    node's own CPU time ${variant.medianCpuMs} ms, peak RSS ${variant.peakRssMb} MB`);
  }
}
console.log(
  `  ${streamMb} MB stream through mvnx: ${report.streamMbPerSecond} MB/s (fake mvn alone: ${report.fakeMvnAloneMbPerSecond} MB/s)`,
);
console.log(
  `  mvnx peak RSS on the stream: ${report.streamPeakRssMb} MB (target <= ${TARGET_RSS_MB}: ${report.streamPeakRssMb <= TARGET_RSS_MB ? 'met' : 'MISSED'})`,
);
console.log(JSON.stringify(report));
