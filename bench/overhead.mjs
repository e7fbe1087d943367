// Success-path overhead of mvnx over plain mvn, and mvnx's memory on a huge log.
//
//   npm run bench:overhead [-- --pairs N] [-- --stream-mb M] [-- --skip-maven]
//
// 1. Interleaved A/B pairs of `mvn -o -q verify` and `mvnx -o -q verify` on a copy of
//    examples/passing (one untimed warm-up of each first); prints the median of the
//    per-pair wall-time ratios and mvnx's peak RSS (VmHWM of the node process).
// 2. A fake mvn (test/helpers/fake-mvn) prints M MB (default 200) through mvnx into a
//    pipe this script drains; prints mvnx's peak RSS and the throughput, next to the
//    fake mvn alone into the same kind of pipe.
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const here = path.dirname(fileURLToPath(import.meta.url));
const MAIN = path.join(here, '../dist/cli/main.js');
const FAKE_MVN = path.join(here, '../test/helpers/fake-mvn');
const TARGET_RATIO = 1.05;
const TARGET_RSS_MB = 120;

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`bench:overhead: --${name} needs a positive whole number, got ${process.argv[index + 1] ?? 'nothing'}`);
    process.exit(2);
  }
  return value;
}
const pairs = option('pairs', 10);
const streamMb = option('stream-mb', 200);
const skipMaven = process.argv.includes('--skip-maven');

const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('MVNX_')));
const mavenEnv = { ...baseEnv, MAVEN_OPTS: process.env.MAVEN_OPTS ?? '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC' };

/** Peak RSS of a running process, polled from /proc: VmHWM only grows, so the last read is the peak. */
function watchPeakRss(pid) {
  let peakKb = 0;
  const read = async () => {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const match = /^VmHWM:\s+(\d+) kB/m.exec(status);
    if (match) peakKb = Math.max(peakKb, Number(match[1]));
  };
  const timer = setInterval(read, 25);
  return async () => {
    clearInterval(timer);
    return peakKb / 1024;
  };
}

async function timed(file, args, options) {
  const started = process.hrtime.bigint();
  const child = execa(file, args, { reject: false, stdin: 'ignore', ...options });
  const stopWatch = child.pid && file === process.execPath ? watchPeakRss(child.pid) : undefined;
  let bytes = 0;
  child.stdout?.on('data', (chunk) => (bytes += chunk.length));
  const result = await child;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peakRssMb = stopWatch ? await stopWatch() : undefined;
  if (result.exitCode !== 0) throw new Error(`${file} ${args.join(' ')} exited ${result.exitCode}: ${String(result.stderr).slice(0, 400)}`);
  return { seconds, peakRssMb, bytes };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const report = { pairs, streamMb };

if (!skipMaven) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mvnx-bench-overhead-'));
  try {
    await cp(path.join(here, '../examples/passing'), dir, { recursive: true, filter: (source) => !/[\\/](target|\.mvnx)$/.test(source) });
    const { stdout: mvnPath } = await execa('sh', ['-c', 'command -v mvn']);
    const args = ['-o', '-q', 'verify'];
    const runMvn = () => timed(mvnPath, args, { cwd: dir, env: mavenEnv, extendEnv: false, buffer: false });
    const runMvnx = () => timed(process.execPath, [MAIN, ...args], { cwd: dir, env: mavenEnv, extendEnv: false, buffer: false });
    await runMvn();
    await runMvnx();
    const ratios = [];
    const mvnTimes = [];
    const mvnxTimes = [];
    let peakRssMb = 0;
    for (let i = 0; i < pairs; i++) {
      const a = await runMvn();
      const b = await runMvnx();
      mvnTimes.push(a.seconds);
      mvnxTimes.push(b.seconds);
      ratios.push(b.seconds / a.seconds);
      peakRssMb = Math.max(peakRssMb, b.peakRssMb ?? 0);
      console.error(`pair ${i + 1}/${pairs}: mvn ${a.seconds.toFixed(3)} s, mvnx ${b.seconds.toFixed(3)} s, ratio ${(b.seconds / a.seconds).toFixed(3)}`);
    }
    Object.assign(report, {
      mvnMedianSeconds: +median(mvnTimes).toFixed(3),
      mvnxMedianSeconds: +median(mvnxTimes).toFixed(3),
      medianRatio: +median(ratios).toFixed(3),
      minRatio: +Math.min(...ratios).toFixed(3),
      maxRatio: +Math.max(...ratios).toFixed(3),
      successPeakRssMb: +peakRssMb.toFixed(1),
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const streamBytes = streamMb * 1024 * 1024;
const streamEnv = { ...baseEnv, FAKE_MVN_BYTES: String(streamBytes), MVNX_MAVEN: FAKE_MVN };
const raw = await timed(FAKE_MVN, [], { env: streamEnv, extendEnv: false, buffer: false });
const through = await timed(process.execPath, [MAIN, '--mvnx-no-fix', 'verify'], { cwd: os.tmpdir(), env: streamEnv, extendEnv: false, buffer: false });
if (through.bytes !== streamBytes) throw new Error(`mvnx passed ${through.bytes} of ${streamBytes} bytes`);
Object.assign(report, {
  streamPeakRssMb: +through.peakRssMb.toFixed(1),
  streamMbPerSecond: +(streamMb / through.seconds).toFixed(0),
  fakeMvnAloneMbPerSecond: +(streamMb / raw.seconds).toFixed(0),
});

console.log(`mvnx overhead benchmark (${os.cpus().length} cores, node ${process.version})`);
if (!skipMaven) {
  console.log(`  mvn -o -q verify, median of ${pairs}:   ${report.mvnMedianSeconds} s`);
  console.log(`  mvnx -o -q verify, median of ${pairs}:  ${report.mvnxMedianSeconds} s`);
  console.log(`  median wall-time ratio mvnx/mvn:   ${report.medianRatio} (min ${report.minRatio}, max ${report.maxRatio}; target <= ${TARGET_RATIO}: ${report.medianRatio <= TARGET_RATIO ? 'met' : 'MISSED'})`);
  console.log(`  mvnx peak RSS on the success path: ${report.successPeakRssMb} MB`);
}
console.log(`  ${streamMb} MB stream through mvnx:      ${report.streamMbPerSecond} MB/s (fake mvn alone: ${report.fakeMvnAloneMbPerSecond} MB/s)`);
console.log(`  mvnx peak RSS on the stream:       ${report.streamPeakRssMb} MB (target <= ${TARGET_RSS_MB}: ${report.streamPeakRssMb <= TARGET_RSS_MB ? 'met' : 'MISSED'})`);
console.log(JSON.stringify(report));
