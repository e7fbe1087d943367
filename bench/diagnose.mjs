// Diagnosis throughput: generates a ~200 MB Maven log from a real captured fixture log
// (the project's console output repeated, with build noise in between) and reports MB/s
// and peak RSS of diagnoseBuild over it. Then the long-line section: single lines of
// 1 to 8 MB of `Tests run:` text (the pathological input of issue 16) through
// parseMavenLog, to show the cost grows linearly. Run: npm run bench:diagnose [-- SIZE_MB]
import { mkdtemp, readFile, rm, open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { diagnoseBuild, parseMavenLog } from '../dist/diagnose/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const sizeMb = Number(process.argv[2] ?? 200);
const fixture = path.join(here, '../test/fixtures/diagnose/cases/multi-module/console.txt');

const dir = await mkdtemp(path.join(os.tmpdir(), 'mvnx-bench-diagnose-'));
const logFile = path.join(dir, 'console.txt');
try {
  const sample = (await readFile(fixture, 'utf8')).replaceAll('/__ROOT__', dir);
  const noise =
    Array.from(
      { length: 200 },
      (_, i) =>
        `[INFO] Downloaded from central: https://repo.example/org/acme/lib${i}/1.0/lib${i}-1.0.jar (12 kB at 340 kB/s)\n`,
    ).join('') +
    '[WARNING] /x/src/main/java/Old.java:[3,8] deprecated API\n  symbol: class Old\n\u001b[1;34mINFO\u001b[m coloured noise line\n';
  const block = Buffer.from(noise + sample);
  const handle = await open(logFile, 'w');
  let written = 0;
  while (written < sizeMb * 1024 * 1024) {
    await handle.write(block);
    written += block.length;
  }
  await handle.close();

  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  const started = process.hrtime.bigint();
  const diagnosis = await diagnoseBuild({ projectRoot: dir, logFile, runStartedAt: new Date(), exitCode: 1 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const maxRssMb = process.resourceUsage().maxRSS / 1024;

  const mb = written / (1024 * 1024);
  console.log(
    JSON.stringify(
      {
        benchmark: 'diagnose',
        logMB: Number(mb.toFixed(1)),
        seconds: Number(seconds.toFixed(2)),
        mbPerSecond: Number((mb / seconds).toFixed(1)),
        rssBeforeMB: Number((rssBefore / 1048576).toFixed(1)),
        peakRssSampledMB: Number((peakRss / 1048576).toFixed(1)),
        maxRssMB: Number(maxRssMb.toFixed(1)),
        diagnostics: diagnosis.diagnostics.length,
        warnings: diagnosis.warnings.length,
      },
      null,
      2,
    ),
  );

  // Long lines, in memory (streamLogLines would cut them at 64 KiB): time per MB must stay flat.
  const unit = 'Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, ';
  const rows = [];
  for (const lineMb of [1, 2, 4, 8]) {
    const line = '[ERROR] ' + unit.repeat(Math.ceil((lineMb * 1024 * 1024) / unit.length));
    const times = [];
    for (let i = 0; i < 3; i++) {
      const t = process.hrtime.bigint();
      parseMavenLog([line], { projectRoot: dir });
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const ms = times.sort((a, b) => a - b)[1];
    rows.push({ lineMB: lineMb, medianMs: Number(ms.toFixed(1)), msPerMB: Number((ms / lineMb).toFixed(1)) });
  }
  console.log(JSON.stringify({ benchmark: 'diagnose-long-line', rows }, null, 2));
} finally {
  await rm(dir, { recursive: true, force: true });
}
