// npm run mutation [-- slice...] [--report-only]
// Runs StrykerJS once per slice (every mutation/slices/<slice>.config.mjs: a folder or a few
// files, with the unit tests written for them and its own incremental file), one after
// the other, then prints the mutation score of each folder the issue lists, read from the slices'
// JSON reports. One slice at a time because the machine has two cores; the incremental files are
// committed, so a fresh clone reruns only the mutants whose code or covering tests changed.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
/** The folders and files whose score is reported, each on its own row. */
const FOLDERS = [
  'src/patch/',
  'src/policy/',
  'src/repair/integrity/',
  'src/model/redact.ts',
  'src/model/secret-values.ts',
  'src/report/review/',
];
const THRESHOLD = 80;

const args = process.argv.slice(2);
const reportOnly = args.includes('--report-only');
const wanted = args.filter((a) => !a.startsWith('--'));
/** Slice name to its config file: mutation/slices/<slice>.config.mjs. */
const configs = new Map(
  readdirSync(join(ROOT, 'mutation/slices')).flatMap((file) =>
    sliceOf(file, /^(.+)\.config\.mjs$/, `mutation/slices/${file}`),
  ),
);
function sliceOf(file, pattern, configFile) {
  const slice = pattern.exec(file)?.[1];
  return slice === undefined ? [] : [[slice, configFile]];
}
const slices = [...configs.keys()].filter((slice) => wanted.length === 0 || wanted.includes(slice)).sort();
for (const slice of wanted)
  if (!configs.has(slice)) throw new Error(`no slice ${slice}: slices are ${[...configs.keys()].join(', ')}`);

const times = new Map();
if (!reportOnly) {
  for (const slice of slices) {
    const started = Date.now();
    console.log(`\n== ${configs.get(slice)}`);
    execFileSync('npx', ['stryker', 'run', configs.get(slice)], { cwd: ROOT, stdio: 'inherit' });
    times.set(slice, Math.round((Date.now() - started) / 1000));
  }
}

// Stryker's own score: detected (killed + timeout) over valid mutants (those plus survived and no coverage).
const rows = new Map(
  FOLDERS.map((folder) => [
    folder,
    { killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, slices: new Set(), missing: [] },
  ]),
);
for (const slice of slices) {
  const { default: config } = await import(join(ROOT, configs.get(slice)));
  // The JSON report of the last run, else the committed incremental file (the same schema).
  const reportFile = [config.jsonReporter?.fileName, config.incrementalFile]
    .filter(Boolean)
    .map((f) => join(ROOT, f))
    .find(existsSync);
  if (!reportFile) {
    // A slice without a report leaves its files out of the folder's figure: say so on the row.
    const folder = FOLDERS.find((f) =>
      (config.mutate ?? []).some((pattern) => pattern.startsWith(f) || f.startsWith(pattern)),
    );
    if (folder) rows.get(folder).missing.push(slice);
    console.log(`${configs.get(slice)}: no report yet`);
    continue;
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const folder = FOLDERS.find((f) => file === f || file.startsWith(f));
    if (!folder) continue;
    const row = rows.get(folder);
    row.slices.add(slice);
    for (const { status } of mutants) {
      if (status === 'Killed') row.killed++;
      else if (status === 'Timeout') row.timeout++;
      else if (status === 'Survived') row.survived++;
      else if (status === 'NoCoverage') row.noCoverage++;
      else if (status === 'Ignored') row.ignored++;
    }
  }
}

const header = ['folder', 'score %', 'killed', 'timeout', 'survived', 'no coverage', 'ignored', 'slice', 'run s'];
const lines = [header];
let below = 0;
for (const [folder, row] of rows) {
  const valid = row.killed + row.timeout + row.survived + row.noCoverage;
  if (valid === 0 && row.slices.size === 0) {
    lines.push([folder, '-', '', '', '', '', '', '(no report)', '']);
    continue;
  }
  const score = valid === 0 ? 100 : (100 * (row.killed + row.timeout)) / valid;
  if (score < THRESHOLD || row.missing.length > 0) below++;
  const slicesOf = [...row.slices];
  const seconds = slicesOf.map((s) => times.get(s)).filter((t) => t !== undefined);
  const incomplete = row.missing.length > 0 ? ` (without ${row.missing.join(',')})` : '';
  lines.push(
    [
      folder,
      score.toFixed(1),
      row.killed,
      row.timeout,
      row.survived,
      row.noCoverage,
      row.ignored,
      slicesOf.join(',') + incomplete,
      seconds.join('+'),
    ].map(String),
  );
}
const widths = header.map((_, i) => Math.max(...lines.map((l) => l[i].length)));
console.log(`\nMutation score per folder (threshold ${THRESHOLD}%):`);
for (const line of lines) console.log(line.map((cell, i) => cell.padEnd(widths[i])).join('  '));
if (below > 0) process.exitCode = 1;
